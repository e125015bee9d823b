"""A warband fighter's activation (seed: activations): whose fighter may act now, the actions
and bonus actions an activation has left, and how an activation begins, counts its actions and
ends (a wait ends it at once; the side then passes to the other, or the round ends). Plain
functions over the State: the ruleset's check asks `activation_problem`, `slot` and
`check_pass`, its resolve `begin`, `take` (which carries the action out by its handler) and
`pass_turn`."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import v
from battlefield.rules.rounds import other
from battlefield.rules.state import State
from battlefield.rules.warband import abilities, turns
from battlefield.rules.warband.data import game
from battlefield.rules.warband.turns import alive, left

Event = dict[str, Any]


def check_pass(state: State) -> list[Violation]:
    """Whether the acting side may pass: not while a fighter activates with actions left,
    nor while it has fighters left to activate (unless one was commanded)."""
    c = state.clock
    if c.get("activating"):
        u = state.unit_index(c["activating"])
        if actions_taken(state, u):
            return []                # ends the activation without its ability / bonus
        return [v("activating", f"{c['activating']} is activating: it takes its actions "
                                f"(a wait ends the activation)")]
    if c.get("commanded"):
        return []
    n = len(left(state, c["active"]))
    if n:
        return [v("must_activate", f"{c['active']} has {n} fighter{'s' * (n != 1)} left "
                                   f"to activate: it passes only when it has none",
                  fighters=n)]
    return []


def activation_problem(state: State, u: int) -> Violation | None:
    """Whether fighter u may act now: its side's turn, its own activation or none."""
    c = state.clock
    uid = state.scene.units[u].id
    if c.get("activating") is not None and c["activating"] != uid:
        w = state.unit_index(c["activating"])
        taken = int(state.units[w].counters.get("actions", 0))
        limit = int(state.units[w].counters.get("limit", game(state).actions))
        return v("activating", f"{c['activating']} is activating ({taken} of its {limit} "
                               f"action{'s' * (limit != 1)} taken): {uid} acts after it",
                 taken=taken, allowed=limit)
    if state.side_of(u) != c["active"]:
        return v("not_your_turn", f"{uid} is {state.side_of(u)}'s; it is {c['active']}'s "
                                  f"turn to activate a fighter")
    if c.get("activating") is not None:
        return None
    if c.get("commanded") and c["commanded"] != uid:
        return v("commanded", f"{c['commanded']} was commanded to activate now (or pass)")
    if "done" in state.units[u].flags:
        return v("already_activated", f"{uid} has already activated this round")
    return None


def counts(state: State, u: int) -> dict[str, float]:
    """The activation's counters (a fighter about to activate has none yet)."""
    if state.clock.get("activating") == state.scene.units[u].id:
        return state.units[u].counters
    return {}


def action_limit(state: State, u: int) -> int:
    """The actions fighter u's activation has: 2, or 1 for a fighter activating again."""
    c = counts(state, u)
    if "limit" in c:
        return int(c["limit"])
    return 1 if "waiting" in state.units[u].flags else game(state).actions


def slot(state: State, u: int, kind: str) -> Violation | None:
    """Whether the activation has an action (or a bonus action) left for `kind`."""
    g = game(state)
    c = counts(state, u)
    uid = state.scene.units[u].id
    taken = int(c.get("n_" + kind, 0))
    if taken >= g.most_of_one:
        return v("too_many_actions", f"{uid} has taken {kind} {taken} times this activation:"
                                     f" the same action never more than {g.most_of_one}",
                 taken=taken, allowed=g.most_of_one)
    if normal(state, u, kind) or c.get("bonus_" + kind, 0) > 0:
        return None
    if kind == "wait" and c.get("actions", 0) >= action_limit(state, u):
        return None                         # ends an activation with bonus actions left
    most = action_limit(state, u)
    used = int(c.get("actions", 0))
    if used >= most:
        return v("too_many_actions", f"{uid} has taken its {most} action"
                                     f"{'s' * (most != 1)} this activation (and has no "
                                     f"bonus {kind} action)", taken=used, allowed=most)
    return v("too_many_actions", f"{uid} has taken {kind} {taken} time this activation: "
                                 f"only move may be taken twice (without a bonus action)",
             taken=taken, allowed=1)


def normal(state: State, u: int, kind: str) -> bool:
    """Whether `kind` would use one of the activation's own actions."""
    c = counts(state, u)
    once = 2 if kind == "move" else 1
    return (c.get("actions", 0) < action_limit(state, u)
            and c.get("n_" + kind, 0) < once)


def begin(state: State, u: int) -> list[Event]:
    """Fighter u's first action or ability begins its activation (if it has not begun)."""
    c = state.clock
    uid = state.scene.units[u].id
    if c.get("activating") == uid:
        return []
    us = state.units[u]
    second = "waiting" in us.flags
    us.flags.discard("waiting")
    us.flags.add("activated")
    for k in [k for k in us.counters if k not in turns.ROUND_COUNTERS]:
        del us.counters[k]
    us.counters["limit"] = 1 if second else game(state).actions
    c["activating"] = uid
    if c.get("commanded") == uid:
        c["commanded"] = None
    return [{"type": "activation", "unit": uid, "second": second}]


def take(state: State, u: int, action: Action) -> list[Event]:
    """Count the action in the activation, then carry it out."""
    kind = action.type
    us = state.units[u]
    slot = "action"
    if normal(state, u, kind):
        us.counters["actions"] = us.counters.get("actions", 0) + 1
    elif us.counters.get("bonus_" + kind, 0) > 0:
        us.counters["bonus_" + kind] -= 1
        slot = "bonus"
    else:
        slot = "end"                      # a wait that ends the activation
    us.counters["n_" + kind] = us.counters.get("n_" + kind, 0) + 1
    first = us.counters.get("actions", 0) == 1 and us.counters.get("n_" + kind) == 1
    if kind == "wait":
        return wait(state, u, first and slot == "action")
    return state.rules.handler(kind).resolve(state, u, action)


def wait(state: State, u: int, first: bool) -> list[Event]:
    """A wait ends the activation; as its first action, the fighter activates once more."""
    uid = state.scene.units[u].id
    second = state.units[u].counters.get("limit", 2) == 1
    waits = first and not second
    events: list[Event] = [{"type": "wait", "unit": uid, "activates_again": waits}]
    return events + end(state, u, waiting=waits)


def done(state: State, u: int) -> list[Event]:
    """After an action or ability: the activation ends when its actions are taken, no bonus
    action is left and no ability can still be used after them (else the side uses one or
    passes), or when the fighter has fallen."""
    us = state.units[u]
    if not alive(state, u):
        return end(state, u)
    bonus = sum(n for k, n in us.counters.items() if k.startswith("bonus_"))
    if (us.counters.get("actions", 0) >= us.counters.get("limit", 2) and bonus <= 0
            and not ability_left(state, u)):
        return end(state, u)
    return []


def ability_left(state: State, u: int) -> bool:
    """Whether fighter u may still use an ability after its actions."""
    return abilities.left(state, u)


def end(state: State, u: int, waiting: bool = False) -> list[Event]:
    """Fighter u's activation ends (waiting: it activates again later); the commanded
    fighter, the other side or the end of the round comes next."""
    c = state.clock
    us = state.units[u]
    uid = state.scene.units[u].id
    for k in [k for k in us.counters if k not in turns.ROUND_COUNTERS]:
        del us.counters[k]
    if waiting:
        us.flags.add("waiting")
    else:
        us.flags.add("done")
    c["activating"] = None
    events: list[Event] = [{"type": "activation-ends", "unit": uid,
                            **({"waiting": True} if waiting else {})}]
    if c.get("commanded"):
        w = state.unit_index(c["commanded"])
        if alive(state, w) and "activated" not in state.units[w].flags:
            events.append({"type": "commanded", "unit": c["commanded"]})
            return events                  # the same side: the commanded fighter is next
        c["commanded"] = None
    return events + next_side(state)


def next_side(state: State) -> list[Event]:
    """The other side activates next, or the round ends when nobody is left."""
    c = state.clock
    if state.over:
        return []
    if not any(left(state, s) for s in state.sides):
        return turns.end_round(state)
    c["active"] = other(state, c["active"])
    return [{"type": "turn", "active": c["active"]}]


def pass_turn(state: State) -> list[Event]:
    """The acting side passes: the open activation ends, or the other side goes on."""
    c = state.clock
    events: list[Event] = [{"type": "pass", "side": c["active"]}]
    if c.get("activating"):                 # the open activation ends
        return events + end(state, state.unit_index(c["activating"]))
    c["commanded"] = None
    return events + next_side(state)


def actions_taken(state: State, u: int) -> bool:
    """Fighter u's activation has taken all its actions."""
    c = counts(state, u)
    return bool(c) and c.get("actions", 0) >= c.get("limit", game(state).actions)
