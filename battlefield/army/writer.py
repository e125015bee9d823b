"""`army import`: a roster's units as an aos4 scene - the bundled aos4 map, or a scene given
with --into - set up on the table: by the engine's deployment rules (rules/deploy.py) with
--deploy, else side by side from the side's back edge in the roster's order."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import shapely
import yaml

from battlefield.army import store
from battlefield.army.bases import extent, scene_base
from battlefield.army.catalogue import Catalogues, merge
from battlefield.army.composition import GENERAL, breaches, has, upgraded
from battlefield.army.convert import Converted, ImportProblem, convert
from battlefield.army.convert import keyword as keyword_of
from battlefield.army.entries import Entry
from battlefield.army.roster import Roster, read_roster
from battlefield.errors import InputError, UsageError
from battlefield.files import write_text
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import footprint
from battlefield.names import after
from battlefield.paths import find_map, map_names
from battlefield.rules import registry
from battlefield.rules.boundary import playable_units
from battlefield.rules.deploy import in_reserve, set_up
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene, load_scene_text, resolve_scene_path
from battlefield.scene.model import Scene
from battlefield.yamlsource import Reader

# Why the aos4 mapping stays here and not in battlefield/rules/aos4: the importer reads
# BattleScribe / New Recruit catalogues (battlefield/army: XML, rosters, BSData categories), a
# layer of file formats that the rulesets do not know and must not import; what it writes is
# an ordinary aos4 scene, checked by the same loader as any other. The ruleset it targets is
# named once, here (and its catalogue terms in convert.py); an importer for another ruleset
# would be a second mapping beside this one.
RULESET = "aos4"
DEFAULT_MAP = "aos4"
MANIFESTATION = "MANIFESTATION"
DEPLOY_GAP = 9.0        # aos4 Deploy Unit: more than 9" from enemy territory (abilities.yaml)


# set_up (rules/deploy.py) lays bases out as 32-gons inside their true outline, so a round base
# set down beside another could reach 0.5% of its radius into it (a Cogfort's into a Witch
# Aelf: 0.01", more than the loader takes). The import lays every base out grown to the 32-gon
# round its true outline, and writes the true bases: no two overlap, none pokes out of its zone.
LAYOUT = 1.0 / math.cos(math.pi / 32) + 1e-3
TERRAIN_MM = 100.0      # faction terrain without a base: a 100 mm (about 4") round footprint
TERRAIN_HEIGHT = 3.0    # inches; the data gives faction terrain no height
TERRAIN_KIND = "obstacle"
TERRAIN_CLEAR = 3.0     # aos4 faction terrain: more than 3" from objectives and other terrain


@dataclass
class Imported:
    text: str                                   # the scene, YAML
    units: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    left_out: int = 0                           # unit abilities not imported
    skipped: list[str] = field(default_factory=list)    # units left out, each with its reason
    terrain: list[dict[str, Any]] = field(default_factory=list)   # faction terrain pieces
    catalogues: str = ""                        # which catalogues were read, when any
    scene: dict[str, Any] = field(default_factory=dict)    # the scene `text` is written from
    header: str = ""                            # the comment line above it

    @property
    def reserve(self) -> list[str]:
        """The new units written in reserve (no room for them in their territory)."""
        return [u["id"] for u in self.units if u.get("reserve")]


@dataclass
class Army:
    """A roster's units as army templates (with each model's base), its faction terrain, and
    what was said about them."""

    name: str
    templates: list[dict[str, Any]] = field(default_factory=list)
    bases: list[list[Any]] = field(default_factory=list)     # per template, each model's base
    models: list[list[dict[str, Any]]] = field(default_factory=list)   # ... its own keys
    terrain: list[tuple[dict[str, Any], list[Any]]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    left_out: int = 0
    skipped: list[str] = field(default_factory=list)
    catalogues: str = ""

    def add(self, c: Converted) -> None:
        """A converted unit: faction terrain as a piece, else a unit with its models' keys."""
        self.warnings += c.warnings
        self.left_out += len(c.left_out)
        if c.terrain:
            self.terrain.append((c.unit, c.bases))
            return
        self.templates.append(c.unit)
        self.bases.append(c.bases)
        self.models.append(c.loadout.model_keys() if c.loadout else [{} for _ in c.bases])


def read_catalogues(paths: list[str] | None, r: Roster) -> tuple[Catalogues | None, str]:
    """The catalogues for a roster: --catalogues (folders, or files with the catalogues they
    link to from the same folder), else the cache's (`army catalogues update`), else none."""
    if paths:
        cats = Catalogues.read(*paths)
        for p in paths:
            if Path(p).is_file():
                cats.add_linked(Path(p).parent)
        return cats, ""
    got = store.cached()
    if got is None:
        return None, ""
    return Catalogues.for_roster(got.folder, [f.catalogue_id for f in r.forces]), \
        got.describe()


def army_templates(roster: str | Path, catalogues: list[str] | None, strict: bool = False
                   ) -> Army:
    """The roster's units as army templates, unit by unit: a unit that cannot be mapped is left
    out with a warning naming it and why (`strict`: the first one stops the import)."""
    r = read_roster(roster)
    cats, said = read_catalogues(catalogues, r)
    army = Army(r.name, catalogues=said)
    first: InputError | None = None
    for k, e in enumerate(r.units):
        if summoned(r, k):
            army.warnings.append(
                f"unit '{e.name}': a manifestation of the list's "
                f"{' '.join(r.within[k][:1]) or 'Manifestation Lore'} ('{r.within[k][-1]}'), "
                "summoned by its spell during the battle, which battlefield does not play yet; "
                "written in reserve, where it waits (it is never deployed)")
        merge(e, cats)
        for keyword, lores in r.lores.items():      # the army's lores: its wizards', priests'
            if any(keyword_of(c)[0] == keyword for c in e.categories):
                e.children += lores
        try:
            c = convert(e, cats is not None)
        except ImportProblem as p:
            p = _blame(p, e, r, r.force_of[k], cats)
            err = InputError(r.file, f"unit '{p.unit}'", None, p.message, p.expected)
            if strict:
                raise err from None
            first = first or err
            army.skipped.append(f"unit '{p.unit}' is left out: {p.message}")
            continue
        regiment = r.regiment_of(k)
        if regiment is not None and not c.terrain:
            c.unit["regiment"] = f"regiment-{regiment}"
        if upgraded(e, GENERAL) and not c.terrain:     # the list's General upgrade
            c.unit["general"] = True
        if r.auxiliary(k) and not c.terrain and not summoned(r, k):
            c.unit["auxiliary"] = True                 # counted for the extra command point
        army.add(c)
    if not army.templates and first is not None:      # no unit at all: the first one's cause
        raise first
    broken = breaches(r)              # the list's army composition, once its units are read
    if broken and strict:
        raise InputError(r.file, "", None, "army composition: " + broken[0],
                         "a list the composition rules take (seed 000: regiments, the general, "
                         "unique units, the points limit), or the import without --strict")
    army.warnings = [f"army composition: {b}" for b in broken] + army.warnings
    return army


def summoned(r: Roster, k: int) -> bool:
    """Whether unit k is a manifestation the list's Manifestation Lore lets its wizards summon
    (a MANIFESTATION unit nested in an army-composition selection, not fielded at the start)."""
    return bool(k < len(r.within) and r.within[k]) and has(r.units[k], MANIFESTATION)


def _blame(p: ImportProblem, e: Entry, r: Roster, force: int, cats: Catalogues | None
           ) -> ImportProblem:
    """A problem of a unit whose entries the catalogues no longer have is the catalogue's: the
    list was made with another revision of it. Say so, with both revisions."""
    if cats is None:
        return p
    gone = [x for x in e.walk() if x.entry_id and not cats.has(x.entry_id)]
    if not gone:
        return p
    f = r.forces[force] if force < len(r.forces) else None
    name = f.catalogue if f else "its catalogue"
    have = cats.revisions.get(name, "") if f else ""
    was = f.revision if f else ""
    return ImportProblem(
        p.unit, f"the list was made with catalogue '{name}' revision {was or '?'}, but the "
        f"catalogues read have revision {have or '?'}, where its entry '{gone[0].name}' "
        f"({gone[0].entry_id}) is gone ({p.message})",
        "the list exported again from New Recruit, or --catalogues with the revision it was "
        "made with")


def import_army(roster: str | Path, out: str | Path, side: str = "red",
                into: str | None = None, catalogues: list[str] | None = None,
                deploy: bool = False, strict: bool = False, reserve: bool = False) -> Imported:
    return place_army(army_templates(roster, catalogues, strict), out, side, into, deploy,
                      Path(roster).name, reserve)


def place_army(army: Army, out: str | Path, side: str = "red", into: str | None = None,
               deploy: bool = False, source: str = "", reserve: bool = False) -> Imported:
    """An army's units (and faction terrain) set up in a scene: the bundled aos4 map, or the
    scene `into`; the scene's YAML, not yet written (write_scene checks it first). `reserve`:
    every unit written in reserve, set up by the players in the deployment phase."""
    if deploy and reserve:
        raise UsageError("--deploy and --reserve: choose one (--deploy sets the units up by "
                         "the deployment rules, --reserve leaves them all to the deployment "
                         "phase)")
    templates, warnings, left_out, name = (army.templates, army.warnings, army.left_out,
                                           army.name)
    out = Path(out)
    if into is not None:
        path = resolve_scene_path(into)
        if not path.is_file():
            raise InputError(into, "", None, "no such scene file" + after(into, map_names()),
                             "a scene or map to add to: a file, or a bundled one (" +
                             ", ".join(map_names()) + ")")
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
    taken = {u.id for u in scene.units} | {p.id for p in scene.terrain}
    regiments = {str(u.extra["regiment"]) for u in scene.units if "regiment" in u.extra}
    named: dict[str, str] = {}
    for t in templates:
        t["id"] = _free(f"{side}-{t['id']}", taken)[len(side) + 1:]
        if "regiment" in t:               # the list's regiment n: SIDE-regiment-n in the scene
            if t["regiment"] not in named:
                named[t["regiment"]] = _free(f"{side}-{t['regiment']}", regiments)
            t["regiment"] = named[t["regiment"]]
    placed = [footprint(m.base.shape, m.base.a * LAYOUT, m.base.b * LAYOUT, m.x, m.y, m.facing,
                        32) for u in scene.units for m in u.models]
    board = [(0, 0), (scene.width, 0), (scene.width, scene.depth), (0, scene.depth)]
    centre = (scene.width / 2, scene.depth / 2)
    zones = scene.deployment
    if deploy and side not in zones:
        raise UsageError(f"--deploy: the scene has no territory for side '{side}' "
                         f"(its territories: {', '.join(zones) or 'none'})")
    zone = zones.get(side, board)
    pieces = []
    for unit, sizes in army.terrain:
        piece = _place_terrain(unit, sizes, side, zone, scene, placed, taken, warnings, deploy)
        if piece is not None:
            pieces.append(piece)
    own: dict[str, list[dict[str, Any]]] = {}       # unit id -> each model's own keys
    for t, sizes, keys in zip(templates, army.bases, army.models, strict=True):
        order = list(range(len(sizes)))
        if len({str(x) for x in sizes}) > 1:        # each model its own base
            order.sort(key=lambda i: -extent(sizes[i]))        # biggest (champion) first
            t["_bases"] = [scene_base(sizes[i]) for i in order]
        if any(keys):
            own[f"{side}-{t['id']}"] = [keys[i] for i in order]
    true = {f"{side}-{t['id']}": t.get("_bases") or [t["base"]] * int(t["models"])
            for t in templates}
    laid = [{**t, "base": _grown(t["base"]),
             **({"_bases": [_grown(b) for b in t["_bases"]]} if "_bases" in t else {})}
            for t in templates]
    # a manifestation is summoned by its spell in the battle, never set up: it waits in
    # reserve (aos4's deployment never deploys it)
    summoned = [t for t in laid if MANIFESTATION in [str(k).upper()
                                                     for k in t.get("keywords", [])]]
    laid = [t for t in laid if t not in summoned]
    if reserve:
        units = [in_reserve(t, side, [t["base"]] * len(true[f"{side}-{t['id']}"]))
                 for t in laid]
    elif deploy:
        enemy = [p for s, p in zones.items() if s != side]
        units = set_up(laid, side, zones[side], enemy[0] if enemy else None, DEPLOY_GAP,
                       scene.layout, placed, centre, reserve=True)
    else:
        units = set_up(laid, side, zone, None, 0.0, scene.layout, placed, centre,
                       front_first=False, near=_back(zone, centre), reserve=True)
    units += [in_reserve(t, side, t.get("_bases") or [t["base"]] * int(t["models"]))
              for t in summoned]
    for u in units:          # the true bases, and each model's weapons and role, in set_up's order
        for m, base, keys in zip(u["models"], true[u["id"]], own.get(u["id"], [{}] * len(
                u["models"])), strict=True):
            m["base"] = base
            m.update(keys)
    if pieces:      # a scene's own terrain key replaces its map's: the map's pieces go in it
        have = data.get("terrain")
        if have is None:
            have = [{"id": p.id, "outline": [list(pt) for pt in p.outline],
                     "height": p.height, "kind": p.kind} for p in scene.terrain]
        data["terrain"] = list(have) + pieces
    data["units"] = list(data.get("units") or []) + units
    header = f"# {len(units)} units of {side} imported by `battlefield army import` from {source}"
    return Imported(_dumped(header, data), units, warnings, left_out, army.skipped, pieces,
                    army.catalogues, data, header)


# libyaml's emitter when PyYAML has it (the same text as the pure-Python SafeDumper, several
# times faster on a big list), else the pure-Python one.
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dumped(header: str, data: dict[str, Any]) -> str:
    return header + "\n" + yaml.dump(data, Dumper=DUMPER, sort_keys=False, width=100,
                                     allow_unicode=True)


PLACE = re.compile(r"^units\[(\d+)\]\.models\[\d+\]\.(at|facing)$")


def settled(imported: Imported, name: str) -> Scene:
    """The scene as validate reads it (checked_scene). Should the loader refuse where a new
    unit's model stands (a base on another, say), that unit goes into reserve - it is set up
    in the deployment phase - and the scene is checked again: what is written is a scene
    battlefield takes. Any other refusal stands."""
    while True:
        try:
            return checked_scene(imported.text, name)
        except InputError as exc:
            where = PLACE.match(exc.path or "")
            units = imported.scene.get("units") or []
            k = int(where.group(1)) if where else -1
            unit = units[k] if 0 <= k < len(units) else None
            if unit is None or not any(unit is u for u in imported.units) \
                    or unit.get("reserve"):
                raise
            unit["reserve"] = True
            unit["models"] = [{x: m[x] for x in m if x not in ("at", "facing", "z")}
                              for m in unit["models"]]
            imported.warnings.append(f"{unit['id']}: {exc.message}; it is written in reserve")
            imported.text = _dumped(imported.header, imported.scene)


def _place_terrain(unit: dict[str, Any], sizes: list[Any], side: str, zone, scene,
                   placed: list, taken: set[str], warnings: list[str], deploy: bool = True
                   ) -> dict[str, Any] | None:
    """A faction terrain piece of the side: its base as its footprint (TERRAIN_MM round when the
    data gives none), wholly within the side's territory, more than TERRAIN_CLEAR from
    objectives and other terrain, clear of models; the spot nearest the back of the territory.
    Not `deploy`: the piece is written in reserve (`reserve: true`, its outline at that spot:
    its shape), set up in the deployment phase by Deploy Faction Terrain. None (and a
    warning) when there is no room."""
    size = sizes[0] if sizes else TERRAIN_MM
    if not sizes:
        warnings.append(f"unit '{unit['name']}': faction terrain without a base size; a "
                        f"{TERRAIN_MM:g}mm round footprint is used")
    a = (size[0] if isinstance(size, list) else size) / MM_PER_INCH / 2
    b = (size[1] if isinstance(size, list) else size) / MM_PER_INCH / 2
    area = shapely.Polygon(zone).buffer(-1e-6)
    others = [p.polygon.buffer(TERRAIN_CLEAR) for p in scene.layout.pieces]
    marker = scene.ruleset.objectives.marker_mm / MM_PER_INCH / 2     # to the marker's edge
    others += [shapely.Point(o.x, o.y).buffer(TERRAIN_CLEAR + marker + 1e-6, 256)
               for o in scene.objectives]
    x0, y0, x1, y1 = area.bounds
    centre = shapely.Point(scene.width / 2, scene.depth / 2)
    spots = [(x0 + i * 0.5, y0 + j * 0.5) for i in range(int((x1 - x0) / 0.5) + 1)
             for j in range(int((y1 - y0) / 0.5) + 1)]
    cx, cy = centre.x, centre.y          # GEOS's point distance, without a Point per spot
    spots.sort(key=lambda p: (-round(math.sqrt((p[0] - cx) ** 2 + (p[1] - cy) ** 2), 1), p))
    for x, y in spots:
        foot = footprint(1 if isinstance(size, list) else 0, a, b, x, y, 0.0, 32)
        if (area.contains(foot) and not any(foot.intersects(o) for o in others)
                and not any(foot.intersects(o) for o in placed)):
            placed.append(foot)
            outline = [[round(px, 3), round(py, 3)] for px, py in
                       list(foot.exterior.coords)[:-1]]
            return {"id": _free(f"{side}-{unit['id']}", taken), "name": unit["name"],
                    "side": side, **({} if deploy else {"reserve": True}),
                    "kind": TERRAIN_KIND, "height": TERRAIN_HEIGHT, "outline": outline}
    warnings.append(f"unit '{unit['name']}': no room for this faction terrain in {side}'s "
                    "territory; left out")
    return None


def checked_scene(text: str, name: str) -> Scene:
    """The scene as `battlefield validate` reads it: the loader, the ruleset's checks of its own
    keys (abilities, weapon abilities, each model's weapons), every unit's needed stats, and a
    scene of two sides or more set up as a battle. (A scene of one side - one list imported
    alone - is a battle only once the other army is added: `--into` it.)"""
    scene = load_scene_text(text, name)
    ruleset = registry.find(scene.ruleset.id)
    registry.checked(scene, battle=len(scene.sides) > 1)
    if ruleset is not None and scene.units:
        playable_units(scene, ruleset.given_stats)
    return scene


def write_scene(imported: Imported, out: str | Path, side: str, deploy: bool) -> list[str]:
    """Check the scene as validate would (checked_scene), then write it whole
    (files.write_text): a scene battlefield would refuse is never written. With --deploy, the
    new units not in coherency by the ruleset's rule (models on different bases in a big unit)
    are named."""
    out = Path(out)
    scene = settled(imported, str(out))                 # before anything is written
    write_text(out, imported.text)
    said = []
    if deploy:
        ref = Referee(scene)
        new = {u["id"] for u in imported.units}
        for i, u in enumerate(scene.units):
            if u.id in new and not u.reserve and not ref.coherency(i).coherent:
                said.append(f"{u.id} could not be set up in coherency in {side}'s territory; "
                            "move its models together before the battle")
    return said


def _grown(spec: Any) -> Any:
    """A base as a scene writes it (32, [60, 35], {round: 45}, {oval: [..]}, {rect: [..]}) grown
    by LAYOUT for laying out (a rectangle's outline is exact: kept)."""
    if isinstance(spec, dict):
        (kind, size), = spec.items()
        if kind == "rect":
            return spec
        return {kind: [x * LAYOUT for x in size] if isinstance(size, list) else size * LAYOUT}
    if isinstance(spec, list):
        return {"oval": [x * LAYOUT for x in spec]}
    return {"round": float(spec) * LAYOUT}


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
