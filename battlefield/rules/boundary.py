"""The one boundary where outside data becomes an Action: every field of the type the action
vocabulary declares (the engine's own fields here; each ruleset's in ruleset.yaml's
`action_fields:`), every number finite and within bounds, sizes and nesting limited, and the
units and sides it names the scene's. A field that is not is a `bad_field` violation naming
the field's path (`path[0][1]`), reported like any other: `try` prints ILLEGAL, a server sends
it as `refused`. State.check asks `check` first, so no ruleset ever reads an unchecked value,
and an action object however malformed is refused, never raised on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from battlefield.inputs import (
    MAX_COORD,
    MAX_ITEMS,
    MAX_NAME,
    MAX_NUMBER,
    FieldType,
    HugeNumber,
    parse_type,
    plain_problem,
    shown,
)
from battlefield.names import after
from battlefield.rules.actions import KEYS, Action, ActionFormatError, Violation
from battlefield.yamlsource import format_path

if TYPE_CHECKING:
    from battlefield.rules.state import State
    from battlefield.rulesets import ActionDoc
    from battlefield.scene.model import Scene

CODE = "bad_field"
MAX_POINTS = 1000              # points of one path
MAX_MODELS = 1000              # model numbers of `paths`

# The engine's own fields (rules/actions.py), the same in every ruleset.
ENGINE_FIELDS = {
    "type": "text",
    "unit": "unit",
    "side": "side",
    "target": "unit | list of unit",
    "weapon": "text",
    "facing": "number -1000000..1000000",
    "path": "path",
    "paths": "paths",
}


@dataclass(frozen=True)
class FieldViolation(Violation):
    """A field of an action that is not of its declared type: `field` is its path."""

    field: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "field": self.field}


@dataclass(frozen=True)
class Refused:
    """Outside data that could not become an Action: what was sent (as far as it can be
    shown) and why. `try` reports it ILLEGAL like an action check refuses."""

    shown: dict[str, Any]
    violations: tuple[Violation, ...]

    def to_dict(self) -> dict[str, Any]:
        return self.shown


def bad(path: tuple[str | int, ...], message: str) -> FieldViolation:
    where = format_path(path)
    return FieldViolation(CODE, f"{where}: {message}" if where else message, field=where)


@cache
def _types(ruleset_fields: tuple[tuple[str, str], ...]) -> dict[str, FieldType]:
    out = {k: parse_type(v) for k, v in ENGINE_FIELDS.items()}
    out.update({k: parse_type(v) for k, v in ruleset_fields})
    return out


def field_types(scene: Scene) -> dict[str, FieldType]:
    """The type of every field an action may have in this scene's ruleset."""
    return _types(scene.ruleset.action_fields)


def option_problem(field: str, value: Any) -> str | None:
    """Why a command-line option that stands for an action's field (play --to: a "point",
    --facing: the engine's "facing") is not of its type, as bad_field says it; None: it is."""
    t = parse_type("point") if field == "point" else _types(())[field]
    problem = _point(value, ()) if t.kind == "point" else _number(value, t, ())
    return None if problem is None else problem[1]


# --- scenes played as battles --------------------------------------------------------------------
def playable_units(scene: Scene,
                   stats_of: Callable[[Scene, int], Mapping[str, Any]] | None = None) -> None:
    """Every unit gives the characteristics its ruleset needs to play (ruleset.yaml's
    `unit_needs:`); one left out is an InputError at the unit's stats, naming what is missing
    - not a battle played with a Move of 0 nobody stated. `stats_of` (Ruleset.given_stats):
    a unit's characteristics as its ruleset reads them (openwg: its `build:` gives them too)."""
    needs = scene.ruleset.unit_needs
    for i, u in enumerate(scene.units):
        given = stats_of(scene, i) if stats_of is not None else u.stats
        missing = [k for k in needs if given.get(k) is None]
        if missing:
            path = (*(getattr(u, "path", None) or ("units", i)), "stats")
            raise scene.error(path, f"{u.id} has no {', '.join(missing)}: {scene.ruleset.id} "
                                    f"needs {', '.join(needs)} to play it",
                              f"stats: {{{', '.join(f'{k}: ...' for k in needs)}}}")


# --- the vocabulary: which keys an action carries, and when it is used ---------------------------
def declared(state: State, action: Action, doc: ActionDoc | None, when: tuple[str, ...]
             ) -> list[Violation]:
    """`unknown_key` for a key the action's vocabulary entry (`doc`, ruleset.yaml) does not
    declare (nor `shorthand:` lists), else `wrong_phase` when the phase is not one of `when`;
    nothing for a type with no entry."""
    if doc is not None:
        given = [k for k in KEYS[1:] if getattr(action, k) is not None]
        odd = [k for k in given + [k for k, _ in action.options]
               if k not in doc.keys and k not in doc.shorthand]
        if odd:
            return [Violation("unknown_key", f"unknown key '{odd[0]}' in a {action.type} action "
                                             f"(valid: {', '.join(doc.keys)})")]
    problem = phase_problem(state, action.type, when)
    return [problem] if problem else []


WHOSE = {"your": "the acting side's own", "enemy": "the enemy's"}


def in_phase(state: State, when: tuple[str, ...]) -> bool:
    """Whether the state's phase is one of `when` ("movement", "your movement": the acting
    side's own turn, "enemy movement": the other side's); empty: any phase."""
    mine = state.acting_side == state.active
    for w in when:
        whose, _, phase = w.rpartition(" ")
        if phase == state.phase and (whose in ("", "any") or (whose == "your") == mine):
            return True
    return not when


def phase_problem(state: State, kind: str, when: tuple[str, ...]) -> Violation | None:
    """`wrong_phase` when an action of type `kind`, used in the phases `when`, comes in any
    other; None when it is in one of them."""
    if in_phase(state, when):
        return None
    if any(" " in w for w in when):
        said = " or ".join(f"{WHOSE.get(w.rpartition(' ')[0], 'any')} {w.rpartition(' ')[2]}"
                           f" phase" for w in when)
        return Violation("wrong_phase", f"{kind} is used in the {said}; it is {state.active}'s "
                                        f"{state.phase} phase and {state.acting_side} is "
                                        f"acting")
    return Violation("wrong_phase", f"{kind} is a {' or '.join(when)} phase action; it is the "
                                    f"{state.phase} phase of round {state.round}")


# --- actions ------------------------------------------------------------------------------------
def check(state: State, action: Any) -> list[Violation]:
    """Why `action`'s fields cannot be read by the rules (empty: they can). Never raises."""
    try:
        if not isinstance(action, Action):
            return [bad((), f"{shown(action)} is not an action")]
        return _check_fields(state.scene, _fields_of(action))
    except Exception as exc:          # the boundary itself never raises on any input
        return [bad((), f"not an action the engine can read ({type(exc).__name__})")]


def read(data: Any, scene: Scene) -> Action | Refused:
    """Outside data (a JSON object) as an Action, or Refused with bad_field violations."""
    if not isinstance(data, Mapping):
        return Refused({"type": "?"}, (bad((), f"an action is a JSON object with a \"type\", "
                                                f"not {shown(data)}"),))
    try:
        problems = _check_fields(scene, dict(data))
        if problems:
            return Refused(display(data), tuple(problems))
        return Action.from_dict(data)
    except ActionFormatError as exc:
        return Refused(display(data), (bad(getattr(exc, "field", ()), str(exc)),))
    except Exception as exc:
        return Refused(display(data), (bad((), f"not an action the engine can read "
                                               f"({type(exc).__name__})"),))


def display(data: Mapping[str, Any]) -> dict[str, Any]:
    """What was sent, safe to print and to write as strict JSON: text cut short, anything
    not finite or not plain given as its (short) repr."""
    out: dict[str, Any] = {}
    for k, v in list(data.items())[:20]:
        key = k if isinstance(k, str) and len(k) <= MAX_NAME else shown(k, 40)
        out[key] = v if plain_problem(v) is None and len(shown(v, 10_000)) <= 2000 \
            else shown(v)
    t = out.get("type")
    out["type"] = t if isinstance(t, str) and 0 < len(t) <= MAX_NAME else shown(t, 40)
    if "unit" in out and not (isinstance(out["unit"], str) and len(out["unit"]) <= MAX_NAME):
        out["unit"] = shown(out["unit"], 40)
    return out


def _fields_of(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.type}
    for name in KEYS[1:]:
        value = getattr(action, name, None)
        if value is not None:
            out[name] = value
    options = action.options
    if not isinstance(options, tuple) or not all(
            isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) for o in options):
        raise TypeError("options")
    for k, v in options:
        if k in out or k in KEYS:
            raise TypeError("option named like a field")
        out[k] = v
    return out


def _check_fields(scene: Scene, fields: dict[str, Any]) -> list[Violation]:
    types = field_types(scene)
    if "type" not in fields:
        return [bad(("type",), "missing: an action needs a \"type\" (the ability id)")]
    out: list[Violation] = []
    unit = fields.get("unit")
    for name, value in fields.items():
        if not isinstance(name, str) or len(name) > MAX_NAME:
            out.append(bad((), f"{shown(name, 40)} is not a field name"))
            continue
        if value is None and name != "type":
            continue
        ftype = types.get(name)
        if ftype is None:                   # a key no action declares: the ruleset names it
            problem = plain_problem(value)
            if problem:
                out.append(bad((name, *problem[0]), problem[1]))
            continue
        problem = _problem(value, ftype, scene, (name,), unit)
        if problem:
            out.append(bad(*problem))
        if len(out) >= 5:
            break
    return out


Problem = tuple[tuple[str | int, ...], str] | None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _pairs(value: Any) -> list[tuple[Any, Any]] | None:
    """A mapping's items, whether it came as JSON (a dict), frozen in an Action (a tuple of
    pairs) or as Action.to_dict writes a frozen one ([key, value] pairs: what logs, the bot and
    the joined window send, which Action.from_dict freezes to the same action)."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, (tuple, list)) and all(
            isinstance(p, (tuple, list)) and len(p) == 2 for p in value):
        return [(p[0], p[1]) for p in value]
    return None


def _problem(value: Any, t: FieldType, scene: Scene, path: tuple[str | int, ...],
             unit: Any) -> Problem:
    k = t.kind
    if k == "any-of":
        failures = []
        for option in t.options:
            p = _problem(value, option, scene, path, unit)
            if p is None:
                return None
            failures.append(p)
        deeper = [f for f in failures if len(f[0]) > len(path)]
        if len(deeper) == 1:
            return deeper[0]
        lists = [f for o, f in zip(t.options, failures, strict=True) if o.kind == "list"]
        if isinstance(value, (list, tuple)) and len(lists) == 1:
            return lists[0]            # a list for the list option: why that list is not it
        names = [f for o, f in zip(t.options, failures, strict=True) if o.kind == "unit"]
        if isinstance(value, str) and len(names) == 1:
            return names[0]            # a name for the unit option: no such unit (did you mean)
        return path, f"{shown(value)} is not {t.text}"
    if k in ("text", "unit", "side"):
        if not isinstance(value, str):
            return path, f"{shown(value)} is not {_article(k)}"
        if not value or len(value) > MAX_NAME or not value.isprintable():
            return path, f"{shown(value)} is not a name (1..{MAX_NAME} printable characters)"
        if k == "unit" and value not in {u.id for u in scene.units}:
            ids = ", ".join(u.id for u in scene.units[:12]) or "none"
            more = ", ..." if len(scene.units) > 12 else ""
            near = after(value, (u.id for u in scene.units))
            return path, f"no unit {shown(value)} (units: {ids}{more}){near}"
        if k == "side" and value not in scene.sides:
            return path, (f"no side {shown(value)} (sides: {', '.join(scene.sides) or 'none'})"
                           f"{after(value, scene.sides)}")
        return None
    if k == "yes-no":
        return None if isinstance(value, bool) else (path, f"{shown(value)} is not true or "
                                                           f"false")
    if k in ("whole", "number"):
        return _number(value, t, path)
    if k == "point":
        return _point(value, path)
    if k == "path":
        return _path(value, path)
    if k == "paths":
        return _paths(value, scene, path, unit)
    if k == "mapping":
        pairs = _pairs(value)
        if pairs is None:
            return path, f"{shown(value)} is not a mapping"
        if len(pairs) > MAX_ITEMS:
            return path, f"{len(pairs):,} keys, more than {MAX_ITEMS}"
        for key, v in pairs:
            if not isinstance(key, str) or len(key) > MAX_NAME:
                return path, f"key {shown(key)} is not a name"
            p = plain_problem(v)
            if p:
                return (*path, key, *p[0]), p[1]
        return None
    if k == "list":
        if not isinstance(value, (list, tuple)):
            return path, f"{shown(value)} is not {t.text}"
        if not value:          # [] names nothing: not "no target" made good by a rule
            return path, f"[] is an empty list (expected {t.text}: at least one, or leave " \
                         f"the field out)"
        if len(value) > MAX_ITEMS:
            return path, f"{len(value):,} items, more than {MAX_ITEMS}"
        for i, v in enumerate(value):
            p = _problem(v, t.item, scene, (*path, i), unit)
            if p:
                return p
        return None
    if k in ("side-map", "unit-map"):
        pairs = _pairs(value)
        if pairs is None:
            return path, f"{shown(value)} is not a mapping ({t.text})"
        if len(pairs) > MAX_ITEMS:
            return path, f"{len(pairs):,} keys, more than {MAX_ITEMS}"
        keyed = "side" if k == "side-map" else "unit"
        for key, v in pairs:
            p = _problem(key, FieldType(keyed, text=keyed), scene, (*path, str(key)[:40]),
                         unit)
            if p:
                return p
            p = _problem(v, t.item, scene, (*path, key), unit)
            if p:
                return p
        return None
    return path, f"has a type the engine does not know ({t.text})"


def _article(kind: str) -> str:
    return {"text": "text", "unit": "a unit id", "side": "a side"}[kind]


def _number(value: Any, t: FieldType, path: tuple[str | int, ...]) -> Problem:
    if isinstance(value, HugeNumber):
        return path, f"{value!r} is out of bounds"
    if not _is_number(value):
        what = "a whole number" if t.kind == "whole" else "a number"
        return path, f"{shown(value)} is not {what}"
    if isinstance(value, float) and not math.isfinite(value):
        return path, f"{value!r} is not a finite number"
    if t.kind == "whole" and not isinstance(value, int):
        return path, f"{shown(value)} is not a whole number"
    low = -MAX_NUMBER if t.low is None else t.low
    high = MAX_NUMBER if t.high is None else t.high
    if not low <= value <= high:
        return path, f"{shown(value, 40)} is out of bounds ({low:g} .. {high:g})"
    return None


def _point(value: Any, path: tuple[str | int, ...]) -> Problem:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return path, f"{shown(value)} is not an [x, y] point in inches"
    for i, c in enumerate(value):
        if isinstance(c, HugeNumber):
            return (*path, i), f"{c!r} is out of bounds"
        if not _is_number(c):
            return (*path, i), f"{shown(c)} is not a number"
        if isinstance(c, float) and not math.isfinite(c):
            return (*path, i), f"{c!r} is not a finite number"
        if not -MAX_COORD <= c <= MAX_COORD:
            return (*path, i), f"{shown(c, 40)} is off any table (-{MAX_COORD:g} .. " \
                               f"{MAX_COORD:g} inches)"
    return None


def _path(value: Any, path: tuple[str | int, ...]) -> Problem:
    if not isinstance(value, (list, tuple)) or not value:
        return path, f"{shown(value)} is not a list of [x, y] points"
    if len(value) > MAX_POINTS:
        return path, f"{len(value):,} points, more than {MAX_POINTS}"
    for i, p in enumerate(value):
        problem = _point(p, (*path, i))
        if problem:
            return problem
    return None


def _paths(value: Any, scene: Scene, path: tuple[str | int, ...], unit: Any) -> Problem:
    pairs = _pairs(value)
    if pairs is None or not pairs:
        return path, f"{shown(value)} is not model numbers with their paths, e.g. " \
                     f"{{\"1\": [[10, 4], [12, 6]]}}"
    n = MAX_MODELS
    if isinstance(unit, str):
        n = next((len(u.models) for u in scene.units if u.id == unit), MAX_MODELS)
    for key, pts in pairs:
        number = key if isinstance(key, int) and not isinstance(key, bool) else (
            int(key) if isinstance(key, str) and key.isascii() and key.isdecimal()
            and len(key) <= 6 else None)
        if number is None or not 1 <= number <= n:
            return (*path, str(key)[:40]), f"{shown(key, 40)} is not a model number (1..{n})"
        problem = _path(pts, (*path, str(key)))
        if problem:
            return problem
    return None
