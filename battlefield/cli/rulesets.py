"""`battlefield rulesets`: what each ruleset is and answers - playable or geometry only, its
actions (from ruleset.yaml), its odds questions, its demo battle - listed from the registry and
the data, never from code that names a ruleset."""

from __future__ import annotations

import argparse
import json
from typing import Any

from battlefield.cli.common import emit_json
from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.paths import ruleset_names
from battlefield.rules import registry
from battlefield.rulesets import load_ruleset


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rulesets", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="the rulesets: which can be played, their actions and odds questions",
        description="Every ruleset battlefield knows (bundled, installed through the "
                    "battlefield.rulesets entry point, or registered): whether it can be played "
                    "or only measured, its action vocabulary with an example of each, the odds "
                    "questions it answers, and its demo battle.",
        epilog="JSON: {NAME: {\"name\", \"playable\", \"demo\", \"resources\", \"odds\": "
               "[FLAG], \"actions\": [{\"id\", \"fields\", \"does\", \"example\"}]}}\n\n"
               "examples:\n  battlefield rulesets\n  battlefield rulesets skirmish --json")
    p.add_argument("name", nargs="?", help="one ruleset (default: all)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def describe(name: str) -> dict[str, Any]:
    rs = load_ruleset(name)
    ruleset = registry.find(name)
    return {"name": rs.name, "playable": ruleset is not None, "demo": rs.demo,
            "resources": dict(rs.resources),
            "odds": [q.flag for q in ruleset.odds] if ruleset else [],
            "actions": [{"id": a.id, "fields": list(a.fields), "does": a.does,
                         "example": a.example} for a in rs.actions]}


def text(name: str, d: dict[str, Any]) -> str:
    head = f"{name}: {d['name']} - " + ("playable" if d["playable"] else
                                         "geometry rulings only (check, measure, render)")
    lines = [head]
    if d["demo"]:
        lines.append(f"  demo battle: {d['demo']}")
    if d["odds"]:
        lines.append("  odds: " + ", ".join(f"--{q}" for q in d["odds"]))
    for a in d["actions"]:
        fields = ", ".join(a["fields"]) or "-"
        lines.append(f"  {a['id']} ({fields}): {a['does']}")
        lines.append(f"      {json.dumps(a['example'])}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    names = ruleset_names()
    if args.name is not None and args.name not in names:
        raise UsageError(f"unknown ruleset '{args.name}' (expected one of {', '.join(names)})"
                         f"{after(args.name, names)}")
    chosen = [args.name] if args.name else names
    data = {n: describe(n) for n in chosen}
    if args.json:
        emit_json(data)
    else:
        print("\n\n".join(text(n, d) for n, d in data.items()))
    return 0
