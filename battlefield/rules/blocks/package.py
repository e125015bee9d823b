"""What blocks answers beyond the game itself, for its Ruleset hooks (rules.Blocks): the
computer player, the attack and courage odds, where `try` starts, and what `battlefield check`
adds for blocks (the side of b that a's centre lies on, front arcs, shooting distances, engaged
sides, rout routes), and the game log's words for its events."""

from __future__ import annotations

from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.actions import Action
from battlefield.rules.blocks import attacks, movement, turns
from battlefield.rules.blocks.data import boxes, game
from battlefield.rules.chance import mean
from battlefield.rules.questions import Asked, OddsQuestion
from battlefield.rules.ruleset import CheckAdditions, Effect, Player, Ruleset, first_side
from battlefield.rules.state import Game, State
from battlefield.scene.model import Scene
from battlefield.text import distribution


def player(level: str = "normal") -> Player:
    """easy: the first player (every idle block charges the nearest enemy); normal: charges
    spread over the enemy and pre-checked for a way, the lead held (blocks/player.py)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.blocks.player import BlocksEasy, BlocksPlayer

    return BlocksEasy() if level == "easy" else BlocksPlayer()


def attack_answer(asked: Asked) -> dict[str, Any]:
    """Unit A attacks unit B as they stand: the distribution of the boxes B loses."""
    (a, b), (u, w) = asked.names, asked.units
    state, scene = asked.state, asked.scene
    for x in (u, w):
        if not turns.alive(state, x):
            raise UsageError(f"{scene.units[x].id} is not on the table")
    kind, why = attacks.attack_kind(state, u, w, False)
    if why:
        kind = "close" if w in attacks.engaged_with(state, u) else "ranged"
    att = attacks.numbers(state, u, w, kind)
    room = boxes(scene.units[w], game(state)) - int(state.units[w].damage[0])
    dist = attacks.damage_distribution(att, room)
    return {"attacker": a, "target": b, "kind": kind, "dice": att.dice, "hit_on": att.hit_on,
            "damage_on": att.damage_on, "side": att.side, "modifiers": att.notes,
            "boxes_left": room, **({"reason": why.message} if why else {}),
            "expected_damage": round(float(mean(dist)), 6),
            "distribution": attacks.as_json(dist)}


def _attack_text(d: dict[str, Any]) -> str:
    lines = [f"{d['attacker']} attacking {d['target']} ({d['kind']}, on its {d['side']})"]
    if d.get("reason"):
        lines.append(f"  not allowed now: {d['reason']}")
    lines.append(f"  {d['dice']} dice, hit on {attacks.needed(d['hit_on'])}, damage on "
                 f"{attacks.needed(d['damage_on'])} (1 always, 6 never); "
                 f"{d['boxes_left']} boxes left"
                 + (f"; {', '.join(d['modifiers'])}" if d["modifiers"] else ""))
    lines.extend(distribution(d))
    return "\n".join(lines)


def courage_answer(asked: Asked) -> dict[str, Any]:
    """The chance that the unit passes a courage check now (3D6 <= Courage, modifiers in)."""
    state, (u,) = asked.state, asked.units
    value, notes = attacks.courage(state, u)
    return {"unit": asked.names[0], "courage": value, "modifiers": notes,
            "probability": round(float(attacks.courage_probability(game(state).courage_dice,
                                                                   value)), 6)}


def _courage_text(d: dict[str, Any]) -> str:
    mods = f" ({', '.join(d['modifiers'])})" if d["modifiers"] else ""
    return (f"{d['unit']}: courage {d['courage']}{mods}; passes a check (3D6 <= "
            f"{d['courage']}) {d['probability']:.1%}")


ODDS = (
    OddsQuestion("attack", ("A", "B"),
                 "unit A attacks unit B: the exact distribution of the damage B takes",
                 attack_answer, _attack_text,
                 "expected_damage, distribution {\"0\": p, ...}, kind, dice, hit_on, damage_on, "
                 "side, modifiers, boxes_left", enemies=True),
    OddsQuestion("courage", ("UNIT",),
                 "the chance that UNIT passes a courage check (blocks)",
                 courage_answer, _courage_text, "probability, courage, modifiers"),
)


def check_additions(ruleset: Ruleset, scene: Scene) -> CheckAdditions:
    """Per ordered pair (a, b): the side of b a's centre lies on, b in a's front arc, the
    shooting distance from a's front edge and whether a's front edge sees b as blocks shooting
    counts sight; per unit: its engaged sides and, routing, its rout."""
    out = CheckAdditions()
    state = Game(ruleset, scene).new_state()
    on = [u for u in range(len(scene.units)) if turns.alive(state, u)]
    for u in on:
        for w in on:
            if u == w:
                continue
            out.pairs[(scene.units[u].id, scene.units[w].id)] = {
                "side": attacks.side_attacked(state, u, w),
                "in_arc": attacks.in_arc(state, u, w),
                "shooting_distance": round(attacks.shooting_distance(state, u, w), 6),
                # blocks' own sight for shooting (terrain that blocks it whatever its height,
                # other blocks), which check's 3-D `visible` need not agree with
                "shooting_sight": attacks.visible(state, u, w)}
    for u in on:
        spec = scene.units[u]
        keys: dict[str, Any] = {"engaged_sides": attacks.sides_engaged(state, u)}
        if "routing" in state.units[u].flags:
            edge = state.extra["edges"][spec.side]
            r = movement.rout_route(state, u, edge)
            keys["rout"] = ({"edge": edge, "distance": None, "path": []} if r is None else
                            {"edge": edge, "distance": round(r.distance, 6),
                             "path": [[round(x, 6), round(y, 6)] for x, y in r.path]})
        out.units[spec.id] = keys
    return out


def try_start(scene: Scene, actions: list[Action]) -> dict[str, Any]:
    """`try` on a plain scene: the acting side's turn of round 2 (full command points), in
    the combat phase when the first action is an attack, else Movement & Command."""
    first = actions[0].type if actions else ""
    return {"active": first_side(scene, actions), "round": 2,
            "phase": "combat" if first == "attack" else "command"}


def try_advance(state: State, action: Action) -> list:
    """`try`: an attack given in the acting side's Movement & Command phase comes after it
    (`end-phase`: its blocks move by their orders, the pre-combat courage phase runs)."""
    if (action.type == "attack" and state.phase == "command" and not state.pending
            and action.unit in {u.id for u in state.scene.units}
            and state.side_of(state.unit_index(action.unit)) == state.acting_side):
        state.apply(Action("end-phase"))
    return []


def health(state: State, u: int) -> list[int]:
    """A block's damage boxes (green, yellow and red together)."""
    return [boxes(state.scene.units[u], game(state))]


# --- the game log's words for blocks' own events (Ruleset.effect) -------------------------------
def effect(e: dict[str, Any]) -> Effect | None:
    """An attack's dice (its damage follows), damage boxes marked, a rout, a failed courage
    test."""
    kind = e.get("type")
    if kind == "attack" and "damage_on" in e:
        mods = ", ".join(str(m) for m in e.get("modifiers") or ())
        return Effect(str(e["target"]), hit=True,
                      dice=(f"{e.get('kind', '')} attack on its {e.get('side', '')}: "
                            f"{e['dice']} dice, hit on {e['hit_on']}+, damage on "
                            f"{e['damage_on']}+" + (f" ({mods})" if mods else ""))
                      .replace("  ", " "))
    if kind == "damage" and "boxes" in e:
        return Effect(str(e["unit"]), damage=int(e["boxes"]))
    if kind == "routs":
        return Effect(str(e["unit"]), notes=["routs"])
    if kind == "courage" and not e.get("passed", True):
        return Effect(str(e["unit"]), notes=[f"failed its courage ({e.get('why')})"])
    return None
