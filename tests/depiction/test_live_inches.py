"""Inches in a drag's caption and in a move's refusal come with two decimals at most, as
everywhere else (an openwg allowance of 14.3659" was shown as 14.366")."""

from __future__ import annotations

from battlefield.depiction import live
from battlefield.rules import log, registry
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene, resolve_scene_path


def test_an_allowance_is_shown_to_two_decimals(monkeypatch) -> None:
    scene = registry.checked(load_scene(resolve_scene_path("demo-openwg")), battle=True)
    st = Game(log.rules_for("openwg"), scene, 1).new_state()
    monkeypatch.setattr(type(st.rules), "move_allowance",
                        lambda self, state, u, ability=None: 14.36594)
    u = next(u for u in range(len(st.scene.units))
             if st.scene.units[u].side == st.acting_side and live.pick_up(st, u) is not None)
    p = live.pick_up(st, u)
    t = st.table
    far = (float(t.x[p.ref]), float(t.y[p.ref]) + (20 if st.acting_side == "red" else -20))
    r = live.rule(st, p, far, engine=True, detail=True)
    said = "\n".join(live.describe(r))
    assert "14.37\"" in said and "14.366" not in said and "14.3659" not in said, said
