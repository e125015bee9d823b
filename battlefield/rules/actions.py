"""Actions: small frozen values with a readable repr and a round-trip dict form.

One shape serves every ruleset: the ability id as `type`, the acting `unit`, a `path` the whole
unit follows or per-model `paths` (1-based model numbers), the `facing` the moved models end
with (degrees counter-clockwise from +x: a move is a pose, not only a place), a `target`, a
`weapon`, and any ability-specific `options`. `Action.from_dict(a.to_dict()) == a` always holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battlefield.errors import BattlefieldError

Point = tuple[float, float]
KEYS = ("type", "side", "unit", "path", "paths", "target", "weapon", "facing")


class ActionFormatError(BattlefieldError):
    """An action written wrongly (not: an action that is illegal here); `field` is the key
    path of the field at fault (empty: the action as a whole)."""

    def __init__(self, message: str, field: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Action:
    type: str
    unit: str | None = None
    side: str | None = None
    path: tuple[Point, ...] | None = None
    paths: tuple[tuple[int, tuple[Point, ...]], ...] | None = None
    target: str | tuple[str, ...] | None = None
    weapon: str | None = None
    options: tuple[tuple[str, Any], ...] = field(default=())
    facing: float | None = None

    def __post_init__(self) -> None:
        if self.facing is not None:
            object.__setattr__(self, "facing", float(self.facing) % 360.0)
        # Points are floats however the action was built, so equal actions write equal JSON.
        if self.path is not None:
            object.__setattr__(self, "path", tuple((float(x), float(y)) for x, y in self.path))
        if self.paths is not None:
            object.__setattr__(self, "paths", tuple(
                (int(n), tuple((float(x), float(y)) for x, y in pts)) for n, pts in self.paths))

    def option(self, key: str, default: Any = None) -> Any:
        return dict(self.options).get(key, default)

    @property
    def targets(self) -> tuple[str, ...]:
        if self.target is None:
            return ()
        return self.target if isinstance(self.target, tuple) else (self.target,)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.side is not None:
            out["side"] = self.side
        if self.unit is not None:
            out["unit"] = self.unit
        if self.path is not None:
            out["path"] = [list(p) for p in self.path]
        if self.paths is not None:
            out["paths"] = {str(n): [list(p) for p in pts] for n, pts in self.paths}
        if self.target is not None:
            out["target"] = list(self.target) if isinstance(self.target, tuple) else self.target
        if self.weapon is not None:
            out["weapon"] = self.weapon
        if self.facing is not None:
            out["facing"] = self.facing
        for k, v in self.options:
            out[k] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping):
            raise ActionFormatError(f"an action must be a JSON object, not {str(data)[:80]}")
        if "type" not in data or not isinstance(data["type"], str):
            raise ActionFormatError("an action needs a \"type\" (the ability id)", ("type",))
        path = _path("path", data["path"]) if data.get("path") is not None else None
        paths = None
        if data.get("paths") is not None:
            raw = data["paths"]
            if not isinstance(raw, Mapping):
                raise ActionFormatError("\"paths\" must map model numbers to paths, e.g. "
                                        "{\"1\": [[10, 4], [12, 6]]}", ("paths",))
            items = []
            for k, v in raw.items():
                if not (str(k).isascii() and str(k).isdecimal()) or len(str(k)) > 6 or int(k) < 1:
                    raise ActionFormatError(f"\"paths\" key {str(k)[:40]!r} is not a model "
                                            f"number (1, 2 ..)", ("paths", str(k)[:40]))
                items.append((int(k), _path(f"paths.{k}", v)))
            paths = tuple(sorted(items))
        target = data.get("target")
        if isinstance(target, list):
            target = tuple(str(t) for t in target)
        elif target is not None:
            target = str(target)
        options = tuple(sorted((k, _freeze(v)) for k, v in data.items() if k not in KEYS))
        facing = data.get("facing")
        if facing is not None and (isinstance(facing, bool)
                                   or not isinstance(facing, (int, float))):
            raise ActionFormatError("\"facing\" must be degrees (a number)", ("facing",))
        return cls(type=data["type"], unit=_str(data.get("unit")), side=_str(data.get("side")),
                   path=path, paths=paths, target=target, weapon=_str(data.get("weapon")),
                   options=options, facing=facing)

    def __repr__(self) -> str:
        parts = [repr(self.type)]
        for name in ("unit", "side", "target", "weapon", "path", "paths", "facing"):
            v = getattr(self, name)
            if v is not None:
                parts.append(f"{name}={v!r}")
        if self.options:
            parts.append(f"options={self.options!r}")
        return f"Action({', '.join(parts)})"


def _str(v: Any) -> str | None:
    return None if v is None else str(v)


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


def _path(name: str, value: Any) -> tuple[Point, ...]:
    if not isinstance(value, list) or not value:
        raise ActionFormatError(f"\"{name}\" must be a list of [x, y] points",
                                tuple(name.split(".")))
    out = []
    for i, p in enumerate(value):
        if (not isinstance(p, (list, tuple)) or len(p) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in p)):
            raise ActionFormatError(f"\"{name}\": {str(p)[:80]} is not an [x, y] point in "
                                    f"inches", (*name.split("."), i))
        out.append((float(p[0]), float(p[1])))
    return tuple(out)


@dataclass(frozen=True)
class Violation:
    """Why an action is illegal: a code, a message with the numbers, the numbers, and what it
    is about - the units (ids) and the models (UNIT/N, as the message names them, the one at
    fault first) - so that a window or a client marks them without reading the message; and,
    when all that is wrong is a field not given yet, that field (`choose`: "path", "target",
    "spell" ...): what the player still has to choose, which the window asks for."""

    code: str
    message: str
    numbers: tuple[tuple[str, float], ...] = ()
    units: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    choose: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **dict(self.numbers),
                **({"units": list(self.units)} if self.units else {}),
                **({"models": list(self.models)} if self.models else {}),
                **({"choose": self.choose} if self.choose else {})}


class IllegalAction(BattlefieldError):
    """apply() of an action that check() refuses; the state is unchanged."""

    def __init__(self, action: Action, violations: list[Violation]) -> None:
        self.action = action
        self.violations = violations
        super().__init__(f"{action!r} is illegal: "
                         + "; ".join(f"{v.code}: {v.message}" for v in violations))
