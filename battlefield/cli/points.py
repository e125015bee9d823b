"""`battlefield points`: what each unit and each side costs (rulesets with a unit
builder)."""

from __future__ import annotations

import argparse

from battlefield.cli.common import emit_json, open_scene
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.text import table


def register(sub: argparse._SubParsersAction) -> None:
    """Add `points` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "points", formatter_class=fmt,
        help="what each unit and each side costs (rulesets with a unit builder)",
        description="The points of every unit the scene builds (its ruleset's unit builder) "
                    "and each side's total.",
        epilog="JSON keys: units.ID.{points, stats}, sides.SIDE.\n\n"
               "examples:\n  battlefield points demo-openwg\n"
               "  battlefield points demo-openwg --json")
    p.add_argument("scene", help="scene file, or a bundled scene name")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_points)


def run_points(args: argparse.Namespace) -> int:
    scene = open_scene(args.scene)
    ruleset = registry.get(scene.ruleset.id)
    if not ruleset.provides("points"):
        having = [n for n in registry.playable() if registry.get(n).provides("points")]
        raise UsageError(f"{args.scene}: the {scene.ruleset.id} ruleset has no points "
                         f"(rulesets with points: {', '.join(having) or 'none'})")
    data = ruleset.points(scene)
    if args.json:
        emit_json(data)
        return 0
    rows = [[uid, d["points"], d.get("template", "")] for uid, d in data["units"].items()]
    print(table(["unit", "points", "template"], rows) if rows else "no unit is built "
          "(only units given by build: have points)")
    for side, n in data["sides"].items():
        print(f"{side}: {n} points")
    return 0
