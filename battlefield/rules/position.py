"""Positions: a whole game moment written into a scene's `state:` key, like a chess FEN.

A position is everything a State holds beyond the scene's geometry: the clock (round, phase,
active and acting side, and the ruleset's own counters), every side's resources (command and
victory points, morale tokens, cards, bombardment tokens ...), objective control, per unit the
damage on each model, the slain models, its flags for the turn, the abilities used this phase
and its counters, the ruleset's extra state, the decisions awaited, and the dice generator's
position. Models stand where the scene's units put them (slain models keep their last place).

`write(state)` gives the `state:` mapping; `Game.new_state` reads it back through `restore`
after the ruleset's setup (and `probe`s it), so the game goes on exactly as it would have: same
dice, same rulings. The ruleset's own start keys (`round`, `active`, `command_points`,
`morale` ...) stay as shorthand for a battle that starts at the top of a round. What a person
reads of a position is in rules/summary.py.
"""

from __future__ import annotations

import copy
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from battlefield.errors import InputError
from battlefield.inputs import plain_problem, shown
from battlefield.rules import decisions
from battlefield.rules.actions import ActionFormatError
from battlefield.rules.summary import plain, summary

if TYPE_CHECKING:
    from battlefield.rules.state import State

# The keys of a whole position; a ruleset's start keys (round, active, ...) may stand beside.
POSITION_KEYS = ("phase", "acting", "clock", "sides", "objectives", "units", "extra", "dice",
                 "pending")
UNIT_KEYS = ("damage", "slain", "flags", "used", "counters")


def write(state: State) -> dict[str, Any]:
    """The `state:` mapping that gives this position back."""
    c = state.clock
    units: dict[str, Any] = {}
    for spec, us in zip(state.scene.units, state.units, strict=True):
        item: dict[str, Any] = {}
        if us.damage.any():
            item["damage"] = [int(d) for d in us.damage]
        slain = [k + 1 for k, alive in enumerate(us.alive) if not alive]
        if slain:
            item["slain"] = slain
        if us.flags:
            item["flags"] = sorted(us.flags)
        if us.phase_used:
            item["used"] = sorted(us.phase_used)
        if us.counters:
            item["counters"] = plain(us.counters)
        if item:
            units[spec.id] = item
    out: dict[str, Any] = {}
    for key in ("round", "phase", "active"):
        if c.get(key) is not None:
            out[key] = plain(c[key])
    if not state.over:
        out["acting"] = state.acting_side
    out.update({"clock": plain(c), "sides": plain(state.sides),
                "objectives": plain(state.objectives)})
    if units:
        out["units"] = units
    if state.extra:
        out["extra"] = plain(state.extra)
    pending = decisions.to_position(state)
    if pending is not None:
        out["pending"] = plain(pending)
    out["dice"] = int(state.dice.state)
    return out


def is_position(start: dict[str, Any]) -> bool:
    """Whether a scene's `state:` is a whole position (not only a round's start)."""
    return "clock" in start


# Clock keys that name a side when they are set; a list of sides.
SIDE_KEYS = ("active", "acting")      # every ruleset's; its own are Ruleset.clock_sides


def restore(state: State, start: dict[str, Any]) -> None:
    """Put the position `start` (a scene's `state:` mapping) into a state just set up. In its
    clock, each side's resources and `extra`, a key the ruleset's own start has must hold the
    same kind of value (a count, text, yes / no, a list, a mapping), as `try --out` writes it;
    a key left out keeps the start's value."""
    bad = plain_problem(start)          # every number finite, nothing nested too deep
    if bad:
        raise _error(state, bad[0], bad[1], "a position as `try --out` writes it")
    clock = _like(state, _mapping(state, start["clock"], ("clock",)), state.clock, ("clock",))
    _clock(state, clock)
    state.clock = clock
    sides = _mapping(state, start.get("sides", {}), ("sides",))
    for side, res in sides.items():
        if side not in state.sides:
            raise _error(state, ("sides", side), f"no side {side!r}",
                         f"one of {', '.join(state.sides)}")
        state.sides[side] = _like(state, _mapping(state, res, ("sides", side)),
                                  state.sides[side], ("sides", side))
    objectives = _mapping(state, start.get("objectives", {}), ("objectives",))
    for oid, held in objectives.items():
        if oid not in state.objectives:
            raise _error(state, ("objectives", oid), f"no objective {shown(oid)}",
                         f"one of {', '.join(state.objectives)}" if state.objectives
                         else "no objectives: the scene has none")
        if held is not None and (not isinstance(held, str) or held not in state.sides):
            raise _error(state, ("objectives", oid), f"{shown(held)} is not a side",
                         f"one of {', '.join(state.sides)}, or null")
        state.objectives[oid] = held
    state.extra = _like(state, _mapping(state, start.get("extra", {}), ("extra",)),
                        state.extra, ("extra",))
    _units(state, _mapping(state, start.get("units", {}), ("units",)))
    if "pending" in start:
        pending = _mapping(state, start["pending"], ("pending",))
        try:
            decisions.from_position(state, pending)
        except (KeyError, TypeError, ValueError, ActionFormatError) as exc:
            raise _error(state, ("pending",), f"not decisions as `try --out` writes them "
                                              f"({type(exc).__name__}: {exc})") from None
    if "dice" in start:
        dice = start["dice"]
        if not isinstance(dice, int) or isinstance(dice, bool) or not 0 <= dice < 2 ** 64:
            raise _error(state, ("dice",), f"{dice!r} is not the dice generator's position",
                         "a whole number 0 .. 2**64 - 1, as `try --out` writes it")
        state.dice.state = dice


def probe(state: State) -> None:
    """Ask a restored position what every command asks of it (its summary, the abilities
    legal now, what the ruleset draws, its fingerprint): one that fails there is refused now,
    with what failed, rather than in the middle of a command."""
    try:
        summary(state)
        state.rules.available(state)
        state.rules.window.marks(state)
        state.fingerprint()
    except Exception as exc:       # whatever a ruleset meets in a position it cannot use
        raise _error(state, (), f"not a position {state.rules.id} can go on from "
                                f"({type(exc).__name__}: {exc})",
                     "a position as `try --out` writes it") from None


def _units(state: State, units: dict[str, Any]) -> None:
    for uid, item in units.items():
        try:
            u = state.scene.unit_index(uid)
        except KeyError:
            raise _error(state, ("units", uid), f"no unit {uid!r}") from None
        at = ("units", uid)
        item = _mapping(state, item, at)
        odd = [k for k in item if k not in UNIT_KEYS]
        if odd:
            raise _error(state, (*at, odd[0]), "unknown key", ", ".join(UNIT_KEYS))
        us = state.units[u]
        n = len(us.alive)
        if "damage" in item:
            dmg = item["damage"]
            if (not isinstance(dmg, list) or len(dmg) != n
                    or not all(isinstance(d, int) and not isinstance(d, bool)
                               and 0 <= d < 2 ** 31 for d in dmg)):
                raise _error(state, (*at, "damage"), f"{dmg!r} is not the unit's damage",
                             f"{n} whole number{'s' if n != 1 else ''}, one per model")
            us.damage[:] = dmg
        slain = item.get("slain", [])
        if not isinstance(slain, list) or not all(isinstance(k, int) and 1 <= k <= n
                                                  for k in slain) or len(set(slain)) < len(slain):
            raise _error(state, (*at, "slain"), f"{slain!r} is not a list of the unit's models",
                         f"model numbers 1..{n}, each once")
        if slain:
            first = state.scene.model_offsets()[u]
            state.slay(u, [first + k - 1 for k in slain])
        us.flags = set(_strings(state, item.get("flags", []), (*at, "flags")))
        us.phase_used = set(_strings(state, item.get("used", []), (*at, "used")))
        counters = dict(_mapping(state, item.get("counters", {}), (*at, "counters")))
        for key, n in counters.items():
            if isinstance(n, bool) or not isinstance(n, (int, float)):
                raise _error(state, (*at, "counters", key), f"{shown(n)} is not a count",
                             "a number")
        us.counters = counters


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "yes / no"
    if isinstance(value, (int, float)):
        return "a count"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def _like(state: State, given: dict[str, Any], fresh: dict[str, Any],
          path: tuple[str | int, ...]) -> dict[str, Any]:
    """`given` over `fresh` (the ruleset's own start), copied: a key of `fresh` holds the same
    kind of value in `given` (a key empty at the start, null, may hold text; counts are 0 or
    more); one left out keeps `fresh`'s value."""
    for key, want in fresh.items():
        if key not in given:
            continue
        value, at = given[key], (*path, key)
        kind, wanted = _kind(value), _kind(want)
        if want is None:
            ok = value is None or isinstance(value, str)
        elif wanted == "a count":
            ok = kind == "a count" and value >= 0
        else:
            ok = kind == wanted
        if not ok:
            raise _error(state, at, f"{shown(value)} is the wrong kind of value",
                         "text or null" if want is None else
                         "a count, 0 or more" if wanted == "a count" else wanted)
        _shaped(state, value, want, at)
    return copy.deepcopy({**fresh, **given})


def _template(values: list[Any]) -> tuple[Any, bool] | None:
    """What the values of a list or mapping at the ruleset's start share: (a sample of their one
    kind - mappings merged, so every key seen has its sample - and whether null was among
    them), or None when they are of several kinds or there are none."""
    kinds = {_kind(v) for v in values if v is not None}
    if len(kinds) != 1:
        return None
    some = [v for v in values if v is not None]
    if isinstance(some[0], dict):
        merged: dict[str, Any] = {}
        for v in some:
            for k, x in v.items():
                merged.setdefault(k, x)
        return merged, len(some) < len(values)
    if isinstance(some[0], list):
        return [x for v in some for x in v][:50], len(some) < len(values)
    return some[0], len(some) < len(values)


def _shaped(state: State, value: Any, want: Any, path: tuple[str | int, ...]) -> None:
    """Inside a clock, resource or extra key: `value` is shaped like `want` (the ruleset's own
    start) as far as `want` shows a shape - a mapping's known keys hold their kinds, the
    items of a list or mapping whose items at the start were all of one kind are of that
    kind - so a ruleset never meets a null where it keeps a mapping, or text where a count."""
    if isinstance(want, dict) and isinstance(value, dict):
        shared = _template(list(want.values()))
        for k, v in value.items():
            sample, nullable = ((want[k], want[k] is None) if k in want
                                else shared if shared is not None else (None, True))
            _one(state, v, sample, nullable, (*path, k))
    elif isinstance(want, list) and isinstance(value, list):
        shared = _template(want)
        if shared is not None:
            for i, v in enumerate(value):
                _one(state, v, shared[0], shared[1], (*path, i))


def _null_allowed(state: State, path: tuple[str | int, ...]) -> bool:
    """The ruleset's `position_nulls:` (key paths, * for any one key) allow a null here."""
    where = ".".join(str(p) for p in path)
    return any(fnmatchcase(where, pattern)
               for pattern in state.scene.ruleset.position_nulls)


def _one(state: State, value: Any, sample: Any, nullable: bool,
         path: tuple[str | int, ...]) -> None:
    if sample is None:
        return                     # nothing to go by
    if value is None:
        if not nullable and not _null_allowed(state, path):
            raise _error(state, path, "null is the wrong kind of value", _kind(sample))
        return
    kind, wanted = _kind(value), _kind(sample)
    if kind != wanted and not (wanted == "a count" and kind == "a count"):
        raise _error(state, path, f"{shown(value)} is the wrong kind of value", wanted)
    _shaped(state, value, sample, path)


def _clock(state: State, clock: dict[str, Any]) -> None:
    """The clock's sides are the scene's sides, its phase one of the ruleset's."""
    sides = list(state.sides)
    for key in (*SIDE_KEYS, *state.rules.clock_sides):
        if isinstance(clock.get(key), str) and clock[key] not in sides:
            raise _error(state, ("clock", key), f"no side {clock[key]!r}",
                         f"one of {', '.join(sides)}")
    for key in state.rules.clock_side_lists:
        if isinstance(clock.get(key), list) and any(s not in sides for s in clock[key]):
            raise _error(state, ("clock", key), f"{clock[key]!r} is not a list of sides",
                         f"sides from {', '.join(sides)}")
    phases = state.rules.phases
    if phases and isinstance(clock.get("phase"), str) and clock["phase"] not in phases:
        raise _error(state, ("clock", "phase"), f"{clock['phase']!r} is not a phase",
                     ", ".join(phases))


def _error(state: State, path: tuple[str | int, ...], message: str,
           expected: str | None = None) -> InputError:
    """A bad value in the scene's `state:` position, with its file, key path and line."""
    return state.scene.error(("state", *path), message, expected)


def _mapping(state: State, value: Any, path: tuple[str | int, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _error(state, path, f"expected a mapping, not {type(value).__name__}")
    return value


def _strings(state: State, value: Any, path: tuple[str | int, ...]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _error(state, path, f"{value!r} is not a list of names", "[name, ...]")
    return value
