"""Skirmishes (seed: Skirmishing, Committing Morale): the commanded unit must have the enemy
unit in range (leader base to leader base) and see its leader at least partly.

1. Morale: each side commits a morale card in secret - a pending decision of both sides
   ({"type": "commit", "side": SIDE, "tokens": N}), revealed together when both are in (a side
   whose only card is 0 is not asked). Each side loses what it committed. A side may commit a
   card of its hand (0..5) but never all of its tokens. The higher commitment wins an advantage
   for its unit: Cut Them Down (+2 to hit) or Hold the Line (+3 to cover saves), chosen with
   "advantage": "cut-them-down" | "hold-the-line" or {SIDE: choice} on the skirmish; by default
   the commanded unit cuts them down and the target holds the line.
2. Ranges: each unit may attack only if the other is in its range, and (deciding a gap) it sees
   the other's leader. A partly visible leader gives its unit +1 to cover saves.
3. Attacks in initiative order: the higher attacks first; the other strikes back if it still has
   models and did not retreat. Equal initiative: both attack at once (dice counted before either
   side's casualties).
4. Charges: a melee unit that was out of range and still stands (and did not retreat) charges
   if a full move can bring its leader within 1" of the enemy leader, then attacks. The charge
   triggers pot shots from other enemy units it passes within 1" of; the skirmish then ends.

After each attack its defender's side decides whether it retreats ({"type": "retreat", "side",
"unit", "from"} or {"type": "decline", "side"}). An overextended skirmish (the unit's second this
turn) gives the commanded unit -1 to hit and -1 to its cover saves.

The skirmish waits for those decisions in `state.suspended` (rules/decisions.py): the units, the
modifiers worked out once morale is revealed, the steps (attacks, charge) and the next one.
`try` still takes both commitments and the retreat on the skirmish ("commit": {SIDE: tokens},
"retreat": true | ID | [IDs]) and answers the decisions from them (`shorthand`).
"""

from __future__ import annotations

from typing import Any

from battlefield.rules import decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.skirmish import attacks, bombardment, movement, potshots
from battlefield.rules.skirmish.data import bombards, game, is_melee, leader, stat
from battlefield.rules.skirmish.movement import v
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]
CUT, HOLD = "cut-them-down", "hold-the-line"
COMMIT, RETREAT = "commit", "retreat"
SHORTHAND = (COMMIT, RETREAT)          # try's answers written on the skirmish


# --- morale cards --------------------------------------------------------------------------------
def commit_problem(state: State, side: str, n: Any) -> Violation | None:
    """Why `side` may not commit `n` tokens (None: it may)."""
    cards = game(state).morale_cards
    if not isinstance(n, int) or isinstance(n, bool) or n not in cards:
        return v("no_such_card", f"{side} commits {n!r}: the morale cards are "
                                 f"{', '.join(str(c) for c in cards)}")
    have = state.sides[side]["morale"]
    if n and n >= have:
        return v("commit_too_many", f"{side} commits {n} of its {have} morale tokens: a "
                                    f"side must keep at least one", committed=n, tokens=have)
    return None


def cards(state: State, side: str) -> list[int]:
    """The cards `side` may commit now."""
    return [c for c in game(state).morale_cards if commit_problem(state, side, c) is None]


def commitments(state: State, action: Action) -> dict[str, int] | Violation:
    """try's shorthand "commit": {SIDE: tokens} (a missing side commits 0)."""
    raw = action.option(COMMIT)
    if raw is None:
        return {s: 0 for s in state.sides}
    try:
        given = dict(raw)
    except (TypeError, ValueError):
        return v("bad_commit", "\"commit\" must map each side to its tokens, e.g. "
                               "{\"red\": 2, \"blue\": 0}")
    out = {s: 0 for s in state.sides}
    for side, n in given.items():
        if side not in state.sides:
            return v("bad_commit", f"\"commit\": no side {side!r} (sides: "
                                   f"{', '.join(state.sides)})")
        problem = commit_problem(state, side, n)
        if problem:
            return problem
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


def retreating(state: State, action: Action, u: int, w: int) -> list[str] | Violation:
    """try's shorthand "retreat": true (the target), a unit id or a list of the two ids: the
    units that retreat after each attack they receive."""
    raw = action.option(RETREAT)
    if raw is None or raw is False:
        return []
    names = [state.scene.units[u].id, state.scene.units[w].id]
    if raw is True:
        return [names[1]]
    ids = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, tuple) else None
    if ids is None:
        return v("bad_retreat", "\"retreat\" is true (the target retreats), a unit id or a "
                                "list of unit ids")
    for uid in ids:
        if uid not in names:
            return v("bad_retreat", f"\"retreat\": {uid!r} is not one of the two units in the "
                                    f"skirmish ({', '.join(names)})")
    return list(ids)


# --- check ---------------------------------------------------------------------------------------
def check(state: State, u: int, action: Action) -> list[Violation]:
    spec = state.scene.units[u]
    if "retreated" in state.units[u].flags:
        return [v("retreated", f"{spec.id} retreated this turn: it may not attack")]
    if action.target is None or isinstance(action.target, tuple):
        return [v("no_target", "a skirmish needs one enemy unit as \"target\"",
                  choose="target" if action.target is None else None)]
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
    parsed = advantages(state, action, u, w)
    if isinstance(parsed, Violation):
        out.append(parsed)
    return out


def shorthand(state: State, action: Action) -> tuple[dict[str, Any], list[Violation]]:
    """try's answers written on a skirmish, checked: ({"commit": {SIDE: n}, "retreat": [IDs]},
    why they are wrong)."""
    commit = commitments(state, action)
    if isinstance(commit, Violation):
        return {}, [commit]
    try:
        u, w = state.unit_index(action.unit), state.unit_index(action.target)
    except (KeyError, TypeError):
        return {COMMIT: commit}, []       # the skirmish's own check says what is wrong
    retreat = retreating(state, action, u, w)
    if isinstance(retreat, Violation):
        return {}, [retreat]
    return {COMMIT: commit, RETREAT: retreat}, []


def shorthand_answer(state: State, decision: Decision, given: dict[str, Any]) -> Action:
    """The answer try's shorthand stands for: its commitment (0 when not written), a retreat of
    the units it names; else the side declines."""
    if decision.kind == COMMIT:
        n = (given.get(COMMIT) or {}).get(decision.side, 0)
        return Action(COMMIT, side=decision.side, options=((("tokens", n),)))
    if decision.kind == RETREAT and decision.get("unit") in (given.get(RETREAT) or ()):
        return decision.choices[0]
    return Action(DECLINE, side=decision.side)


def check_answer(state: State, action: Action) -> list[Violation]:
    """Why a commitment is not one of the cards its side may commit (the rule and numbers)."""
    if action.type == COMMIT and action.side in state.sides:
        problem = commit_problem(state, action.side, action.option("tokens"))
        return [problem] if problem else []
    return []


# --- resolve -------------------------------------------------------------------------------------
def resolve(state: State, u: int, action: Action, overextended: bool) -> list[Event]:
    """Declare the skirmish; both sides' morale cards are asked for in secret."""
    w = state.unit_index(action.target)
    units = state.scene.units
    skirmish = {"kind": "skirmish", "units": [u, w], "overextended": overextended,
                "action": action.to_dict()}
    asked = []
    for side in dict.fromkeys([units[u].side, units[w].side]):
        allowed = cards(state, side)
        if len(allowed) > 1:
            asked.append(Decision(side, COMMIT, tuple(
                Action(COMMIT, side=side, options=(("tokens", c),)) for c in allowed),
                secret=True, about=(("unit", units[u].id), ("target", units[w].id))))
    if not asked:
        return morale(state, skirmish, {s: 0 for s in state.sides})
    return decisions.ask(state, asked, skirmish)


def resume(state: State, suspended: dict[str, Any],
           answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
    """Carry on the skirmish once the decisions it waited for are answered."""
    if COMMIT in {d.kind for d, _ in answers}:
        commit = {s: 0 for s in state.sides}
        for d, a in answers:
            commit[d.side] = int(a.option("tokens"))
        return morale(state, suspended, commit)
    events: list[Event] = []
    asked = suspended.get("asked", [])
    for _, a in sorted(answers, key=lambda da: asked.index(da[0].get("unit"))):
        if a.type == RETREAT:
            w, x = state.unit_index(a.unit), state.unit_index(a.option("from"))
            if len(state.models_of(w)) and "retreated" not in state.units[w].flags:
                events.extend(attacks.retreat(state, w, x))
    return events + run(state, suspended)


def morale(state: State, skirmish: dict[str, Any], commit: dict[str, int]) -> list[Event]:
    """Both cards revealed: tokens lost, the advantage, then ranges, sight and the steps."""
    g = game(state)
    u, w = skirmish["units"]
    units = state.scene.units
    action = Action.from_dict(skirmish["action"])
    choice = advantages(state, action, u, w)
    assert not isinstance(choice, Violation)
    for s, n in commit.items():
        state.sides[s]["morale"] -= n
    best = max(commit.values())
    top = [s for s, n in commit.items() if n == best]
    adv = top[0] if len(top) == 1 else None
    events: list[Event] = [{"type": "morale", "commit": dict(commit), "advantage": adv,
                            **({"choice": choice[adv]} if adv else {}),
                            "tokens": {s: d["morale"] for s, d in state.sides.items()}}]
    ref = Referee(state.scene, state.table)
    view = [attacks.sight(state, u, w, ref), attacks.sight(state, w, u, ref)]
    out_of_range = [not attacks.in_range(state, u, w), not attacks.in_range(state, w, u)]
    hit_mod, cover = [0, 0], [0, 0]
    for i, x in enumerate((u, w)):
        if adv == units[x].side:
            if choice[adv] == CUT:
                hit_mod[i] += g.cut_them_down
            else:
                cover[i] += g.hold_the_line
        if view[1 - i] == "partial":
            cover[i] += g.partial_sight_cover
    if skirmish["overextended"]:
        hit_mod[0] += g.overextended_hit
        cover[0] += g.overextended_cover
    events.append({"type": "skirmish", "unit": units[u].id, "target": units[w].id,
                   "overextended": skirmish["overextended"],
                   "in_range": {units[x].id: not out_of_range[i] for i, x in enumerate((u, w))},
                   "sight": {units[x].id: view[i] for i, x in enumerate((u, w))}})
    iu, iw = stat(state, u, "initiative"), stat(state, w, "initiative")
    if iu == iw:
        steps: list[list[Any]] = [["attack", [u, w]]]
    else:
        steps = [["attack", [u]], ["attack", [w]]] if iu > iw else [["attack", [w]],
                                                                      ["attack", [u]]]
    steps.append(["charge", [u, w] if iu >= iw else [w, u]])
    fought = {**skirmish, "view": view, "out_of_range": out_of_range, "hit_mod": hit_mod,
              "cover": cover, "steps": steps, "next": 0}
    return events + run(state, fought)


def run(state: State, s: dict[str, Any]) -> list[Event]:
    """The skirmish's steps from s["next"], until it ends or a defender decides on a retreat."""
    u, w = s["units"]
    events: list[Event] = []
    steps = s["steps"]
    k = s["next"]
    while k < len(steps):
        kind, order = steps[k]
        k += 1
        if kind == "attack":
            xs = [x for x in order if _able(state, s, x)]
            if xs:
                events.extend(_attack(state, s, xs))
        else:
            xs = []
            for x in order:
                y = w if x == u else u
                if is_melee(state, x) and s["out_of_range"][s["units"].index(x)] and \
                        attacks.may_attack(state, x) and len(state.models_of(y)):
                    more, xs = charge(state, s, x, y)
                    events.extend(more)
                    break
        asked = _retreats(state, s, xs)
        if asked:
            return events + decisions.ask(state, asked, {
                **s, "next": k, "asked": [d.get("unit") for d in asked]})
    return events


def _able(state: State, s: dict[str, Any], x: int) -> bool:
    i = s["units"].index(x)
    y = s["units"][1 - i]
    return (attacks.may_attack(state, x) and not s["out_of_range"][i] and s["view"][i] != "none"
            and bool(len(state.models_of(y))))


def _attack(state: State, s: dict[str, Any], xs: list[int]) -> list[Event]:
    """The units in xs attack at once (their dice counted before either side's casualties)."""
    u, w = s["units"]
    out: list[Event] = []
    for x in xs:
        if bombards(state, x):
            out.extend(bombardment.remove(state, x, "attacked in a skirmish"))
    ready = []
    for x in xs:
        i = s["units"].index(x)
        ready.append(attacks.prepare(state, x, s["units"][1 - i], s["hit_mod"][i],
                                     s["cover"][1 - i]))
    for a in ready:
        a.notes["overextended"] = s["overextended"] and a.attacker == u
        out.extend(attacks.resolve(state, a))
    return out


def _retreats(state: State, s: dict[str, Any], xs: list[int]) -> list[Decision]:
    """The defenders of the attacks by xs that still stand and have not retreated: each side
    decides whether its unit retreats."""
    units = state.scene.units
    standing = {units[z].side for z in range(len(units)) if len(state.models_of(z))}
    if len(standing) < len(state.sides):
        return []                            # the battle is over: nothing left to decide
    out = []
    for x in xs:
        y = s["units"][1 - s["units"].index(x)]
        if not len(state.models_of(y)) or "retreated" in state.units[y].flags:
            continue
        side = units[y].side
        go = Action(RETREAT, unit=units[y].id, side=side, options=(("from", units[x].id),))
        out.append(Decision(side, RETREAT, (go, Action(DECLINE, side=side)),
                            about=(("unit", units[y].id), ("from", units[x].id))))
    return out


def charge(state: State, s: dict[str, Any], x: int, y: int) -> tuple[list[Event], list[int]]:
    """x charges y and attacks; (the events, [x] when it attacked)."""
    units = state.scene.units
    plan = movement.charge_plan(state, x, y)
    if plan is None:
        why = (f"no legal move of up to {stat(state, x, 'speed'):g}\" brings its leader "
               f"within {game(state).charge_within:g}\" of {units[y].id}'s")
        return [{"type": "no-charge", "unit": units[x].id, "target": units[y].id,
                 "reason": why, "failed": f"no charge: {why}"}], []
    moves, checked = plan
    trigs = potshots.triggers(state, x, moves, overextended=False, exclude=(y,))
    state.table = checked.after
    i = leader(state, x)
    lead = (float(state.table.x[i]), float(state.table.y[i]))
    events: list[Event] = [{"type": "charge", "unit": units[x].id, "target": units[y].id,
                            "to": [round(float(lead[0]), 6), round(float(lead[1]), 6)],
                            "distance": round(checked.longest, 6)}]
    events.extend(bombardment.remove(state, x, "moved"))
    events.extend(potshots.take(state, x, trigs))
    events.extend(attacks.dangerous(state, x, checked.risky))
    if attacks.may_attack(state, x) and len(state.models_of(y)):
        events.extend(_attack(state, s, [x]))
        return events, [x]
    return events, []
