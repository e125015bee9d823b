"""Where the bundled data lives: maps/ and rulesets/ at the top of a checkout, installed inside
the package as battlefield/maps and battlefield/rulesets."""

from __future__ import annotations

import os
import re
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from battlefield.errors import InputError, UsageError
from battlefield.names import after, did_you_mean

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _data(name: str) -> Path:
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _CHECKOUT / name


def maps_dir() -> Path:
    return _data("maps")


def rulesets_dir() -> Path:
    return _data("rulesets")


ENTRY_POINTS = "battlefield.rulesets"
_extra_dirs: dict[str, Path] = {}


def add_ruleset_dir(name: str, folder: Path) -> None:
    """Data of a ruleset that lives outside rulesets/ (one registered at run time)."""
    _extra_dirs[name] = Path(folder)


@cache
def entry_point_rulesets() -> dict[str, Any]:
    """Rulesets installed as their own distributions: the objects their entry points in the
    group `battlefield.rulesets` name (each with an `id` and its data folder `data`)."""
    out: dict[str, Any] = {}
    for ep in entry_points(group=ENTRY_POINTS):
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin: say which, and why
            raise UsageError(f"the ruleset entry point {ep.name} = {ep.value} cannot be "
                             f"loaded: {type(exc).__name__}: {exc}") from None
        out[ep.name] = obj
    return out


@cache
def entry_point_names() -> tuple[str, ...]:
    """The names the entry points in the group `battlefield.rulesets` give, without loading
    them: listing the rulesets (the scene loader checks a `ruleset:` against them) imports no
    ruleset, so an installed one costs nothing until it is played."""
    return tuple(sorted({ep.name for ep in entry_points(group=ENTRY_POINTS)}))


def _external_dirs() -> dict[str, Path]:
    out = {n: Path(p.data) for n, p in entry_point_rulesets().items()
           if getattr(p, "data", None) is not None}
    out.update(_extra_dirs)
    return out


def ruleset_names() -> list[str]:
    """Every ruleset with data: the bundled ones and those installed or registered."""
    names = {p.name for p in rulesets_dir().iterdir() if (p / "ruleset.yaml").is_file()}
    names |= set(entry_point_names())
    names |= {n for n, d in _extra_dirs.items() if (d / "ruleset.yaml").is_file()}
    return sorted(names)


def ruleset_dir(name: str) -> Path:
    folder = rulesets_dir() / name
    if not (folder / "ruleset.yaml").is_file():
        folder = _external_dirs().get(name, folder)
    if not (folder / "ruleset.yaml").is_file():
        raise UsageError(f"unknown ruleset '{name}' (expected one of {', '.join(ruleset_names())})"
                         f"{after(name, ruleset_names())}")
    return folder


def map_names() -> list[str]:
    return sorted(p.stem for p in maps_dir().glob("*.yaml"))


def shown_file(file: str | Path) -> str:
    """A scene file as the person named it: a bundled map or scene by its name (`demo`), not
    by where the package is installed (site-packages/.../maps/demo.yaml); others as given."""
    path = Path(file)
    try:
        bundled = path.suffix == ".yaml" and path.resolve().parent == maps_dir().resolve()
    except (OSError, RuntimeError, ValueError):
        bundled = False
    return path.stem if bundled else str(file)


def as_typed(message: str) -> str:
    """A message with every bundled map's installed path written as its name (`demo`)."""

    for where in {str(maps_dir()), str(maps_dir().resolve())}:
        message = re.sub(re.escape(where + os.sep) + r"([\w.-]+?)\.yaml\b", r"\1", message)
    return message


def find_map(name: str) -> Path | None:
    """A bundled map or scene by name (with or without .yaml)."""
    stem = name[:-5] if name.endswith(".yaml") else name
    path = maps_dir() / f"{stem}.yaml"
    return path if path.is_file() else None


def no_such_scene(arg: str, what: str = "scene") -> Exception:
    """The one-line error for a scene or map argument that is neither a file nor a bundled
    name: the closest bundled name offered, then every bundled one."""
    names = map_names()
    return InputError(arg, "", None, f"no such {what} file",
                      f"a {what} file, or a bundled {what}: " + ", ".join(names),
                      hint=did_you_mean(arg, names))
