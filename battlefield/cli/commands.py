"""The subcommands and their help: check, measure, render, odds, points, validate here; try,
simulate and replay run in cli/battles.py."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from battlefield.cli.battles import run_replay, run_simulate, run_try
from battlefield.cli.common import emit_json, open_scene
from battlefield.rules.deploy import DEFAULT_SCENE, battle_scene  # noqa: F401 (re-exported)
from battlefield.text import inches, table


def register(sub: argparse._SubParsersAction) -> None:
    from battlefield.cli import analyze, army, bot, layout, play, rulesets, schema, serve

    fmt = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser(
        "check", formatter_class=fmt,
        help="every ruling of a scene: coherency, combat, objectives, sight and distance",
        description="Rulings for a whole scene: every unit's coherency (and the models that "
                    "break it), who is in combat with whom, who controls each objective, and "
                    "for every ordered pair of opposing units (a, b) the distance and how much "
                    "of b a can see.",
        epilog="JSON keys: units.ID.{coherent, coherency_breaks, coherency_reasons, "
               "in_combat_with}, "
               "objectives.ID.{controlled_by, totals, contested_by}, "
               "combat.{range, distance, means} (what in_combat means), pairs[].{a, b, distance, "
               "distance_3d, visible, in_combat, closest_models, blocked_by}.\n\n"
               "examples:\n  battlefield check\n  battlefield check maps/demo.yaml --json")
    p.add_argument("scene", nargs="?", default=DEFAULT_SCENE,
                   help="scene file, or a bundled scene/map name (default: demo)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(run=run_check)

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

    p = sub.add_parser(
        "render", formatter_class=fmt,
        help="draw the scene from above as a PNG, with its rulings",
        description="Draw the scene from above: terrain shaded by height, true-size bases, "
                    "objectives and their zones and controllers, coherency breaks, combat "
                    "pairs; with --measure the closest-point line and what blocks the sight.",
        epilog="examples:\n  battlefield render demo -o demo.png\n"
               "  battlefield render maps/demo.yaml -o m.png --measure red-archers blue-drake\n"
               "  battlefield render demo -o ruling.html --measure red-archers blue-drake")
    p.add_argument("scene", nargs="?", default=DEFAULT_SCENE,
                   help="scene file, or a bundled scene name (default: demo)")
    p.add_argument("-o", "--out", required=True,
                   help="file to write: .png, .svg (inches as its units) or .html (one "
                        "self-contained page with a legend and hover details)")
    p.add_argument("--measure", nargs=2, metavar=("A", "B"), help="draw the measurement A -> B")
    p.add_argument("--scale", type=_scale, default=20.0,
                   help="pixels per inch, 2 to 200 (default 20)")
    p.set_defaults(run=run_render)

    _odds_parser(sub, fmt)


    p = sub.add_parser(
        "try", formatter_class=fmt,
        help="apply actions to a scene and see whether each is legal and what happens",
        description="Apply actions in order, each at the moment it belongs to: in aos4 the "
                    "phase of its ability within the acting side's turn (the side of the first "
                    "action's unit), the phases before it passed; a scene whose `state:` holds "
                    "a whole position (as --out writes it) goes on from there. An illegal "
                    "action changes nothing and says why; a legal one reports its events and "
                    "dice.",
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
               "\n\nJSON: {\"results\": [{\"legal\", \"violations\": [{\"code\", "
               "\"message\"}], \"events\", \"rolls\", \"answered\"?}], \"state\": "
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
                    "Without --map: the bundled demo battle. With --map: the ruleset's demo "
                    "armies deployed on that map's deployment zones. The same seed gives the "
                    "same battle, action for action.",
        epilog="examples:\n  battlefield simulate --ruleset aos4\n"
               "  battlefield simulate --ruleset aos4 --map open --seed 7 --log game.jsonl\n"
               "  battlefield simulate --ruleset aos4 --map aos4 --games 20 --workers 2\n"
               "  battlefield replay game.jsonl")
    p.add_argument("--ruleset", help="ruleset to play (default: the default scene's, aos4)")
    p.add_argument("--map", help="map file or bundled map name (default: the demo battle)")
    p.add_argument("--seed", type=int, default=1, help="dice seed (default 1)")
    p.add_argument("--log", help="save the battle (the action log, JSON lines) to this file")
    p.add_argument("--games", type=int, help="play N battles (seeds derived from --seed) and "
                                             "report wins, draws, 95%% intervals, mean scores")
    p.add_argument("--workers", type=int, help="local processes for --games (default: cores)")
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

    p = sub.add_parser(
        "validate", formatter_class=fmt,
        help="check scene and map files; print what is wrong with each",
        description="Read each file with the full scene checks (keys, types, base sizes, "
                    "outlines, overlapping bases, models on the board), the ruleset's own "
                    "checks, and a scene with units set up as a battle as try and play set it "
                    "up (its sides, its state:), so a file validate passes no command refuses. "
                    "Exit status 0 when all are valid, 2 otherwise.",
        epilog="example:\n  battlefield validate maps/*.yaml")
    p.add_argument("files", nargs="+", help="scene or map files")
    p.set_defaults(run=run_validate)

    analyze.register(sub)
    layout.register(sub)
    play.register(sub)
    rulesets.register(sub)
    army.register(sub)
    schema.register(sub)
    serve.register(sub)
    bot.register(sub)


# --- helpers -----------------------------------------------------------------------------------
def _scale(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 2 <= v <= 200:                      # also refuses nan
        raise argparse.ArgumentTypeError(f"{text} pixels per inch: give 2 to 200")
    return v


# --- check -------------------------------------------------------------------------------------
def run_check(args: argparse.Namespace) -> int:
    from battlefield.rules.registry import with_ruleset_check
    from battlefield.rulings import Referee

    scene = open_scene(args.scene)
    report = with_ruleset_check(scene, Referee(scene).check_report())
    if args.json:
        emit_json(report)
        return 0
    print(check_text(scene, report))
    return 0


def check_text(scene, report: dict[str, Any]) -> str:
    rs = scene.ruleset
    out = [f"{scene.name or Path(scene.file).stem}  ({scene.file}; {rs.id}, "
           f"{scene.width:g}\" x {scene.depth:g}\" board, {len(scene.terrain)} terrain pieces)",
           ""]
    c = rs.coherency
    if c.neighbours or c.one_group:
        out.append(f"Units (coherency: within {c.distance:g}\" of {c.neighbours} other model"
                   + (f", {c.large_neighbours} in units of {c.large_unit}+" if c.large_unit
                      else "") + (", one group" if c.one_group else "") + ")")
    else:
        out.append(f"Units (no coherency in {rs.id}: one model or one block a unit)")
    rows = []
    for uid, u in report["units"].items():
        rows.append([uid, u["side"], u["models"], "yes" if u["coherent"] else "NO",
                     u["in_combat_with"]])
    out.append(table(["unit", "side", "models", "coherent", "in combat with"], rows))
    breaks = [(m, why) for u in report["units"].values()
              for m, why in u["coherency_reasons"].items()]
    if breaks:
        out.append("")
        out.append("  Coherency breaks:")
        out.extend(f"    {m}: {why}" for m, why in breaks)
    out.append("")
    o = rs.objectives
    zone = {"control-sum": f"{o.range:g}\" of the {o.marker_mm:g} mm marker, sum of Control",
            "model-count": f"a model within {o.range:g}\" of the centre; all models of the unit"
                           " count",
            "fighters-within": f"models within {o.range:g}\" of the centre"}[o.rule]
    out.append(f"Objectives ({zone}{', sticky' if o.sticky else ''})")
    rows = []
    for oid, ob in report["objectives"].items():
        totals = ", ".join(f"{s} {v:g}" for s, v in ob["totals"].items())
        rows.append([oid + (f" (home {ob['home']})" if ob.get("home") else ""),
                     ob["controlled_by"] or "nobody", totals or "-", ob["contested_by"]])
    out.append(table(["objective", "controlled by", "totals", "units on it"], rows)
               if rows else "  (none)")
    out.append("")
    what = "leader to leader" if rs.distance == "leader" else "closest models"
    out.append(f"Distance and sight (a looking at b; {what}; "
               f"{'distance in 3-D; ' if rs.distance == '3d' else ''}"
               f"combat = {report['combat']['means']})")
    rows = []
    for p in report["pairs"]:
        rows.append([p["a"], p["b"], inches(p["distance"]), inches(p["distance_3d"]),
                     p["visible"], "yes" if p["in_combat"] else "", p["blocked_by"][:3]])
    out.append(table(["a", "b", "distance", "3-D", "visible", "combat", "blocked by"], rows)
               if rows else "  (no opposing units)")
    out.extend(_ruleset_rulings(rs.id, report))
    return "\n".join(out)


_UNIT_KEYS = {"side", "models", "coherent", "coherency_breaks", "coherency_reasons",
              "in_combat_with"}
_PAIR_KEYS = {"a", "b", "distance", "distance_3d", "visible", "in_combat", "closest_models",
              "blocked_by"}


def _ruling_text(v: Any) -> str:
    """A ruleset's ruling in a table cell: numbers in inches, mappings by their short values."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return inches(v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_ruling_text(x)}" for k, x in v.items()
                         if not isinstance(x, (list, dict)))
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "-"
    return "-" if v is None else str(v)


def _ruleset_rulings(ruleset: str, report: dict[str, Any]) -> list[str]:
    """What the ruleset added to the report (its check_additions), as two tables."""
    out: list[str] = []
    ukeys = list(dict.fromkeys(k for u in report["units"].values() for k in u
                               if k not in _UNIT_KEYS))
    if ukeys:
        rows = [[uid, *(_ruling_text(u.get(k)) for k in ukeys)]
                for uid, u in report["units"].items()]
        out += ["", f"Units ({ruleset})", table(["unit", *ukeys], rows)]
    pkeys = list(dict.fromkeys(k for p in report["pairs"] for k in p if k not in _PAIR_KEYS))
    if pkeys:
        rows = [[p["a"], p["b"], *(_ruling_text(p.get(k)) for k in pkeys)]
                for p in report["pairs"]]
        out += ["", f"Pairs ({ruleset}: a looking at b)", table(["a", "b", *pkeys], rows)]
    return out


# --- measure -----------------------------------------------------------------------------------
def run_measure(args: argparse.Namespace) -> int:
    from battlefield.rulings import Referee

    scene = open_scene(args.scene)
    report = Referee(scene).measure_report(args.a, args.b)
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


# --- render ------------------------------------------------------------------------------------
def run_render(args: argparse.Namespace) -> int:
    from battlefield.errors import UsageError
    from battlefield.rulings import Referee

    scene = open_scene(args.scene)
    from battlefield.rules.registry import with_ruleset_check

    referee = Referee(scene)
    report = with_ruleset_check(scene, referee.check_report())
    measure = referee.measure_report(*args.measure) if args.measure else None
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        raise UsageError(f"{args.out}: folder {out.parent} does not exist")
    if out.suffix.lower() in (".svg", ".html", ".htm"):
        from battlefield.page.ruling import write_ruling

        write_ruling(scene, report, measure, out, marks=tuple(_marks(scene)))
    else:
        from battlefield.view.picture import render_scene

        render_scene(scene, report, str(out), measure=measure, px_per_inch=args.scale,
                     marks=tuple(_marks(scene)))
    print(f"wrote {out}")
    return 0


def _marks(scene) -> list:
    """What the scene's ruleset draws on it (orders, routes, engaged sides; registry.Mark)."""
    from battlefield.rules import registry
    from battlefield.rules.state import Game

    pkg = registry.find(scene.ruleset.id)
    if pkg is None or pkg.marks is None or not scene.units:
        return []
    return pkg.marks(Game(pkg.rules, scene).new_state())


# --- odds --------------------------------------------------------------------------------------
def _vocabulary() -> str:
    """Every playable ruleset's actions, from its ruleset.yaml `actions:`."""
    from battlefield.rules import registry
    from battlefield.rulesets import load_ruleset

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


def _odds_parser(sub: argparse._SubParsersAction, fmt) -> None:
    """`odds`: one flag for every question a playable ruleset answers (rulesets that ask the
    same question share its flag)."""
    from battlefield.rules import registry

    questions: dict[str, list[tuple[str, Any]]] = {}
    for name in registry.playable():
        for q in registry.get(name).odds:
            questions.setdefault(q.flag, []).append((name, q))
    lines = []
    for flag, asked in questions.items():
        for name, q in asked:
            lines.append(f"  --{flag} ({name}): {q.help}" + (f"; JSON keys: {q.json_keys}"
                                                             if q.json_keys else ""))
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
    p.add_argument("--weapon", help="attack with this weapon only (its name)")
    p.add_argument("--all-out-attack", action="store_true", help="+1 to hit (aos4 command)")
    p.add_argument("--all-out-defence", action="store_true", help="+1 to save (aos4 command)")
    p.add_argument("--charged", action="store_true",
                   help="the target charged this turn (aos4: it gets no cover)")
    p.add_argument("--slain", type=int, help="models slain this round (openwg --morale)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_odds, questions=list(questions))

    p = sub.add_parser(
        "points", formatter_class=fmt,
        help="what each unit and each side costs (rulesets with a unit builder)",
        description="The points of every unit the scene builds (its ruleset's unit builder) "
                    "and each side's total.",
        epilog="JSON keys: units.ID.{points, stats}, sides.SIDE.\n\n"
               "examples:\n  battlefield points demo-openwg\n"
               "  battlefield points maps/demo-openwg.yaml --json")
    p.add_argument("scene", help="scene file, or a bundled scene name")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_points)


def run_points(args: argparse.Namespace) -> int:
    from battlefield.errors import UsageError
    from battlefield.rules import registry

    scene = open_scene(args.scene)
    package = registry.get(scene.ruleset.id)
    if package.points is None:
        having = [n for n in registry.playable() if registry.get(n).points]
        raise UsageError(f"{args.scene}: the {scene.ruleset.id} ruleset has no points "
                         f"(rulesets with points: {', '.join(having) or 'none'})")
    data = package.points(scene)
    if args.json:
        emit_json(data)
        return 0
    rows = [[uid, d["points"], d.get("template", "")] for uid, d in data["units"].items()]
    print(table(["unit", "points", "template"], rows) if rows else "no unit is built "
          "(only units given by build: have points)")
    for side, n in data["sides"].items():
        print(f"{side}: {n} points")
    return 0


def run_odds(args: argparse.Namespace) -> int:
    from battlefield.errors import UsageError
    from battlefield.rules import registry

    scene = open_scene(args.scene)
    package = registry.get(scene.ruleset.id)
    flag = next(f for f in args.questions if getattr(args, f.replace("-", "_")) is not None)
    q = package.question(flag)
    if q is None:
        asks = ", ".join(f"--{x.flag}" for x in package.odds) or "no odds questions"
        raise UsageError(f"{args.scene}: --{flag} is not a question {scene.ruleset.id} "
                         f"answers (it answers {asks})")
    options = {k: v for k, v in vars(args).items()
               if k not in ("scene", "json", "run", "questions", "command")
               and k not in [f.replace("-", "_") for f in args.questions]}
    data = q.answer(scene, getattr(args, flag.replace("-", "_")), options)
    if args.json:
        emit_json(data)
    else:
        print(q.text(data))
    return 0


# --- try ---------------------------------------------------------------------------------------
# --- validate ----------------------------------------------------------------------------------
def run_validate(args: argparse.Namespace) -> int:
    from battlefield.cli.common import open_scene
    from battlefield.errors import BattlefieldError

    bad = 0
    for f in args.files:
        try:
            s = open_scene(f, battle=True)   # every check that check, try and play run
        except BattlefieldError as exc:
            print(f"battlefield validate: {exc}", file=sys.stderr)
            bad += 1
            continue
        models = sum(len(u.models) for u in s.units)
        print(f"{f}: ok ({s.ruleset.id}, {s.width:g}\" x {s.depth:g}\", "
              f"{len(s.terrain)} terrain, {len(s.objectives)} objectives, {len(s.units)} units, "
              f"{models} models)")
    return 2 if bad else 0
