"""What every subcommand shares: opening the scene it is given, printing JSON."""

from __future__ import annotations

import sys
from typing import Any

from battlefield.errors import BattlefieldError
from battlefield.inputs import dumps, plain_problem
from battlefield.paths import no_such_scene
from battlefield.rules.registry import checked
from battlefield.scene.load import load_scene, resolve_scene_path


def open_scene(arg: str, battle: bool = False):
    """The scene a command is given (a file, or a bundled scene's name), read and checked by
    its ruleset too (registry.checked; battle=True: set up as a battle too, as validate asks)."""
    path = resolve_scene_path(arg)
    if not path.exists():
        raise no_such_scene(arg)
    return checked(load_scene(path), battle)


def emit_json(data: Any) -> None:
    """Print `data` as strict JSON: a NaN or infinity anywhere in it (which JSON has no word
    for) is one line naming where, never `NaN` in the output."""
    try:
        text = dumps(data, indent=2)
    except ValueError:
        where = plain_problem(data)
        path = ".".join(str(p) for p in where[0]) if where else "?"
        raise BattlefieldError(f"the answer holds a number JSON cannot write at {path}: "
                               f"{where[1] if where else 'not finite'}") from None
    sys.stdout.write(text + "\n")
