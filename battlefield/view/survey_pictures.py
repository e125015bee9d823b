"""The pictures of `battlefield analyze` (heat maps of sight and the marches, PNG): drawn here
with pygame from a survey's figures, handed to analysis.report.write by the command as its
painter, so that analysis never imports the view."""

from __future__ import annotations

from pathlib import Path

from battlefield.analysis.report import (
    COMPARE_PNG,
    MARCHES_PNG,
    SIGHT_PNG,
    pct,
    seen_png,
    spots_text,
    turns_text,
)
from battlefield.analysis.survey import Survey
from battlefield.view import heatmap as hm

MAX_PICTURE_PX = 2400           # a picture's board is at most this many pixels across


# --- one survey --------------------------------------------------------------------------------
def picture_scale(width: float, depth: float) -> float:
    """Pixels per inch of the pictures: the heat maps' usual scale, less on a board so big that
    it would be more than MAX_PICTURE_PX across."""
    return min(hm.PX_PER_INCH, MAX_PICTURE_PX / max(width, depth, 1e-9))


def survey_pictures(s: Survey, folder: Path) -> dict[str, str]:
    """The heat maps and the marches of one survey, saved in folder. Returns {what: file}."""
    px = picture_scale(s.scene.width, s.scene.depth)
    f = s.figures
    cov = s.coverage
    g = cov.grid
    files: dict[str, str] = {}
    spots = [hm.Spot(p["at"][0], p["at"][1], str(k + 1))
             for k, p in enumerate(f["sight"]["hiding_spots"])]
    caption = [f"{s.name}: how much of the board a model sees from each place",
               f'A {cov.height:g}" tall model standing at the centre of each {g.sx:g}" x '
               f'{g.sy:g}" cell (on top of hills and other standable pieces), terrain only. '
               f"Board-wide mean {pct(f['visible_fraction'])}; least {pct(f['sight']['least'])}"
               f", most {pct(f['sight']['most'])}. Numbered: the best hiding spots "
               f"({spots_text(f['sight']['hiding_spots'])}).",
               f"Verdict: {f['verdict']['text']}"]
    pic = hm.heatmap_picture(s.scene, cov.grid_values(cov.fraction), caption,
                             "share of the board seen from the cell", spots, px_per_inch=px)
    hm.save(pic, str(folder / SIGHT_PNG))
    files["sight"] = SIGHT_PNG
    sides = s.sides
    for side in sides:
        others = [o for o in sides if o != side]
        hide = [p for o in others for p in f["sides"][o]["hiding_spots"]]
        spots = [hm.Spot(p["at"][0], p["at"][1], str(k + 1)) for k, p in enumerate(hide)]
        caption = [f"{s.name}: what {side}'s deployment zone sees",
                   f"Each cell coloured by the share of {side}'s deployment zone from which a "
                   f'{cov.height:g}" model there is seen (and sees back). Numbered: the spots of '
                   f"{' and '.join(others) or 'the other zones'} zone least seen from {side} "
                   f"({spots_text(hide)}).",
                   "Objectives seen from the zone: " + ", ".join(
                       f"{o} {pct(v)}" for o, v in f["sides"][side]["objective_sight"].items())]
        pic = hm.heatmap_picture(s.scene, cov.grid_values(s.seen_from[side]), caption,
                                 f"share of {side}'s zone that sees the cell", spots,
                                 px_per_inch=px)
        name = seen_png(side)
        hm.save(pic, str(folder / name))
        files[f"seen_from_{side}"] = name
    if s.marches:
        routes = []
        for m in s.marches:
            r = f["reach"][m.side][m.objective]
            if m.path and len(m.path) > 1:
                label = f'{r["inches"]:.1f}", {turns_text(r["turns"])}'
                routes.append(hm.Route(m.side, m.path, label))
        caption = [f"{s.name}: the shortest legal march from each zone to each objective",
                   f'Around impassable terrain, climbing counted ({s.scene.ruleset.id}), for a '
                   f"32 mm base; labels: inches, and turns of a {s.move:g}\" move."]
        hm.save(hm.marches_picture(s.scene, routes, caption, px_per_inch=px),
                str(folder / MARCHES_PNG))
        files["marches"] = MARCHES_PNG
    return files


# --- two maps -----------------------------------------------------------------------------------
def side_by_side(a: Survey, b: Survey, folder: Path) -> str:
    """The two sight maps side by side, saved in folder. Returns the file's name."""
    pics = []
    for s in (a, b):
        cov = s.coverage
        pics.append(hm.heatmap_picture(
            s.scene, cov.grid_values(cov.fraction),
            [f"{s.name}", f"Board-wide mean {pct(s.figures['visible_fraction'])}."],
            "share of the board seen from the cell"))
    hm.save(hm.side_by_side(pics), str(folder / COMPARE_PNG))
    return COMPARE_PNG
