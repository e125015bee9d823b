"""A ruleset's own data files read into frozen dataclasses, the reader generated from the class.

A ruleset declares what its file holds once, as a dataclass whose fields say their type and,
where the file's words differ or the value has bounds, `item(...)`:

    @dataclass(frozen=True)
    class GameData:
        rounds: int = item(least=1)
        climb_free: float = item("movement.climb_free", least=0)   # movement: {climb_free: 2}
        keywords: tuple[str, ...] = item("bombardment.keywords", upper=True)

and `read(GameData, folder / "game.yaml")` checks the file against it: every key there and no
other (an unknown key is an error listing the valid ones, at its line), each value of its type
(whole and real numbers with their bounds, words, dice, lists and sets, sections as nested
dataclasses, lists of dataclasses, {name: whole number} tables), every error one line naming
the file, the key path and the line. A value no type describes is read by the field's own
`read=`; a field the file does not hold is `unread(default)`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from battlefield.rules.dice import DiceError, parse
from battlefield.yamlsource import Reader

T = TypeVar("T")
Path_ = tuple[Any, ...]
Read = Callable[[Reader, Path_, Any], Any]


def item(key: str | None = None, *, least: float | None = None, most: float | None = None,
         dice: bool = False, choices: Sequence[str] | None = None, upper: bool = False,
         length: int | None = None, keys: Sequence[str] | None = None,
         read: Read | None = None, default: Any = dataclasses.MISSING) -> Any:
    """A field of a data file: `key` its dotted key path in the file (default: the field's
    name), `least`/`most` the bounds of a number, `dice` a dice expression (D6, 2D3+1; kept in
    capitals), `choices` the words it may be, `upper` words kept in capitals, `length` the
    items a list has, `keys` the names a table may (or, as a dict, must) use, `read` a reader
    of its own (reader, key path, value) for a value no type describes; a `default` makes the
    key optional."""
    meta = {"key": key, "least": least, "most": most, "dice": dice, "choices": choices,
            "upper": upper, "length": length, "keys": keys, "read": read}
    return dataclasses.field(default=default, metadata=meta)


def unread(default: Any) -> Any:
    """A field the file does not hold: the reader leaves it at `default` (the ruleset sets it
    after, e.g. where in the file an entry was read)."""
    return dataclasses.field(default=default, compare=False, metadata={"unread": True})


def read(cls: type[T], file: str | Path) -> T:
    """The data file `file` checked and read as a `cls` (a dataclass)."""
    r = Reader.open(file)
    return value_of(r, (), r.data, cls)


def value_of(r: Reader, path: Path_, value: Any, kind: Any, meta: dict[str, Any] | None = None
             ) -> Any:
    """`value` (found at `path` of the file `r` reads) as the type `kind` says."""
    meta = meta or {}
    if meta.get("read") is not None:
        return meta["read"](r, path, value)
    if dataclasses.is_dataclass(kind):
        return _dataclass(r, path, value, kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is bool:
        if not isinstance(value, bool):
            raise r.error(path, f"must be true or false, not {value!r}")
        return value
    if kind in (int, float):
        return kind(r.number(path, value, meta.get("least"), meta.get("most"),
                             integer=kind is int))
    if kind is str:
        return _word(r, path, value, meta)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _items(r, path, value, args[0], meta)
    if origin is frozenset:
        return frozenset(_items(r, path, value, args[0], meta))
    if origin is dict and args[0] is str:
        names = list(meta.get("keys") or [])
        d = r.mapping(path, value, names, []) if names else _any(r, path, value)
        return {str(k): value_of(r, (*path, k), v, args[1], _bounds(meta)) for k, v in d.items()}
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        return None if value is None else value_of(r, path, value, args[0], meta)
    raise TypeError(f"{kind!r} at {path}: no reader for this type (give the field read=)")


def _word(r: Reader, path: Path_, value: Any, meta: dict[str, Any]) -> str:
    text = r.string(path, value, meta.get("choices"))
    if meta.get("dice"):
        try:
            parse(text)
        except DiceError as exc:
            raise r.error(path, str(exc), "dice such as D6, 2D6, D3+1") from None
        return text.upper()
    return text.upper() if meta.get("upper") else text


def _bounds(meta: dict[str, Any]) -> dict[str, Any]:
    """What of a list's or table's metadata applies to each of its values."""
    return {k: meta.get(k) for k in ("least", "most", "dice", "choices", "upper")}


def _any(r: Reader, path: Path_, value: Any) -> dict[Any, Any]:
    """A mapping whose keys are names the file chooses."""
    return r.mapping(path, value, [], list(value) if isinstance(value, dict) else [])


def _items(r: Reader, path: Path_, value: Any, kind: Any, meta: dict[str, Any]) -> tuple:
    """A list (`tuple[T, ...]`), or a table {name: value} kept as (name, value) pairs
    (`tuple[tuple[str, T], ...]`) in the file's order."""
    pair = typing.get_args(kind)
    if typing.get_origin(kind) is tuple and len(pair) == 2 and pair[0] is str \
            and pair[1] is not Ellipsis:
        names = meta.get("keys")
        d = r.mapping(path, value, [], list(names)) if names else _any(r, path, value)
        return tuple((str(k), value_of(r, (*path, k), v, pair[1], _bounds(meta)))
                     for k, v in d.items())
    n = meta.get("length")
    items = r.sequence(path, value, n or 0)
    if n is not None and len(items) != n:
        raise r.error(path, f"has {len(items)} items", f"exactly {n}")
    return tuple(value_of(r, (*path, i), v, kind, _bounds(meta)) for i, v in enumerate(items))


def _dataclass(r: Reader, path: Path_, value: Any, cls: Any) -> Any:
    hints = typing.get_type_hints(cls)
    wanted = [(f, tuple((f.metadata.get("key") or f.name).split("."))) for f in
              dataclasses.fields(cls) if f.init and not f.metadata.get("unread")]
    _sections(r, path, value, [(k, _optional(f)) for f, k in wanted])
    made = {}
    for f, key in wanted:
        raw, found = value, True
        for part in key:
            if not isinstance(raw, dict) or part not in raw:
                found = False
                break
            raw = raw[part]
        if found:
            made[f.name] = value_of(r, (*path, *key), raw, hints[f.name], dict(f.metadata))
    return cls(**made)


def _optional(f: dataclasses.Field) -> bool:
    return (f.default is not dataclasses.MISSING
            or f.default_factory is not dataclasses.MISSING)  # type: ignore[misc]


def _sections(r: Reader, path: Path_, value: Any, keys: list[tuple[Path_, bool]]) -> None:
    """Every mapping on the way to the fields' keys holds those keys and no other: a key is
    required when a required field is under it."""
    here: dict[str, bool] = {}                      # key -> required, in the fields' order
    for key, optional in keys:
        here[key[0]] = here.get(key[0], False) or not optional
    r.mapping(path, value, [k for k, req in here.items() if req],
              [k for k, req in here.items() if not req])
    for name in here:
        below = [(k[1:], optional) for k, optional in keys if k[0] == name and len(k) > 1]
        if below and name in value:
            _sections(r, (*path, name), value[name], below)


__all__ = ["item", "read", "unread", "value_of"]
