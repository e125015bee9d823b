"""Where the bundled data lives: maps/ and rulesets/ at the top of a checkout, installed inside
the package as battlefield/maps and battlefield/rulesets."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _data(name: str) -> Path:
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _CHECKOUT / name


def maps_dir() -> Path:
    return _data("maps")


def rulesets_dir() -> Path:
    return _data("rulesets")


def ruleset_names() -> list[str]:
    return sorted(p.name for p in rulesets_dir().iterdir() if (p / "ruleset.yaml").is_file())


def ruleset_dir(name: str) -> Path:
    folder = rulesets_dir() / name
    if not (folder / "ruleset.yaml").is_file():
        from battlefield.errors import UsageError

        raise UsageError(f"unknown ruleset '{name}' (expected one of {', '.join(ruleset_names())})")
    return folder


def map_names() -> list[str]:
    return sorted(p.stem for p in maps_dir().glob("*.yaml"))


def find_map(name: str) -> Path | None:
    """A bundled map or scene by name (with or without .yaml)."""
    stem = name[:-5] if name.endswith(".yaml") else name
    path = maps_dir() / f"{stem}.yaml"
    return path if path.is_file() else None
