"""A unit held mid-drag as the command line asks (`play --drag UNIT --to X,Y [--target
UNIT]` for a screenshot, and the tests): picked up and ruled on as a drag of the mouse would."""

from __future__ import annotations

from typing import TYPE_CHECKING

from battlefield.errors import UsageError
from battlefield.inputs import plain_whole
from battlefield.names import after, model_names
from battlefield.rules.state import State
from battlefield.view import live

if TYPE_CHECKING:
    from battlefield.view.app import PlayScene


def hold(scene: PlayScene, unit: str, to: tuple[float, float] | None,
         target: str | None = None, facing: float | None = None) -> None:
    """Pick up `unit` ('UNIT' or 'UNIT/N' for one model) and hold it with its reference model
    at `to` (and the cursor over `target`), as a drag would, with the engine's full check."""
    st = scene.state
    uid, _, n = unit.partition("/")
    u = _unit(st, uid, "--drag")
    size = len(st.scene.units[u].models)
    k = plain_whole(n) if n else None
    if n and not (k is not None and 1 <= k <= size):
        near = after(unit, model_names((s.id, len(s.models)) for s in st.scene.units))
        raise UsageError(f"--drag {unit}: {uid} has models 1 to {size}{near}")
    model = st.scene.model_offsets()[u] + k - 1 if k is not None else None
    if model is not None and st.table.unit[model] < 0:
        raise UsageError(f"--drag {unit}: that model has been slain")
    p = live.pick_up(st, u, model, scene.drag.wanted)
    if p is None:
        raise UsageError(f"--drag {unit}: it cannot be moved now ({st.acting_side} is acting"
                         + (f" in the {st.phase} phase" if st.phase
                            else "") + "; try --phase movement)")
    d = scene.drag
    d.pickup = p
    t = st.table
    d.to = to if to is not None else (float(t.x[p.ref]), float(t.y[p.ref]))
    d.target = _unit(st, target, "--target") if target else None
    d.facing = None if facing is None else facing % 360.0
    d.update_ruling(engine=True)


def _unit(state: State, uid: str, flag: str) -> int:
    try:
        return state.scene.unit_index(uid)
    except KeyError:
        raise UsageError(f"{flag} {uid}: no such unit (units: "
                         + ", ".join(u.id for u in state.scene.units) + ")"
                         + after(uid, (u.id for u in state.scene.units))) from None
