"""While a unit is in the hand the table's own labels stay readable: each stays where it was
unless the drop covers it - the unit where it would stand, the ruler, or the caption left no
free place - and then the one placer (depiction.labels) moves it aside. No label of the drag or
of the table stands over another label or a model of the drop, the objective tags included."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from battlefield.depiction.labels import overlapping  # noqa: E402
from battlefield.view.launch import play  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    # scene, phase, load, unit, to, target, the table label the drop would cover
    ("demo", "movement", None, "red-lancers", (19, 14), None, "red-pyromancer"),
    ("demo", "movement", None, "red-lancers", (14, 29.2), None, "wall-w"),   # the caption
    ("demo", "movement", None, "red-lancers", (30, 23.2), None, None),       # an objective
    ("demo-warband", None, "assets/warband-round2.jsonl", "red-stalker-1", (17, 12.35),
     "blue-chieftain", "red-hound-2"),
]


def _text(p) -> str:
    return str(p.item.get("t", ""))


@pytest.mark.parametrize(("scene_arg", "phase", "load", "unit", "to", "target", "covered"),
                         CASES)
def test_the_tables_labels_move_aside_from_the_drop_and_nothing_covers_a_label(
        tmp_path, scene_arg, phase, load, unit, to, target, covered) -> None:
    scene = play(scene_arg, None, screenshot=str(tmp_path / "drag.png"), size=(1400, 900),
                 phase=phase, load=str(ROOT / load) if load else None, drag=unit, to=to,
                 target=target)
    tv, d = scene.table, scene.drag
    before = {id(p.item): p for p in tv.depiction.placed}     # the table's labels as they stand
    dep = d.depiction
    assert dep is not None
    t = scene.state.table
    dropped = [(x - t.reach[m], y - t.reach[m], x + t.reach[m], y + t.reach[m])
               for m, (x, y) in zip(d.pickup.models, d.ruling.ends, strict=True)]
    # every label of the table is still drawn, once
    texts = [_text(p) for p in dep.placed]
    for p in before.values():
        assert texts.count(_text(p)) >= 1, _text(p)
    boxes = [p.box for p in dep.placed]
    for k, p in enumerate(dep.placed):
        others = boxes[:k] + boxes[k + 1:]
        assert not overlapping([p.box], others)[0], f"{_text(p)} over another label"
        assert not overlapping([p.box], dropped)[0], f"{_text(p)} over the unit dropped"
    stayed = [p for p in dep.placed if id(p.item) in before]
    moved = [p for p in dep.placed if id(p.item) not in before and p.want is not None
             and any(_text(p) == _text(q) for q in before.values())]
    assert len(stayed) >= len(before) - 3           # the others stay where they were
    for p in stayed:
        assert p.box == before[id(p.item)].box
    if covered is not None:
        assert any(_text(p).startswith(covered) for p in moved), [_text(p) for p in moved]
