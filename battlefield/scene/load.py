"""Reading scene and map files: every key checked, every error with file, key path and line.

A scene names its ruleset, board, terrain, objectives, deployment zones and units. A map is a
scene without units. `map: NAME` in a scene takes the board, terrain, objectives and zones of a
bundled map (or a map file path relative to the scene) unless the scene gives its own.
"""

from __future__ import annotations

import difflib
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from battlefield import scene_keys as keys
from battlefield.errors import InputError, UsageError
from battlefield.geometry.bases import OVAL_SIZES_MM, RECT, ROUND_SIZES_MM, Base, outline_points
from battlefield.geometry.separation import half_width, signed_distance_matrix
from battlefield.geometry.terrain import KINDS, Layout, Piece, normalise_kind
from battlefield.inputs import MAX_NUMBER, shown
from battlefield.names import after, did_you_mean
from battlefield.paths import find_map, map_names, no_such_scene, ruleset_names
from battlefield.rulesets import BOARD_ID, ExtraKey, load_ruleset
from battlefield.scene.model import ModelSpec, Objective, Scene, UnitSpec
from battlefield.yamlsource import Reader, _kind, format_path, load_yaml

# The keys of each mapping (battlefield/scene_keys.py, which the JSON Schema is also written from).
SCENE_KEYS = keys.SCENE.names()
UNIT_KEYS = keys.UNIT.names()
MODEL_KEYS = keys.MODEL.names()
# Bases that overlap by more than this are an error; bases in contact touch within it.
OVERLAP_TOLERANCE = 0.01
EDGE_TOLERANCE = 1e-6
MAX_BOARD = 100_000.0      # inches a side


def load_scene(file: str | Path, require_units: bool = False,
               ruleset: str | None = None) -> Scene:
    """Read a scene or map file. `ruleset` overrides (or supplies) the file's ruleset."""
    return _SceneReader(Reader.open(file)).scene(require_units, ruleset)


def _beside(r: Reader, folder: Path, ref: str) -> Path | None:
    """The file `ref` names in the scene's folder or below it; a reference out of the folder
    (`../`, an absolute path, a link leading out) is refused without reading it. None: the
    name is no file there (it may be a bundled map's)."""
    if "\0" in ref:
        raise r.error(("map",), "a map name has no NUL character")
    path = folder / ref
    try:
        inside = _where(path).is_relative_to(_where(folder))
    except (OSError, ValueError):
        inside = False
    if not inside:
        if Path(ref).is_absolute() or ".." in Path(ref).parts or path.exists():
            raise r.error(("map",), f"map '{ref}' is outside the scene's folder",
                          "a bundled map's name, or a map file beside the scene or below it")
        return None
    return path


def _where(file: str | Path) -> Path:
    try:
        return Path(file).resolve()
    except (OSError, RuntimeError, ValueError):
        return Path(file)


def load_scene_text(text: str, name: str = "<scene>", files: bool = True) -> Scene:
    """A scene from its text. files=False: its `map:` names a bundled map only, never a file
    on this computer (a scene a network client sent: server/app.py)."""
    data, lines = load_yaml(name, text)
    return _SceneReader(Reader(name, data, lines), files=files).scene(False, None)


def resolve_scene_path(arg: str) -> Path:
    """A scene argument: a file path, or the name of a bundled map or scene."""
    path = Path(arg)
    try:
        there = path.exists()
    except (OSError, ValueError) as exc:  # a name too long for the file system, a NUL
        why = getattr(exc, "strerror", None) or "not a file name"
        raise InputError(shown(arg, 60), "", None, f"cannot be opened ({why})",
                         "a scene file, or a bundled scene: " + ", ".join(map_names())
                         ) from None
    if there or path.suffix in (".yaml", ".yml") and "/" in arg:
        return path
    bundled = find_map(arg)
    return bundled if bundled is not None else path


class _SceneReader:
    def __init__(self, r: Reader, chain: tuple[Path, ...] = (), files: bool = True) -> None:
        self.r = r
        self.files = files            # False: `map:` is a bundled map, no file beside
        # The scene and map files that led here through `map:`, to refuse a loop.
        self.chain = (*chain, _where(r.file))

    def scene(self, require_units: bool, ruleset_override: str | None) -> Scene:
        r = self.r
        if r.data is None:
            raise r.error((), "the file is empty", "a scene: ruleset, board, terrain, units ...")
        top = r.mapping((), r.data, [], SCENE_KEYS)
        base_map: dict[str, Any] = {}
        if "map" in top:
            base_map = self._map(top["map"])
        names = ruleset_names()
        if ruleset_override is not None:
            if ruleset_override not in names:
                raise UsageError(f"unknown ruleset '{ruleset_override}' "
                                 f"(expected one of {', '.join(names)})"
                                 f"{after(ruleset_override, names)}")
            name = ruleset_override
        elif "ruleset" in top:
            name = r.string(("ruleset",), top["ruleset"], names)
        elif "ruleset" in base_map:
            name = base_map["ruleset"]
        elif not top.get("units") and not require_units:
            name = BOARD_ID             # a map is a board: no ruleset needed to analyse it
        else:
            raise r.error((), "missing key 'ruleset' at the top level",
                          "ruleset: one of " + ", ".join(names)
                          + " (a map without units needs none)")
        rs = load_ruleset(str(name))
        if "board" in top:
            width, depth = self._board(top["board"])
        elif "board" in base_map:
            width, depth = base_map["board"]
        else:
            raise r.error((), "missing key 'board' at the top level",
                          "board: {width: 60, depth: 44} in inches, or map: NAME")
        terrain = (self._terrain(top["terrain"], width, depth, rs) if "terrain" in top
                   else base_map.get("terrain", ()))
        reserve_terrain = tuple(p for p in terrain if p.reserve)
        terrain = [p for p in terrain if not p.reserve]
        objectives = (self._objectives(top["objectives"], width, depth, rs)
                      if "objectives" in top
                      else base_map.get("objectives", []))
        deployment = (self._deployment(top["deployment"], width, depth) if "deployment" in top
                      else base_map.get("deployment", {}))
        if "state" in top and not isinstance(top["state"], dict):
            raise r.error(("state",), f"{top['state']!r} is not a mapping",
                          "where the battle starts, {round: 2, active: blue}, or a position "
                          "as try --out writes it")
        layout = Layout(terrain)
        units = self._units(top.get("units", []), rs, width, depth, layout, require_units)
        scene = Scene(
            file=r.file, ruleset=rs, width=width, depth=depth, terrain=tuple(terrain),
            objectives=objectives, units=units, deployment=deployment,
            reserve_terrain=reserve_terrain,
            name=(self._name(("name",), top["name"]) if "name" in top
                  else base_map.get("name", "")),
            description=self._text(("description",), top.get("description", "")),
            extra={"state": top["state"]} if "state" in top else {},
            lines=r.lines,
        )
        scene.__dict__["layout"] = layout
        self._no_overlaps(scene)
        return scene

    def _name(self, path: tuple, value: Any) -> str:
        """An id or name people read and the pictures write: printable text with something
        to see (no NUL, no byte-order mark or zero-width character, not only spaces)."""
        text = self.r.string(path, value)
        if not text.strip() or not text.isprintable() or len(text) > 200:
            shown = text.encode("unicode_escape").decode("ascii")[:60]
            raise self.r.error(path, f"'{shown}' is not a name people can read",
                               "1 to 200 printable characters, not only spaces (no NUL, "
                               "byte-order mark or zero-width character)")
        return text

    def _text(self, path: tuple, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.r.error(path, f"must be text, not {_kind(value)}", "a line of text")
        text = str(value)
        if not all(c.isprintable() or c in "\n\t" for c in text):  # no NUL to draw
            raise self.r.error(path, "holds a character that is not printable (a NUL, a "
                                     "byte-order mark or a zero-width character)", "text")
        return text

    # --- map reference -------------------------------------------------------------------------
    def _map(self, value: Any) -> dict[str, Any]:
        r = self.r
        ref = r.string(("map",), value)
        path = _beside(r, Path(r.file).parent, ref) if self.files else None
        if (self.files and (path is None or not path.is_file())
                and not ref.endswith((".yaml", ".yml"))):
            path = _beside(r, Path(r.file).parent, f"{ref}.yaml")   # `map: NAME`: NAME.yaml
        if path is None or not path.is_file():
            bundled = find_map(ref)
            if bundled is None:
                names = map_names()
                if not self.files:
                    raise r.error(("map",), f"no bundled map '{ref}' (a scene sent to a "
                                            f"server reads no files)",
                                  "a bundled map: " + ", ".join(names),
                                  did_you_mean(ref, names))
                raise r.error(("map",), f"no map '{ref}'",
                              "a map file next to the scene" +
                              (", or a bundled map: " + ", ".join(names) if names else ""),
                              did_you_mean(ref, names))
            path = bundled
        if _where(path) in self.chain:
            raise r.error(("map",), f"map '{ref}' leads back to {path.name}",
                          "a map that does not refer to itself")
        m = _SceneReader(Reader.open(path), self.chain).scene(False, None)
        out = {"board": (m.width, m.depth), "terrain": m.terrain,
               "objectives": m.objectives, "deployment": m.deployment, "name": m.name}
        if m.ruleset.id != BOARD_ID:        # a plain board lends no ruleset to the scene
            out["ruleset"] = m.ruleset.id
        return out

    # --- board, terrain, objectives, zones -----------------------------------------------------
    def _board(self, value: Any) -> tuple[float, float]:
        r = self.r
        b = r.mapping(("board",), value, keys.BOARD.required(), keys.BOARD.optional())
        # At most MAX_BOARD inches a side: far past any table, and small enough to draw (a
        # board of 1e300" crashed pygame drawing its grid).
        return (r.number(("board", "width"), b["width"], 0, MAX_BOARD, strict_min=True),
                r.number(("board", "depth"), b["depth"], 0, MAX_BOARD, strict_min=True))

    def _outline(self, path: tuple, value: Any, width: float, depth: float
                 ) -> tuple[tuple[float, float], ...]:
        r = self.r
        pts = r.sequence(path, value, 3, "a list of at least 3 [x, y] points")
        outline = tuple(r.point((*path, i), p) for i, p in enumerate(pts))
        for i, (x, y) in enumerate(outline):
            if not (-EDGE_TOLERANCE <= x <= width + EDGE_TOLERANCE
                    and -EDGE_TOLERANCE <= y <= depth + EDGE_TOLERANCE):
                raise r.error((*path, i), f"point ({x:g}, {y:g}) is off the {width:g}\" x "
                                          f"{depth:g}\" board", "a point on the board")
        poly = shapely.Polygon(outline)
        if not poly.is_valid or poly.area <= 1e-9:
            raise r.error(path, f"the outline is not a simple polygon ({_invalid(poly)})",
                          "points in order around the outline, edges not crossing")
        return outline

    def _terrain(self, value: Any, width: float, depth: float, rs: Any = None
                 ) -> list[Piece]:
        r = self.r
        pieces, ids = [], set()
        for i, item in enumerate(r.sequence(("terrain",), value)):
            p = ("terrain", i)
            t = r.mapping(p, item, keys.TERRAIN.required(), keys.TERRAIN.optional())
            pid = self._name((*p, "id"), t["id"])
            if pid in ids:
                raise r.error((*p, "id"), f"duplicate terrain id '{pid}'", "a unique id")
            ids.add(pid)
            kind = normalise_kind(r.string((*p, "kind"), t.get("kind", "solid")))
            if kind not in KINDS:
                raise r.error((*p, "kind"), f"unknown terrain kind '{t['kind']}'",
                              "one of " + ", ".join(KINDS))
            fixed = t.get("fixed", False)
            if not isinstance(fixed, bool):
                raise r.error((*p, "fixed"), f"must be true or false, not {fixed!r}",
                              "true to keep the piece where it is in layout generate")
            side = self._name((*p, "side"), t["side"]) if "side" in t else ""
            reserve = self._reserve(p, t, rs, "terrain piece") if rs is not None else False
            if reserve and not side:
                raise r.error((*p, "reserve"), "a terrain piece in reserve is a side's own",
                              "side: SIDE beside reserve: true (the side that sets it up)")
            pieces.append(Piece(pid, self._outline((*p, "outline"), t["outline"], width, depth),
                                r.number((*p, "height"), t["height"], 0), kind, fixed, side,
                                reserve))
        return pieces

    def _objectives(self, value: Any, width: float, depth: float, rs: Any
                    ) -> list[Objective]:
        r = self.r
        out, ids = [], set()
        for i, item in enumerate(r.sequence(("objectives",), value)):
            p = ("objectives", i)
            o = r.mapping(p, item, keys.OBJECTIVE.required(),
                          keys.OBJECTIVE.optional() + [k.name for k in rs.objective_keys])
            oid = self._name((*p, "id"), o["id"])
            if oid in ids:
                raise r.error((*p, "id"), f"duplicate objective id '{oid}'", "a unique id")
            ids.add(oid)
            x, y = r.point((*p, "at"), o["at"])
            if not (0 <= x <= width and 0 <= y <= depth):
                raise r.error((*p, "at"), f"({x:g}, {y:g}) is off the {width:g}\" x {depth:g}\" "
                                          "board", "a point on the board")
            held = o.get("controlled_by")
            held = self._name((*p, "controlled_by"), held) if held is not None else None
            given = {k: v for k, v in o.items() if v is not None}   # null: as if left out
            out.append(Objective(oid, x, y, held, self._extra(p, given, rs.objective_keys)))
        return out

    def _deployment(self, value: Any, width: float, depth: float
                    ) -> dict[str, tuple[tuple[float, float], ...]]:
        r = self.r
        if not isinstance(value, dict):
            raise r.error(("deployment",), f"must be a mapping, not {_kind(value)}",
                          "SIDE: [[x, y], ...], one outline per side")
        return {str(side): self._outline(("deployment", side), pts, width, depth)
                for side, pts in value.items()}

    # --- units -----------------------------------------------------------------------------
    def _units(self, value: Any, rs: Any, width: float, depth: float, layout: Layout,
               require: bool) -> list[UnitSpec]:
        r = self.r
        items = r.sequence(("units",), value, 1 if require else 0)
        units, ids = [], set()
        for i, item in enumerate(items):
            p = ("units", i)
            for key, why in rs.unplayed_unit_keys if isinstance(item, dict) else ():
                if key in item:
                    unplayed = ", ".join(k for k, _ in rs.unplayed_unit_keys)
                    raise r.error((*p, key), f"{rs.id} does not play '{key}': {why}",
                                  f"a unit without {unplayed}")
            u = r.mapping(p, item, keys.UNIT.required(),
                          keys.UNIT.optional() + [k.name for k in rs.unit_keys])
            uid = self._name((*p, "id"), u["id"])
            if "/" in uid:
                raise r.error((*p, "id"), f"unit id '{uid}' contains '/'",
                              "an id without '/' (UNIT/N names one model)")
            if uid in ids:
                raise r.error((*p, "id"), f"duplicate unit id '{uid}'", "a unique id")
            ids.add(uid)
            side = self._name((*p, "side"), u["side"])
            default = self._default_base(p, u, rs)
            reserve = self._reserve(p, u, rs)
            models = [self._model((*p, "models", k), m, rs, width, depth, layout, default,
                                  reserve)
                      for k, m in enumerate(r.sequence((*p, "models"), u["models"], 1,
                                                       "a list of models {base: MM, at: [x, y]}"))]
            leader = 0
            if "leader" in u:
                leader = self._leader((*p, "leader"), u["leader"], len(models))
            stats = self._stats((*p, "stats"), u.get("stats", {}), rs.characteristics)
            weapons = [self._stats((*p, "weapons", k), w, rs.weapon_characteristics, weapon=True)
                       for k, w in enumerate(r.sequence((*p, "weapons"), u.get("weapons", [])))]
            self._ranges(p, weapons, rs)
            self._named(p, models, weapons, rs)
            keywords = tuple(k.upper() for k in r.strings((*p, "keywords"),
                                                           u.get("keywords", [])))
            profile = r.string((*p, "profile"), u["profile"]) if "profile" in u else None
            units.append(UnitSpec(uid, side, models, leader,
                                  self._name((*p, "name"), u["name"]) if "name" in u else uid,
                                  stats, weapons, keywords, profile, r.line(p),
                                  self._extra(p, u, rs.unit_keys), p))
        return units

    def _reserve(self, path: tuple, given: dict[str, Any], rs: Any,
                 what: str = "unit") -> bool:
        """The unit's (or terrain piece's) `reserve:` (true: not yet set up), which only a
        ruleset that deploys units (an action `deploy` in its vocabulary) takes."""
        if "reserve" not in given:
            return False
        value = given["reserve"]
        if not isinstance(value, bool):
            raise self.r.error((*path, "reserve"), f"{value!r} is not true or false",
                               f"true (a {what} in reserve, set up in the deployment phase)")
        if value and not any(a.id == "deploy" for a in rs.actions):
            raise self.r.error((*path, "reserve"), f"{rs.id} has no deployment phase to set "
                               f"up a {what} in reserve", f"a {what} set up on the table "
                               + ("(models with at:)" if what == "unit" else "(no reserve:)"))
        return value

    def _ranges(self, path: tuple, weapons: list[dict[str, Any]], rs: Any) -> None:
        """A weapon's range is at least the ruleset's weapon_range_min, or none (melee)."""
        least = rs.weapon_range_min
        for k, w in enumerate(weapons):
            rng = w.get("range")
            if least and isinstance(rng, (int, float)) and 0 < rng < least:
                raise self.r.error((*path, "weapons", k, "range"),
                                   f"{w.get('name')}: a range of {rng:g}\" would make it a "
                                   f"shooting weapon; in {rs.id} a melee weapon has no range",
                                   f"no range for a melee weapon, or {least:g}\" or more "
                                   f"for a shooting one")

    def _named(self, path: tuple, models: list[ModelSpec], weapons: list[dict[str, Any]],
               rs: Any) -> None:
        """A model key whose items name the unit's weapons (ExtraKey.names, aos4's `weapons:`):
        each item is the name of one of them, said once."""
        have = [str(w.get("name")) for w in weapons]
        for key in (k for k in rs.model_keys if k.names == "weapons"):
            for k, m in enumerate(models):
                items = m.extra.get(key.name)
                for j, item in enumerate(items if isinstance(items, list) else ()):
                    where = (*path, "models", k, key.name, j)
                    if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                        raise self.r.error(where, f"must be a weapon's name, not {_kind(item)}",
                                           "the name of one of the unit's weapons")
                    if str(item) not in have:
                        close = difflib.get_close_matches(str(item), have, 1, 0.6)
                        raise self.r.error(
                            where, f"'{item}' is not one of the unit's weapons"
                            + (f"; did you mean {close[0]}?" if close else ""),
                            ", ".join(have) if have else "a unit `weapons:` list to name")
                    if item in items[:j]:
                        raise self.r.error(where, f"'{item}' is named twice",
                                           "each weapon the model carries once")

    def _default_base(self, path: tuple, given: dict[str, Any], rs: Any) -> Any:
        """The base a unit's models take when they leave theirs out: from a ruleset key that
        names default bases (ExtraKey.bases), e.g. blocks' `type: infantry`."""
        for key in rs.unit_keys:
            if key.bases and key.name in given:
                bases = dict(key.bases)
                value = given[key.name]
                if not isinstance(value, str) or value not in bases:
                    raise self.r.error((*path, key.name), f"unknown {key.name} {value!r}",
                                       ", ".join(bases))
                return bases[value]
        return None

    def _extra(self, path: tuple, given: dict[str, Any], keys: tuple[ExtraKey, ...]
               ) -> dict[str, Any]:
        """The ruleset's own keys of a unit or model, type-checked and kept as written."""
        out = {}
        for key in keys:
            if key.name not in given:
                continue
            value = given[key.name]
            if not _of_type(value, key.type):
                raise self.r.error((*path, key.name), f"must be {EXTRA_KINDS[key.type]}, not "
                                                      f"{_kind(value)}", key.description)
            out[key.name] = value
        return out

    def _leader(self, path: tuple, value: Any, n: int) -> int:
        r = self.r
        want = f"a model number from 1 to {n}"
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                math.isfinite(value) and float(value).is_integer()):
            raise r.error(path, f"must be a whole number, not {_kind(value)}", want)
        if value < 1:
            raise r.error(path, f"is {value:g}, but models are counted from 1", want)
        if value > n:
            raise r.error(path, f"is {value:g}, but the unit has {n} model{'s' * (n != 1)}", want)
        return int(value) - 1

    def _stats(self, path: tuple, value: Any, valid: tuple[str, ...], weapon: bool = False
               ) -> dict[str, Any]:
        r = self.r
        d = r.mapping(path, value, ["name"] if weapon else [],
                      [k for k in valid if not (weapon and k == "name")])
        out: dict[str, Any] = {}
        for key, v in d.items():
            if key == "name":                     # drawn and printed: a name people read
                out[key] = self._name((*path, key), v)
            elif weapon and key == "type":          # a weapon's kind: melee ...
                out[key] = r.string((*path, key), v)
            elif key == "abilities":
                out[key] = r.strings((*path, key), v)
            elif isinstance(v, str) and _dice_or_bonus(v):
                out[key] = v            # "D6", "2D3+1", "3+" kept as written; the rules read them
            elif isinstance(v, str) or v is None or isinstance(v, (bool, list, dict)):
                raise r.error((*path, key), f"must be a number or dice, not {_kind(v)}",
                              "a number, dice like D6 or 2D3+1, or a roll like 3+")
            else:
                out[key] = r.number((*path, key), v)
                if abs(out[key]) > MAX_NUMBER:      # 1e308 is finite, and no table's measure
                    raise r.error((*path, key), f"is {out[key]:g}, far too large a number",
                                  f"a number of sensible size (at most {MAX_NUMBER:g} either "
                                  f"way)")
        return out

    def _base(self, path: tuple, value: Any, rs: Any) -> Base:
        r = self.r
        rounds = ", ".join(f"{s:g}" for s in ROUND_SIZES_MM)
        ovals = ", ".join(f"[{a:g}, {b:g}]" for a, b in OVAL_SIZES_MM)
        expected = (f"a round base diameter in mm ({rounds}), an oval [long, short] ({ovals}) "
                    f"or {{rect: [frontage, depth]}}")
        if isinstance(value, dict):
            d = r.mapping(path, value, [], keys.BASE.names())
            if len(d) != 1:
                raise r.error(path, "give exactly one of round, oval, rect", expected)
            kind, size = next(iter(d.items()))
            path = (*path, kind)
            if kind == "round":        # written out, any size is taken (army import)
                if isinstance(size, bool) or not isinstance(size, (int, float)):
                    raise r.error(path, f"must be a diameter in mm, not {_kind(size)}",
                                  expected)
                return Base.round(r.number(path, size, 0, strict_min=True))
            if kind == "rect":
                pair = r.sequence(path, size, 2, "[frontage, depth] in mm")
                if len(pair) != 2:
                    raise r.error(path, "must be two sizes", "[frontage, depth] in mm")
                w = r.number((*path, 0), pair[0], 0, strict_min=True)
                dep = r.number((*path, 1), pair[1], 0, strict_min=True)
                return Base.rect(w, dep)
            pair = r.sequence(path, size, 2, "[long, short] in mm")
            if len(pair) != 2:
                raise r.error(path, f"an oval base needs two sizes, not {len(pair)}", expected)
            a, b = (r.number((*path, 0), pair[0], 0, strict_min=True),
                    r.number((*path, 1), pair[1], 0, strict_min=True))
            return Base.oval(max(a, b), min(a, b))
        if isinstance(value, list):
            if rs.rect_bases and len(value) == 2:
                w = r.number((*path, 0), value[0], 0, strict_min=True)
                dep = r.number((*path, 1), value[1], 0, strict_min=True)
                return Base.rect(w, dep)
            return self._oval(path, value, expected)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise r.error(path, f"must be a base size, not {_kind(value)}", expected)
        size = r.number(path, value)
        if not any(math.isclose(size, s) for s in ROUND_SIZES_MM):
            raise r.error(path, f"unknown base size {size:g} mm", expected)
        return Base.round(size)

    def _oval(self, path: tuple, value: Any, expected: str) -> Base:
        r = self.r
        pair = r.sequence(path, value, 2, "[long, short] in mm")
        if len(pair) != 2:
            raise r.error(path, f"an oval base needs two sizes, not {len(pair)}", expected)
        long_, short = (r.number((*path, 0), pair[0], 0, strict_min=True),
                        r.number((*path, 1), pair[1], 0, strict_min=True))
        if not any(math.isclose(long_, a) and math.isclose(short, b) for a, b in OVAL_SIZES_MM):
            raise r.error(path, f"unknown oval base {long_:g}x{short:g} mm", expected)
        return Base.oval(long_, short)

    def _model(self, path: tuple, value: Any, rs: Any, width: float, depth: float,
               layout: Layout, default_base: Any = None, reserve: bool = False) -> ModelSpec:
        r = self.r
        required, optional = keys.MODEL.required(), keys.MODEL.optional()
        if not reserve:                    # a model's place: left out in a unit in reserve only
            required, optional = required + ["at"], [k for k in optional if k != "at"]
        if default_base is not None:       # the unit's key names the base (ExtraKey.bases)
            required = [k for k in required if k != "base"]
            optional = ["base", *(k for k in optional if k != "base")]
        m = r.mapping(path, value, required, optional + [k.name for k in rs.model_keys])
        base = self._base((*path, "base"), m.get("base", default_base), rs)
        if reserve:
            if "at" in m:
                raise r.error((*path, "at"), "a unit in reserve is not set up yet: its "
                              "models have no place", "the model without at: (or the unit "
                              "without reserve: true)")
            return ModelSpec(base, 0.0, 0.0, float(r.number((*path, "facing"),
                                                            m.get("facing", 0.0))) % 360.0,
                             height=(r.number((*path, "height"), m["height"], 0,
                                              strict_min=True) if "height" in m
                                     else base.default_height()),
                             height_given="height" in m,
                             extra=self._extra(path, m, rs.model_keys), placed=False)
        x, y = r.point((*path, "at"), m["at"])
        facing = r.number((*path, "facing"), m.get("facing", 0.0))
        th = math.radians(facing)
        c, s = math.cos(th), math.sin(th)
        hx = half_width(base.shape, base.a, base.b, c, s, 1.0, 0.0)
        hy = half_width(base.shape, base.a, base.b, c, s, 0.0, 1.0)
        if (x - hx < -EDGE_TOLERANCE or x + hx > width + EDGE_TOLERANCE
                or y - hy < -EDGE_TOLERANCE or y + hy > depth + EDGE_TOLERANCE):
            raise r.error((*path, "at"), f"the {base.label} base at ({x:g}, {y:g}) is off the "
                                         f"{width:g}\" x {depth:g}\" board",
                          "the whole base on the board")
        spec = ModelSpec(base, x, y, facing % 360.0, extra=self._extra(path, m, rs.model_keys))
        foot = shapely.Polygon(_outline(spec))
        for k in layout.pieces_touching(foot):
            piece = layout.pieces[k]
            if "impassable" in piece.traits and foot.intersection(piece.polygon).area > 1e-4:
                raise r.error((*path, "at"), f"the base stands in impassable terrain "
                                             f"'{piece.id}'", "a place outside impassable terrain")
        if "z" in m:
            spec.z = r.number((*path, "z"), m["z"], 0)
            spec.z_given = True
        else:
            spec.z = layout.ground_height(foot)
        if "height" in m:
            spec.height = r.number((*path, "height"), m["height"], 0, strict_min=True)
            spec.height_given = True
        else:
            spec.height = base.default_height()
        return spec

    def _no_overlaps(self, scene: Scene) -> None:
        if not scene.units:
            return
        t = scene.table()
        # Only bases whose bounding circles overlap by more than the tolerance can: the exact
        # distance is asked for those pairs alone (it is never less than the circles' gap).
        gap = (np.hypot(t.x[:, None] - t.x[None, :], t.y[:, None] - t.y[None, :])
               - t.reach[:, None] - t.reach[None, :])
        d = np.full((len(t), len(t)), np.inf)
        for i in range(len(t)):
            near = np.nonzero(gap[i, i + 1:] < -OVERLAP_TOLERANCE)[0] + i + 1
            if len(near):
                d[i, near] = signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                                                    np.array([i], dtype=np.int64),
                                                    near.astype(np.int64))[0]
        bad = np.argwhere(np.triu(d < -OVERLAP_TOLERANCE))
        slain = _slain(scene)
        # Models at different heights (one on a piece of terrain) do not collide.
        for i, j in bad:
            if int(i) in slain or int(j) in slain or t.unit[i] < 0 or t.unit[j] < 0:
                continue        # a slain model's last place (a position's `state:`), a reserve
            if abs(t.z[i] - t.z[j]) < min(t.height[i], t.height[j]):
                names = scene.model_names
                ui, k = _locate(scene, int(j))
                path = ("units", ui, "models", k, "at")
                raise self.r.error(path, f"the base of {names[j]} overlaps {names[i]} by "
                                         f"{-d[i, j]:.2f}\"", "bases that do not overlap")


EXTRA_KINDS = {"mapping": "a mapping", "list": "a list", "text": "text", "number": "a number",
               "boolean": "true or false", "any": "a value"}


def _of_type(value: Any, kind: str) -> bool:
    if kind == "mapping":
        return isinstance(value, dict)
    if kind == "list":
        return isinstance(value, list)
    if kind == "text":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(
            value)
    if kind == "boolean":
        return isinstance(value, bool)
    return value is not None


def _slain(scene: Scene) -> set[int]:
    """Table indices of the models a position (`state: units: ID: slain: [n ...]`) lists as
    slain: they are off the table, so they collide with nothing."""
    units = (scene.extra.get("state") or {}).get("units")
    if not isinstance(units, dict):
        return set()
    offsets = scene.model_offsets()
    out = set()
    for u, spec in enumerate(scene.units):
        item = units.get(spec.id)
        slain = item.get("slain") if isinstance(item, dict) else None
        for k in slain if isinstance(slain, list) else []:
            if isinstance(k, int) and 1 <= k <= len(spec.models):
                out.add(offsets[u] + k - 1)
    return out


def _outline(spec: ModelSpec) -> np.ndarray:
    return outline_points(spec.base.shape, spec.base.a, spec.base.b, spec.x, spec.y, spec.facing,
                          4 if spec.base.shape == RECT else 64)


def _locate(scene: Scene, model: int) -> tuple[int, int]:
    for ui, off in enumerate(scene.model_offsets()):
        if model < off + len(scene.units[ui].models):
            return ui, model - off
    raise IndexError(model)


def _invalid(poly: shapely.Polygon) -> str:
    """shapely's reason an outline is not a simple polygon, in words."""
    if poly.convex_hull.area <= 1e-9:
        return "it has no area: the points lie on one line"
    reason = shapely.is_valid_reason(poly)
    m = re.match(r"\s*([^\[]+?)\s*\[\s*(\S+)\s+(\S+)\s*\]", reason)
    if m is None:
        return reason.lower()
    what, x, y = m.groups()
    what = what.lower()
    if "self-intersection" in what:
        what = "edges cross"
    try:
        return f"{what} at ({float(x):g}, {float(y):g})"
    except ValueError:
        return what


def _dice_or_bonus(text: str) -> bool:
    return re.fullmatch(r"\s*(\d*[dD][36](\s*\+\s*\d+)?|\d+\+)\s*", text) is not None


def open_map(arg: str, ruleset: str | None) -> Scene:
    """A map or scene argument (file path or bundled name), read for the ruleset."""
    path = resolve_scene_path(arg)
    if not path.is_file():                # a folder of that name (an earlier --out, say)
        path = find_map(arg) or path
    if not path.exists():
        raise no_such_scene(arg, "map")
    return load_scene(path, ruleset=ruleset)       # a device or folder: refused by what it is


__all__ = ["load_scene", "load_scene_text", "resolve_scene_path", "open_map", "format_path",
           "InputError"]
