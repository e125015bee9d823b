"""What every subcommand shares: opening the scene it is given, printing JSON."""

from __future__ import annotations

import json
import sys
from typing import Any


def open_scene(arg: str):
    """The scene a command is given (a file, or a bundled scene's name), read and checked by
    its ruleset too (registry.checked)."""
    from battlefield.errors import InputError
    from battlefield.paths import map_names
    from battlefield.rules.registry import checked
    from battlefield.scene.load import load_scene, resolve_scene_path

    path = resolve_scene_path(arg)
    if not path.exists():
        raise InputError(arg, "", None, "no such scene file",
                         "a scene file, or a bundled scene: " + ", ".join(map_names()))
    return checked(load_scene(path))


def emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
