"""`battlefield validate`: check scene and map files; what is wrong with each."""

from __future__ import annotations

import argparse
import sys

from battlefield.cli.common import open_scene
from battlefield.errors import BattlefieldError
from battlefield.paths import as_typed
from battlefield.text import plural


def register(sub: argparse._SubParsersAction) -> None:
    """Add `validate` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "validate", formatter_class=fmt,
        help="check scene and map files; print what is wrong with each",
        description="Read each file with the full scene checks (keys, types, base sizes, "
                    "outlines, overlapping bases, models on the board), the ruleset's own "
                    "checks, and a scene with units set up as a battle as try and play set it "
                    "up (its sides, its state:), so a file validate passes no command refuses. "
                    "Exit status 0 when all are valid, 2 otherwise.",
        epilog="examples:\n  battlefield validate battle.yaml\n"
               "  battlefield validate demo demo-skirmish")
    p.add_argument("files", nargs="+", help="scene or map files")
    p.set_defaults(run=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    bad = 0
    for f in args.files:
        try:
            s = open_scene(f, battle=True)   # every check that check, try and play run
        except BattlefieldError as exc:
            print(f"battlefield validate: {as_typed(str(exc))}", file=sys.stderr)
            bad += 1
            continue
        models = sum(len(u.models) for u in s.units)
        print(f"{f}: ok ({s.ruleset.id}, {s.width:g}\" x {s.depth:g}\", "
              f"{len(s.terrain)} terrain, {plural(len(s.objectives), 'objective')}, "
              f"{plural(len(s.units), 'unit')}, {plural(models, 'model')})")
    return 2 if bad else 0
