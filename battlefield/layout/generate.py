"""Generate a table: the base map, the catalogue and the targets put together, the tempered
search on the coarse grid, and the winner checked on analyze's default grid.

The coarse grid's figures differ from the fine ones by a little (a few hundredths), so the
check feeds back: when the fine figures miss a target, the search goes on with its figures
corrected by the difference it saw on its best table (fine minus coarse), for a few rounds.
What is printed and written are always the fine figures, from `survey` itself: what
`battlefield analyze` says about the written file.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from battlefield.analysis.survey import survey
from battlefield.errors import UsageError
from battlefield.layout import targets as tg
from battlefield.layout.catalogue import Catalogue, load_catalogue
from battlefield.layout.figures import Evaluator
from battlefield.layout.search import Chain, Search
from battlefield.layout.table import (
    SYMMETRIES,
    Placement,
    Setting,
    largest_base,
    marker_radius,
    mirror_axis,
)
from battlefield.paths import find_map
from battlefield.rulesets import BOARD_ID, load_ruleset
from battlefield.scene.load import load_scene, load_scene_text, open_map
from battlefield.scene.mapfile import map_yaml
from battlefield.scene.model import Scene

ROUNDS = 4                       # fine checks at most
# A checked table this close to every target ends the search; one within TOLERANCE meets the
# targets but the search goes on (with corrected figures) while it has sweeps left, for margin.
AIM = 0.02
DEFAULT_ITERATIONS = 1500        # sweeps of the tempered chains, all rounds together


def base_scene(arg: str | None, ruleset: str | None) -> Scene:
    """The base map: a map or scene file (its terrain marked fixed: true kept), or the
    ruleset's bundled map (else its demo battle's) without its terrain."""
    if arg is not None:
        scene = open_map(arg, ruleset)
        if scene.ruleset.id == BOARD_ID:
            raise UsageError(f"{arg} names no ruleset: give --ruleset R")
        return replace(scene, terrain=tuple(p for p in scene.terrain if p.fixed), units=[])
    if ruleset is None:
        raise UsageError("give --ruleset R (or a base map that names its ruleset)")
    rs = load_ruleset(ruleset)
    path = find_map(rs.id) or rs.demo_path
    if path is None:
        raise UsageError(f"{ruleset} has no bundled map: give a base map")
    return replace(load_scene(path), terrain=(), units=[])


def default_targets(scene: Scene) -> tg.Targets:
    """The ruleset's targets (ruleset.yaml layout.targets) that this base can have: no
    objective or reach targets without objectives."""
    rs = scene.ruleset
    if rs.layout is None:
        return tg.Targets(())
    keep = [(k, v) for k, v in rs.layout.targets
            if scene.objectives or k not in ("objective", "reach")]
    return tg.Targets(tuple(keep))


def catalogue_for(scene: Scene, pieces: str | None) -> Catalogue:
    if pieces is not None:
        return load_catalogue(pieces)
    if scene.ruleset.layout is None:
        raise UsageError(f"{scene.ruleset.id} has no default piece catalogue: give --pieces FILE")
    return load_catalogue(scene.ruleset.layout.pieces)


def setting_for(scene: Scene, catalogue: Catalogue, symmetry: str) -> Setting:
    if symmetry not in SYMMETRIES:
        raise UsageError(f"--symmetry {symmetry}: expected one of {', '.join(SYMMETRIES)}")
    gap = largest_base(scene.ruleset.id) if scene.ruleset.demo else 32 / 25.4
    if symmetry != "none":
        for pt in catalogue.types:
            if -(-pt.min // 2) > pt.max // 2:
                raise UsageError(f"{catalogue.file}: piece {pt.id}: min {pt.min} and max "
                                 f"{pt.max} cannot come in twins ({symmetry} symmetry): "
                                 "give an even number between them, or --symmetry none")
    return Setting(scene, catalogue, symmetry, gap, marker_radius(scene),
                   tuple(p for p in scene.terrain if p.fixed), mirror_axis(scene))


@dataclass
class Checked:
    """A table checked on analyze's grid: its map text, the survey's figures, the rows."""

    placements: tuple[Placement, ...]
    text: str
    analysis: dict
    rows: list[dict]
    score: float
    met: bool


@dataclass
class Result:
    best: Checked
    sweeps: int
    evaluations: int
    rounds: int
    interrupted: bool
    timed_out: bool
    offsets: dict = field(default_factory=dict)
    search_spacing: float = 0.0


def check(scene_text: str, name: str, targets: tg.Targets) -> tuple[dict, list[dict]]:
    """analyze's figures of a map text (default grid and height) and the rows against the
    targets."""
    figs = survey(load_scene_text(scene_text, name)).figures
    return figs, tg.rows(tg.figures_of(figs), targets)


def generate(scene: Scene, setting: Setting, targets: tg.Targets, seed: int,
             iterations: int = DEFAULT_ITERATIONS, seconds: float | None = None,
             header: Callable[[Checked, Result | None], list[str]] | None = None,
             name: str = "table.yaml",
             progress: Callable[[int, int, float], None] | None = None) -> Result:
    """Search, check, correct and search again, up to ROUNDS checks or `iterations` sweeps (a
    round has a share of them, the last round what is left)."""
    if not targets.values:
        raise UsageError("no targets: give --target KEY=VALUE (visible, hidden, objective, "
                         "reach)")
    rng = np.random.Generator(np.random.PCG64(seed))
    ev = Evaluator(setting)
    search = Search(setting, ev, targets, rng)
    deadline = time.monotonic() + seconds if seconds is not None else None
    offsets: dict = {}
    chains: list[Chain] | None = None
    left = iterations
    checked: list[Checked] = []
    sweeps = rounds = 0
    interrupted = timed_out = False
    for rounds in range(1, ROUNDS + 1):            # noqa: B007 - the count is reported
        done_before = sweeps
        budget = left if rounds == ROUNDS else min(left, max(iterations // ROUNDS,
                                                             min(iterations, 50)))
        out = search.run(budget, offsets, chains, deadline,
                         None if progress is None else
                         (lambda s, _t, e, b=done_before: progress(b + s, iterations, e)))
        sweeps += out.sweeps
        left -= out.sweeps
        chains = out.chains
        interrupted, timed_out = out.interrupted, out.timed_out
        text = map_text(scene, setting, out.best.placements, [])
        analysis, rows = check(text, name, targets)
        c = Checked(out.best.placements, text, analysis, rows, tg.score(rows), tg.met(rows))
        checked.append(c)
        close = all(r["distance"] <= AIM for r in rows)
        if close or interrupted or timed_out or left <= 0:
            break
        offsets = _offsets(tg.figures_of(analysis), out.best.figures)
    best = min(checked, key=lambda c: (not c.met, c.score))
    result = Result(best, sweeps, search.evaluations, rounds, interrupted, timed_out, offsets,
                    ev.spacing)
    if header is not None:
        best.text = map_text(scene, setting, best.placements, header(best, result))
    return result


def _offsets(fine: dict, coarse: dict) -> dict:
    """fine - coarse, figure by figure (0 where either is missing)."""
    out: dict = {"visible": _minus(fine["visible"], coarse["visible"])}
    for key in tg.SIDE_FIGURES:
        out[key] = {s: _minus(fine[key].get(s), v) for s, v in coarse[key].items()}
    return out


def _minus(a: float | None, b: float | None) -> float:
    return 0.0 if a is None or b is None or not math.isfinite(a - b) else a - b


def map_text(scene: Scene, setting: Setting, placements: tuple[Placement, ...],
             header: list[str]) -> str:
    """The map file of a candidate: the header's comment lines, then the map as maps/*.yaml."""
    pieces = setting.pieces(placements)
    table = replace(scene, terrain=tuple(pieces), units=[], file=scene.file,
                    name=f"Generated {scene.ruleset.id} table",
                    description=f"{scene.width:g}x{scene.depth:g} table generated by layout "
                                f"generate: {len(pieces)} pieces, {setting.symmetry} symmetry.")
    table.__dict__.pop("layout", None)
    body = map_yaml(table, header=[f"# {h}" if h else "#" for h in header])
    return body

