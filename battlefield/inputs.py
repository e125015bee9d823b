"""Outside data at the edge: limits on size and nesting, JSON read with every number finite and
bounded, and the small language of field types an action vocabulary declares (ruleset.yaml's
`action_fields:`). Past this module (and rules/boundary.py, which applies it to actions) code
trusts its values: no NaN, no 5,000-digit number, no structure nested 5,000 deep."""

from __future__ import annotations

import json
import math
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.errors import InputError, UsageError

MAX_TEXT = 64 * 1024          # characters of one action, frame or log line
MAX_DEPTH = 32                # nested lists and mappings in one value
MAX_ITEMS = 2000              # items of one list or mapping
MAX_DIGITS = 30               # digits of one integer
MAX_NAME = 200                # characters of one id or name
MAX_COORD = 10_000.0          # inches from the table's corner, either way
MAX_NUMBER = 1e9              # any other number, either way
SHOWN = 80                    # characters of a bad value quoted in a message


MAX_FILE_BYTES = 16 * 1024 * 1024   # a scene, map, ruleset file or game log: far past any real one


def readable_file(path: Path, name: str, what: str, expected: str) -> None:
    """Refuse before reading what is no file of a sane size (/dev/zero, a FIFO, 50 MB): an
    InputError in one line naming the file. `what`: "a scene or map" ... for the message."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(name, "", None, "no such file") from None
    except OSError as exc:
        raise InputError(name, "", None, f"cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(name, "", None, "is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(name, "", None, "is not a regular file (a device or a pipe)", expected)
    if st.st_size > MAX_FILE_BYTES:
        raise InputError(name, "", None, f"is {st.st_size / 1e6:.1f} MB, more than the "
                         f"{MAX_FILE_BYTES // (1024 * 1024)} MB {what} may be", "a smaller file")


def shown(value: Any, limit: int = SHOWN) -> str:
    """A value as a message quotes it: its repr, cut to `limit` characters."""
    try:
        text = repr(value)
    except Exception:          # a repr that fails (or recurses) is not quoted
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-2:]}"


class HugeNumber:
    """A number written with more than MAX_DIGITS digits: kept as what it is (never converted,
    which would take seconds or fail) so the check of its field can name it."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HugeNumber) and other.digits == self.digits

    def __hash__(self) -> int:
        return hash(("HugeNumber", self.digits))


def plain_whole(text: str) -> int | None:
    """A whole number written in plain digits 0-9, at most MAX_DIGITS of them (the N of
    'UNIT/N' in measure, play --drag and pages; a version in a URL), else None - never int() of
    5,000 digits (a ValueError), of another script's digits, of "1_000" or of " 5 "."""
    ok = text.isascii() and text.isdecimal() and len(text) <= MAX_DIGITS
    return int(text) if ok else None


def _int(text: str) -> int | HugeNumber:
    digits = len(text.lstrip("-"))
    return HugeNumber(digits) if digits > MAX_DIGITS else int(text)


def _float(text: str) -> float | HugeNumber:
    if len(text) > 4 * MAX_DIGITS:
        return HugeNumber(len(text))
    return float(text)          # 1e999 is inf: the field's check refuses it as not finite


class _TwiceGiven(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: {"type": "end-phase", "type": "run"} is
    no action (json.loads would take the last one silently; YAML files refuse it too)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _TwiceGiven(k)
        out[k] = v
    return out


def nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest (outside strings), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def loads(text: str, what: str, limit: int | None = MAX_TEXT) -> Any:
    """A JSON text from outside (an --action, a log line, a network frame): refused in one line
    naming `what` when it is longer than `limit` characters (None: any length), nested too deep,
    not JSON or an object in it gives a key twice. NaN, Infinity and numbers too big for a float
    are read as the non-finite floats they are (HugeNumber past MAX_DIGITS digits), for the
    check of the field that holds them to name."""
    if limit is not None and len(text) > limit:
        raise UsageError(f"{what}: {len(text):,} characters, more than the {limit:,} it may "
                         f"have")
    if nesting(text) > MAX_DEPTH:
        raise UsageError(f"{what}: nested more than {MAX_DEPTH} deep (lists and objects)")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, object_pairs_hook=_object)
    except _TwiceGiven as exc:
        raise UsageError(f"{what}: key {shown(exc.key, 40)} is given twice (expected each key "
                         f"once in an object)") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what}: not JSON ({exc.msg} at column {exc.colno}): "
                         f"{shown(text)}") from None
    except RecursionError:       # unreachable past nesting(); kept so it is never a traceback
        raise UsageError(f"{what}: nested too deep") from None


def dumps(data: Any, **kw: Any) -> str:
    """Strict JSON: a NaN or infinity anywhere is an error here, never `NaN` in the output."""
    return json.dumps(data, allow_nan=False, **kw)


def plain_problem(value: Any, depth: int = 0) -> tuple[tuple[str | int, ...], str] | None:
    """The first thing in a value read from outside that code past the boundary could not
    trust: a non-finite or out-of-bounds number, a too long text or list, nesting too deep,
    something not JSON-like. (key path inside the value, what is wrong), or None."""
    if depth > MAX_DEPTH:
        return (), f"nested more than {MAX_DEPTH} deep"
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, HugeNumber):
        return (), f"{value!r} is out of bounds"
    if isinstance(value, int):
        return None if abs(value) <= 10 ** MAX_DIGITS else ((), "is out of bounds")
    if isinstance(value, float):
        if not math.isfinite(value):
            return (), f"{value!r} is not a finite number"
        return None
    if isinstance(value, str):
        return None if len(value) <= MAX_TEXT else ((), f"text of {len(value):,} characters")
    if isinstance(value, Mapping):
        if len(value) > MAX_ITEMS:
            return (), f"{len(value):,} keys, more than {MAX_ITEMS}"
        for k, v in value.items():
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                return (), f"key {shown(k)} is not text"
            bad = plain_problem(v, depth + 1)
            if bad:
                return (k, *bad[0]), bad[1]
        return None
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS:
            return (), f"{len(value):,} items, more than {MAX_ITEMS}"
        for i, v in enumerate(value):
            bad = plain_problem(v, depth + 1)
            if bad:
                return (i, *bad[0]), bad[1]
        return None
    return (), f"{shown(value)} is not a plain value (text, number, yes / no, list, mapping)"


# --- field types --------------------------------------------------------------------------------
# A field's type is alternatives joined by " | ", each one of:
#   text  unit  side  yes-no  point  path  paths  mapping
#   whole [MIN..MAX]   number [MIN..MAX]
#   list of T          (T: any one type, in parentheses when it has alternatives; one item
#                       or more: [] names nothing, and is refused)
#   side -> T  /  unit -> T   (a mapping from the scene's sides / unit ids to T)
SIMPLE = ("text", "unit", "side", "yes-no", "point", "path", "paths", "mapping")


@dataclass(frozen=True)
class FieldType:
    """One parsed type: `kind` with its `low`..`high` bounds (whole, number), the type of its
    items (list of, side ->, unit ->) and its alternatives (kind "any-of")."""

    kind: str
    low: float | None = None
    high: float | None = None
    item: FieldType | None = None
    options: tuple[FieldType, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return self.text


class FieldTypeError(ValueError):
    """A field type written wrongly in a ruleset's data."""


_TOKEN = re.compile(r"\s*(->|\.\.|[()|]|-?\d+(?:\.\d+)?|[a-z][a-z-]*)")


def parse_type(text: str) -> FieldType:
    """The FieldType written as `text` (see above); FieldTypeError says what is wrong."""
    tokens, pos = [], 0
    text = str(text)
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or not m.group(1):
            if text[pos:].strip() == "":
                break
            raise FieldTypeError(f"cannot read {text[pos:]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    out, rest = _alternatives(tokens, 0)
    if rest != len(tokens):
        raise FieldTypeError(f"unexpected {tokens[rest]!r}")
    return out


def _alternatives(tokens: list[str], i: int) -> tuple[FieldType, int]:
    start = i
    options = []
    t, i = _term(tokens, i)
    options.append(t)
    while i < len(tokens) and tokens[i] == "|":
        t, i = _term(tokens, i + 1)
        options.append(t)
    if len(options) == 1:
        return options[0], i
    return FieldType("any-of", options=tuple(options),
                     text=" | ".join(o.text for o in options)), i if i > start else i


def _term(tokens: list[str], i: int) -> tuple[FieldType, int]:
    if i >= len(tokens):
        raise FieldTypeError("a type is missing")
    word = tokens[i]
    if word == "(":
        t, i = _alternatives(tokens, i + 1)
        if i >= len(tokens) or tokens[i] != ")":
            raise FieldTypeError("a closing ')' is missing")
        return FieldType(t.kind, t.low, t.high, t.item, t.options, f"({t.text})"), i + 1
    if word == "list":
        if i + 1 >= len(tokens) or tokens[i + 1] != "of":
            raise FieldTypeError("'list' goes with 'of': list of TYPE")
        item, i = _term(tokens, i + 2)
        return FieldType("list", item=item, text=f"list of {item.text}"), i
    if word in ("side", "unit") and i + 1 < len(tokens) and tokens[i + 1] == "->":
        item, i = _term(tokens, i + 2)
        return FieldType(f"{word}-map", item=item, text=f"{word} -> {item.text}"), i
    if word in ("whole", "number"):
        low = high = None
        if i + 3 < len(tokens) + 0 and _is_num(tokens[i + 1]) and tokens[i + 2] == "..":
            if i + 3 >= len(tokens) or not _is_num(tokens[i + 3]):
                raise FieldTypeError(f"{word} MIN..MAX needs its MAX")
            low, high = float(tokens[i + 1]), float(tokens[i + 3])
            if low > high:
                raise FieldTypeError(f"{word} {tokens[i + 1]}..{tokens[i + 3]}: MIN > MAX")
            return FieldType(word, low, high,
                             text=f"{word} {tokens[i + 1]}..{tokens[i + 3]}"), i + 4
        return FieldType(word, text=word), i + 1
    if word in SIMPLE:
        return FieldType(word, text=word), i + 1
    raise FieldTypeError(f"unknown type {word!r} (types: {', '.join(SIMPLE)}, whole, number, "
                         f"list of T, side -> T, unit -> T)")


def _is_num(token: str) -> bool:
    return re.fullmatch(r"-?\d+(?:\.\d+)?", token) is not None
