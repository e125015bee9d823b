"""`battlefield layout generate|score`: terrain layouts that design themselves - a table searched
to sight, hiding, objective and reach targets in analyze's terms, symmetric by construction,
and the score of any map against those targets."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from battlefield.cli.common import emit_json
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.rules.deploy import armies
from battlefield.rulesets import BOARD_ID
from battlefield.scene.load import open_map
from battlefield.text import table

HELP = "generate a table that meets sight and reach targets, or score a map against them"

DESCRIPTION = """\
Terrain layouts that design themselves.

  generate  search a table for a ruleset: pieces of its catalogue (rulesets/NAME/pieces.yaml,
            or --pieces FILE) placed on a 0.5" lattice with 15-degree turns, twinned by the
            symmetry, inside the board, off the objective markers, apart by the ruleset's
            largest base, every objective reachable from both zones. Simulated annealing with
            parallel tempering scores candidates on a coarse grid; the winner is checked on
            analyze's default grid, and those figures are printed and written.
  score     a map's figures against the targets: each figure, its target, the distance, the
            gaps between the sides, and the score (the sum).

Targets are analyze's figures: visible (visible_fraction), hidden (each side's
hidden_from_enemy), objective (each side's objective_sight_mean), reach (each side's mean over
the objectives of reach turns). Defaults: the ruleset's ruleset.yaml layout.targets.
"""

EPILOG = """\
JSON keys (generate): file, ruleset, seed, symmetry, targets, figures, rows[].{figure, side,
value, target, distance, met}, score, met, symmetric, sweeps, evaluations, rounds,
depends_on_machine, interrupted, battles.{games, wins, win_rate, win_rate_95, draws, ...}.
JSON keys (score): map, ruleset, targets, figures, rows, score, met, symmetric.

examples:
  battlefield layout generate --ruleset aos4 --seed 1 -o table.yaml
  battlefield layout generate skirmish --ruleset skirmish --symmetry mirror -o t.yaml
  battlefield layout generate --ruleset aos4 --target visible=0.4,hidden=0.15 --time 30 -o t.yaml
  battlefield layout generate --ruleset aos4 -o t.yaml --battles 20 --workers 2
  battlefield layout score table.yaml --json
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `layout` subcommand (generate, score)."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("layout", help=HELP, description=DESCRIPTION, epilog=EPILOG,
                       formatter_class=fmt)
    inner = p.add_subparsers(dest="layout_command", metavar="{generate,score}")
    inner.required = True
    g = inner.add_parser("generate", help="search a table that meets the targets",
                         description=DESCRIPTION, epilog=EPILOG, formatter_class=fmt)
    g.add_argument("base", nargs="?", metavar="BASE",
                   help="a map or scene whose board, zones, objectives and fixed: true terrain "
                        "are kept (default: the ruleset's bundled map without its terrain)")
    g.add_argument("--ruleset", help="the ruleset (default: the base map's)")
    g.add_argument("-o", "--out", required=True, metavar="NEW.yaml", help="the map to write")
    g.add_argument("--pieces", metavar="FILE", help="a piece catalogue (YAML)")
    g.add_argument("--symmetry", default="half-turn",
                   help="half-turn (default), mirror (the mirror that swaps the zones) or none")
    g.add_argument("--target", metavar="KEY=VALUE,...",
                   help="targets over the ruleset's: visible, hidden, objective, reach")
    g.add_argument("--seed", type=int, default=1, help="the search's seed (default 1)")
    g.add_argument("--iterations", type=int, default=None, metavar="N",
                   help="sweeps of the tempered chains at most (default 1500); it stops "
                        "sooner when every target is met")
    g.add_argument("--time", type=float, default=None, metavar="SECONDS",
                   help="stop after this many seconds (the result then depends on the machine)")
    g.add_argument("--battles", type=int, default=None, metavar="N",
                   help="then play N mirror matches of the demo armies on the table (the "
                        "same army on both sides, every other battle with the deployment zones "
                        "swapped) and report the win rates per zone and per side, the first "
                        "player's and the navigation check")
    g.add_argument("--no-mirror", action="store_true",
                   help="--battles with each side its own army (half with the zones swapped)")
    g.add_argument("--workers", type=int, default=None, help="processes for --battles")
    g.add_argument("--cluster", metavar="ADDRESS", help="a Dask scheduler for --battles")
    g.add_argument("--json", action="store_true", help="print the result as JSON")
    g.set_defaults(run=run_generate)
    s = inner.add_parser("score", help="a map's figures against the targets",
                         description=DESCRIPTION, epilog=EPILOG, formatter_class=fmt)
    s.add_argument("map", help="a map or scene file, or a bundled map name")
    s.add_argument("--ruleset", help="score for this ruleset (default: the map's own)")
    s.add_argument("--target", metavar="KEY=VALUE,...", help="targets over the ruleset's")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(run=run_score)


def _command(args: argparse.Namespace, iterations: int) -> str:
    """The command that makes the same file (without -o and what only reports)."""
    parts = ["battlefield layout generate"]
    if args.base:
        parts.append(args.base)
    parts.append(f"--ruleset {args.ruleset}")
    if args.pieces:
        parts.append(f"--pieces {args.pieces}")
    parts.append(f"--symmetry {args.symmetry}")
    if args.target:
        parts.append(f"--target {args.target}")
    parts.append(f"--seed {args.seed} --iterations {iterations}")
    if args.time is not None:
        parts.append(f"--time {args.time:g}")
    return " ".join(parts)


def run_generate(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.files import write_text
    from battlefield.layout import generate as gen
    from battlefield.layout import targets as tg
    from battlefield.layout.search import CannotPlace

    iterations = gen.DEFAULT_ITERATIONS if args.iterations is None else args.iterations
    if iterations < 1:
        raise UsageError(f"--iterations {iterations}: at least 1")
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise UsageError(f"--time {args.time:g}: a positive number of seconds")
    if args.battles is not None and args.battles < 1:
        raise UsageError(f"--battles {args.battles}: play at least one battle")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least one")
    if args.no_mirror and args.battles is None:
        raise UsageError("--no-mirror goes with --battles N")
    if (args.workers or args.cluster) and args.battles is None:
        raise UsageError("--workers and --cluster go with --battles N")
    if args.symmetry not in ("half-turn", "mirror", "none"):
        raise UsageError(f"--symmetry {args.symmetry}: expected half-turn, mirror or none")
    out = Path(args.out)
    if out.is_dir():
        raise UsageError(f"-o {args.out} is a folder: give a file name, NEW.yaml")
    scene = gen.base_scene(args.base, args.ruleset)
    args.ruleset = scene.ruleset.id
    defaults = gen.default_targets(scene)
    targets = tg.parse(args.target, defaults)
    if not scene.objectives and any(k in ("objective", "reach") for k in targets.keys()):
        raise UsageError(f"{scene.name or args.ruleset}: no objectives, so no objective or "
                         "reach targets")
    if args.battles:                      # can it be played? said before the search, not after

        registry.get(args.ruleset)
        armies(args.ruleset)
    catalogue = gen.catalogue_for(scene, args.pieces)
    setting = gen.setting_for(scene, catalogue, args.symmetry)
    command = _command(args, iterations)
    bar = _bar(iterations, args.time) if sys.stderr.isatty() else None

    def header(best, result) -> list[str]:
        lines = [f"Generated by `battlefield layout generate` for {scene.ruleset.id}: "
                 f"{len(setting.pieces(best.placements))} pieces, {args.symmetry} symmetry,",
                 "searched by simulated annealing with parallel tempering (battlefield/layout).",
                 f"command: {command}",
                 f"seed {args.seed}: {result.sweeps} sweeps, {result.evaluations} tables tried, "
                 f"{result.rounds} checked on analyze's grid",
                 f"targets: {targets.text()}",
                 f"score {best.score:.4f} (analyze's figures); every target within "
                 f"{tg.TOLERANCE:g}: {'yes' if best.met else 'no'}"]
        if result.timed_out:
            lines.append("stopped by --time: this table depends on the machine's speed")
        if result.interrupted:
            lines.append("stopped by Ctrl+C: the best table found by then")
        return lines

    try:
        result = gen.generate(scene, setting, targets, args.seed, iterations, args.time,
                              header, out.name, bar)
    except CannotPlace as exc:
        raise UsageError(str(exc)) from None
    if bar is not None:
        bar.end()
    write_text(out, result.best.text)
    best = result.best
    analysis = best.analysis
    data = {"file": str(out), "ruleset": scene.ruleset.id, "seed": args.seed,
            "symmetry": args.symmetry, "targets": targets.to_dict(),
            "figures": tg.figures_of(analysis), "rows": best.rows,
            "score": round(best.score, 6), "met": best.met,
            "symmetric": analysis["symmetry"]["symmetric_under"],
            "sweeps": result.sweeps, "evaluations": result.evaluations,
            "rounds": result.rounds, "search_grid": result.search_spacing,
            "depends_on_machine": result.timed_out, "interrupted": result.interrupted}
    if args.battles:
        # here, not at the top: start-up time of the CLI
        from battlefield.layout.battles import play_on_table

        data["battles"] = play_on_table(out, scene.ruleset.id, args.battles, args.seed,
                                        args.workers, args.cluster, not args.no_mirror)
    if args.json:
        emit_json(_finite(data))       # strict: a missing figure's inf is null
        return 0
    print(f"wrote {out} ({len(setting.pieces(best.placements))} pieces, {args.symmetry} "
          f"symmetry; {result.sweeps} sweeps, {result.evaluations} tables tried on a "
          f"{result.search_spacing:g}\" grid, {result.rounds} checked on analyze's)")
    if result.timed_out:
        print("  stopped by --time: the result depends on this machine's speed")
    if result.interrupted:
        print("  interrupted: the best table found so far")
    print(rows_text(best.rows, best.score, best.met))
    print(f"  symmetry: {analysis['symmetry']['summary']}")
    if "battles" in data:
        print(battles_text(data["battles"]))
    return 0


class _bar:
    """Progress on stderr: sweeps done, the best score, time left."""

    def __init__(self, total: int, seconds: float | None) -> None:
        self.total, self.seconds = total, seconds
        self.start = time.monotonic()
        self.shown = 0.0

    def __call__(self, done: int, total: int, best: float) -> None:
        now = time.monotonic()
        if now - self.shown < 0.2 and done < total:
            return
        self.shown = now
        elapsed = now - self.start
        left = (total - done) * elapsed / done if done else 0.0
        if self.seconds is not None:
            left = min(left, max(0.0, self.seconds - elapsed))
        filled = round(30 * done / total) if total else 30
        sys.stderr.write(f"\r  layout [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} "
                         f"sweeps  best {best:.4f}  at most {_clock(left)} left  ")
        sys.stderr.flush()

    def end(self) -> None:
        sys.stderr.write("\n")


def _clock(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def run_score(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.analysis.survey import survey
    from battlefield.layout import generate as gen
    from battlefield.layout import targets as tg

    scene = open_map(args.map, args.ruleset)
    if scene.ruleset.id == BOARD_ID and not args.target:
        raise UsageError(f"{args.map} names no ruleset: give --ruleset R or --target ...")
    targets = tg.parse(args.target, gen.default_targets(scene))
    if not targets.values:
        raise UsageError("no targets: give --target KEY=VALUE (visible, hidden, objective, "
                         "reach)")
    figs = survey(scene).figures
    rows = tg.rows(tg.figures_of(figs), targets)
    data = {"map": str(args.map), "ruleset": scene.ruleset.id, "targets": targets.to_dict(),
            "figures": tg.figures_of(figs), "rows": rows, "score": round(tg.score(rows), 6),
            "met": tg.met(rows), "symmetric": figs["symmetry"]["symmetric_under"]}
    if args.json:
        emit_json(_finite(data))       # strict: a missing figure's inf is null
        return 0
    print(f"{args.map} ({scene.ruleset.id}): score {data['score']:.4f}")
    print(rows_text(rows, tg.score(rows), data["met"]))
    print(f"  symmetry: {figs['symmetry']['summary']}")
    return 0


def rows_text(rows: list[dict], score: float, met: bool) -> str:
    # here, not at the top: start-up time of the CLI
    from battlefield.layout.targets import TOLERANCE, WORDS

    body = []
    for r in rows:
        side = r["side"] or "board"
        words = ("gap between the sides" if side == "gap" else WORDS[r["figure"]])
        body.append([r["figure"], side, _v(r["value"]), _v(r["target"]), _v(r["distance"]),
                     "yes" if r["met"] else "no", words])
    out = [table(["figure", "side", "value", "target", "distance", f"within {TOLERANCE:g}",
                  "what"], body),
           f"  score {score:.4f} (the sum of the distances); every target met: "
           f"{'yes' if met else 'no'}"]
    return "\n".join(out)


def battles_text(b: dict) -> str:
    # here, not at the top: start-up time of the CLI
    from battlefield.cli.battles import verdict_lines

    how = ("mirror matches of the demo armies (the same army on both sides, every other "
           "battle with the zones swapped)" if b.get("mirror")
           else "battles of the demo armies, half with the zones swapped")
    rows = [[s, b["wins"][s], f"{b['win_rate'][s]:.1%}",
             f"{b['win_rate_95'][s][0]:.1%} - {b['win_rate_95'][s][1]:.1%}"] for s in b["wins"]]
    rows.append(["draws", b["draws"], f"{b['draw_rate']:.1%}", ""])
    return "\n".join([f"  battles: {b['games']} {how}",
                      table(["side", "wins", "rate", "95% interval"], rows),
                      *verdict_lines(b)])


def _v(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float) and not math.isfinite(v):
        return "inf"
    return f"{v:.4g}"


def _finite(v):
    """inf (a missing figure's distance) as null in JSON."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v
