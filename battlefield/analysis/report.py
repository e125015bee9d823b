"""What `battlefield analyze` writes: heat maps (PNG), a one-page Markdown report with the numbers
and the pictures, and the figures as JSON; for two maps, each map's own report and a page that
compares them side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from battlefield.analysis import fairness
from battlefield.analysis.survey import Survey
from battlefield.analysis.symmetry import breaks_text
from battlefield.files import write_text
from battlefield.inputs import dumps
from battlefield.text import plural

# The pictures are drawn by the caller's painter (battlefield.view.survey_pictures, with pygame):
# analysis computes and writes text, it never imports the view.
Pictures = Callable[[Survey, Path], dict[str, str]]        # a survey's pictures -> {what: file}
Comparison = Callable[[Survey, Survey, Path], str]         # two surveys side by side -> file

SIGHT_PNG = "sight.png"
MARCHES_PNG = "marches.png"
COMPARE_PNG = "compare-sight.png"
REPORT_MD = "report.md"
FIGURES_JSON = "analysis.json"


def seen_png(side: str) -> str:
    return f"seen-from-{_slug(side)}.png"


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() or c in "-_" else "-" for c in text.strip().lower())
    return out.strip("-") or "map"


def default_dir(names: list[str]) -> Path:
    """./analysis-NAME, or ./analysis-NAME-vs-OTHER for two maps."""
    return Path("analysis-" + "-vs-".join(_slug(n) for n in names))


def turns_text(n: int) -> str:
    return f"{n} turn{'s' * (n != 1)}"


def pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def spots_text(spots: list[dict]) -> str:
    if not spots:
        return "none"
    return ", ".join(f"{k + 1}: ({p['at'][0]:g}, {p['at'][1]:g}) seen {pct(p['seen'])}"
                     + (f" in {p['in']}" if "in" in p else "") for k, p in enumerate(spots))


# --- the page -----------------------------------------------------------------------------------
def _cell(v, unit: str) -> str:
    if v is None:
        return "-"
    if unit == "share":
        return f"{v:.1%}"
    if unit == "inches":
        return f'{v:.2f}"'
    return f"{v:g}"


def _diff(v, unit: str) -> str:
    if v is None:
        return "-"
    if unit == "share":
        return f"{v * 100:+.1f} pts"
    if unit == "inches":
        return f'{v:+.2f}"'
    return f"{v:+g}"


def markdown(s: Survey, files: dict[str, str]) -> str:
    f = s.figures
    g = f["grid"]
    sides = list(f["sides"])
    out = [f"# {s.name}: map analysis ({f['ruleset']})", "",
           f"**Verdict: {f['verdict']['text']}**", "",
           f"{f['board']['width']:g}\" x {f['board']['depth']:g}\" board, "
           f"{plural(len(s.scene.terrain), 'terrain piece')}, "
           f"{plural(len(s.scene.objectives), 'objective')}. "
           f"Sight on a {g['spacing']:g}\" grid ({g['standing']:,} standing cells of "
           f"{g['cells']:,}; {g['standing'] * (g['standing'] - 1):,} sight lines) for a "
           f"{f['model_height']:g}\" tall model, terrain only; marches for a 32 mm base with a "
           f"{f['move']:g}\" move.", ""]
    if "sight" in files:
        out += [f"![How much of the board each place sees]({files['sight']})", ""]
    out += ["## Sight", "",
            "| figure | value |", "| --- | --- |",
            f"| board seen from a cell (mean: `visible_fraction`) | {pct(f['visible_fraction'])} "
            "|",
            f"| least / most seen cell | {pct(f['sight']['least'])} / "
            f"{pct(f['sight']['most'])} |"]
    for pair, v in f["sight"]["zone_to_zone"].items():
        a, b = pair.split("|")
        out.append(f"| pairs of {a} and {b} zone cells that see each other | {pct(v)} |")
    out += ["", "Best hiding spots (least seen from the whole board):", "",
            "| # | at | seen from | in |", "| --- | --- | --- | --- |"]
    for k, p in enumerate(f["sight"]["hiding_spots"]):
        out.append(f"| {k + 1} | ({p['at'][0]:g}, {p['at'][1]:g}) | {pct(p['seen'])} | "
                   f"{p.get('in', '-')} |")
    if sides:
        out += ["", "## Per side", ""]
        rows = f["fairness"]["rows"]
        diff_head = f"{sides[0]} - {sides[1]}" if len(sides) == 2 else "spread"
        out += ["| figure | " + " | ".join(sides) + f" | {diff_head} | favours |",
                "| --- | " + " | ".join("---" for _ in sides) + " | --- | --- |"]
        for r in rows:
            vals = " | ".join(_cell(r["values"].get(side), r["unit"]) for side in sides)
            fav = r["favours"] or ""
            if fav and r["gap"] is not None and r["gap"] < f["fairness"]["threshold"]:
                fav = f"({fav})"
            out.append(f"| {r['words']} | {vals} | {_diff(r['difference'], r['unit'])} | "
                       f"{fav} |")
        out += ["", "Favours in brackets: a difference under "
                f"{f['fairness']['threshold']:.0%}, which the verdict does not count.", ""]
        for side in sides:
            if f"seen_from_{side}" in files:
                out.append(f"![What {side}'s zone sees]({files[f'seen_from_{side}']})")
        out.append("")
    if f["reach"]:
        out += ["## Reach", "",
                f"Shortest legal march from each zone (inches; turns of a {f['move']:g}\" move; "
                f"turns until within {f['contest_range']:g}\" to contest):", "",
                "| objective | " + " | ".join(sides) + " |",
                "| --- | " + " | ".join("---" for _ in sides) + " |"]
        for o in s.scene.objectives:
            cells = []
            for side in sides:
                r = f["reach"][side].get(o.id, {})
                if r.get("inches") is None:
                    cells.append("no legal path")
                else:
                    cells.append(f"{r['inches']:.1f}\" ({turns_text(r['turns'])}; contest in "
                                 f"{r['contest_turns']})")
            out.append(f"| {o.id} | " + " | ".join(cells) + " |")
        if "marches" in files:
            out += ["", f"![The marches]({files['marches']})"]
        out.append("")
    sym = f["symmetry"]
    out += ["## Symmetry", "", sym["summary"] + ".", "",
            "| transform | outlines | kinds and heights | objectives | zones | breaks |",
            "| --- | --- | --- | --- | --- | --- |"]
    for name, c in sym["transforms"].items():
        zones = ("swap" if c["swaps_sides"] else "keep") if c["zones"] is not None else "no"
        breaks = breaks_text(c["breaks"]) if c["breaks"] else "-"
        out.append(f"| {name} | {_yes(c['outlines'])} | {_yes(c['terrain'])} | "
                   f"{_yes(c['objectives'])} | {zones} | {breaks} |")
    out += ["", f"Figures as JSON: [{FIGURES_JSON}]({FIGURES_JSON}).", ""]
    return "\n".join(out)


def _yes(v: bool) -> str:
    return "yes" if v else "no"


def write(s: Survey, folder: Path, pictures: Pictures | None = None) -> dict[str, str]:
    """Pictures (drawn by `pictures`, none without it), report.md and analysis.json of one
    survey in folder (made if need be)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = pictures(s, folder) if pictures else {}
    files["report"] = REPORT_MD
    files["json"] = FIGURES_JSON
    s.figures["files"] = {k: str(folder / v) for k, v in files.items()}
    write_text(folder / REPORT_MD, markdown(s, files))
    write_text(folder / FIGURES_JSON, dumps(s.figures, indent=2) + "\n")
    return files


# --- two maps -----------------------------------------------------------------------------------
def write_comparison(a: Survey, b: Survey, folder: Path, pictures: Pictures | None = None,
                     side_by_side: Comparison | None = None) -> dict:
    """Each map's report in its own subfolder, the sight maps side by side (drawn by
    `side_by_side`), and a page and JSON comparing the figures. Returns the JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [_slug(a.name), _slug(b.name)]
    if names[0] == names[1]:
        names = [names[0] + "-1", names[1] + "-2"]
    for s, sub in zip((a, b), names, strict=True):
        write(s, folder / sub, pictures)
    comparison = fairness.compare(a.figures, b.figures)
    if side_by_side:
        side_by_side(a, b, folder)
    lines = [f"# {a.name} and {b.name} compared", "",
             f"**{a.name}**: {a.figures['verdict']['text']}", "",
             f"**{b.name}**: {b.figures['verdict']['text']}", ""]
    if comparison["fairer"]:
        lines += [f"The fairer layout (smaller largest gap between the sides): "
                  f"**{comparison['fairer']}**.", ""]
    if side_by_side:
        lines += [f"![Sight, side by side]({COMPARE_PNG})", ""]
    lines += [f"| figure | {a.name} | {b.name} | difference |", "| --- | --- | --- | --- |"]
    for r in comparison["rows"]:
        lines.append(f"| {r['words']} | {_cell(r['a'], r['unit'])} | {_cell(r['b'], r['unit'])} "
                     f"| {_diff(r['difference'], r['unit'])} |")
    lines += ["", f"Each map's own report: [{names[0]}]({names[0]}/{REPORT_MD}), "
              f"[{names[1]}]({names[1]}/{REPORT_MD}).", ""]
    write_text(folder / REPORT_MD, "\n".join(lines))
    data = {"maps": [a.figures, b.figures], "comparison": comparison,
            "files": {"report": str(folder / REPORT_MD),
                      "json": str(folder / FIGURES_JSON)}}
    if side_by_side:
        data["files"]["sight"] = str(folder / COMPARE_PNG)
    write_text(folder / FIGURES_JSON, dumps(data, indent=2) + "\n")
    return data
