"""`battlefield odds`: exact odds of the questions each ruleset answers."""

from __future__ import annotations

import argparse
from typing import Any

from battlefield.cli.common import emit_json, open_scene
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.rules.boundary import playable_units


def register(sub: argparse._SubParsersAction) -> None:
    """`odds`: one flag for every question a playable ruleset answers (rulesets that ask the
    same question share its flag)."""
    fmt = argparse.RawDescriptionHelpFormatter

    questions: dict[str, list[tuple[str, Any]]] = {}
    options: dict[str, list[tuple[str, Any]]] = {}     # each question's own options
    for name in registry.playable():
        for q in registry.get(name).odds:
            questions.setdefault(q.flag, []).append((name, q))
            for o in q.options:
                options.setdefault(o.name, []).append((name, o))
    lines = []
    for flag, asked in questions.items():
        for name, q in asked:
            takes = ", ".join(f"--{o.name}" for o in q.options)
            lines.append(f"  --{flag} ({name}): {q.help}" + (f" (options: {takes})"
                                                             if takes else "")
                         + (f"; JSON keys: {q.json_keys}" if q.json_keys else ""))
    p = sub.add_parser(
        "odds", formatter_class=fmt,
        help="exact odds from where the models stand (the questions each ruleset answers)",
        description="Exact odds of what the scene's ruleset can be asked: which question "
                    "goes with which ruleset is listed below. Only models that may take part "
                    "(in range, able to see) count; cover and terrain come from the scene.",
        epilog="questions:\n" + "\n".join(lines) + "\n\nexamples:\n"
               "  battlefield odds demo --charge red-wyrm blue-drake\n"
               "  battlefield odds demo --attack red-archers blue-drake --json\n"
               "  battlefield odds demo --attack red-blades blue-drake --weapon Greatblade\n"
               "  battlefield odds demo-skirmish --attack red-bows blue-pikes")
    p.add_argument("scene", help="scene file, or a bundled scene name")
    what = p.add_mutually_exclusive_group(required=True)
    for flag, asked in questions.items():
        q = asked[0][1]
        what.add_argument(f"--{flag}", nargs=len(q.args), metavar=q.args,
                          help=" / ".join(f"{n}: {x.help}" for n, x in asked))
    for name, given in options.items():        # declared by the questions that take them
        said: dict[str, list[str]] = {}
        for r, o in given:
            said.setdefault(o.help, []).append(r)
        helps = " / ".join(f"{h} ({', '.join(rs)})" for h, rs in said.items())
        kind = given[0][1].kind
        if kind == "flag":
            p.add_argument(f"--{name}", action="store_true", help=helps)
        else:
            p.add_argument(f"--{name}", type=int if kind == "whole" else str, help=helps)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_odds, questions=list(questions),
                   options=[o.replace("-", "_") for o in options])


def run_odds(args: argparse.Namespace) -> int:
    scene = open_scene(args.scene)
    ruleset = registry.get(scene.ruleset.id)
    flag = next(f for f in args.questions if getattr(args, f.replace("-", "_")) is not None)
    q = ruleset.question(flag)
    if q is None:
        asks = ", ".join(f"--{x.flag}" for x in ruleset.odds) or "no odds questions"
        raise UsageError(f"{args.scene}: --{flag} is not a question {scene.ruleset.id} "
                         f"answers (it answers {asks})")
    options = {k: getattr(args, k) for k in args.options}
    unused = [k for k, v in options.items() if v not in (None, False) and k not in q.keys]
    if unused:     # said, never silently ignored (--slain with --charge)
        takes = ", ".join(f"--{o.name}" for o in q.options) or "no options"
        raise UsageError(f"{', '.join('--' + k.replace('_', '-') for k in unused)}: not used "
                         f"by {scene.ruleset.id}'s --{flag} (it takes {takes})")
    playable_units(scene, ruleset.given_stats)     # odds play the rules: no Move of 0 unsaid
    data = q.answer(ruleset, scene, getattr(args, flag.replace("-", "_")), options)
    if args.json:
        emit_json(data)
    else:
        print(q.text(data))
    return 0
