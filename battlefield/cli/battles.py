"""The battle subcommands: try (actions applied to a scene, with their rulings), simulate (one
or many computer battles) and replay (a saved battle checked state by state)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from battlefield.cli.common import emit_json, open_scene
from battlefield.errors import UsageError
from battlefield.inputs import loads
from battlefield.rules import boundary, registry
from battlefield.rules.deploy import battles, default_ruleset
from battlefield.rules.result import label
from battlefield.rules.state import Game
from battlefield.rules.summary import summary, summary_line
from battlefield.rulesets import BOARD_ID, load_ruleset
from battlefield.scene.load import load_scene_text
from battlefield.text import plural, table


def register(sub: argparse._SubParsersAction) -> None:
    """Add `try`, `simulate` and `replay` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "try", formatter_class=fmt,
        help="apply actions to a scene and see whether each is legal and what happens",
        description="Apply actions in order, each at the moment it belongs to: in aos4 the "
                    "phase of its ability within the acting side's turn (the side of the first "
                    "action's unit), the phases before it passed; a scene whose `state:` holds "
                    "a whole position (as --out writes it) goes on from there. An illegal "
                    "action changes nothing and says why; a legal one says what came of it "
                    "as the play window's log does (damage, models slain, wounds left, what "
                    "failed; credited to the action that caused it), every other event in "
                    "words, and its dice; --json gives the raw events.",
        epilog="Action shape: {\"type\": ID, \"unit\": ID, \"path\": [[x, y], ...]} (the "
               "leader follows the path, the unit keeps its formation) or \"paths\": "
               "{\"1\": [[x, y], ...], ...} per model; plus \"target\", \"weapon\" and the "
               "action's own fields.\n\nDecisions of the other side (a \"decision\" event "
               "says who decides what, from which choices; secret ones are shown once all "
               "are in) are answered by the next actions, e.g. {\"type\": \"decline\", "
               "\"side\": \"blue\"}. Shorthand: \"all_out_defence\": true on an aos4 "
               "attack, \"commit\": {SIDE: tokens} and \"retreat\": true | ID on a skirmish; "
               "a decision nothing answers gets its default (decline, commit 0), listed in "
               "\"answered\".\n\n" + _vocabulary() +
               "\n\nJSON: {\"results\": [{\"action\", \"by\" (the side that sends it in a "
               "game), \"legal\", \"violations\": [{\"code\", "
               "\"message\", \"units\"?, \"models\"?}], \"events\", \"rolls\", "
               "\"answered\"?}], \"state\": "
               "{\"round\", \"phase\", \"active\", \"acting\", \"sides\", \"units\": "
               "{ID: {\"models_alive\", \"damage\", \"flags\"}}, \"objectives\"}}"
               "\n\nexamples:\n"
               "  battlefield try demo --action '{\"type\": \"normal-move\", \"unit\": "
               "\"red-lancers\", \"path\": [[12.5, 8], [12.5, 12]]}' --json\n"
               "  battlefield try demo --dice 3,4 --action '{\"type\": \"emberskin\", "
               "\"unit\": \"red-pyromancer\", \"target\": \"red-lancers\"}'\n"
               "  battlefield try demo-skirmish --action '{\"type\": \"skirmish\", "
               "\"unit\": \"red-scouts\", \"target\": \"blue-scouts\", \"commit\": "
               "{\"red\": 2, \"blue\": 1}, \"retreat\": true}' --json --out after.yaml\n"
               "  battlefield try after.yaml --action '{\"type\": \"end-turn\"}'\n"
               "  battlefield try demo-skirmish --action '{\"type\": \"skirmish\", "
               "\"unit\": \"red-scouts\", \"target\": \"blue-scouts\"}' --action "
               "'{\"type\": \"commit\", \"side\": \"red\", \"tokens\": 2}' --action "
               "'{\"type\": \"commit\", \"side\": \"blue\", \"tokens\": 1}'\n\n"
               "The exit status is 0 whenever the actions could be read, legal or not.")
    p.add_argument("scene", help="scene file, or a bundled scene name")
    p.add_argument("--action", action="append", required=True, metavar="JSON",
                   help="an action as JSON (repeat for several, applied in order)")
    p.add_argument("--seed", type=int, default=1, help="dice seed (default 1)")
    p.add_argument("--dice", help="fix the next dice, e.g. 4,4,6 (used before the seed's)")
    p.add_argument("--out", help="write the scene as it stands after the actions, with the "
                                 "whole position in its state: key (try it again to go on)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_try)

    p = sub.add_parser(
        "simulate", formatter_class=fmt,
        help="two computer players fight a whole battle; prints the result",
        description="Two computer players (move to objectives, shoot the best visible target, "
                    "charge when the odds are good, fight, use commands) play a whole battle. "
                    "Without --map: the bundled demo battle. With --map: mirror matches of the "
                    "ruleset's demo armies on that map - the same army on both sides, every "
                    "other battle with the deployment zones swapped, each army in turn - so "
                    "that the win rate of each zone is the table's verdict (--no-mirror: each "
                    "side its own army, as the map deploys them). The same seed gives the same "
                    "battle, action for action.",
        epilog="players: easy (the simplest heuristic), normal (the default), strong (a "
               "search over normal: Monte Carlo rollouts, bounded by work), random (a "
               "uniform legal player over the ruleset's vocabulary) and pass (passes whenever "
               "it may).\n\nWith --games the JSON adds, per side, wins/draws/losses with "
               "95% intervals and the match score (a draw counts half); zone_win_rates "
               "({ZONE: rate}, zones as the map's deployment: names them), "
               "first_player_win_rate, navigation ({ZONE: {never_left_zone, "
               "never_reached_objective}}, shares of units), uses (action types per battle "
               "per side) and power (a note when the battles cannot detect a 10-point "
               "bias).\n\nexamples:\n  battlefield simulate --ruleset aos4\n"
               "  battlefield simulate --ruleset aos4 --map open --seed 7 --log game.jsonl\n"
               "  battlefield simulate --ruleset aos4 --map aos4 --games 200 --workers 2\n"
               "  battlefield simulate --ruleset openwg --games 100 --players "
               "red=normal,blue=random\n"
               "  battlefield replay game.jsonl")
    p.add_argument("--ruleset", help="ruleset to play (default: the default scene's, aos4)")
    p.add_argument("--map", help="map file or bundled map name (default: the demo battle)")
    p.add_argument("--seed", type=int, default=1, help="dice seed (default 1)")
    p.add_argument("--log", help="save the battle (the action log, JSON lines) to this file")
    p.add_argument("--games", type=int, help="play N battles (seeds derived from --seed) and "
                                             "report wins, draws, 95%% intervals, mean scores")
    p.add_argument("--workers", type=int, help="local processes for --games (default: cores)")
    p.add_argument("--level", default="normal", metavar="LEVEL",
                   help="the computer players' level: easy, normal (default) or strong")
    p.add_argument("--players", metavar="SIDE=LEVEL,...",
                   help="each side's player: a level, random or pass (e.g. "
                        "red=strong,blue=normal); a side left out plays at --level")
    p.add_argument("--no-mirror", action="store_true",
                   help="with --map: each side its own demo army as the map deploys them, "
                        "not mirror matches")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run --games on an existing Dask cluster (scheduler address, e.g. "
                        "tcp://10.0.0.5:8786); needs pip install \"battlefield[cluster]\"")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run_simulate)

    p = sub.add_parser(
        "replay", formatter_class=fmt,
        help="rebuild a saved battle from its log, check it, print the result",
        description="Replay every action of a saved battle (battlefield simulate --log) from "
                    "the start, checking each state against the fingerprint saved with it.",
        epilog="examples:\n  battlefield replay game.jsonl --json\n"
               "  battlefield replay game.jsonl --html game.html   (open game.html#v=10)")
    p.add_argument("log", help="a game log (JSON lines)")
    p.add_argument("--html", metavar="FILE", help="also write one self-contained page with "
                   "every version of the game: a slider, the dice and events, #v=N opens "
                   "version N")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_replay)


def _vocabulary() -> str:
    """Every playable ruleset's actions, from its ruleset.yaml `actions:`."""
    out = []
    for name in registry.playable():
        docs = load_ruleset(name).actions
        if not docs:
            continue
        out.append(f"{name} actions:")
        for a in docs:
            fields = ", ".join(a.fields) or "-"
            out.append(f"  {a.id} ({fields}): {a.does}")
    return "\n".join(out)


def run_try(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.files import write_text
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
    entries = _entries(state, results)
    for i, r in enumerate(results, 1):
        print("\n".join(try_text(i, r, state if i == len(results) else None, state.rules,
                                 entries[i - 1])))
    print(summary_line(state))
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _entries(state: Any, results: list[dict[str, Any]]) -> list[list[Any]]:
    """The game log's entries (rules/outcome.game_log: worded and credited) of each result:
    the action, then the answers given for it (its shorthand, or the default); none for an
    illegal one."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules import outcome

    sizes = [1 + sum(1 for a in r.get("answered", ()) if not a.get("refused"))
             if r["legal"] else 0 for r in results]
    log = outcome.game_log(state)
    log = log[len(log) - sum(sizes):] if sum(sizes) <= len(log) else []
    out, k = [], 0
    for n in sizes:
        out.append(log[k:k + n] if log else [])
        k += n
    return out


def try_text(i: int, r: dict[str, Any], state: Any, ruleset: Any,
             entries: list[Any] | None = None) -> list[str]:
    """One action of `try` in words, as the play window's log words it (rules/outcome.py):
    what came of it first (damage, models slain, wounds left - `state`: the position now,
    for the last action - or what failed), credited to the action that caused it (an answer
    given for the other side lets an attack resolve: the attack's), then the dice of each
    attack, every other event (decisions and answers, moves, the phase passed to), and the
    dice rolled. An illegal one: ILLEGAL and every reason. `--json` keeps the fields."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules import outcome

    a = r["action"]
    head = f"{i}. {a['type']}" + (f" {a['unit']}" if "unit" in a else "")
    if not r["legal"]:
        return [f"{head}: ILLEGAL"] + [f"     {x['code']}: {x['message']}"
                                       for x in r["violations"]]
    said = outcome.entry({"action": a}, r["events"], state, ruleset=ruleset)
    entries = entries or []
    credited = next((en for en in entries if en.credit != en.side), None)
    if entries and entries[0].credit != entries[0].side:
        head = f"{i}. {entries[0].action}"      # this action's answer let another resolve
    lines = said.lines or ["done"]
    out = [f"{head}: {lines[0]}"] + [f"     {x}" for x in lines[1:]]
    if credited is not None and credited is not entries[0] \
            and credited.action.split(" (")[0] != entries[0].action.split(" (")[0]:
        out.append(f"     credited to {credited.action.split(' (')[0]}")
    words = outcome.action_words(a)
    out += [f"     {x}" for x in said.events
            if x not in lines and x.replace(f": {words} (", " (") not in lines]
    for ans in r.get("answered", []):
        who = f" {ans['unit']}" if ans.get("unit") else ""
        if ans.get("refused"):
            out += [f"     answer {ans['type']}{who} refused: {x['code']}: {x['message']}"
                    for x in ans["refused"]]
        else:
            out.append(f"     ({ans.get('side', 'the other side')}'s answer {ans['type']}{who} "
                       f"given with the action, or by default)")
    out += [f"     rolled {roll['dice']} {roll['values']} for {roll['for']}"
            for roll in r.get("rolls", [])]
    return out


# --- simulate and replay -------------------------------------------------------------------------
def run_simulate(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules import log, registry
    from battlefield.rules.battle import play
    from battlefield.rules.players import check_kind, parse_players

    args.ruleset = args.ruleset or default_ruleset()
    registry.get(args.ruleset)            # a clear message for a ruleset that cannot be played
    check_kind(args.level)
    if args.no_mirror and args.map is None:
        raise UsageError("--no-mirror goes with --map (the demo battle is played as it is)")
    variants = battles(args.ruleset, args.map, mirror=not args.no_mirror)
    text, name, _zones = variants[0]
    scene = load_scene_text(text, name)
    if scene.ruleset.id != args.ruleset:
        raise UsageError(f"{name} is a {scene.ruleset.id} scene, not {args.ruleset}")
    kinds = {s: args.level for s in scene.sides}
    if args.players:
        kinds.update(parse_players(args.players, scene.sides, partial=True))
    if args.games is not None:
        return _many_battles(args, variants, scene, kinds)
    if args.workers or args.cluster:
        raise UsageError("--workers and --cluster go with --games N")
    game = Game(log.rules_for(args.ruleset), scene, args.seed)
    state = play(game, kinds=kinds)
    result = state.result()
    if args.log:
        log.write(args.log, state, text)
    data = {"scene": name, "ruleset": args.ruleset, "seed": args.seed,
            "actions": len(state.actions), **result, "players": kinds,
            **({"log": args.log} if args.log else {})}
    if args.json:
        emit_json(data)
        return 0
    print(result_text(data))
    return 0


def _many_battles(args, variants, scene, kinds: dict[str, str]) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.analysis.battles import Variant, progress_bar, run_battles, summarise

    if args.games < 1:
        raise UsageError(f"--games {args.games}: play at least one battle")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least one")
    if args.log:
        raise UsageError("--log saves one battle; leave it out with --games")
    text, name, _ = variants[0]
    mirrored = len(variants) > 1
    results = run_battles(args.ruleset, text, name, args.games, args.seed, args.workers,
                          args.cluster, progress_bar() if sys.stderr.isatty() else None,
                          kinds=kinds, variants=[Variant(t, n, tuple(z.items()))
                                                 for t, n, z in variants])
    shown = args.map if mirrored else name
    data = {"scene": shown, "ruleset": args.ruleset, "seed": args.seed, "mirror": mirrored,
            **summarise(results, scene.sides)}
    if args.json:
        emit_json(data)
        return 0
    print(many_text(data, scene.sides))
    return 0


def many_text(data: dict[str, Any], sides: list[str]) -> str:
    """What `simulate --games` prints: each side's results, then the table's verdict."""
    how = ("mirror matches (the same army on both sides, every other battle with the zones "
           "swapped)" if data.get("mirror") else "battles")
    lines = [f"{data['scene']} ({data['ruleset']}): {data['games']} {how} from seed "
             f"{data['seed']}"]
    players = data.get("players") or {}
    if players:
        lines.append("  players: " + ", ".join(f"{s} {players[s]}" for s in sides))

    def rate(r: float, ci: list[float]) -> str:
        return f"{r:.1%} ({ci[0]:.1%} - {ci[1]:.1%})"

    rows = [[s, data["wins"][s], data["draws"], data["losses"][s],
             rate(data["win_rate"][s], data["win_rate_95"][s]),
             rate(data["match_score"][s], data["match_score_95"][s]),
             f"{data['mean_score'][s]:.2f}"] for s in sides]
    lines.append(table(["side", "wins", "draws", "losses", "win rate (95% interval)",
                        "match score", f"mean {data['score']}"], rows))
    lines.extend(verdict_lines(data))
    return "\n".join(lines)


def verdict_lines(data: dict[str, Any]) -> list[str]:
    """The table's verdict under a run of battles: each zone's win rate, the first player's,
    the navigation check and the note when the battles are too few to see a 10-point bias."""

    def rate(r: float, ci: list[float]) -> str:
        return f"{r:.1%} ({ci[0]:.1%} - {ci[1]:.1%})"

    lines = []
    if "zone_win_rates" in data:
        lines.append("  won from each deployment zone: " + ", ".join(
            f"{z} {rate(r, data['zone_win_rate_95'][z])}"
            for z, r in data["zone_win_rates"].items()))
    if "first_player_win_rate" in data:
        lines.append("  won by the side that moved first: " + rate(
            data["first_player_win_rate"], data["first_player_win_rate_95"]))
    for zone, nav in (data.get("navigation") or {}).items():
        reached = nav["never_reached_objective"]
        lines.append(f"  navigation from {zone}: {nav['never_left_zone']:.0%} of units never "
                     f"left the zone" + ("" if reached is None else
                                         f", {reached:.0%} never reached an objective"))
    note = data.get("power", {}).get("note")
    if note:
        lines.append(f"  note: {note}")
    return lines


def result_text(d: dict[str, Any]) -> str:
    what, points = label(d["score"]), d[d["score"]]
    tally = ", ".join(f"{s} {v}" for s, v in points.items())
    who = f"{d['winner']} wins ({d['by']})" if d["winner"] else "a draw"
    lines = [f"{d['scene']} ({d['ruleset']}, seed {d['seed']}): {who}",
             f"  {what}: {tally}; {d['actions']} actions over {d['round']} battle rounds"]
    if d.get("log"):
        lines.append(f"  saved to {d['log']}")
    return "\n".join(lines)


def run_replay(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
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
        print(f"{args.log}: replayed {plural(len(saved.actions), 'action')} ({saved.ruleset}, seed "
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
    # here, not at the top: start-up time of the CLI
    from battlefield.page.replay import write_replay

    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"--html {path}: folder {folder} does not exist")
    write_replay(saved, path, Path(source).name)
