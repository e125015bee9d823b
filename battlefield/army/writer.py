"""`army import`: a roster's units as an aos4 scene - the bundled aos4 map, or a scene given
with --into - set up on the table: by the engine's deployment rules (rules/deploy.py) with
--deploy, else side by side from the side's back edge in the roster's order."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from battlefield.army.catalogue import Catalogues, merge
from battlefield.army.convert import ImportProblem, convert
from battlefield.army.roster import read_roster
from battlefield.errors import InputError, UsageError
from battlefield.geometry.bases import footprint
from battlefield.paths import find_map
from battlefield.rules.deploy import set_up
from battlefield.scene.load import load_scene, resolve_scene_path
from battlefield.scene.yamlsource import Reader

RULESET = "aos4"
DEFAULT_MAP = "aos4"
DEPLOY_GAP = 9.0        # aos4 Deploy Unit: more than 9" from enemy territory (abilities.yaml)


@dataclass
class Imported:
    text: str                                   # the scene, YAML
    units: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    left_out: int = 0                           # unit abilities not imported


def army_templates(roster: str | Path, catalogues: list[str] | None
                   ) -> tuple[list[dict[str, Any]], list[str], int, str]:
    """The roster's units as army templates, the warnings, how many abilities were left out,
    and the roster's name."""
    r = read_roster(roster)
    cats = Catalogues.read(*catalogues) if catalogues else None
    templates, warnings, left_out = [], [], 0
    for e in r.units:
        merge(e, cats)
        try:
            c = convert(e, cats is not None)
        except ImportProblem as p:
            raise InputError(r.file, f"unit '{p.unit}'", None, p.message, p.expected) from None
        templates.append(c.unit)
        warnings += c.warnings
        left_out += len(c.left_out)
    return templates, warnings, left_out, r.name


def import_army(roster: str | Path, out: str | Path, side: str = "red",
                into: str | None = None, catalogues: list[str] | None = None,
                deploy: bool = False) -> Imported:
    templates, warnings, left_out, name = army_templates(roster, catalogues)
    out = Path(out)
    if into is not None:
        path = resolve_scene_path(into)
        if not path.is_file():
            raise InputError(into, "", None, "no such scene file", "a scene or map to add to")
        scene = load_scene(path)
        data = dict(Reader.open(path).data)
        _keep_map(data, path, out)
    else:
        path = find_map(DEFAULT_MAP)
        if path is None:
            raise UsageError(f"the bundled map maps/{DEFAULT_MAP}.yaml is missing")
        scene = load_scene(path)
        data = {"ruleset": RULESET, "name": name or "imported army", "map": DEFAULT_MAP}
    if scene.ruleset.id != RULESET:
        raise UsageError(f"army import writes {RULESET} units, but {path} is a "
                         f"{scene.ruleset.id} scene")
    data["ruleset"] = RULESET
    taken = {u.id for u in scene.units}
    for t in templates:
        t["id"] = _free(f"{side}-{t['id']}", taken)[len(side) + 1:]
    placed = [footprint(m.base.shape, m.base.a, m.base.b, m.x, m.y, m.facing, 32)
              for u in scene.units for m in u.models]
    board = [(0, 0), (scene.width, 0), (scene.width, scene.depth), (0, scene.depth)]
    centre = (scene.width / 2, scene.depth / 2)
    zones = scene.deployment
    if deploy:
        if side not in zones:
            raise UsageError(f"--deploy: the scene has no territory for side '{side}' "
                             f"(its territories: {', '.join(zones) or 'none'})")
        enemy = [p for s, p in zones.items() if s != side]
        units = set_up(templates, side, zones[side], enemy[0] if enemy else None, DEPLOY_GAP,
                       scene.layout, placed, centre)
    else:
        zone = zones.get(side, board)
        units = set_up(templates, side, zone, None, 0.0, scene.layout, placed, centre,
                       front_first=False, near=_back(zone, centre))
    data["units"] = list(data.get("units") or []) + units
    text = (f"# {len(units)} units of {side} imported by `battlefield army import` from "
            f"{Path(roster).name}\n" + yaml.safe_dump(data, sort_keys=False, width=100,
                                                       allow_unicode=True))
    return Imported(text, units, warnings, left_out)


def write_scene(imported: Imported, out: str | Path, side: str, deploy: bool) -> None:
    """Write the scene and read it back with the loader; with --deploy every new unit must be
    in coherency by the ruleset's rule."""
    from battlefield.files import write_text
    from battlefield.rulings import Referee
    from battlefield.scene.load import load_scene_text

    out = Path(out)
    scene = load_scene_text(imported.text, str(out))   # read back before anything is written
    write_text(out, imported.text)
    if deploy:
        ref = Referee(scene)
        new = {u["id"] for u in imported.units}
        for i, u in enumerate(scene.units):
            if u.id in new and not ref.coherency(i).coherent:
                raise UsageError(f"{u.id} could not be set up in coherency in {side}'s "
                                 "territory")


def _free(uid: str, taken: set[str]) -> str:
    k, out = 2, uid
    while out in taken:
        out, k = f"{uid}-{k}", k + 1
    taken.add(out)
    return out


def _back(zone, centre: tuple[float, float]) -> tuple[float, float]:
    """The corner of a territory farthest from the centre of the board, leftmost first."""
    pts = [tuple(p) for p in zone]
    return max(pts, key=lambda p: ((p[0] - centre[0]) ** 2 + (p[1] - centre[1]) ** 2, -p[0]))


def _keep_map(data: dict[str, Any], scene: Path, out: Path) -> None:
    """`map: FILE` next to the scene, said again from where the new scene is written."""
    ref = data.get("map")
    if not isinstance(ref, str):
        return
    for cand in (scene.parent / ref, scene.parent / f"{ref}.yaml"):
        if cand.is_file():
            data["map"] = os.path.relpath(cand.resolve(), out.resolve().parent)
            return
