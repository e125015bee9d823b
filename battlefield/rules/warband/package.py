"""What warband answers beyond the game itself, for its Ruleset hooks (rules.Warband): the
computer player, the attack odds, what the window shows while a fighter is dragged (its Move
with climbing, the 1" engagement of the enemies it ends near, disengage's 3" limit, the side's
dice), how `try` brings a scene to the moment of an action (the initiative rolled, who
activates first) and the game log's words for its events."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.questions import Asked, OddsOption, OddsQuestion
from battlefield.rules.ruleset import Effect, Player, Ruleset
from battlefield.rules.state import State
from battlefield.rules.warband import attacks, initiative
from battlefield.rules.warband.data import fighter, fighters, game
from battlefield.rules.warband.turns import given_roll
from battlefield.rules.window import DragContext, DragNotes, Ring, Window
from battlefield.scene.model import Scene
from battlefield.text import distribution, plural


def player(level: str = "normal") -> Player:
    """easy: the first heuristic player; normal: it playing for the objectives, Rushing to
    them along routes round the terrain (warband/normal.py)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.warband.normal import WarbandNormal
    from battlefield.rules.warband.player import WarbandPlayer

    return WarbandPlayer() if level == "easy" else WarbandNormal()


def _attack(asked: Asked) -> dict[str, Any]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.warband.odds import attack_odds

    a, b = asked.names
    return {"attacker": a, "target": b,
            **attack_odds(asked.state, *asked.units, asked.options.get("weapon"))}


def _attack_text(d: dict[str, Any]) -> str:
    lines = [f"{d['attacker']} attacking {d['target']} ({d['distance_3d']:.2f}\" in 3-D)"]
    if d.get("reason"):
        lines.append(f"  cannot attack: {d['reason']}")
    else:
        lines.append(f"  {d['weapon']}: {d['attacks']} attacks, Strength {d['strength']} "
                     f"against Defense {d['defense']}: hit on {d['hit_on']}+, 6 critical; "
                     f"{d['damage']} per hit, {d['crit']} per critical")
        lines.append(f"  if {d['target']} dodges: hit on {d['if_dodged']['hit_on']}+, "
                     f"expected {d['if_dodged']['expected_damage']:.2f}")
        lines.append(f"  {d['target']} has {d['wounds_left']} wounds left: slain "
                     f"{100 * d['slain']:.1f}% (the damage below is as the dice deal it)")
    lines.extend(distribution(d))
    return "\n".join(lines)


ODDS = (
    OddsQuestion("attack", ("A", "B"),
                 "fighter A attacks fighter B: the exact distribution of the damage B takes",
                 _attack, _attack_text,
                 "expected_damage, distribution {\"0\": p, ...}, hit_on, attackers {WEAPON: "
                 "[A's model]}, defense, if_dodged",
                 (OddsOption("weapon", "attack with this weapon only (its name)", "text"),),
                 enemies=True),
)


def try_start(scene: Scene, actions: list[Action]) -> dict[str, Any]:
    return {}


def try_advance(state: State, action: Action) -> list[Violation]:
    """Roll the initiative and choose who goes first (the acting fighter's side) when the
    action comes later than that; end an activation whose actions are all taken (it could
    still use an ability) when the action is another fighter's."""
    c = state.clock
    if (not state.pending and c.get("activating") and action.unit != c["activating"]
            and action.type not in ("pass", "react", "no-reaction")
            and not state.check(Action("pass"))):
        state.apply(Action("pass"))
    for _ in range(2):
        phase = state.clock.get("phase")
        if phase == "initiative" and action.type != "initiative":
            state.apply(Action("initiative"))
        elif phase == "first" and action.type not in ("first", "initiative"):
            side = None
            if action.unit is not None:
                try:
                    side = state.side_of(state.unit_index(action.unit))
                except KeyError:
                    side = None
            state.apply(Action("first", side=side or state.clock["initiative"]))
    return []


def check_scene(ruleset: Ruleset, scene: Scene) -> None:
    """Every unit a fighter (one model, its weapons and abilities as warband reads them) and
    the scene's initiative roll, if it gives one (InputError at the key path)."""
    fighters(scene, ruleset.book)
    given_roll(scene, (scene.extra.get("state") or {}).get("initiative"),
               ruleset.book.initiative_dice)


def health(state: State, u: int) -> list[int]:
    """A fighter's Wounds."""
    return [fighter(state, u).wounds]


# --- the game log's words for warband's own events (Ruleset.effect) -----------------------------
def effect(e: dict[str, Any]) -> Effect | None:
    """An attack's dice (its damage follows as the common "damage"), an opportunistic
    strike."""
    kind = e.get("type")
    if kind == "attack" and "criticals" in e:
        return Effect(str(e["target"]), hit=True,
                      dice=f"{e.get('weapon', 'attack')}: {e['attacks']} dice hitting on "
                           f"{e['hit_on']}+: {plural(e['hits'], 'hit')}, {e['criticals']} "
                           f"critical, defence {e.get('defense', '-')}")
    if kind == "opportunistic-strike":
        return Effect(str(e["target"]), damage=int(e.get("damage", 0)), hit=True,
                      dice=f"opportunistic strike: rolled {e['roll']}, needed {e['needed']}")
    return None


class WarbandWindow(Window):
    """What the play window shows of warband: disengage first for an engaged fighter, and what a
    drag sets off."""

    def drag_abilities(self, state: State, u: int, offered: list[str]) -> list[str]:
        engaged = bool(attacks.engaged_with(state, u))
        return [a for a in offered if a == ("disengage" if engaged else "move")] or offered

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """The dragged fighter's Move (climbing counted) or disengage's 3", the enemies within 1"
        of where it would end (engaged), and its side's dice."""
        state = ctx.state
        notes = DragNotes()
        u = ctx.unit
        side = state.side_of(u)
        allowed = state.rules.move_allowance(state, u, ctx.ability)
        if allowed is not None:
            notes.lines.append(f"{ctx.ability} up to {allowed:g}\" (climbing counted)")
        after = __import__("copy").copy(state)
        after.table = ctx.moved
        for w, d in attacks.engaged_with(after, u):
            notes.rings.append(Ring(w, f"engaged: {d:.2f}\" (within {game(state).engaged:g}\")"))
        d = state.sides[side]
        notes.lines.append(f"{side}: {d['singles']} reaction dice, "
                           f"{initiative.labels(d['ability_dice'])}")
        return notes
