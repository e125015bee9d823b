"""YAML documents read with the safe loader, keeping the line of every key and item, and a
reader that checks shapes and types and raises InputError with file, key path and line.

Reading is linear in the file's size: libyaml's parser (CSafeLoader's events) when PyYAML has it,
composed into nodes here without recursion (so no nesting can overflow the C stack), with the
garbage collector paused while the many small objects are made; any syntax error is read again
by PyYAML's own pure-Python parser, whose messages the hints below know. Without libyaml the
pure-Python safe loader reads everything (slower, the same answers).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from battlefield.errors import InputError
from battlefield.inputs import readable_file
from battlefield.names import did_you_mean

Path_ = tuple[Any, ...]


# What people most likely meant, by the words of PyYAML's complaint.
_SYNTAX_HINTS = (
    ("'\\t'", "spaces for indentation, not tabs"),
    ("flow sequence", "a closing ']' and ', ' between items"),
    ("flow mapping", "a closing '}' and ', ' between items"),
    ("quoted scalar", "a closing quote"),
    ("another document", "one YAML document in the file (no second '---')"),
    ("undefined alias", "an anchor &NAME defined before *NAME is used"),
    ("mapping values are not allowed", "keys of one mapping at the same indentation, "
                                       "and a space after each ':'"),
    ("block", "list items and keys lined up at the same indentation"),
    ("simple key", "key: value"),
)
_TOKENS = {"'<scalar>'": "a value", "'<stream end>'": "the end of the file",
           "<block end>": "the end of the indented block", "'<block end>'": "the end of the "
           "indented block", "'?'": "a key", "'-'": "a list item '-'"}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _syntax_error(name: str, exc: yaml.MarkedYAMLError) -> InputError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    problem = exc.problem or exc.context or "malformed YAML"
    for token, words in _TOKENS.items():
        problem = problem.replace(token, words)
    context = exc.context if exc.problem else None
    if context and problem.startswith("but "):
        problem, context = f"{context}, {problem}", None
    if context and exc.context_mark is not None and exc.context_mark.line + 1 != line:
        problem += f" ({context} that starts on line {exc.context_mark.line + 1})"
    text = f"{problem} {context or ''}"
    expected = next((hint for word, hint in _SYNTAX_HINTS if word in text), "valid YAML")
    return InputError(name, "", line, f"YAML syntax error: {_one_line(problem)}", expected)


def _too_deep(text: str) -> int | None:
    """The line where the YAML first nests more than MAX_DEPTH collections deep."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return event.start_mark.line + 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return None
    return None


def format_path(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Builder(yaml.SafeLoader):
    pass


_CLoader = getattr(yaml, "CSafeLoader", None)


class _Events(Exception):
    """The fast path cannot read this text (a syntax error, say): read it the slow way."""


def _compose_fast(text: str, name: str) -> tuple[yaml.Node | None, yaml.SafeLoader]:
    """The document's root node from libyaml's events, composed as PyYAML's Composer does
    (same tags, anchors, marks) but with a stack instead of recursion: nesting deeper than
    MAX_DEPTH is refused on the spot. Raises _Events for anything but one plain document."""
    assert _CLoader is not None
    parser = _CLoader(text)
    resolve = _Builder.resolve
    resolver = _Builder("")
    anchors: dict[str, yaml.Node] = {}
    try:
        parser.get_event()                                          # stream start
        if parser.check_event(yaml.StreamEndEvent):
            return None, resolver
        parser.get_event()                                          # document start
        root: yaml.Node | None = None
        stack: list[yaml.Node] = []
        keys: list[yaml.Node | None] = []                         # a mapping's pending key
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is yaml.DocumentEndEvent:
                break
            if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                node = stack.pop()
                keys.pop()
                node.end_mark = event.end_mark
                if stack:
                    _attach(stack[-1], keys, node)
                else:
                    root = node
                continue
            if kind is yaml.AliasEvent:
                if event.anchor not in anchors:
                    raise _Events()
                node = anchors[event.anchor]
            else:
                if event.anchor is not None and event.anchor in anchors:
                    raise _Events()
                tag = event.tag
                if kind is yaml.ScalarEvent:
                    if tag is None or tag == "!":
                        tag = resolve(resolver, yaml.ScalarNode, event.value, event.implicit)
                    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                                           style=event.style)
                else:
                    cls = yaml.SequenceNode if kind is yaml.SequenceStartEvent else \
                        yaml.MappingNode
                    if tag is None or tag == "!":
                        tag = resolve(resolver, cls, None, event.implicit)
                    node = cls(tag, [], event.start_mark, None, flow_style=event.flow_style)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                if kind is not yaml.ScalarEvent:
                    if len(stack) >= MAX_DEPTH:
                        raise InputError(name, "", event.start_mark.line + 1,
                                         f"nested more than {MAX_DEPTH} levels deep",
                                         "a scene of plain mappings and lists")
                    stack.append(node)
                    keys.append(None)
                    continue
            if stack:
                _attach(stack[-1], keys, node)
            else:
                root = node
        if not parser.check_event(yaml.StreamEndEvent):
            raise _Events()                                         # a second document
    except yaml.YAMLError:
        raise _Events() from None
    finally:
        parser.dispose()
    return root, resolver


def _attach(parent: yaml.Node, keys: list[yaml.Node | None], node: yaml.Node) -> None:
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif keys[-1] is None:
        keys[-1] = node
    else:
        parent.value.append((keys[-1], node))
        keys[-1] = None


# Only plain YAML: mappings, lists, words, numbers, true/false, null. Dates are kept as written.
_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null")}
_TIMESTAMP = _STD + "timestamp"
# Limits that stop alias bombs (a few lines expanding to billions of items), files too big to
# be a table, and runaway nesting. Every list, mapping, key and value counts one item; a
# 100,000-point outline is about 300,000.
MAX_ALIASED = 250_000           # items reached through aliases (*NAME)
MAX_ITEMS = 5_000_000           # items in all
MAX_DEPTH = 64


class _Walk:
    def __init__(self, loader: yaml.SafeLoader, file: str, lines: dict[Path_, int]) -> None:
        self.loader, self.file, self.lines = loader, file, lines
        self.count = 0
        self.aliased = 0                   # items counted while inside an alias's expansion
        self.again = 0                     # how many aliased collections we are inside
        self.seen: set[int] = set()        # the collections met so far (a second time: alias)
        self.open: set[int] = set()
        self.scalars = loader.yaml_constructors

    def fail(self, node: yaml.Node, path: Path_, message: str, expected: str) -> InputError:
        return InputError(self.file, format_path(path), node.start_mark.line + 1, message,
                          expected)

    def plain(self, node: yaml.Node, path: Path_) -> Any:
        if isinstance(node, yaml.ScalarNode):
            self._counted(node, path)
            self.lines[path] = node.start_mark.line + 1
            if node.tag == _TIMESTAMP:
                return node.value
            self._tag(node, path, *_SCALAR_TAGS)
            if node.tag == _STD + "int" and len(node.value) > 40:
                raise self.fail(node, path, "is far too large a number",
                                "a number of sensible size")
            # The safe constructor's own function for the tag, without construct_object's
            # bookkeeping (a scalar has no children and no aliases to track).
            value = self.scalars[node.tag](self.loader, node)
            if node.tag == _STD + "float" and not math.isfinite(value):
                raise self.fail(node, path, "must be a finite number",
                                "a number (not .nan or .inf)")
            return value
        again = id(node) in self.seen
        if again:
            self.again += 1
        else:
            self.seen.add(id(node))
        try:
            return self._collection(node, path)
        finally:
            if again:
                self.again -= 1

    def _counted(self, node: yaml.Node, path: Path_) -> None:
        self.count += 1
        if self.again:
            self.aliased += 1
            if self.aliased > MAX_ALIASED:
                raise self.fail(node, path, f"more than {MAX_ALIASED} items once aliases "
                                            "(*NAME) are expanded",
                                "a scene without runaway aliases")
        if self.count > MAX_ITEMS:
            raise self.fail(node, path, f"more than {MAX_ITEMS} items (every list, mapping, "
                                        "key and value counts one)",
                            "a smaller scene: fewer units, fewer or simpler terrain outlines")

    def _collection(self, node: yaml.Node, path: Path_) -> Any:
        self._counted(node, path)
        if len(path) > MAX_DEPTH:
            raise self.fail(node, path, f"nested more than {MAX_DEPTH} levels deep",
                            "a scene of plain mappings and lists")
        if id(node) in self.open:
            raise self.fail(node, path, "an alias (*NAME) refers to a mapping or list that "
                                        "contains it", "aliases that do not loop")
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            self._tag(node, path, _STD + "map")
            self.open.add(id(node))
            own = sum(1 for k, _ in node.value if k.tag != _STD + "merge")
            self.loader.flatten_mapping(node)
            merged = len(node.value) - own      # entries from `<<: *NAME`, which keys override
            out: dict[Any, Any] = {}
            mine: set[Any] = set()
            for n, (key_node, value_node) in enumerate(node.value):
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "a key must be a plain word, not a "
                                    + ("mapping" if isinstance(key_node, yaml.MappingNode)
                                       else "list"), "key: value")
                key = self.plain(key_node, (*path, "<key>"))
                if key is None or isinstance(key, bool):
                    raise self.fail(key_node, path, f"a key must be a plain word, not "
                                                    f"{_kind(key)}", "key: value")
                if key in mine:
                    raise self.fail(key_node, (*path, key), f"duplicate key '{key}'",
                                    "each key once in a mapping")
                if n >= merged:
                    mine.add(key)
                out[key] = self.plain(value_node, (*path, key))
                self.lines[(*path, key)] = key_node.start_mark.line + 1
            self.lines.pop((*path, "<key>"), None)
            self.open.discard(id(node))
            return out
        if isinstance(node, yaml.SequenceNode):
            self._tag(node, path, _STD + "seq")
            self.open.add(id(node))
            out_list = [self.plain(item, (*path, i)) for i, item in enumerate(node.value)]
            self.open.discard(id(node))
            return out_list
        raise self.fail(node, path, "not a mapping, list or value", "plain YAML")

    def _tag(self, node: yaml.Node, path: Path_, *allowed: str) -> None:
        if node.tag not in allowed:
            tag = node.tag.replace(_STD, "!!")
            raise self.fail(node, path, f"the YAML tag '{tag}' is not allowed (files are read "
                                        "with the safe loader)",
                            "plain mappings, lists, words and numbers, without tags")


def _readable(path: Path, name: str) -> None:
    """Refuse before reading what is no file of a sane size (/dev/zero, a FIFO, 50 MB)."""
    readable_file(path, name, "a scene or map", "a YAML file")


def load_yaml(file: str | Path, text: str | None = None) -> tuple[Any, dict[Path_, int]]:
    """Parse a YAML file with the safe loader: (data, line of every key path)."""
    name = str(file)
    if text is None:
        _readable(Path(file), name)
        try:
            text = Path(file).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(name, "", None, "no such file") from None
        except IsADirectoryError:
            raise InputError(name, "", None, "is a folder, not a file") from None
        except UnicodeDecodeError as exc:
            raw = exc.object[:exc.start]
            line = raw.count(b"\n") + 1
            raise InputError(name, "", line, f"byte 0x{exc.object[exc.start]:02x} is not "
                             "UTF-8 text", "a UTF-8 text file") from None
        except OSError as exc:
            raise InputError(name, "", None, f"cannot be read ({exc.strerror})") from None
    collecting = gc.isenabled()
    gc.disable()                 # hundreds of thousands of small objects, none of them garbage
    try:
        return _read(name, text)
    finally:
        if collecting:
            gc.enable()


def _read(name: str, text: str) -> tuple[Any, dict[Path_, int]]:
    lines: dict[Path_, int] = {}
    if _CLoader is not None:
        try:
            node, builder = _compose_fast(text, name)
        except _Events:
            pass                 # read again below, for PyYAML's own words about the error
        else:
            return (None if node is None else _Walk(builder, name, lines).plain(node, ())), lines
    try:
        loader = _Builder(text)
        try:
            node = loader.get_single_node()
            data = None if node is None else _Walk(loader, name, lines).plain(node, ())
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(name, exc) from None
    except yaml.YAMLError as exc:
        raise InputError(name, "", None, f"YAML syntax error: {_one_line(str(exc))}",
                         "valid YAML") from None
    except RecursionError:
        raise InputError(name, "", _too_deep(text), f"nested more than {MAX_DEPTH} levels deep",
                         "a scene of plain mappings and lists") from None
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

    def error(self, path: Path_, message: str, expected: str | None = None, hint: str = ""
              ) -> InputError:
        return InputError(self.file, format_path(path), self.line(path), message, expected, hint)

    # --- shapes ----------------------------------------------------------------------------
    def mapping(self, path: Path_, value: Any, required: Iterable[str] = (),
                optional: Iterable[str] = ()) -> dict[str, Any]:
        required, optional = list(required), list(optional)
        if not isinstance(value, dict):
            keys = required + optional
            # The top level of a file that is no mapping is not quoted: it may be any file
            # at all (`map: ../secret`), shown to whoever sent the scene.
            kind = _kind(value) if path or not isinstance(value, str) else "text"
            raise self.error(path, f"must be a mapping of keys, not {kind}",
                             "keys " + ", ".join(keys) if keys else "key: value pairs")
        valid = required + optional
        for key in value:
            if key not in valid:
                raise self.error((*path, key), f"unknown key '{key}'", "one of " + ", ".join(valid),
                                 did_you_mean(str(key), valid))
        for key in required:
            if key not in value:
                where = format_path(path) or "the top level"
                keys = "required key" + "s" * (len(required) > 1)
                raise InputError(self.file, format_path(path), self.line(path),
                                 f"missing key '{key}' in {where}",
                                 f"{keys} {', '.join(required)}")
        return value

    def sequence(self, path: Path_, value: Any, min_len: int = 0, what: str = "a list") -> list:
        if not isinstance(value, list):
            raise self.error(path, f"must be {what}, not {_kind(value)}")
        if len(value) < min_len:
            raise self.error(path, f"needs at least {min_len} item{'s' * (min_len != 1)}, "
                                   f"has {len(value)}", what)
        return value

    def number(self, path: Path_, value: Any, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False, strict_min: bool = False
               ) -> float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        want = "a whole number" if integer else "a number"
        if ok and isinstance(value, int) and abs(value) > 1e300:
            raise self.error(path, "is far too large a number", want + " of sensible size")
        if integer:
            ok = ok and float(value).is_integer()
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
            raise self.error(path, f"must be a word, not {_kind(value)}",
                             "one of " + ", ".join(choices) if choices else None)
        value = str(value)
        if not value.strip():
            raise self.error(path, "must not be empty", "a word")
        if choices is not None and value not in choices:
            raise self.error(path, f"unknown value '{value}'", "one of " + ", ".join(choices),
                             did_you_mean(value, choices))
        return value

    def point(self, path: Path_, value: Any) -> tuple[float, float]:
        if (not isinstance(value, list) or len(value) != 2):
            raise self.error(path, f"must be a point [x, y], not {_kind(value)}",
                             "two numbers [x, y] in inches")
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
    if isinstance(value, int) and abs(value) > 1e300:
        return "a huge number"
    if isinstance(value, (int, float)):
        return f"the number {value:g}"
    return f"'{value}'"
