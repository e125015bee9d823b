"""What skirmish answers beyond the game itself, for its Ruleset hooks (rules.Skirmish): the
computer player, the attack odds, and what the window shows while a unit is dragged (the pot
shots its path would trigger, where the enemy under the cursor would retreat to), and the
game log's words for its events."""

from __future__ import annotations

import copy
from typing import Any

from battlefield.rules.actions import Violation
from battlefield.rules.moves import planned
from battlefield.rules.questions import Asked, OddsQuestion
from battlefield.rules.ruleset import Effect, Player
from battlefield.rules.skirmish import movement, potshots
from battlefield.rules.skirmish.data import istat
from battlefield.rules.window import DragContext, DragNotes, Ghost, Ring, Window
from battlefield.text import distribution, plural


def player() -> Player:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.skirmish.player import SkirmishPlayer

    return SkirmishPlayer()


def _attack(asked: Asked) -> dict[str, Any]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.skirmish.odds import attack_odds

    a, b = asked.names
    return {"attacker": a, "target": b, **attack_odds(asked.state, *asked.units)}


def _attack_text(d: dict[str, Any]) -> str:
    lines = [f"{d['attacker']} attacking {d['target']}"]
    if d.get("reason"):
        lines.append(f"  {d['reason']}")
    else:
        support = sum(v for k, v in d["support"].items() if isinstance(v, int))
        lines.append(f"  {d['dice']} dice ({support} from support), hit on {d['hit_on']}+, "
                     f"sight {d['sight']}, cover +{d['cover_bonus']}")
    lines.extend(distribution(d))
    return "\n".join(lines)


ODDS = (
    OddsQuestion("attack", ("A", "B"),
                 "unit A attacks unit B: the exact distribution of the damage B takes",
                 _attack, _attack_text,
                 "expected_damage, distribution {\"0\": p, ...}, models_slain, dice, hit_on, "
                 "cover_bonus, support, sight", enemies=True),
)


def health(state: Any, u: int) -> list[int]:
    """Each model's Toughness: the damage that slays it."""
    return [max(1, istat(state, u, "toughness"))] * len(state.scene.units[u].models)


# --- the game log's words for skirmish's own events (Ruleset.effect) ----------------------------
def effect(e: dict[str, Any]) -> Effect | None:
    """An attack or pot shots, morale committed or lost, dangerous terrain, a retreat that
    heals."""
    kind = e.get("type")
    if kind in ("attack", "pot-shots") and "saved" in e:
        line = None
        if "hit_on" in e:
            cover = f", cover +{e['cover_bonus']}" if e.get("cover_bonus") else ""
            support = f" (+{e['support']} support)" if e.get("support") else ""
            what = "pot shots" if kind == "pot-shots" else "attack"
            line = (f"{what}: {e['dice']} dice{support} hitting on {e['hit_on']}+: "
                    f"{plural(e['hits'], 'hit')}, {e['saved']} saved{cover}")
        return Effect(str(e.get("defender") or e.get("target")), damage=int(e.get("damage", 0)),
                      slain=list(e.get("slain") or ()), hit=True, dice=line)
    if kind == "morale" and "commit" in e:
        spent = ", ".join(f"{s} {n}" for s, n in e["commit"].items())
        adv = e.get("advantage")
        left = ", ".join(f"{s} {n}" for s, n in (e.get("tokens") or {}).items())
        return Effect(sides=f"morale spent: {spent}"
                      + (f" - {adv} has the advantage" if adv else " - no advantage")
                      + (f"; morale left: {left}" if left else ""))
    if kind == "fortify":
        # 'red fortifies: blue loses 1 morale (objectives held: red 3, blue 1)'
        lost = [f"{s} loses {n} morale" for s, n in (e.get("lost") or {}).items() if n]
        held = e.get("objectives") or {}
        said = (f"{e['side']} fortifies: " if e.get("side") else "fortified: ") + ", ".join(lost)
        if held:
            said += " (objectives held: " + ", ".join(f"{s} {n}" for s, n in held.items()) + ")"
        return Effect(sides=said) if lost else None
    if kind == "dangerous-terrain":
        return Effect(str(e["unit"]), damage=int(e.get("damage", 0)),
                      slain=list(e.get("slain") or ()), notes=["dangerous terrain"])
    if kind == "retreat" and (e.get("healed") or e.get("returned")):
        return Effect(str(e["unit"]), notes=["returned " + str(e["returned"]) if e.get("returned")
                                             else "healed " + str(e["healed"])])
    return None


class SkirmishWindow(Window):
    """What the play window shows of skirmish while a unit is dragged: pot shots, retreats."""

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """When the cursor rests: the pot shots the move's path triggers (wherever it is dropped:
        next to an enemy is where they come from), and where the enemy under the cursor would
        retreat to if the dropped unit attacked it."""
        notes = DragNotes()
        if not ctx.rests:
            return notes

        state = ctx.state
        moves = planned(state, ctx.unit, ctx.action)
        if not isinstance(moves, Violation):
            over = state.rules.overextended(state, ctx.unit, "move")
            for trig in potshots.triggers(state, ctx.unit, moves, over):
                notes.rings.append(Ring(trig.by, f"pot shots: {trig.reason}"))
                notes.lines.append(f"pot shots from {state.scene.units[trig.by].id} "
                                   f"({trig.reason})")
        if ctx.target is None:
            return notes
        after = copy.copy(state)        # a shallow view with the unit dropped: read, never applied
        after.table = ctx.moved
        plan = movement.retreat_plan(after, ctx.target, ctx.unit)
        if plan is not None:
            notes.ghosts.append(Ghost(ctx.target, plan[0].ends(), "retreat"))
        return notes
