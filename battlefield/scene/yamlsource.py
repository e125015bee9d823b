"""YAML documents read with the safe loader, keeping the line of every key and item, and a
reader that checks shapes and types and raises InputError with file, key path and line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from battlefield.errors import InputError

Path_ = tuple[Any, ...]


def format_path(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Builder(yaml.SafeLoader):
    pass


def _plain(node: yaml.Node, path: Path_, lines: dict[Path_, int], loader: yaml.SafeLoader,
           file: str) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise InputError(file, format_path(path), key_node.start_mark.line + 1,
                                 f"a key must be a plain word, not {key!r}")
            if key in out:
                raise InputError(file, format_path((*path, key)), key_node.start_mark.line + 1,
                                 f"duplicate key '{key}'")
            out[key] = _plain(value_node, (*path, key), lines, loader, file)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, (*path, i), lines, loader, file) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def load_yaml(file: str | Path, text: str | None = None) -> tuple[Any, dict[Path_, int]]:
    """Parse a YAML file with the safe loader: (data, line of every key path)."""
    name = str(file)
    if text is None:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(name, "", None, "no such file") from None
        except IsADirectoryError:
            raise InputError(name, "", None, "is a folder, not a file") from None
        except UnicodeDecodeError:
            raise InputError(name, "", None, "is not a UTF-8 text file") from None
        except OSError as exc:
            raise InputError(name, "", None, f"cannot be read ({exc.strerror})") from None
    try:
        loader = _Builder(text)
        try:
            node = loader.get_single_node()
            lines: dict[Path_, int] = {}
            data = None if node is None else _plain(node, (), lines, loader, name)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(name, "", line, f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        raise InputError(name, "", None, f"YAML syntax error: {exc}") from None
    return data, lines


class Reader:
    """Checks a parsed document piece by piece; every failure is an InputError with a line."""

    def __init__(self, file: str | Path, data: Any, lines: dict[Path_, int]) -> None:
        self.file = str(file)
        self.data = data
        self.lines = lines

    @classmethod
    def open(cls, file: str | Path) -> Reader:
        data, lines = load_yaml(file)
        return cls(file, data, lines)

    def line(self, path: Path_) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def error(self, path: Path_, message: str, expected: str | None = None) -> InputError:
        return InputError(self.file, format_path(path), self.line(path), message, expected)

    # --- shapes ----------------------------------------------------------------------------
    def mapping(self, path: Path_, value: Any, required: Iterable[str] = (),
                optional: Iterable[str] = ()) -> dict[str, Any]:
        required, optional = list(required), list(optional)
        if not isinstance(value, dict):
            raise self.error(path, f"must be a mapping of keys, not {_kind(value)}",
                             "keys " + ", ".join(required + optional))
        valid = required + optional
        for key in value:
            if key not in valid:
                raise self.error((*path, key), f"unknown key '{key}'",
                                 "one of " + ", ".join(valid))
        for key in required:
            if key not in value:
                where = format_path(path) or "the top level"
                raise InputError(self.file, format_path(path), self.line(path),
                                 f"missing key '{key}' in {where}", f"keys {', '.join(required)}")
        return value

    def sequence(self, path: Path_, value: Any, min_len: int = 0, what: str = "a list") -> list:
        if not isinstance(value, list):
            raise self.error(path, f"must be {what}, not {_kind(value)}")
        if len(value) < min_len:
            raise self.error(path, f"needs at least {min_len} item{'s' * (min_len != 1)}, "
                                   f"has {len(value)}")
        return value

    def number(self, path: Path_, value: Any, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False, strict_min: bool = False
               ) -> float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if integer:
            ok = ok and float(value).is_integer()
        want = "a whole number" if integer else "a number"
        if not ok:
            raise self.error(path, f"must be {want}, not {_kind(value)}")
        if value != value or value in (float("inf"), float("-inf")):
            raise self.error(path, "must be a finite number")
        if minimum is not None and (value <= minimum if strict_min else value < minimum):
            bound = f"more than {minimum:g}" if strict_min else f"at least {minimum:g}"
            raise self.error(path, f"is {value:g}", bound)
        if maximum is not None and value > maximum:
            raise self.error(path, f"is {value:g}", f"at most {maximum:g}")
        return int(value) if integer else float(value)

    def string(self, path: Path_, value: Any, choices: Sequence[str] | None = None) -> str:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.error(path, f"must be a word, not {_kind(value)}")
        value = str(value)
        if not value.strip():
            raise self.error(path, "must not be empty")
        if choices is not None and value not in choices:
            raise self.error(path, f"unknown value '{value}'", "one of " + ", ".join(choices))
        return value

    def point(self, path: Path_, value: Any) -> tuple[float, float]:
        if (not isinstance(value, list) or len(value) != 2):
            raise self.error(path, f"must be a point [x, y] in inches, not {_kind(value)}")
        return (self.number((*path, 0), value[0]), self.number((*path, 1), value[1]))

    def strings(self, path: Path_, value: Any) -> list[str]:
        return [self.string((*path, i), v) for i, v in enumerate(self.sequence(path, value))]


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, (int, float)):
        return f"the number {value:g}"
    return f"'{value}'"
