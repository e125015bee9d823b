"""`battlefield measure`: distance, 3-D distance and sight from A to B."""

from __future__ import annotations

import argparse
from typing import Any

from battlefield.cli.common import emit_json, open_scene
from battlefield.rules.standing import scene_referee
from battlefield.text import inches


def register(sub: argparse._SubParsersAction) -> None:
    """Add `measure` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "measure", formatter_class=fmt,
        help="distance, 3-D distance and sight from A to B, with the closest points",
        description="Measure from A to B, where each is a unit id or UNIT/N for the N-th model "
                    "of a unit (1-based). Distance is closest base edge to base edge; 'visible' "
                    "says how much of B A sees (full, partial, none) and what blocks it.",
        epilog="JSON keys: distance, distance_3d, visible, points.{a,b} ([x, y, z]), "
               "closest_models, blocked_by, within_combat_range, in_combat.\n\n"
               "examples:\n  battlefield measure demo red-archers blue-drake\n"
               "  battlefield measure demo red-archers/2 blue-riders/1 --json")
    p.add_argument("scene", help="scene file, or a bundled scene name")
    p.add_argument("a", help="unit id, or UNIT/N for one model")
    p.add_argument("b", help="unit id, or UNIT/N for one model")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_measure)


def run_measure(args: argparse.Namespace) -> int:
    scene = open_scene(args.scene)
    report = scene_referee(scene).measure_report(args.a, args.b)
    if args.json:
        emit_json(report)
        return 0
    print(measure_text(report))
    return 0


def measure_text(m: dict[str, Any]) -> str:
    a, b = m["points"]["a"], m["points"]["b"]
    lines = [
        f"{m['a']} -> {m['b']}",
        f"  distance     {inches(m['distance'])}  (closest models {m['closest_models'][0]} and "
        f"{m['closest_models'][1]})",
        f"  3-D distance {inches(m['distance_3d'])}",
        f"  closest points ({a[0]:.2f}, {a[1]:.2f}, z {a[2]:.2f}) and "
        f"({b[0]:.2f}, {b[1]:.2f}, z {b[2]:.2f})",
        f"  visible      {m['visible']}"
        + (f"  (blocked by {', '.join(m['blocked_by'])})" if m["blocked_by"] else ""),
        f"  combat range {'within' if m['within_combat_range'] else 'outside'} "
        f"{m['combat_range']:g}\"; in combat: {'yes' if m['in_combat'] else 'no'}",
    ]
    return "\n".join(lines)
