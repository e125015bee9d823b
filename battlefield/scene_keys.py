"""The keys of scene and map files, said once: each mapping's keys in order, which are required,
what kind of value each holds and what it means. The loader (scene/load.py) checks files by
these lists and the JSON Schema (scene/schema.py) is written from them, so the two cannot drift
apart; the loader's finer checks (bases on the board, outlines that do not cross, ids that are
unique) are its own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Key:
    name: str
    kind: str               # what the value is; scene/schema.py has one schema per kind
    description: str
    required: bool = False


@dataclass(frozen=True)
class Shape:
    """The keys of one mapping of a scene file."""

    name: str
    description: str
    keys: tuple[Key, ...]

    def names(self) -> list[str]:
        return [k.name for k in self.keys]

    def required(self) -> list[str]:
        return [k.name for k in self.keys if k.required]

    def optional(self) -> list[str]:
        return [k.name for k in self.keys if not k.required]


SCENE = Shape("scene", "A battlefield scene: the ruleset, the board, its terrain, objectives and "
              "deployment zones, and the units on it. A map is a scene without units.", (
    Key("ruleset", "ruleset", "The ruleset the scene is played or measured by. Needed when the "
        "scene has units (unless its map names one); a map without units needs none."),
    Key("board", "board", "The size of the table in inches; needed unless `map:` gives it."),
    Key("terrain", "terrain", "The terrain pieces: outlines on the table extruded to a height."),
    Key("objectives", "objectives", "The objective markers."),
    Key("deployment", "deployment", "Each side's territory: SIDE: outline."),
    Key("units", "units", "The units on the table, each with its models."),
    Key("map", "text", "A map (a bundled map's name, or a map file relative to this file) "
        "whose board, terrain, objectives, zones and ruleset the scene takes unless it gives "
        "its own."),
    Key("name", "word", "The scene's name."),
    Key("description", "text", "A line about the scene."),
    Key("state", "state", "A position in a battle (as `battlefield try --out` writes it): the "
        "battle round, turn, phase and what each unit has suffered and used."),
))
MAP_KEYS = ("ruleset", "board", "terrain", "objectives", "deployment", "map", "name",
            "description")

BOARD = Shape("board", "The table: width (x) and depth (y) in inches.", (
    Key("width", "positive", "Width of the table (x) in inches.", True),
    Key("depth", "positive", "Depth of the table (y) in inches.", True),
))

TERRAIN = Shape("terrain piece", "A terrain piece: its outline extruded to its height.", (
    Key("id", "word", "A unique id for the piece.", True),
    Key("outline", "outline", "The outline on the table: at least 3 [x, y] points in inches, "
        "in order around it, edges not crossing.", True),
    Key("height", "nonnegative", "Height in inches.", True),
    Key("kind", "terrain-kind", "What the piece is: solid (default; models stand on top), "
        "obstacle, area (walked through), obscuring, impassable, place-of-power."),
    Key("name", "word", "The piece's name."),
    Key("fixed", "boolean", "True for a piece `layout generate` keeps where it is."),
    Key("side", "word", "The side whose own piece it is (aos4 faction terrain)."),
    Key("reserve", "boolean", "True for a side's faction terrain not yet set up (aos4): its "
        "outline gives its shape, not its place; Deploy Faction Terrain sets it up in the "
        "deployment phase. Needs `side`."),
))

OBJECTIVE = Shape("objective", "An objective marker.", (
    Key("id", "word", "A unique id for the objective.", True),
    Key("at", "point", "The centre of the marker [x, y] in inches.", True),
    Key("controlled_by", "word-or-null", "The side that controls it when the scene starts."),
    Key("name", "word", "The objective's name."),
))

UNIT = Shape("unit", "A unit: its id and side, its models, and its profile.", (
    Key("id", "unit-id", "A unique id for the unit (no '/': UNIT/N names the N-th model).",
        True),
    Key("side", "word", "The side the unit fights for.", True),
    Key("models", "models", "The unit's models, at least one; the first leads unless "
        "`leader:` says otherwise.", True),
    Key("leader", "leader", "Which model leads the unit, counted from 1."),
    Key("name", "word", "The unit's name (default: its id)."),
    Key("stats", "stats", "The unit's characteristics, numbers or dice."),
    Key("weapons", "weapons", "The unit's weapon profiles: every model carries each of them, "
        "unless the ruleset lets a model name the ones it carries (aos4: a model's "
        "`weapons: [NAME, ...]`)."),
    Key("keywords", "keywords", "The unit's keywords (HERO, INFANTRY, WIZARD ...)."),
    Key("profile", "word", "A profile of the ruleset the unit takes its stats from."),
    Key("reserve", "boolean", "True for a unit not yet set up: its models have no `at`; it is "
        "set up in the deployment phase (a ruleset whose vocabulary has a `deploy` action, "
        "aos4). Army import writes a unit that finds no room in its territory so."),
))

MODEL = Shape("model", "A model: its base and where it stands.", (
    Key("base", "base", "The base: a round base's diameter in mm, an oval [long, short] in mm, "
        "or {round: MM}, {oval: [LONG, SHORT]}, {rect: [FRONTAGE, DEPTH]}.", True),
    Key("at", "point", "The centre of the base [x, y] in inches (left out, and only then, in "
        "a unit in reserve: `reserve: true`)."),
    Key("facing", "number", "The direction the model faces, degrees anticlockwise from +x."),
    Key("z", "nonnegative", "Elevation of the base in inches (default: the ground or the "
        "terrain it stands on)."),
    Key("height", "positive", "Height of the model in inches (default: by its base size)."),
))

BASE = Shape("base", "A base by shape: exactly one of round, oval, rect.", (
    Key("round", "round-mm", "A round base's diameter in mm (any size; the bare number form "
        "takes the standard sizes only)."),
    Key("oval", "oval-mm", "An oval base [long, short] in mm (any size; the bare [long, short] "
        "form takes the standard sizes only)."),
    Key("rect", "rect-mm", "A rectangular base [frontage, depth] in mm."),
))


DEPLOYMENT_SIDE = "The outline of this side's territory: [x, y] points in inches."
STAT = "A characteristic: a number, dice like D6 or 2D3+1, or a roll like 3+."
WEAPON_ABILITIES = "The weapon's abilities (crit-2-hits, crit-mortal, companion ...)."
WEAPON_NAME = "The weapon's name."
