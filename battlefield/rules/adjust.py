"""Adjustments: what a player does by hand when an ability says so and the engine cannot play it
- damage or mortal damage, healing, slain models returned, a move that ignores the usual
limits, a token added or removed, a modifier to the unit's next roll - each with the reason the
player gives, and none without the other side's consent.

One action type, `{"type": "adjust", "unit": ID, "kind": KIND, ..., "reason": TEXT}`:

| kind | its fields | what it does once accepted |
| --- | --- | --- |
| damage | amount (N or dice) | N damage points on the unit, allocated as an attack's |
| mortal | amount (N or dice) | N mortal damage (the ruleset's ward rolls apply) |
| heal | amount | heals N damage points, the most damaged model first |
| return | amount | N slain models back where they fell, unhurt |
| move | path or paths, facing? | moved with no move limit (on the board, on no model) |
| token | token (a name), amount (+N or -N) | adds or removes N tokens of that name |
| modifier | roll, by (+-N) | the unit's next roll of that kind is modified by N |

`ability` (a name) and `source` (the unit whose ability it is; default `unit`) say which
declared ability it applies; `side` is the proposer (the acting side). Proposing changes
nothing: the other side is asked a decision of kind "adjust" answered `{"type": "accept"}` or
`{"type": "refuse"}`. A refused adjustment leaves the game exactly as it was (the dice too:
an amount in dice is rolled only once accepted). The ruleset says how damage lands (`Deal`)
and which rolls a modifier may name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from battlefield.rules import decisions, moves
from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import Decision
from battlefield.rules.dice import DiceError, parse
from battlefield.rules.refusals import v

if TYPE_CHECKING:
    from battlefield.rules.state import State

Event = dict[str, Any]
ADJUST = "adjust"
ACCEPT, REFUSE = "accept", "refuse"
KINDS = ("damage", "mortal", "heal", "return", "move", "token", "modifier")
NEXT = "next_"              # a unit's counter of a modifier to its next roll: next_hit ...
TOKEN = "token:"            # a unit's counter of tokens: token:NAME
MOST = 100                  # the most points, models or tokens one adjustment may name
MOST_BY = 6                 # the largest modifier
REASON_CHARS = 500
# What lands damage on a unit: (state, unit, points, mortal, reason) -> events.
Deal = Callable[["State", int, int, bool, str], list[Event]]


# --- the action ---
def check(state: State, action: Action, rolls: Sequence[str]) -> list[Violation]:
    """Why `action` is not an adjustment its side may propose now (empty: it is): the acting
    side's, or any side's that names itself (`side`: the other side proposes one for the
    ability it used in this turn, and the acting side consents); `rolls`: the rolls a
    modifier may name in this ruleset."""
    kind = action.option("kind")
    if kind not in KINDS:
        return [v("bad_adjust_kind", f"an adjustment's kind is one of {', '.join(KINDS)}, "
                                     f"not {kind!r}", choose=None if kind else "kind")]
    reason = action.option("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > REASON_CHARS:
        return [v("no_reason", f"an adjustment says why (\"reason\": the ability or rule it "
                               f"applies, up to {REASON_CHARS} characters)")]
    if action.unit is None:
        return [v("no_unit", "an adjustment names the unit it changes (\"unit\")",
                  choose="unit")]
    ids = {spec.id for spec in state.scene.units}
    source = action.option("source")
    for given in (action.unit, source):
        if given is not None and given not in ids:
            return [v("unknown_unit", f"no unit {given!r}")]
    u = state.unit_index(action.unit)
    allowed = {"unit", "side", "kind", "reason", "ability", "source", *_FIELDS[kind]}
    given = {k for k, _ in action.options} | {k for k in ("path", "paths", "facing", "target",
                                                            "weapon")
                                                if getattr(action, k) is not None}
    extra = sorted(given - allowed)
    if extra:
        return [v("unknown_key", f"a {kind} adjustment takes {', '.join(sorted(allowed))}; "
                                 f"not {', '.join(extra)}")]
    standing = len(state.models_of(u)) > 0
    if kind != "return" and not standing:
        return [v("unit_destroyed", f"{action.unit} has no model on the table")]
    return _CHECKS[kind](state, u, action, rolls)


_FIELDS: dict[str, tuple[str, ...]] = {
    "damage": ("amount",), "mortal": ("amount",), "heal": ("amount",), "return": ("amount",),
    "move": ("path", "paths", "facing"), "token": ("token", "amount"),
    "modifier": ("roll", "by")}


def _amount_problem(action: Action, dice: bool, signed: bool = False) -> Violation | None:
    amount = action.option("amount")
    if isinstance(amount, bool) or amount is None:
        return v("no_amount", "the adjustment says how many (\"amount\": a whole number"
                              + (" or dice, e.g. D3" if dice else "") + ")", choose="amount")
    if isinstance(amount, int):
        if (amount == 0 if signed else amount < 1) or abs(amount) > MOST:
            return v("bad_amount", f"\"amount\" is a whole number from "
                                   f"{-MOST if signed else 1} to {MOST}"
                                   + (" other than 0" if signed else "") + f", not {amount}")
        return None
    if dice and isinstance(amount, str):
        try:
            n, sides, bonus = parse(amount)
        except DiceError as e:
            return v("bad_amount", str(e))
        if n > 10 or sides > 6 or not 0 <= bonus <= MOST:
            return v("bad_amount", f"\"amount\" {amount!r}: at most 10 dice of 6 sides")
        return None
    return v("bad_amount", f"\"amount\" is a whole number{' or dice' if dice else ''}, "
                           f"not {amount!r}")


def _check_points(state: State, u: int, action: Action, rolls: Sequence[str]
                  ) -> list[Violation]:
    bad = _amount_problem(action, dice=True)
    return [bad] if bad else []


def _check_heal(state: State, u: int, action: Action, rolls: Sequence[str]) -> list[Violation]:
    bad = _amount_problem(action, dice=True)
    if bad:
        return [bad]
    if not state.units[u].damage[state.units[u].alive].any():
        return [v("nothing_to_heal", f"{action.unit} has no damage to heal")]
    return []


def _check_return(state: State, u: int, action: Action, rolls: Sequence[str]
                  ) -> list[Violation]:
    bad = _amount_problem(action, dice=False)
    if bad:
        return [bad]
    slain = int((~state.units[u].alive).sum())
    if slain < int(action.option("amount")):
        return [v("not_so_many_slain", f"{action.unit} has {slain} slain model"
                                       f"{'' if slain == 1 else 's'} to return, not "
                                       f"{action.option('amount')}", slain=slain)]
    return []


def _check_move(state: State, u: int, action: Action, rolls: Sequence[str]) -> list[Violation]:
    if action.path is None and action.paths is None:
        return [v("no_path", "a move adjustment gives the unit's \"path\" or its models' "
                             "\"paths\"", choose="path")]
    return moves.check_move(state, u, action, None).problems


def _check_token(state: State, u: int, action: Action, rolls: Sequence[str]
                 ) -> list[Violation]:
    name = action.option("token")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        return [v("no_token", "a token adjustment names its token (\"token\": up to 60 "
                              "characters)", choose="token")]
    bad = _amount_problem(action, dice=False, signed=True)
    if bad:
        return [bad]
    have = tokens(state, u).get(name.strip(), 0)
    if have + int(action.option("amount")) < 0:
        return [v("not_so_many_tokens", f"{action.unit} has {have} {name.strip()} token"
                                        f"{'' if have == 1 else 's'} to remove", have=have)]
    return []


def _check_modifier(state: State, u: int, action: Action, rolls: Sequence[str]
                    ) -> list[Violation]:
    roll = action.option("roll")
    if roll not in rolls:
        return [v("bad_roll", f"a modifier is to one of the unit's next {', '.join(rolls)} "
                              f"rolls, not {roll!r}", choose=None if roll else "roll")]
    by = action.option("by")
    if isinstance(by, bool) or not isinstance(by, int) or by == 0 or abs(by) > MOST_BY:
        return [v("bad_modifier", f"\"by\" is a whole number from -{MOST_BY} to {MOST_BY} "
                                  f"other than 0, not {by!r}")]
    return []


_CHECKS = {"damage": _check_points, "mortal": _check_points, "heal": _check_heal,
           "return": _check_return, "move": _check_move, "token": _check_token,
           "modifier": _check_modifier}


# --- proposing, and the other side's consent ---
def described(action: Action) -> dict[str, Any]:
    """The adjustment as the events say it: every field but the path."""
    out = {k: x for k, x in action.to_dict().items() if k not in ("type", "path", "paths")}
    return out


def propose(state: State, action: Action) -> list[Event]:
    """Ask the other side's consent; nothing changes until it is given. The proposer is the
    side the action names, else the acting side."""
    side = proposer(state, action)
    others = [s for s in state.scene.sides if s != side]
    full = replace(action, side=side)
    about = (("by", side), ("kind", str(action.option("kind"))), ("unit", str(action.unit)))
    asked = [Decision(o, ADJUST, (Action(ACCEPT, side=o), Action(REFUSE, side=o)),
                      about=about) for o in others]
    events: list[Event] = [{"type": "adjust-proposed", "side": side, **described(full)}]
    events.extend(decisions.ask(state, asked, {"adjust": full.to_dict()}))
    return events


def proposer(state: State, action: Action) -> str:
    """The side proposing an adjustment: the one it names, else the acting side."""
    return action.side if action.side in state.scene.sides else state.acting_side


def consented(answers: Sequence[tuple[Decision, Action]]) -> bool:
    """Whether every side asked accepted."""
    return all(a.type == ACCEPT for d, a in answers if d.kind == ADJUST)


def resume(state: State, suspended: Mapping[str, Any],
           answers: Sequence[tuple[Decision, Action]], deal: Deal) -> list[Event]:
    """Carry out the adjustment the other side accepted, or say it was refused (and change
    nothing)."""
    action = Action.from_dict(suspended["adjust"])
    said = described(action)
    if not consented(answers):
        refused = [d.side for d, a in answers if a.type != ACCEPT]
        return [{"type": "adjust-refused", "refused_by": refused, **said,
                 "failed": f"refused by {', '.join(refused)}"}]
    u = state.unit_index(str(action.unit))
    kind = str(action.option("kind"))
    events: list[Event] = [{"type": "adjusted", **said}]
    reason = str(action.option("reason"))
    if kind in ("damage", "mortal"):
        points = _points(state, action, reason)
        events.extend(deal(state, u, points, kind == "mortal", f"adjusted: {reason}"))
    elif kind == "heal":
        events.append(_heal(state, u, _points(state, action, reason)))
    elif kind == "return":
        events.append(_return(state, u, int(action.option("amount"))))
    elif kind == "move":
        planned = moves.planned(state, u, action)
        assert not isinstance(planned, Violation)
        state.table = planned.placed(state.table)
        names = state.scene.model_names
        events.append({"type": "moved", "unit": action.unit,
                       "models": [names[int(m)] for m in planned.models]})
    elif kind == "token":
        key = TOKEN + str(action.option("token")).strip()
        c = state.units[u].counters
        c[key] = c.get(key, 0) + int(action.option("amount"))
        if not c[key]:
            del c[key]
    else:
        key = NEXT + str(action.option("roll"))
        c = state.units[u].counters
        c[key] = c.get(key, 0) + int(action.option("by"))
        if not c[key]:
            del c[key]
    return events


def _points(state: State, action: Action, reason: str) -> int:
    """The amount: a number as it is, dice rolled (and logged) now."""
    amount = action.option("amount")
    if isinstance(amount, int):
        return amount
    return state.dice.total(str(amount), f"adjust {action.unit}: {reason}")


def _heal(state: State, u: int, points: int) -> Event:
    us = state.units[u]
    healed = 0
    for k in np.argsort(-us.damage, kind="stable"):
        while points and us.alive[k] and us.damage[k] > 0:
            us.damage[k] -= 1
            points -= 1
            healed += 1
    return {"type": "healed", "unit": state.scene.units[u].id, "points": healed}


def _return(state: State, u: int, n: int) -> Event:
    """The first n slain models back where they fell, unhurt."""
    us = state.units[u]
    first = state.scene.model_offsets()[u]
    back = [int(k) for k in np.nonzero(~us.alive)[0][:n]]
    models = np.array([first + k for k in back], dtype=np.int64)
    state.table = state.table.restored(models, np.full(len(models), u, dtype=np.int64))
    for k in back:
        us.alive[k] = True
        us.damage[k] = 0
    names = state.scene.model_names
    return {"type": "returned", "unit": state.scene.units[u].id,
            "models": [names[int(m)] for m in models]}


# --- what adjustments leave on a unit ---
def tokens(state: State, u: int) -> dict[str, int]:
    """The unit's tokens: name -> how many."""
    return {k[len(TOKEN):]: int(x) for k, x in sorted(state.units[u].counters.items())
            if k.startswith(TOKEN)}


def next_modifier(state: State, u: int, roll: str, use: bool = True) -> int:
    """The modifier adjustments left on unit u's next `roll`; `use`: it is used up now."""
    c = state.units[u].counters
    by = int(c.get(NEXT + roll, 0))
    if use and by:
        del c[NEXT + roll]
    return by


def waiting(state: State) -> Action | None:
    """The adjustment awaiting consent, if one does."""
    s = state.suspended or {}
    if any(d.kind == ADJUST for d in state.pending) and "adjust" in s:
        return Action.from_dict(s["adjust"])
    return None
