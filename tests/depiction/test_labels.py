"""The one label placer (depiction/labels.py) on the five demos, as the pages and the window
place them: at every version of a seeded game of each ruleset (what a game page and a replay
show) and on the window's table, no label covers another label - terrain names are labels too -
or a base (its true outline, not its box), and none leaves the board; a unit's label set away
from the unit, or standing nearer another unit's model than its own (warband's fighters in a
line), is tied to it by a leader line. And the placer itself: a free near place is taken, a
crowded label goes further out on its rings with a leader line, an ambiguous place is passed
over for an unambiguous one."""

from __future__ import annotations

import math

import pygame
import pytest
import shapely

from battlefield.depiction.labels import Placer
from battlefield.depiction.table import Rulings, depict, pieces_of_state, side_colours
from battlefield.geometry.bases import outline_points
from battlefield.page.replay import rulings
from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

RULESETS = ("aos4", "skirmish", "openwg", "warband", "blocks")
# A label's clear margin: one closer than this to another label (a terrain name is a label
# too), to a base or to the board's edge touches it - and touching counts as over it.
MARGIN = 0.05


def _unit_of(p) -> str | None:
    a = p.item.get("a", {})
    return (a.get("data-label-for") or a.get("data-mark-unit")
            or (a.get("data-height-of") or "").split("/")[0] or None)


def faults(state, dep) -> list[tuple]:
    """Every label over or touching another, a base or the board's edge; every leader line
    across another label or another unit's base."""
    pieces = pieces_of_state(state)
    bases = [shapely.Polygon(outline_points(p.shape, p.a, p.b, p.x, p.y, p.facing, 32))
             for p in pieces]
    tree = shapely.STRtree(bases)
    drawn = [shapely.box(*p.box) for p in dep.placed]
    boxes = [b.buffer(MARGIN, join_style="mitre") for b in drawn]
    out = []
    for i, box in enumerate(boxes):
        name = dep.placed[i].item.get("t")
        for j in range(i + 1, len(boxes)):
            if box.intersects(drawn[j]):
                out.append(("label", name, dep.placed[j].item.get("t")))
        for k in tree.query(box):
            if box.intersects(bases[k]):
                out.append(("base", name, pieces[k].name))
        x0, y0, x1, y1 = box.bounds
        if x0 < 0 or y0 < 0 or x1 > state.scene.width or y1 > state.scene.depth:
            out.append(("off the board", name))
        leader = dep.placed[i].leader
        if leader is None:
            continue
        line = shapely.LineString(leader)
        for j, other in enumerate(drawn):
            if j != i and line.crosses(other.buffer(-1e-6)):
                out.append(("leader over a label", name, dep.placed[j].item.get("t")))
        unit = _unit_of(dep.placed[i])
        start = shapely.Point(leader[0])
        for k in tree.query(line):
            # not its own unit's, nor the base it starts on (a mark's end it names)
            if pieces[k].unit != unit and not bases[k].buffer(1e-6).contains(start) \
                    and line.intersects(bases[k].buffer(-1e-6)):
                out.append(("leader over a base", name, pieces[k].name))
    return out


def unexplained(state, dep) -> list[str]:
    """Unit labels as near another unit's model as their own, with no leader line."""
    pieces = pieces_of_state(state)
    out = []
    for p in dep.placed:
        unit = p.item.get("a", {}).get("data-label-for")
        if unit is None or p.leader is not None:
            continue
        label = shapely.box(*p.box)
        own = min(label.distance(shapely.box(*q.box)) for q in pieces if q.unit == unit)
        other = min((label.distance(shapely.box(*q.box)) for q in pieces if q.unit != unit),
                    default=math.inf)
        if other <= own + 0.3:           # about as near another unit as its own: ambiguous
            out.append(unit)
    return out


def versions(ruleset: str, seed: int = 1):
    """Each state of a seeded battle of the ruleset's demo, with its page depiction."""
    text, name = battle_scene(ruleset, None)
    scene = load_scene_text(text, name)
    state = Game(registry.get(ruleset), scene, seed).new_state(keep_undo=False)
    player = registry.get(ruleset).player()
    colours = side_colours(scene)
    while True:
        ruled = rulings(state)
        held = {o.id: state.objectives.get(o.id, o.controlled_by) for o in scene.objectives}
        r = Rulings(breaks=ruled["breaks"], combat=[tuple(c) for c in ruled["combat"]],
                    held=held)
        yield state, depict(scene, pieces_of_state(state), r, None, state.rules.window.marks(state),
                            colours=colours, held=held)
        if state.over:
            return
        state.apply(player.choose(state))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_label_covers_a_label_a_base_or_the_edge_in_a_whole_game(ruleset):
    seen = 0
    for state, dep in versions(ruleset):
        assert faults(state, dep) == [], (ruleset, len(state.actions))
        assert unexplained(state, dep) == [], (ruleset, len(state.actions))
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_window_keeps_the_pages_guarantees_through_a_whole_game(ruleset):
    """The window's own depiction (its font at its zoom, its thicker lines) checked as the
    pages' are: at every fourth version of a seeded game played in a PlayScene, no label over
    or touching a label, a base or the edge, no leader across a label or another unit's base,
    no unit label as near another unit's model with no leader line."""
    from battlefield.view.app import PlayScene, open_game

    pygame.display.init()
    pygame.font.init()
    try:
        scene = PlayScene(open_game(None, ruleset), (1600, 1000))
        player = registry.get(ruleset).player()
        seen = 0
        while True:
            if len(scene.state.actions) % 4 == 0:
                scene.table.changed()
                scene.table.units_layer()
                dep = scene.table.depiction
                assert faults(scene.state, dep) == [], (ruleset, len(scene.state.actions))
                assert unexplained(scene.state, dep) == [], (ruleset, len(scene.state.actions))
                seen += 1
            if scene.state.over:
                break
            assert scene.apply(player.choose(scene.state), computer=True)
        assert seen > 5
    finally:
        pygame.display.quit()


def test_a_labels_margin_wider_than_the_pages_gap_still_takes_the_near_place():
    """The window's lines are thick at a small zoom: a label's clear margin (1.2 line units)
    can exceed the metrics' gap. The near place must still stand clear of what it names, or
    every label goes out on a leader line (warband's window: all sixteen did)."""
    from battlefield.depiction.metrics import PageMetrics

    text, name = battle_scene("warband", None)
    scene = load_scene_text(text, name)
    thick = PageMetrics(line=0.1, gap=0.05)
    dep = depict(scene, metrics=thick)
    units = [p for p in dep.placed if "data-label-for" in p.item.get("a", {})]
    tied = [p.item["t"] for p in units if p.leader is not None]
    assert len(tied) <= len(units) // 4, tied


def test_warbands_fighters_in_a_line_are_tied_to_their_labels():
    """The fighters stand in a line across the table: a label above or below it stands next
    to other fighters too, so each unit label nearer another's model has its leader line."""
    state, dep = next(versions("warband"))
    units = [p for p in dep.placed if "data-label-for" in p.item.get("a", {})]
    assert len(units) == len(state.scene.units)
    assert unexplained(state, dep) == []
    assert any(p.leader is not None for p in units)


def test_a_free_near_place_is_taken_without_a_leader():
    placer = Placer(bounds=(0, 0, 20, 20), gap=0.1, pad=0.05)
    placer.avoid((9, 9, 11, 11), "u")
    placer.add("label", 2, 0.5, [(10, 11.4)], anchor=(9, 9, 11, 11), owner="u")
    (p,) = placer.place()
    assert p.centre == (10, 11.4) and p.leader is None


def test_a_crowded_label_goes_out_on_its_rings_with_a_leader_line():
    placer = Placer(bounds=(0, 0, 40, 40), gap=0.1, pad=0.05)
    unit = (19, 19, 21, 21)
    placer.avoid(unit, "u")
    for k in range(12):                 # a dozen labels wanting the same two places
        placer.add(k, 3, 0.6, [(20, 21.5), (20, 18.5)], anchor=unit, owner="u")
    placed = placer.place()
    boxes = [shapely.box(*p.box).buffer(-0.05) for p in placed]
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert not any(b.intersects(shapely.box(*unit).buffer(-0.05)) for b in boxes)
    far = [p for p in placed if p.leader is not None]
    assert len(far) >= 10 and all(0 < p.centre[0] < 40 and 0 < p.centre[1] < 40 for p in placed)


def test_a_place_nearer_another_units_model_is_passed_over():
    placer = Placer(bounds=(0, 0, 20, 20), gap=0.1, pad=0.05)
    placer.avoid((9, 9, 10, 10), "mine")
    placer.avoid((9, 10.75, 10, 11.75), "theirs")          # right above mine, a gap between
    placer.add("mine", 1, 0.5, [(9.5, 10.45), (9.5, 8.6)], anchor=(9, 9, 10, 10),
               owner="mine")
    (p,) = placer.place()
    assert p.centre == (9.5, 8.6) and p.leader is None     # below: unambiguous


def test_a_base_just_under_a_labels_halo_covers_its_place():
    """A place whose box clears a base but whose halo (the clear margin) reaches it is covered:
    the placer's look-up of what lies near its places takes the halos in, not the bare boxes
    (blocks' charge tag between two blocks 0.94" apart lay 0.036" from a base)."""
    placer = Placer(bounds=(0, 0, 40, 40), gap=0.1, pad=0.06)
    placer.avoid((10, 10, 14, 12), "base")
    # the first place's box starts 0.03 above the base, its halo 0.03 into it
    placer.add("tag", 2, 0.5, [(12, 12.28), (12, 20)])
    (p,) = placer.place()
    assert p.centre == (12, 20)


def test_no_label_covers_another_tags_spot():
    """Two arrows' tags: the first's own place (centred on its spot) would cover the second's
    spot, and the second's leader would then start under the first tag. A tag's spot is kept
    clear of the other labels: both are placed without touching, any leader clear."""
    placer = Placer(bounds=(0, 0, 40, 40), gap=0.1, pad=0.05)
    a, b = (10, 10), (12, 10.2)
    for k, (x, y) in enumerate((a, b)):
        spot = (x - 0.05, y - 0.05, x + 0.05, y + 0.05)
        placer.add(f"tag {k}", 6, 0.6, [(x, y)], 4, spot, "u")
    placed = placer.place()
    boxes = [shapely.box(*p.box) for p in placed]
    assert not boxes[0].intersects(boxes[1])
    for p, other in ((placed[0], boxes[1]), (placed[1], boxes[0])):
        assert not shapely.Point(a if p is placed[0] else b).within(other)
        if p.leader is not None:
            assert not shapely.LineString(p.leader).intersects(other)
