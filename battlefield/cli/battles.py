"""The battle subcommands: try (actions applied to a scene, with their rulings), simulate (one
or many computer battles) and replay (a saved battle checked state by state)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from battlefield.cli.common import emit_json, open_scene
from battlefield.rules.deploy import battle_scene
from battlefield.rulesets import BOARD_ID
from battlefield.text import table


def run_try(args: argparse.Namespace) -> int:
    import yaml

    from battlefield.errors import UsageError
    from battlefield.files import write_text
    from battlefield.inputs import loads
    from battlefield.rules import boundary
    from battlefield.rules.position import summary, summary_line
    from battlefield.rules.trial import parse_dice, run, scene_after

    scene = open_scene(args.scene)
    if scene.ruleset.id == BOARD_ID:
        raise UsageError(f"{args.scene} is a plain board (no ruleset: key): try needs a scene "
                         f"with a ruleset and units")
    if not scene.units:
        raise UsageError(f"{args.scene} has no units: try needs a scene with units on the "
                         f"board (a map is played with: battlefield simulate --map ...)")
    actions = [boundary.read(loads(text, f"--action {i}"), scene)
               for i, text in enumerate(args.action, 1)]
    state, results = run(scene, actions, args.seed, parse_dice(args.dice) if args.dice else [])
    if args.out:
        write_text(args.out, yaml.safe_dump(scene_after(state), sort_keys=False, width=100))
    if args.json:
        emit_json({"results": results, "state": summary(state),
                   **({"out": args.out} if args.out else {})})
        return 0
    for i, r in enumerate(results, 1):
        a = r["action"]
        head = f"{i}. {a['type']}" + (f" {a['unit']}" if "unit" in a else "")
        if not r["legal"]:
            print(f"{head}: ILLEGAL")
            for x in r["violations"]:
                print(f"     {x['code']}: {x['message']}")
            continue
        print(f"{head}: done")
        for ans in r.get("answered", []):
            for x in ans.get("refused", []):
                who = f" {ans['unit']}" if ans.get("unit") else ""
                print(f"     answer {ans['type']}{who} refused: {x['code']}: {x['message']}")
        for roll in r.get("rolls", []):
            print(f"     rolled {roll['dice']} {roll['values']} for {roll['for']}")
        for e in r["events"]:
            print("     " + ", ".join(f"{k}={v}" for k, v in e.items()))
    print(summary_line(state))
    if args.out:
        print(f"wrote {args.out}")
    return 0


# --- simulate and replay -------------------------------------------------------------------------
def run_simulate(args: argparse.Namespace) -> int:
    from battlefield.errors import UsageError
    from battlefield.rules import log, registry
    from battlefield.rules.battle import play
    from battlefield.rules.deploy import default_ruleset
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    args.ruleset = args.ruleset or default_ruleset()
    registry.get(args.ruleset)            # a clear message for a ruleset that cannot be played
    text, name = battle_scene(args.ruleset, args.map)
    scene = load_scene_text(text, name)
    if scene.ruleset.id != args.ruleset:
        raise UsageError(f"{name} is a {scene.ruleset.id} scene, not {args.ruleset}")
    if args.games is not None:
        return _many_battles(args, text, name, scene)
    if args.workers or args.cluster:
        raise UsageError("--workers and --cluster go with --games N")
    game = Game(log.rules_for(args.ruleset), scene, args.seed)
    state = play(game)
    result = state.result()
    if args.log:
        log.write(args.log, state, text)
    data = {"scene": name, "ruleset": args.ruleset, "seed": args.seed,
            "actions": len(state.actions), **result,
            **({"log": args.log} if args.log else {})}
    if args.json:
        emit_json(data)
        return 0
    print(result_text(data))
    return 0


def _many_battles(args, text: str, name: str, scene) -> int:
    from battlefield.analysis.battles import progress_bar, run_battles, summarise
    from battlefield.errors import UsageError

    if args.games < 1:
        raise UsageError(f"--games {args.games}: play at least one battle")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least one")
    if args.log:
        raise UsageError("--log saves one battle; leave it out with --games")
    results = run_battles(args.ruleset, text, name, args.games, args.seed, args.workers,
                          args.cluster, progress_bar() if sys.stderr.isatty() else None)
    data = {"scene": name, "ruleset": args.ruleset, "seed": args.seed,
            **summarise(results, scene.sides)}
    if args.json:
        emit_json(data)
        return 0
    print(f"{name} ({args.ruleset}): {data['games']} battles from seed {args.seed}")
    rows = [[s, data["wins"][s], f"{data['win_rate'][s]:.1%}",
             f"{data['win_rate_95'][s][0]:.1%} - {data['win_rate_95'][s][1]:.1%}",
             f"{data['mean_score'][s]:.2f}"] for s in scene.sides]
    rows.append(["draws", data["draws"], f"{data['draw_rate']:.1%}", "", ""])
    print(table(["side", "wins", "rate", "95% interval", f"mean {data['score']}"], rows))
    return 0


def result_text(d: dict[str, Any]) -> str:
    from battlefield.rules.result import label

    what, points = label(d["score"]), d[d["score"]]
    tally = ", ".join(f"{s} {v}" for s, v in points.items())
    who = f"{d['winner']} wins ({d['by']})" if d["winner"] else "a draw"
    lines = [f"{d['scene']} ({d['ruleset']}, seed {d['seed']}): {who}",
             f"  {what}: {tally}; {d['actions']} actions over {d['round']} battle rounds"]
    if d.get("log"):
        lines.append(f"  saved to {d['log']}")
    return "\n".join(lines)


def run_replay(args: argparse.Namespace) -> int:
    from battlefield.rules import log

    saved = log.read(args.log)
    state, diff = log.replay(saved)
    if args.html:
        _write_page(saved, args.html, args.log)
    data = {"log": args.log, "ruleset": saved.ruleset, "seed": saved.seed,
            "actions": len(saved.actions), "identical": diff is None,
            "first_difference": diff, "over": state.over,
            **(state.result() if state.over else {}), **({"html": args.html} if args.html else {})}
    if args.json:
        emit_json(data)
    else:
        same = ("every state identical to the saved one" if diff is None
                else f"state differs from the saved one from action {diff}")
        print(f"{args.log}: replayed {len(saved.actions)} actions ({saved.ruleset}, seed "
              f"{saved.seed}): {same}")
        if not state.over:
            where = (f"{state.active}'s {state.phase} phase" if state.phase
                     else f"{state.active}'s turn")
            print(f"  the battle is not over: round {state.round}, {where}")
        if state.over:
            d = {"scene": saved.scene_name, "ruleset": saved.ruleset, "seed": saved.seed,
                 "actions": len(saved.actions), **state.result()}
            print(result_text(d))
    if args.html and not args.json:
        print(f"wrote {args.html}")
    return 0 if diff is None else 1


def _write_page(saved, path: str, source: str) -> None:
    from battlefield.errors import UsageError
    from battlefield.page.replay import write_replay

    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"--html {path}: folder {folder} does not exist")
    write_replay(saved, path, Path(source).name)
