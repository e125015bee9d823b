"""Symmetry of a layout under a half turn and the two mirrors, and what breaks it."""

from __future__ import annotations

from battlefield.analysis.symmetry import symmetry
from battlefield.paths import find_map
from battlefield.scene.load import load_scene

from ._build import make_map, piece, rect


def test_the_aos4_map_is_rotation_symmetric_in_its_outlines():
    sym = symmetry(load_scene(find_map("aos4")))
    rot = sym["transforms"]["rotation"]
    assert rot["outlines"] and rot["objectives"] and rot["swaps_sides"]
    assert "rotation" in sym["outlines_symmetric_under"]
    # ... but the rock's twin is the place of power: not the same kind or height.
    assert not rot["terrain"] and not sym["symmetric"]
    assert {b["piece"] for b in rot["breaks"]} == {"rock", "place-of-power"}
    assert "rock" in sym["summary"] and "place-of-power" in sym["summary"]
    assert not sym["transforms"]["mirror-left-right"]["outlines"]


def test_the_open_map_is_symmetric_every_way():
    sym = symmetry(load_scene(find_map("open")))
    assert sym["symmetric_under"] == ["rotation", "mirror-left-right", "mirror-front-back"]
    assert sym["swaps_sides_under"] == ["rotation", "mirror-front-back"]
    assert sym["transforms"]["mirror-left-right"]["zones"] == {"red": "red", "blue": "blue"}


def test_the_skirmish_table_is_not_symmetric_and_says_why():
    sym = symmetry(load_scene(find_map("skirmish")))
    assert not sym["symmetric"]
    rot = sym["transforms"]["rotation"]
    assert {b["piece"] for b in rot["breaks"]} == {"hill", "tower"}
    assert "hill" in sym["summary"] and "tower" in sym["summary"]


def test_a_piece_without_a_twin_breaks_symmetry():
    zones = {"red": rect(0, 0, 60, 6), "blue": rect(0, 38, 60, 44)}
    twins = [piece("a", rect(10, 10, 14, 12), 3), piece("b", rect(46, 32, 50, 34), 3)]
    sym = symmetry(make_map(twins, deployment=zones))
    assert sym["symmetric_under"] == ["rotation"] and sym["swaps_sides_under"] == ["rotation"]
    lone = [*twins, piece("c", rect(20, 20, 22, 30), 5)]
    sym = symmetry(make_map(lone, deployment=zones))
    assert not sym["symmetric"]
    assert sym["transforms"]["rotation"]["breaks"][0]["piece"] == "c"
    # Slightly off (within the tolerance) still counts as a twin.
    near = [twins[0], piece("b", rect(46.1, 32, 50.1, 34), 3)]
    assert symmetry(make_map(near, deployment=zones))["symmetric"]
