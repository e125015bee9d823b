"""Pending decisions: choices that belong to a side other than the one whose action raised them
(aos4's All-out Defence, skirmish's secret morale commitments and the defender's retreat; next,
warband's reactions, blocks' courage and cards, openwg's Stop).

How it works, for every ruleset:
1. A ruleset's `resolve` that reaches a choice of another side calls `ask(state, decisions,
   resume)`: `state.pending` becomes those decisions (each a frozen `Decision`: which side, what
   kind, every legal answer as an Action, whether it is secret, what it is about) and
   `state.suspended` the JSON-like dict the ruleset needs to carry on (the declared attack, the
   step of a sequence). The resolve returns the events so far; the action is done, the rest of
   it waits.
2. While decisions are pending, `State.acting_side` is the side of the first one,
   `State.available()` lists its answer types, and `State.check` accepts only answers: an
   action equal to one of a pending decision's choices (its `side` may be left out). Anything
   else is refused with `awaiting_decision`; an answer of the right type that is not a choice
   gets the ruleset's own reason (its `check`) or `not_a_choice` listing the choices.
3. Decisions asked together are a batch, answered in any order. An answer is recorded in
   `state.answers`; until the batch is complete, an answer to a secret decision shows in the
   events (and in `try`'s output) only as {"type": "commit", "side": "red", "secret": true}.
4. Every answer gives a `decided` event (a secret one without its value). The last answer of
   the batch calls the ruleset's `resume(state, suspended, answers)`, after a `revealed` event
   with the secret answers. Resume finishes the suspended action - and may `ask` again (the
   next batch: a retreat after each attack of a skirmish).

Everything here is plain data: decisions and answers are frozen values a snapshot may share;
`state.suspended` is a small JSON-like dict that rulesets replace and never change in place.

`try`'s shorthands (both commitments written on the skirmish, `"all_out_defence": true` on the
shot) are sugar over this: `shorthand` splits them off the action (and checks them) through the
ruleset's `shorthand` hook, `settle` answers the decisions the action raises from them
(defaults where they say nothing) through its `shorthand_answer` hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from battlefield.rules.actions import Action, Violation

if TYPE_CHECKING:
    from battlefield.rules.state import State

Event = dict[str, Any]
DECLINE = "decline"          # the answer type that says no, in every ruleset
MAX_SETTLE = 50              # decisions one action may raise in a row (try's shorthand)


@dataclass(frozen=True)
class Decision:
    """A choice a side must make before the game goes on."""

    side: str
    kind: str                                  # what is decided: "all-out-defence", "commit"
    choices: tuple[Action, ...]                # every legal answer
    secret: bool = False                       # hidden from the other side until all are in
    about: tuple[tuple[str, str], ...] = ()    # ("unit", "blue-1"), ("attacker", "red-2")
    # answer types no list can hold (aos4's charge move after the roll: a path), each answer
    # of one of them ruled by the ruleset's check
    open: tuple[str, ...] = ()

    @property
    def answers(self) -> list[str]:
        """The answer types, in order (what a UI lists as buttons; then the open ones)."""
        return list(dict.fromkeys([*(c.type for c in self.choices), *self.open]))

    def get(self, key: str, default: str | None = None) -> str | None:
        return dict(self.about).get(key, default)

    def label(self, choice: Action) -> str:
        """A short text for one choice: its type and what tells it from the others."""
        bits = [choice.type]
        # a choice with a target (aos4's fight-reaction) says what and whom, even alone
        many = sum(c.type == choice.type for c in self.choices) > 1 or choice.target is not None
        if choice.unit and many:
            bits.append(choice.unit)
        bits.extend(str(v) for _, v in choice.options if many)
        if choice.target is not None:
            bits.append("-> " + ", ".join(choice.targets))
        return " ".join(bits)

    def matches(self, action: Action) -> Action | None:
        """The choice `action` is (its side filled in), or None."""
        full = action if action.side is not None else replace(action, side=self.side)
        return full if full in self.choices else None

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "kind": self.kind, "secret": self.secret,
                "about": dict(self.about), "choices": [c.to_dict() for c in self.choices],
                **({"open": list(self.open)} if self.open else {})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        return cls(str(data["side"]), str(data["kind"]),
                   tuple(Action.from_dict(c) for c in data["choices"]),
                   bool(data.get("secret", False)),
                   tuple(sorted((str(k), str(v)) for k, v in dict(data.get("about", {})).items())),
                   tuple(str(t) for t in data.get("open", ())))


def to_position(state: State) -> dict[str, Any] | None:
    """The decisions awaited, the answers given (secret ones too: a position is the whole
    game) and the suspended action, as data for a scene's `state: pending:`; None if none."""
    if not (state.pending or state.answers or state.suspended):
        return None
    return {"decisions": [d.to_dict() for d in state.pending],
            "answers": [[d.to_dict(), a.to_dict()] for d, a in state.answers],
            "suspended": state.suspended}


def from_position(state: State, data: Mapping[str, Any]) -> None:
    """Put back what to_position wrote."""
    state.pending = tuple(Decision.from_dict(d) for d in data.get("decisions", []))
    state.answers = tuple((Decision.from_dict(d), Action.from_dict(a))
                          for d, a in data.get("answers", []))
    state.suspended = data.get("suspended")


# --- for rulesets --------------------------------------------------------------------------------
def ask(state: State, decisions: Sequence[Decision], resume: Mapping[str, Any]) -> list[Event]:
    """Suspend the action being resolved until `decisions` are answered; `resume` is what the
    ruleset's resume gets back. Returns the events that say who must decide what."""
    if state.pending:
        raise RuntimeError("decisions asked while others are pending")
    state.pending = tuple(decisions)
    state.suspended = dict(resume)
    return [{"type": "decision", "side": d.side, "kind": d.kind, "secret": d.secret,
             "about": dict(d.about), "answers": d.answers} for d in decisions]


def answer_of(answers: Sequence[tuple[Decision, Action]], kind: str, side: str | None = None
              ) -> Action | None:
    """The answer given to the decision of `kind` (and `side`), if one was asked."""
    for d, a in answers:
        if d.kind == kind and (side is None or d.side == side):
            return a
    return None


# --- for the engine ------------------------------------------------------------------------------
def _side_of(state: State, action: Action) -> str | None:
    if action.side is not None:
        return action.side
    if action.unit is not None:
        try:
            return state.side_of(state.unit_index(action.unit))
        except KeyError:
            return None
    return None


def addressed(state: State, action: Action) -> Decision | None:
    """The pending decision `action` means to answer (its type is one of the answers and its
    side, when it says one, is the deciding side), even if it is not a legal choice."""
    side = _side_of(state, action)
    for d in state.pending:
        if action.type in d.answers and (side is None or side == d.side):
            return d
    return None


def check(state: State, action: Action) -> list[Violation]:
    """Why `action` is not an answer to a pending decision (empty: it is one)."""
    d = addressed(state, action)
    if d is None:
        first = state.pending[0]
        what = first.kind + (" (" + ", ".join(f"{k} {v}" for k, v in first.about) + ")"
                             if first.about else "")
        return [Violation("awaiting_decision",
                          f"{first.side} must first decide {what} (answers: "
                          f"{', '.join(first.label(c) for c in first.choices)}); "
                          f"{action.type} is not one")]
    if d.matches(action) is not None:
        return []
    if action.type in d.open:                   # a path, not a list: the ruleset rules on it
        return state.rules.check(state, action)
    own = state.rules.check(state, action)
    if own:
        return own
    return [Violation("not_a_choice", f"{action!r} is not one of {d.side}'s choices for "
                                      f"{d.kind}: {', '.join(d.label(c) for c in d.choices)}")]


def hidden(state: State, action: Action) -> bool:
    """`action` answers a secret decision whose batch it does not complete."""
    d = addressed(state, action)
    return d is not None and d.secret and len(state.pending) > 1


def shown(state: State, action: Action) -> dict[str, Any]:
    """The action as the events show it now: a secret answer without its value."""
    if state.pending and hidden(state, action):
        return {"type": action.type, "side": _side_of(state, action), "secret": True}
    return action.to_dict()


def answer(state: State, action: Action) -> list[Event]:
    """Record a legal answer; when it completes the batch, reveal and resume the ruleset."""
    d = addressed(state, action)
    assert d is not None
    chosen = d.matches(action)
    if chosen is None and action.type in d.open:
        chosen = action if action.side is not None else replace(action, side=d.side)
    assert chosen is not None
    k = state.pending.index(d)
    state.pending = state.pending[:k] + state.pending[k + 1:]
    state.answers = (*state.answers, (d, chosen))
    decided: Event = {"type": "decided", "side": d.side, "kind": d.kind}
    if d.secret:
        decided["secret"] = True
    else:
        decided["answer"] = chosen.to_dict()
    if state.pending:
        return [decided]
    answers, resume = state.answers, state.suspended or {}
    state.answers, state.suspended = (), None
    events: list[Event] = [decided]
    secret = [(x, a) for x, a in answers if x.secret]
    if secret:
        events.append({"type": "revealed",
                       "answers": [{"side": x.side, "kind": x.kind, "answer": a.to_dict()}
                                   for x, a in secret]})
    events.extend(state.rules.resume(state, resume, answers))
    return events


def fingerprint(state: State) -> list[Any]:
    """The pending decisions, the answers so far (hidden ones too) and the suspended action."""
    return [[d.to_dict() for d in state.pending],
            [[d.to_dict(), a.to_dict()] for d, a in state.answers], state.suspended]


# --- try's shorthand -----------------------------------------------------------------------------
def shorthand(state: State, action: Action) -> tuple[Action, dict[str, Any], list[Violation]]:
    """(the action without the answers written on it, those answers, why they are wrong)."""
    if state.pending:
        return action, {}, []
    return state.rules.shorthand(state, action)


def settle(state: State, given: Mapping[str, Any], upcoming: Sequence[Action]
           ) -> tuple[list[dict[str, Any]], list[Event]]:
    """Answer pending decisions from the shorthand `given` (the ruleset's defaults where it says
    nothing), unless the next action of the run answers one itself. Returns (the answers, their
    events)."""
    answers: list[dict[str, Any]] = []
    events: list[Event] = []
    for _ in range(MAX_SETTLE):
        if not state.pending or state.over:
            break
        if upcoming and addressed(state, upcoming[0]) is not None:
            break
        a = state.rules.shorthand_answer(state, state.pending[0], given)
        if a is None:           # the ruleset has no shorthand: the decision waits
            break
        refused = state.check(a)
        if refused:
            # The answer written on the action breaks a rule: said with the rule, and the
            # ruleset's default (what it answers when nothing is written) given instead.
            answers.append({**a.to_dict(), "refused": [v.to_dict() for v in refused]})
            a = state.rules.shorthand_answer(state, state.pending[0], {})
        answers.append(a.to_dict())
        events.extend(state.apply(a, checked=True))      # checked above unless replaced
    return answers, events
