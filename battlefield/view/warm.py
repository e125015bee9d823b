"""The play window's kernels compiled ahead of the first game, into numba's cache.

A first `battlefield play` after installing would otherwise spend half a minute compiling the
sight, path and reach kernels behind the board before anything can be dragged. The README's
first command, `battlefield check`, compiles the ones its rulings need anyway; `warm_play`
then asks what the window asks first (`warm_up`: the rulings of a drag, the actions offered,
the computer player's choices) of every bundled ruleset's demo battle, so the kernels are
compiled for the argument types the window uses and cached for every later process, and
leaves a stamp beside numba's cache saying so (`play_kernels_ready`; a new numba or an edited
geometry source makes it stale, as numba's own cache goes stale).

No pygame here: `check` runs it without a window. The window's own start (view.launch) runs
`warm_up` too, loading what is cached and compiling what is not."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import battlefield.geometry

WARM_ACTIONS = 12              # computer moves played on a copy of the game while preparing
WARM_S = 4.0                   # and no longer than this once the kernels are compiled
TO_A_DRAG = 40                 # computer actions played at most to reach a unit one can drag
STAMP = "battlefield-play-kernels.json"


def warm_up(state: Any, computer: bool = True) -> None:
    """What the window asks first, asked now so that numba compiles those kernels (or loads
    them from its cache) before the player can ask: the rulings drawn on the board, the
    actions offered, a drag of each of the acting side's units an inch and onto an enemy, and
    (`computer`) the computer player's moves for a few actions on a copy of the game."""
    # here, not at the top: the window's first frame draws before numba is imported
    from battlefield.depiction import live
    from battlefield.rules.standing import referee, scene_now

    referee(state, scene=scene_now(state)).check_report()
    state.available()
    t = state.table
    for u in range(len(state.scene.units)):
        p = live.pick_up(state, u)
        if p is None:
            continue
        x, y = float(t.x[p.ref]), float(t.y[p.ref])
        live.rule(state, p, (x + 1.0, y), engine=True, detail=True)
        for enemy in state.enemies(u)[:1]:
            m = int(state.models_of(enemy)[0])
            live.rule(state, p, (float(t.x[m]), float(t.y[m])), enemy, engine=True,
                      detail=True)
    if not computer:
        return
    copy = state.snapshot()
    players: dict[str, Any] = {}
    start = time.perf_counter()
    for k in range(WARM_ACTIONS):
        if copy.over or (k and time.perf_counter() - start > WARM_S):
            break
        side = copy.acting_side
        player = players.setdefault(side, copy.rules.player())
        try:
            copy.apply(player.choose(copy))
        except Exception:              # a warm-up: whatever it compiled is compiled
            break


def to_a_drag(state: Any) -> Any:
    """A copy of the game played on by the computer players until a unit of the acting side
    can be dragged (aos4's movement phase, warband's first activation, blocks after `direct`),
    or None when it does not come within TO_A_DRAG actions."""
    # here, not at the top: the window's first frame draws before numba is imported (view.launch
    # imports this module)
    from battlefield.depiction import live

    copy = state.snapshot()
    players: dict[str, Any] = {}
    for _ in range(TO_A_DRAG):
        if copy.over:
            return None
        if not copy.pending and any(live.pick_up(copy, u) is not None
                                    for u in range(len(copy.scene.units))
                                    if copy.scene.units[u].side == copy.acting_side):
            return copy
        player = players.setdefault(copy.acting_side, copy.rules.player())
        try:
            copy.apply(player.choose(copy))
        except Exception:
            return None
    return None


def demo_states() -> list[Any]:
    """A new game of every playable bundled ruleset's demo battle, as the window opens it."""
    # here, not at the top: the window's first frame draws before the rules are imported
    from battlefield.rules import log, registry
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text
    from battlefield.view.opening import battle_text

    out = []
    for rid in registry.playable():
        try:
            _, text, name = battle_text(None, rid)
        except Exception:          # a ruleset with no demo battle: nothing to warm
            continue
        scene = registry.checked(load_scene_text(text, name), battle=True)
        out.append(Game(log.rules_for(rid), scene, 1).new_state())
    return out


def _key() -> dict[str, Any]:
    """What the compiled kernels depend on: numba, Python, the geometry sources (numba's own
    cache is keyed on each source file's time and size)."""
    root = Path(battlefield.geometry.__file__).parent
    try:
        numba = version("numba")
    except PackageNotFoundError:
        numba = "?"
    sources = sorted((str(p.relative_to(root)), p.stat().st_mtime_ns, p.stat().st_size)
                     for p in root.rglob("*.py"))
    digest = hashlib.sha256(json.dumps(sources).encode()).hexdigest()
    return {"numba": numba, "python": sys.version.split()[0], "sources": digest}


def stamp_path() -> Path:
    """Where numba keeps this installation's kernels: beside the geometry package, or under
    NUMBA_CACHE_DIR (a name of its own for each installation)."""
    root = Path(battlefield.geometry.__file__).resolve().parent
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:
        tag = hashlib.sha256(str(root).encode()).hexdigest()[:12]
        return Path(where) / f"{Path(STAMP).stem}-{tag}.json"
    return root / "__pycache__" / STAMP


def fallback_stamp() -> Path | None:
    """Where the stamp goes when numba's folder beside the package cannot be written (an
    install read-only to its user: numba then keeps its kernels in the user's cache too):
    battlefield's own cache ($BATTLEFIELD_CACHE, else $XDG_CACHE_HOME/battlefield, else
    ~/.cache/battlefield; none when it is off), named for this installation."""
    env = os.environ.get("BATTLEFIELD_CACHE")
    if env is not None and env.strip().lower() in ("", "off", "0", "no", "none"):
        return None
    base = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME")
                                      or Path.home() / ".cache") / "battlefield"
    root = Path(battlefield.geometry.__file__).resolve().parent
    tag = hashlib.sha256(f"{root}|{os.environ.get('NUMBA_CACHE_DIR', '')}".encode()
                         ).hexdigest()[:12]
    return base / f"{Path(STAMP).stem}-{tag}.json"


def play_kernels_ready() -> bool:
    """Whether warm_play has compiled the window's kernels into the cache that is there now."""
    key = _key()
    for path in (stamp_path(), fallback_stamp()):
        try:
            if path is not None and json.loads(path.read_text(encoding="utf-8")) == key:
                return True
        except (OSError, ValueError):
            continue
    return False


def warm_play(say: Callable[[str], None] | None = None) -> bool:
    """Compile (or load) every kernel the play window asks first into numba's cache, for each
    bundled demo battle, unless that is done already; True when it was done now. `say` hears
    one line before the work starts."""
    if play_kernels_ready():
        return False
    if say is not None:
        say("first run: compiling the geometry kernels for the play window once (about half a "
            "minute; later runs and the first `battlefield play` take seconds)...")
    for state in demo_states():
        warm_up(state, computer=True)
        moving = to_a_drag(state)
        if moving is not None:
            warm_up(moving, computer=False)
    for path in (stamp_path(), fallback_stamp()):
        if path is None:
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_key()), encoding="utf-8")
            os.replace(tmp, path)
            break
        except OSError:             # not writable: the next place
            continue
    return True


__all__ = ["warm_up", "warm_play", "play_kernels_ready", "to_a_drag", "demo_states",
           "stamp_path", "fallback_stamp"]
