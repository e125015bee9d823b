"""Skirmishes (seed: Skirmishing, Committing Morale): the commanded unit must have the enemy
unit in range (leader base to leader base) and see its leader at least partly.

1. Morale: both sides' commitments are revealed together ("commit": {SIDE: tokens}; a missing
   side commits 0) and each side loses what it committed. A side may commit a card of its hand
   (0..5) but never all of its tokens. The higher commitment wins an advantage for its unit:
   Cut Them Down (+2 to hit) or Hold the Line (+3 to cover saves), chosen with "advantage":
   "cut-them-down" | "hold-the-line" or {SIDE: choice}; by default the commanded unit cuts them
   down and the target holds the line.
2. Ranges: each unit may attack only if the other is in its range, and (deciding a gap) it sees
   the other's leader. A partly visible leader gives its unit +1 to cover saves.
3. Attacks in initiative order: the higher attacks first; the other strikes back if it still has
   models and did not retreat. Equal initiative: both attack at once (dice counted before either
   side's casualties).
4. Charges: a melee unit that was out of range and still stands (and did not retreat) charges
   if a full move can bring its leader within 1" of the enemy leader, then attacks. The charge
   triggers pot shots from other enemy units it passes within 1" of; the skirmish then ends.

After each attack its defender may retreat ("retreat": true for the target, or a unit id or a
list of ids of the two units). An overextended skirmish (the unit's second this turn) gives the
commanded unit -1 to hit and -1 to its cover saves.
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.skirmish import attacks, bombardment, movement, potshots
from battlefield.rules.skirmish.data import bombards, game, is_melee, leader, stat
from battlefield.rules.skirmish.movement import v
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]
CUT, HOLD = "cut-them-down", "hold-the-line"


# --- reading the options -------------------------------------------------------------------------
def commitments(state: State, action: Action) -> dict[str, int] | Violation:
    raw = action.option("commit")
    if raw is None:
        return {s: 0 for s in state.sides}
    try:
        given = dict(raw)
    except (TypeError, ValueError):
        return v("bad_commit", "\"commit\" must map each side to its tokens, e.g. "
                               "{\"red\": 2, \"blue\": 0}")
    out = {s: 0 for s in state.sides}
    cards = game().morale_cards
    for side, n in given.items():
        if side not in state.sides:
            return v("bad_commit", f"\"commit\": no side {side!r} (sides: "
                                   f"{', '.join(state.sides)})")
        if not isinstance(n, int) or isinstance(n, bool) or n not in cards:
            return v("no_such_card", f"{side} commits {n!r}: the morale cards are "
                                     f"{', '.join(str(c) for c in cards)}")
        have = state.sides[side]["morale"]
        if n and n >= have:
            return v("commit_too_many", f"{side} commits {n} of its {have} morale tokens: a "
                                        f"side must keep at least one", committed=n, tokens=have)
        out[side] = n
    return out


def advantages(state: State, action: Action, u: int, w: int) -> dict[str, str] | Violation:
    raw = action.option("advantage")
    out = {state.scene.units[u].side: CUT, state.scene.units[w].side: HOLD}
    if raw is None:
        return out
    if isinstance(raw, str):
        given = {s: raw for s in out}
    else:
        try:
            given = dict(raw)
        except (TypeError, ValueError):
            return v("bad_advantage", "\"advantage\" is \"cut-them-down\", \"hold-the-line\" "
                                      "or {SIDE: one of them}")
    for side, choice in given.items():
        if side not in out:
            return v("bad_advantage", f"\"advantage\": no side {side!r}")
        if choice not in (CUT, HOLD):
            return v("bad_advantage", f"\"advantage\": {choice!r} is not {CUT} or {HOLD}")
        out[side] = choice
    return out


def retreating(state: State, action: Action, u: int, w: int) -> set[int] | Violation:
    raw = action.option("retreat")
    if raw is None or raw is False:
        return set()
    if raw is True:
        return {w}
    ids = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, tuple) else None
    if ids is None:
        return v("bad_retreat", "\"retreat\" is true (the target retreats), a unit id or a "
                                "list of unit ids")
    out = set()
    names = {state.scene.units[u].id: u, state.scene.units[w].id: w}
    for uid in ids:
        if uid not in names:
            return v("bad_retreat", f"\"retreat\": {uid!r} is not one of the two units in the "
                                    f"skirmish ({', '.join(names)})")
        out.add(names[uid])
    return out


# --- check ---------------------------------------------------------------------------------------
def check(state: State, u: int, action: Action) -> list[Violation]:
    spec = state.scene.units[u]
    if "retreated" in state.units[u].flags:
        return [v("retreated", f"{spec.id} retreated this turn: it may not attack")]
    if action.target is None or isinstance(action.target, tuple):
        return [v("no_target", "a skirmish needs one enemy unit as \"target\"")]
    try:
        w = state.unit_index(action.target)
    except KeyError:
        return [v("unknown_target", f"no unit '{action.target}'")]
    if state.side_of(w) == spec.side:
        return [v("friendly_target", f"{action.target} is not an enemy unit")]
    if not len(state.models_of(w)):
        return [v("destroyed", f"{action.target} has been destroyed")]
    out: list[Violation] = []
    d, rng = attacks.distance(state, u, w), stat(state, u, "range")
    if not attacks.in_range(state, u, w):
        out.append(v("out_of_range", f"{action.target} is {d:.2f}\" from {spec.id} (leader to "
                                     f"leader), beyond its range {rng:g}\"",
                     distance=d, range=rng))
    elif attacks.sight(state, u, w) == "none":
        out.append(v("no_line_of_sight", f"{spec.id}'s leader cannot see {action.target}'s "
                                         f"leader"))
    for parsed in (commitments(state, action), advantages(state, action, u, w),
                   retreating(state, action, u, w)):
        if isinstance(parsed, Violation):
            out.append(parsed)
    return out


# --- resolve -------------------------------------------------------------------------------------
def resolve(state: State, u: int, action: Action, overextended: bool) -> list[Event]:
    g = game()
    w = state.unit_index(action.target)
    units = state.scene.units
    side = {u: units[u].side, w: units[w].side}
    commit = commitments(state, action)
    choice = advantages(state, action, u, w)
    retreats = retreating(state, action, u, w)
    for s, n in commit.items():
        state.sides[s]["morale"] -= n
    best = max(commit.values())
    top = [s for s, n in commit.items() if n == best]
    adv = top[0] if len(top) == 1 else None
    events: list[Event] = [{"type": "morale", "commit": dict(commit), "advantage": adv,
                            **({"choice": choice[adv]} if adv else {}),
                            "tokens": {s: d["morale"] for s, d in state.sides.items()}}]
    ref = Referee(state.scene, state.table)
    view = {u: attacks.sight(state, u, w, ref), w: attacks.sight(state, w, u, ref)}
    opp = {u: w, w: u}
    out_of_range = {x: not attacks.in_range(state, x, opp[x]) for x in (u, w)}
    hit_mod = {x: 0 for x in (u, w)}
    cover = {x: 0 for x in (u, w)}
    for x in (u, w):
        if adv == side[x]:
            if choice[adv] == CUT:
                hit_mod[x] += g.cut_them_down
            else:
                cover[x] += g.hold_the_line
        if view[opp[x]] == "partial":
            cover[x] += g.partial_sight_cover
    if overextended:
        hit_mod[u] += g.overextended_hit
        cover[u] += g.overextended_cover
    events.append({"type": "skirmish", "unit": units[u].id, "target": units[w].id,
                   "overextended": overextended,
                   "in_range": {units[x].id: not out_of_range[x] for x in (u, w)},
                   "sight": {units[x].id: view[x] for x in (u, w)}})

    def able(x: int) -> bool:
        return (attacks.may_attack(state, x) and not out_of_range[x] and view[x] != "none"
                and bool(len(state.models_of(opp[x]))))

    def attack(xs: list[int]) -> list[Event]:
        """The units in xs attack at once, then each defender may retreat."""
        out: list[Event] = []
        for x in xs:
            if bombards(state, x):
                out.extend(bombardment.remove(state, x, "attacked in a skirmish"))
        ready = [attacks.prepare(state, x, opp[x], hit_mod[x], cover[opp[x]]) for x in xs]
        for a in ready:
            a.notes["overextended"] = overextended and a.attacker == u
            out.extend(attacks.resolve(state, a))
        for x in xs:
            if opp[x] in retreats and len(state.models_of(opp[x])) and \
                    "retreated" not in state.units[opp[x]].flags:
                out.extend(attacks.retreat(state, opp[x], x))
        return out

    iu, iw = stat(state, u, "initiative"), stat(state, w, "initiative")
    if iu == iw:
        events.extend(attack([x for x in (u, w) if able(x)]))
    else:
        first, second = (u, w) if iu > iw else (w, u)
        if able(first):
            events.extend(attack([first]))
        if able(second):
            events.extend(attack([second]))
    for x in (u, w) if iu >= iw else (w, u):
        if is_melee(state, x) and out_of_range[x] and attacks.may_attack(state, x) \
                and len(state.models_of(opp[x])):
            events.extend(charge(state, x, opp[x], attack))
            break
    return events


def charge(state: State, x: int, y: int, attack) -> list[Event]:
    units = state.scene.units
    plan = movement.charge_plan(state, x, y)
    if plan is None:
        return [{"type": "no-charge", "unit": units[x].id, "target": units[y].id,
                 "reason": f"no legal move of up to {stat(state, x, 'speed'):g}\" brings its "
                           f"leader within {game().charge_within:g}\" of {units[y].id}'s"}]
    moves, checked = plan
    trigs = potshots.triggers(state, x, moves, overextended=False, exclude=(y,))
    state.table = checked.after
    i = leader(state, x)
    lead = (float(state.table.x[i]), float(state.table.y[i]))
    events: list[Event] = [{"type": "charge", "unit": units[x].id, "target": units[y].id,
                            "to": [round(float(lead[0]), 6), round(float(lead[1]), 6)],
                            "distance": round(checked.used, 6)}]
    events.extend(bombardment.remove(state, x, "moved"))
    events.extend(potshots.take(state, x, trigs))
    events.extend(attacks.dangerous(state, x, checked.dangerous))
    if attacks.may_attack(state, x) and len(state.models_of(y)):
        events.extend(attack([x]))
    return events

