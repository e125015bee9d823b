"""The drag overlay's fault tags (depiction.drag): each says what is wrong with the model it is
tied to in words short enough to read beside it - never its own name again, never cut mid-word
- and, on the window's own metrics, stands over no other label and no model, its leader across
no other unit's base nor a label of the table."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
import shapely  # noqa: E402

from battlefield.depiction.drag import FAULT_MOST, fault_words  # noqa: E402


@pytest.mark.parametrize("why, said", [
    (['red-hearthguard/1 moves 31.14", more than 8"'], 'moves 31.14", more than 8"'),
    (["red-hearthguard/3 moves through the enemy model blue-hunters/1",
      "red-hearthguard/3 ends on blue-hunters/1 (bases overlap 0.17\")"],
     "moves through the enemy model blue-hunters/1 (+1 more)"),
    (["out of coherency", "out of coherency"], "out of coherency"),
    (["coherency: the nearest model of the unit is 2.51\" away and the unit has more than "
      "five models"], "coherency: the nearest model of the unit is 2.51\"..."),
])
def test_a_fault_tag_says_the_first_reason_without_the_models_own_name(why, said):
    model = why[0].split(" ")[0] if "/" in why[0].split(" ")[0] else "red-a/1"
    got = fault_words(model, why)
    assert got == said
    assert len(got.split(" (+")[0]) <= FAULT_MOST


def test_the_windows_fault_tags_are_readable_and_over_nothing():
    """openwg's hearthguard dragged 31" onto blue-hunters as a charge: every model at fault is
    ringed; its tag stands clear of the table's labels, the overlay's other tags and every
    base, and its leader line crosses no other unit's base and no label."""
    from battlefield.depiction import drag as depicted
    from battlefield.depiction.table import pieces_of_state
    from battlefield.view.app import PlayScene, open_game, to_phase
    from battlefield.view.depict import WindowMetrics
    from battlefield.view.held import hold

    pygame.display.init()
    pygame.font.init()
    try:
        opened = open_game(None, "openwg")
        to_phase(opened.state, "movement")
        scene = PlayScene(opened, (1600, 1000))
        scene.drag.wanted = "charge"
        hold(scene, "red-hearthguard", (16, 39), "blue-hunters")
        scene.draw(pygame.Surface((1600, 1000)))
        tv, st, d = scene.table, scene.state, scene.drag
        view = tv.view
        labels = []
        for r in tv.labels.placed:
            (x0, y1), (x1, y0) = view.table(r.left, r.top), view.table(r.right, r.bottom)
            labels.append(shapely.box(x0, y0, x1, y1))
        metrics = WindowMetrics(tv.style, view.scale, tv.style.sides)
        avoid = [tuple(b.bounds) for b in labels]
        dep = depicted.overlay(st, d.pickup, d.ruling, metrics, tv.style.sides, avoid)
        faults = [p for p in dep.placed if p.item.get("a", {}).get("data-drag") == "fault"]
        assert len(faults) >= 2
        moving = {st.scene.model_names[int(m)] for m in d.pickup.models}
        bases = [shapely.box(*pc.box) for pc in pieces_of_state(st) if pc.name not in moving]
        others = [shapely.box(*p.box) for p in dep.placed if p not in faults]
        for p in faults:
            assert not p.item["t"].endswith("...") or " " in p.item["t"]
            assert not p.item["t"].startswith("red-hearthguard/")
            box = shapely.box(*p.box)
            assert not any(box.intersects(b) for b in [*labels, *others, *bases]), p.item["t"]
            if p.leader is not None:
                line = shapely.LineString(p.leader)
                assert not any(line.crosses(b) for b in labels), p.item["t"]
    finally:
        pygame.display.quit()
