"""`battlefield analyze MAP [MAP2]`: map and terrain testing - sight coverage, reach, fairness and
symmetry, in numbers (text or JSON) and pictures (heat maps, a one-page report)."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from battlefield.analysis.budget import (
    BUDGET_MB,
    BUDGET_SECONDS,
    FINEST,
    duration,
    estimate,
    fitting_grid,
    refusal,
    size,
)
from battlefield.analysis.coverage import DEFAULT_HEIGHT, DEFAULT_SPACING
from battlefield.cli.common import emit_json
from battlefield.errors import UsageError
from battlefield.paths import map_names
from battlefield.scene.load import open_map
from battlefield.text import table

HELP = "sight coverage, reach and fairness of a map, with heat maps and a report"

DESCRIPTION = """\
Test a map (or a scene's map; units are ignored) for a ruleset:

  sight     on a grid over the board, for a model of a given height standing at each cell
            (on top of hills), the share of the board each cell sees - terrain only, every
            pair of cells decided exactly; the board-wide mean (visible_fraction); how much the
            deployment zones see of each other and of each objective; the best hiding spots.
  reach     the shortest legal march (around impassable terrain, climbing counted) from each
            deployment zone to each objective, in inches and in turns of a move.
  fairness  every figure per side and the gaps between them; whether the layout is symmetric
            (half turn, left-right or front-back mirror) and which pieces break it; a verdict.

With two maps, both are analysed and compared side by side. Writes PNG heat maps, report.md
and analysis.json into --out; prints a summary (or the JSON with --json). Sight maps are
cached per terrain layout (BATTLEFIELD_CACHE=DIR or off; default $XDG_CACHE_HOME/battlefield,
else ~/.cache/battlefield).

Before it starts, the sight map's cost is estimated from the grid (cells, sight lines, seconds,
memory); beyond the budget ({budget}) analyze says so in one line with a grid that fits, and
stops (exit status 2) unless --force is given. A progress bar shows on a terminal.
"""

EPILOG = """\
JSON keys: visible_fraction, sight.{least, most, zone_to_zone, hiding_spots}, sides.SIDE.{
sees_board, hidden_from_enemy, objective_sight, objective_sight_mean, reach_mean, reach_nearest,
contest_turns_total, hiding_spots}, reach.SIDE.OBJECTIVE.{inches, turns, contest_inches,
contest_turns, path}, fairness.{rows, differences}, symmetry.{symmetric, symmetric_under,
transforms}, verdict.{fair, favours, text, drivers}, files. Two maps: {maps: [A, B],
comparison: {rows, fairer}}.

examples:
  battlefield analyze aos4
  battlefield analyze skirmish --out skirmish-report
  battlefield analyze aos4 open --json
  battlefield analyze aos4 --ruleset skirmish --grid 1 --height 2.5 --move 7
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `analyze` subcommand."""
    budget = f"{duration(BUDGET_SECONDS)} and {size(BUDGET_MB)}"
    p = sub.add_parser("analyze", help=HELP, description=DESCRIPTION.format(budget=budget),
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map", help="map or scene file, or a bundled map or scene name ("
                   + ", ".join(map_names()) + ")")
    p.add_argument("map2", nargs="?", help="a second map to compare with the first")
    p.add_argument("--ruleset", help="analyse for this ruleset (default: the map's own)")
    p.add_argument("--out", metavar="DIR",
                   help="folder for the pictures, report.md and analysis.json "
                        "(default ./analysis-NAME, or ./analysis-NAME-vs-NAME2)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--grid", type=float, default=DEFAULT_SPACING, metavar="INCHES",
                   help=f"grid spacing in inches (default {DEFAULT_SPACING:g})")
    p.add_argument("--height", type=float, default=DEFAULT_HEIGHT, metavar="INCHES",
                   help=f"height of the model at each cell (default {DEFAULT_HEIGHT:g})")
    p.add_argument("--move", type=float, metavar="INCHES",
                   help="inches a unit moves in a turn (default: the ruleset's analysis.move "
                        "in its ruleset.yaml - aos4 5, skirmish 6 - or 6 on a plain board)")
    p.add_argument("--force", action="store_true",
                   help=f"run even when the estimate is over the budget ({budget})")
    p.set_defaults(run=run_analyze)


def _positive(name: str, value: float | None, most: float | None = None,
              least: float | None = None) -> None:
    if value is None:
        return
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"--{name} must be a positive number of inches, not {value:g}")
    if least is not None and value < least:
        raise UsageError(f"--{name} {value:g} is finer than analyze measures (at least "
                         f"{least:g}\")")
    if most is not None and value > most:
        raise UsageError(f"--{name} {value:g} is larger than the board ({most:g}\")")


def run_analyze(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.analysis import report
    from battlefield.view.survey_pictures import side_by_side, survey_pictures

    _positive("grid", args.grid, least=FINEST)
    _positive("height", args.height)
    _positive("move", args.move)
    scenes = [open_map(a, args.ruleset) for a in [args.map, args.map2] if a is not None]
    for s in scenes:
        _positive("grid", args.grid, max(s.width, s.depth))
    cost = check_budget(scenes, args.grid, args.force)
    if sys.stderr.isatty():
        print(f"  sight map: {cost.text()}", file=sys.stderr)
    names = [Path(a).stem for a in [args.map, args.map2] if a is not None]
    folder = Path(args.out) if args.out else report.default_dir(names)
    try:
        surveys = [_survey(s, args) for s in scenes]
        if len(surveys) == 1:
            report.write(surveys[0], folder, survey_pictures)
            data = surveys[0].figures
        else:
            data = report.write_comparison(surveys[0], surveys[1], folder, survey_pictures,
                                           side_by_side)
    except MemoryError:
        raise _out_of_memory(cost, scenes, args.grid) from None
    except ValueError as exc:              # numpy: an array larger than any memory
        if "too big" not in str(exc) and "maximum" not in str(exc):
            raise
        raise _out_of_memory(cost, scenes, args.grid) from None
    if args.json:
        emit_json(data)
        return 0
    for s in surveys:
        print(summary_text(s.figures))
        print()
    if len(surveys) == 2:
        print(comparison_text(data["comparison"]))
        print()
    print(f"wrote {folder / report.REPORT_MD} (pictures and {report.FIGURES_JSON} beside it)")
    return 0


def check_budget(scenes: list, grid: float, force: bool):
    """The estimated cost of the sight maps; a one-line UsageError (exit status 2) when it is
    over the budget, unless forced."""
    widest = max(scenes, key=lambda s: s.width * s.depth)
    cost = estimate(widest.width, widest.depth, grid, boards=len(scenes))
    if not force and not cost.within():
        fits = fitting_grid(widest.width, widest.depth, grid, boards=len(scenes))
        raise UsageError(refusal(cost, fits))
    return cost


def _survey(scene, args: argparse.Namespace):
    """One map's survey, with a progress bar of its sight lines on a terminal."""
    # here, not at the top: start-up time of the CLI
    from battlefield.analysis.progress import ProgressBar
    from battlefield.analysis.survey import survey

    progress = None
    if sys.stderr.isatty():
        bar = ProgressBar(f"{scene.name or Path(scene.file).stem}: sight", "lines")
        progress = lambda done, total: bar(2 * done, 2 * total)  # noqa: E731 - pairs: 2 lines
    return survey(scene, args.grid, args.height, args.move, progress=progress)


def _out_of_memory(cost, scenes: list, grid: float):
    widest = max(scenes, key=lambda s: s.width * s.depth)
    fits = fitting_grid(widest.width, widest.depth, grid, boards=len(scenes))
    return UsageError(f"ran out of memory on a {grid:g}\" grid ({cost.cells:,} cells, estimated "
                      f"{size(cost.megabytes)}); --grid {fits:g} fits the budget")


def summary_text(f: dict) -> str:
    g = f["grid"]
    lines = [f"{f['map']} ({_shown(f['file'])}; {f['ruleset']}, {f['board']['width']:g}\" x "
             f"{f['board']['depth']:g}\")",
             f"  sight: a {f['model_height']:g}\" model sees {_pct(f['visible_fraction'])} of the "
             f"board on average ({g['spacing']:g}\" grid, {g['standing']:,} cells; least "
             f"{_pct(f['sight']['least'])}, most {_pct(f['sight']['most'])})"]
    for pair, v in f["sight"]["zone_to_zone"].items():
        a, b = pair.split("|")
        lines.append(f"  the {a} and {b} zones see each other: {_pct(v)} of the pairs of cells")
    spots = f["sight"]["hiding_spots"][:3]
    if spots:
        lines.append("  best hiding spots: " + ", ".join(
            f"({p['at'][0]:g}, {p['at'][1]:g}) {_pct(p['seen'])}"
            + (f" in {p['in']}" if "in" in p else "") for p in spots))
    sides = list(f["sides"])
    if sides:
        rows = []
        for r in f["fairness"]["rows"]:
            if r["figure"].startswith(("objective_sight.", "reach.")):
                continue
            fav = r["favours"] or ""
            if fav and r["gap"] < f["fairness"]["threshold"]:
                fav = f"({fav})"                 # under the threshold: not in the verdict
            rows.append([r["words"], *[_fmt(r["values"].get(s), r["unit"]) for s in sides],
                         _fmt(r["difference"], r["unit"], signed=True), fav])
        head = f"{sides[0]} - {sides[1]}" if len(sides) == 2 else "spread"
        lines.append(table(["per side", *sides, head, "favours"], rows))
    if f["reach"]:
        rows = []
        objectives = list(next(iter(f["reach"].values())))
        for o in objectives:
            rows.append([o, *[_reach(f["reach"][s].get(o)) for s in sides]])
        lines.append(table([f"march (turns of {f['move']:g}\")", *sides], rows))
    lines.append(f"  symmetry: {f['symmetry']['summary']}")
    lines.append(f"  verdict: {f['verdict']['text']}")
    return "\n".join(lines)


def comparison_text(c: dict) -> str:
    a, b = c["maps"]
    rows = [[r["words"], _fmt(r["a"], r["unit"]), _fmt(r["b"], r["unit"]),
             _fmt(r["difference"], r["unit"], signed=True)] for r in c["rows"]]
    out = [f"{a} against {b}", table(["figure", a, b, "difference"], rows)]
    if c["fairer"]:
        out.append(f"  fairer layout: {c['fairer']}")
    return "\n".join(out)


def _shown(file: str) -> str:
    """A file as the user would write it: relative to here when it is below here."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return file


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def _fmt(v, unit: str, signed: bool = False) -> str:
    if v is None:
        return "-"
    if unit == "share":
        return f"{v * 100:+.1f} pts" if signed else f"{v:.1%}"
    if unit == "inches":
        return f'{v:+.2f}"' if signed else f'{v:.2f}"'
    return f"{v:+g}" if signed else f"{v:g}"


def _reach(r: dict | None) -> str:
    if not r or r.get("inches") is None:
        return "no path"
    return f"{r['inches']:.1f}\" ({r['turns']})"
