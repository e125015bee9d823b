"""`battlefield schema`: the JSON Schema of scene and map files, for editors (completion and
checking as you type) and for other tools."""

from __future__ import annotations

import argparse

from battlefield.cli.common import emit_json
from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.paths import ruleset_names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "schema", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="the JSON Schema of scene or map files, for editors",
        description="Print the JSON Schema (draft 2020-12) of scene or map files, written from "
                    "the same key lists the loader checks, with a description for every key. "
                    "Save it and point your editor at it: with the YAML language server (VS "
                    "Code's YAML extension, and others) a first line\n"
                    "  # yaml-language-server: $schema=scene.schema.json\n"
                    "gives completion and checking as you type. The loader still checks what a "
                    "schema cannot: bases on the board and not overlapping, outlines that do "
                    "not cross, unique ids.",
        epilog="examples:\n  battlefield schema > scene.schema.json\n"
               "  battlefield schema map > map.schema.json\n"
               "  battlefield schema scene --ruleset aos4 > aos4.schema.json")
    p.add_argument("kind", nargs="?", choices=["scene", "map"], default="scene",
                   help="scene (default) or map")
    p.add_argument("--ruleset", help="only this ruleset's files: its characteristics and the "
                                     "unit and model keys it adds")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.scene.schema import schema

    if args.ruleset is not None and args.ruleset not in ruleset_names():
        raise UsageError(f"unknown ruleset '{args.ruleset}' (expected one of "
                         f"{', '.join(ruleset_names())}){after(args.ruleset, ruleset_names())}")
    emit_json(schema(args.kind, args.ruleset))
    return 0
