"""Where am I, and what now: one line for the step the game is at - whose decision or phase it
is, what the step expects of that side (drag a unit to move it, click a button then your unit,
answer a decision), why a turn opened past its first phase, and why a step has nothing to
decide. The play window's panel shows it under the phase bar, the pages with each version.

`what_now(state, open_now)`: with `open_now` (rules.choices.open_choices of this state, which
asks the engine per unit and target) it names only what some unit may do now; without it the
actions the phase offers (cheap: a page's every version)."""

from __future__ import annotations

from collections.abc import Sequence

from battlefield.rules.actions import Action
from battlefield.rules.choices import passes
from battlefield.rules.event_words import about_words
from battlefield.rules.state import State

# The set-up actions: the window's reserve list (view.setting_up) and the pages set these up
# by a drag from the list; another action with a place (skirmish's bombard) is no set-up.
SET_UP = ("deploy", "deploy-faction-terrain")


def what_now(state: State, open_now: Sequence[str] | None = None) -> str:
    """The step in one line: 'red's movement phase: drag a unit to normal-move, run or
    retreat; a button, then your unit: rally; end-phase when done'."""
    if state.over:
        r = state.result()
        return (f"the battle is over: {r.winner} wins ({r.by})" if r.winner else
                "the battle is over: a draw")
    if state.pending:
        return decision_line(state)
    side = state.acting_side
    whose = state.active or side           # whose phase it is; the acting side may be the other
    where = f"{whose}'s {state.phase} phase" if state.phase else f"{whose}'s turn"
    if side != whose:
        where += f", {side} to act"
    where += opened_past(state)
    offered = state.available()
    passing = [a for a in offered if a in passes(state)]
    choices = [a for a in offered if a not in passing]
    if open_now is not None:
        choices = [a for a in choices if a in open_now]
    # the ruleset's choice buttons (aos4's magical-intervention in the enemy hero phase)
    choices += [a for a in (open_now if open_now is not None else
                            state.rules.window.choice_buttons(state)) if a not in offered]
    if not choices:
        why = nothing_to_decide(state, offered)
        then = f"{passing[0]} passes" if passing else "the game goes on"
        return f"{where}: nothing to decide ({why}) - {then}" if why else \
            f"{where}: nothing to decide - {then}"
    vocab = {a.id: a for a in state.scene.ruleset.actions}
    fields = {a.id: {f.strip().rstrip("?") for field in a.fields for f in field.split("|")}
              for a in state.scene.ruleset.actions}
    drag = [a for a in choices if a in vocab and vocab[a].drag]
    onto = [a for a in drag if vocab[a].targeted]
    place = [a for a in choices if a in SET_UP]      # a unit (or terrain) from the reserve
    pick = [a for a in choices if a not in drag and a not in place
            and fields.get(a, set()) & {"unit", "target"}]
    rest = [a for a in choices if a not in drag and a not in pick and a not in place]
    parts = []
    if place:
        what = ("a piece of terrain" if all("unit" not in fields.get(a, set()) for a in place)
                else "a unit")                  # aos4's faction terrain, set up before units
        parts.append(f"drag {what} from the reserve list onto the table to {_either(place)}")
    moves = [a for a in drag if a not in onto]
    if moves:
        parts.append(f"drag a unit to {_either(moves)}"
                     + (f", or onto an enemy to {_either(onto)}" if onto else ""))
    elif onto:
        parts.append(f"drag a unit onto an enemy to {_either(onto)}")
    if pick:
        parts.append(f"click {_either(pick)}, then your unit"
                     + (" and the target" if any("target" in fields.get(a, ()) for a in pick)
                        else ""))
    if rest:            # a side to pick (warband's first) is a button for each side
        named = [" or ".join(f"{a} {side}" for side in state.sides)
                 if fields.get(a) == {"side"} else a for a in rest]
        parts.append(("or " if parts else "") + f"click {_either(named)}")
    if passing:
        parts.append(f"{passing[0]} when done")
    return f"{where}: " + "; ".join(parts)


def decision_line(state: State) -> str:
    """'blue decides all-out-defence (red-archers shoot -> blue-drake): all-out-defence or
    decline' - and what the choices cost, from the vocabulary's explain: lines."""
    d = state.pending[0]
    said = about_words(dict(d.about)) if d.about else ""
    head = f"{d.side} decides {d.kind}" + (" (secret)" if d.secret else "")
    head += f" ({said})" if said else ""
    tips = {a.id: a.explain for a in state.scene.ruleset.actions if a.explain}
    cost = next((tips[a] for a in d.answers if a in tips and a == d.kind), "")
    # an answer no button gives (aos4's move after a charge roll): a drag of the unit
    who = d.get("unit") or "the unit"
    moves = [f"drag {who} to {t}" for t in d.open]
    return f"{head}: {_either([*moves, *(d.label(c) for c in d.choices)], 'or')}" + (
        f" - {cost}" if cost else "")


def opened_past(state: State) -> str:
    """When the acting side's turn opened past the turn's first phase and nothing has been
    done since: why ('; the turn opens here: no command phase on the battle's first turn')."""
    phases = tuple(state.rules.phases or ())
    if not phases or state.phase not in phases or state.phase == phases[0]:
        return ""
    turns = [i for i, e in enumerate(state.events) if e.get("type") == "turn"]
    if not turns:
        return ""
    last = state.events[turns[-1]]
    if last.get("phase") != state.phase or any(
            e.get("type") == "action" for e in state.events[turns[-1]:]):
        return ""
    skipped = phases[:phases.index(state.phase)]
    names = " and ".join(skipped)
    first = len(turns) == 1
    return (f" (the turn opens here: no {names} phase on the battle's first turn)" if first
            else f" (the turn opens here: no {names} phase this turn)")


def nothing_to_decide(state: State, offered: Sequence[str] | None = None) -> str:
    """Why the acting side has nothing to decide: for the first action offered besides the
    pass, the engine's reason no unit of the side may take it ('activate-place-of-power:
    red-pyromancer is not on a place of power'); '' when it gives none."""
    offered = state.available() if offered is None else offered
    passing = passes(state)
    side = state.acting_side
    units = [u.id for i, u in enumerate(state.scene.units)
             if state.side_of(i) == side and len(state.models_of(i))]
    for kind in offered:
        if kind in passing:
            continue
        for unit in units[:1] or [None]:
            bad = [v for v in state.check(Action(kind, unit=unit)) if v.choose is None]
            if bad:
                return f"{kind}: {bad[0].message}"
            if unit is not None and state.rules.futile(state, Action(kind, unit=unit)):
                return f"{kind} would change nothing"
        return f"no unit of {side} may {kind} now"
    return ""


def _either(names: Sequence[str], last: str = "or") -> str:
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


__all__ = ["what_now", "decision_line", "opened_past", "nothing_to_decide"]
