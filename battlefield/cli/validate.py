"""`battlefield validate`: check scene and map files; what is wrong with each."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add `validate` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "validate", formatter_class=fmt,
        help="check scene and map files; print what is wrong with each",
        description="Read each file with the full scene checks (keys, types, base sizes, "
                    "outlines, overlapping bases, models on the board). Exit status 0 when all "
                    "are valid, 2 otherwise.",
        epilog="example:\n  battlefield validate maps/*.yaml")
    p.add_argument("files", nargs="+", help="scene or map files")
    p.set_defaults(run=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    from battlefield.errors import InputError
    from battlefield.rules import registry
    from battlefield.scene.load import load_scene, resolve_scene_path

    bad = 0
    for f in args.files:
        try:
            s = registry.checked(load_scene(resolve_scene_path(f)))
        except InputError as exc:
            print(f"battlefield validate: {exc}", file=sys.stderr)
            bad += 1
            continue
        models = sum(len(u.models) for u in s.units)
        print(f"{f}: ok ({s.ruleset.id}, {s.width:g}\" x {s.depth:g}\", "
              f"{len(s.terrain)} terrain, {len(s.objectives)} objectives, {len(s.units)} units, "
              f"{models} models)")
    return 2 if bad else 0
