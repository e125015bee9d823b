"""Reactions (RULES-NOTES; the seed names three universal reactions without listing them): the
other side's pending decision when an enemy action allows one. A fighter that has not activated
this round, or is waiting, may react by spending one of its side's reaction dice (singles); a
fighter makes at most one reaction for each enemy action.

- dodge: when targeted by an attack action, before the rolls: +1 Defense for that action.
- counter: after an enemy melee attack action that targeted it, if alive and the attacker is
  within its melee weapon's range: an attack action against the attacker, 1 fewer Attacks (at
  least 1), with the first of its melee weapons that reaches.
- opportunistic-strike: when an engaged enemy starts a disengage, before it moves: a D6, on 4+
  the disengaging fighter takes this fighter's melee damage (its melee weapons' best `damage`).
  Every engaged fighter may strike, one after another, while dice last.
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import Decision
from battlefield.rules.moves import v
from battlefield.rules.state import State
from battlefield.rules.warband import attacks
from battlefield.rules.warband.data import fighter, game
from battlefield.rules.warband.turns import alive

REACTIONS = ("dodge", "counter", "opportunistic-strike")
NO = "no-reaction"
KIND = "reaction"


def eligible(state: State, w: int, reacted: list[str]) -> Violation | None:
    """Why fighter w cannot react now (None: it can)."""
    uid = state.scene.units[w].id
    side = state.side_of(w)
    if not alive(state, w):
        return v("destroyed", f"{uid} has been slain")
    if uid in reacted:
        return v("reaction_used", f"{uid} has already reacted to this action (one reaction "
                                  f"per enemy action)")
    flags = state.units[w].flags
    if "activated" in flags and "waiting" not in flags:
        return v("already_activated", f"{uid} has activated this round: only a fighter that "
                                      f"has not, or is waiting, may react")
    if state.clock.get("activating") == uid:
        return v("already_activated", f"{uid} is activating")
    if state.sides[side]["singles"] < 1:
        return v("no_reaction_dice", f"{side} has no reaction dice left (singles 0)",
                 singles=0)
    return None


def react(state: State, w: int, reaction: str) -> Action:
    return Action("react", state.scene.units[w].id, state.side_of(w),
                  options=(("reaction", reaction),))


def counter_weapon(state: State, w: int, u: int):
    return next((x for x in fighter(state, w).melee if attacks.reach(state, w, u, x) is None),
                None)


def options(state: State, s: dict[str, Any]) -> list[Action]:
    """The reactions the other side may make at this step of the suspended action."""
    reacted = s.get("reacted", [])
    if s["kind"] == "attack":
        w = state.unit_index(s["target"])
        if eligible(state, w, reacted) is not None:
            return []
        if s["stage"] == "dodge":
            return [react(state, w, "dodge")]
        u = state.unit_index(s["unit"])
        if not s.get("melee") or not alive(state, u) or counter_weapon(state, w, u) is None:
            return []
        return [react(state, w, "counter")]
    u = state.unit_index(s["unit"])
    return [react(state, w, "opportunistic-strike") for w in s["engaged"]
            if fighter(state, w).melee and eligible(state, w, reacted) is None
            and alive(state, u)]


def decision(state: State, s: dict[str, Any], choices: list[Action]) -> Decision:
    side = choices[0].side
    assert side is not None
    offered = sorted({str(c.option("reaction")) for c in choices})
    about = (("action", s["kind"]), ("unit", s["unit"]), ("reaction", " or ".join(offered)),
             *((("target", s["target"]),) if s["kind"] == "attack" else ()))
    return Decision(side, KIND, (*choices, Action(NO, side=side)), about=tuple(sorted(about)))


def check_answer(state: State, action: Action) -> list[Violation]:
    """Why a react that is not one of the choices cannot be made (the rule and numbers)."""
    s = state.suspended or {}
    if action.type != "react" or not s:
        return []
    reaction = action.option("reaction")
    if reaction not in REACTIONS:
        return [v("unknown_reaction", f"\"reaction\" must be one of {', '.join(REACTIONS)}, "
                                      f"not {reaction!r}")]
    try:
        w = state.unit_index(str(action.unit))
    except KeyError:
        return [v("unknown_unit", f"no fighter {action.unit!r}")]
    why = eligible(state, w, s.get("reacted", []))
    if why is not None:
        return [why]
    uid = action.unit
    if s["kind"] == "attack":
        if uid != s["target"]:
            return [v("not_targeted", f"{uid} is not the target of {s['unit']}'s attack: "
                                      f"only {s['target']} may {reaction}")]
        if reaction == "opportunistic-strike":
            return [v("wrong_reaction", "opportunistic-strike answers a disengage")]
        if reaction != ("dodge" if s["stage"] == "dodge" else "counter"):
            when = ("before the rolls (dodge)" if s["stage"] == "dodge"
                    else "after the rolls (counter)")
            return [v("wrong_time", f"{reaction} is not made now: this is {when}")]
        if reaction == "counter":
            u = state.unit_index(s["unit"])
            if not s.get("melee"):
                return [v("not_melee", "counter answers a melee attack action")]
            if counter_weapon(state, w, u) is None:
                d = attacks.distance(state, w, u)
                rng = max((x.range for x in fighter(state, w).melee), default=0)
                return [v("out_of_range", f"{s['unit']} is {d:.2f}\" from {uid}, beyond its "
                                          f"melee range {rng:g}\"", distance=d, range=rng)]
        return []
    if reaction != "opportunistic-strike":
        return [v("wrong_reaction", f"{reaction} does not answer a disengage")]
    if state.unit_index(str(uid)) not in s["engaged"]:
        return [v("not_engaged", f"{uid} was not engaged with {s['unit']} when it began to "
                                 f"disengage")]
    if not fighter(state, w).melee:
        return [v("no_melee_weapon", f"{uid} has no melee weapon")]
    return []


def strike(state: State, w: int, u: int) -> list[dict[str, Any]]:
    """An opportunistic strike of fighter w on the disengaging fighter u."""
    g = game(state)
    names = state.scene.units
    r = state.dice.roll("D6", f"opportunistic strike: {names[w].id} on {names[u].id}").total
    dmg = max(x.damage for x in fighter(state, w).melee)
    events: list[dict[str, Any]] = [{"type": "opportunistic-strike", "unit": names[w].id,
                                     "target": names[u].id, "roll": r,
                                     "needed": g.opportunistic_on,
                                     "damage": dmg if r >= g.opportunistic_on else 0}]
    if r >= g.opportunistic_on:
        events.extend(attacks.wound(state, u, dmg, "opportunistic strike"))
    return events
