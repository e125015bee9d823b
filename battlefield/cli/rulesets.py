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
from battlefield.rules import coverage, registry
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
               "[FLAG], \"actions\": [{\"id\", \"fields\", \"does\", \"example\"}], "
               "\"coverage\": [{\"id\", \"status\": \"played|refused|decided\", \"note\", "
               "\"section\", \"module\", \"test\"}]}}\n"
               "--coverage: the ruleset's coverage table as markdown (its README holds it)\n\n"
               "examples:\n  battlefield rulesets\n  battlefield rulesets skirmish --json\n"
               "  battlefield rulesets aos4 --coverage")
    p.add_argument("name", nargs="?", help="one ruleset (default: all)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--coverage", action="store_true",
                   help="print the coverage table (each ability and rule section of the seed: "
                        "played, refused or decided, and the test that pins it) as markdown")
    p.set_defaults(run=run)


def describe(name: str) -> dict[str, Any]:
    rs = load_ruleset(name)
    ruleset = registry.find(name)
    return {"name": rs.name, "playable": ruleset is not None, "demo": rs.demo,
            "resources": dict(rs.resources),
            "odds": [q.flag for q in ruleset.odds] if ruleset else [],
            "actions": [{"id": a.id, "fields": list(a.fields), "does": a.does,
                         "example": a.example} for a in rs.actions],
            "coverage": [row.to_dict() for row in ruleset.coverage] if ruleset else []}


def text(name: str, d: dict[str, Any]) -> str:
    head = f"{name}: {d['name']} - " + ("playable" if d["playable"] else
                                         "geometry rulings only (check, measure, render)")
    lines = [head]
    if d["demo"]:
        lines.append(f"  demo battle: {d['demo']}")
    if d["odds"]:
        lines.append("  odds: " + ", ".join(f"--{q}" for q in d["odds"]))
    if d.get("coverage"):
        count = {s: sum(r["status"] == s for r in d["coverage"]) for s in coverage.STATUSES}
        lines.append(f"  coverage of its seed: {len(d['coverage'])} rows, "
                     + ", ".join(f"{n} {s}" for s, n in count.items())
                     + f" (battlefield rulesets {name} --coverage)")
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
    if args.coverage:
        return _coverage(chosen, bool(args.name))
    data: dict = {n: describe(n) for n in chosen}
    if args.json:
        if args.name is not None and "coverage" in data[args.name]:
            # `rulesets aos4 --json`: its coverage at the top too, as well as under its name
            data["coverage"] = data[args.name]["coverage"]
        emit_json(data)
    else:
        print("\n\n".join(text(n, d) for n, d in data.items()))
    return 0


def _coverage(chosen: list[str], named: bool) -> int:
    """The coverage tables of the rulesets `chosen` that have one (named: it must)."""
    tables = []
    for name in chosen:
        ruleset = registry.find(name)
        rows = ruleset.coverage if ruleset is not None else ()
        if not rows:
            if named:
                raise UsageError(f"{name} has no coverage table (rulesets/{name}/coverage/"
                                 f"*.yaml gives none)")
            continue
        tables.append(coverage.markdown(rows) if named
                      else f"## {name}\n\n{coverage.markdown(rows)}")
    print("\n\n".join(tables))
    return 0
