"""Ruleset data: rulesets/NAME/ruleset.yaml, read and checked once. Code implements the
mechanics; the numbers (combat range, coherency, objective zones, characteristics) are data."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from battlefield.inputs import FieldTypeError, parse_type
from battlefield.paths import find_map, ruleset_dir, ruleset_names
from battlefield.yamlsource import Reader

OBJECTIVE_RULES = ("control-sum", "model-count", "fighters-within")
DISTANCE_MODES = ("horizontal", "3d", "leader")
# How a unit sees another: from any model to any model, or leader to leader where a piece that
# only partly blocks is ignored by a unit within 1" of it (skirmish).
SIGHT_MODES = ("models", "leaders-past-near-terrain")


@dataclass(frozen=True)
class Coherency:
    distance: float
    neighbours: int
    large_unit: int
    large_neighbours: int
    one_group: bool

    def needed(self, models: int) -> int:
        """Neighbours each model needs within `distance` in a unit of this many models."""
        if self.large_unit and models >= self.large_unit:
            return self.large_neighbours
        return self.neighbours


@dataclass(frozen=True)
class ObjectiveRule:
    rule: str
    range: float
    marker_mm: float
    sticky: bool
    # The objective key (one of the ruleset's objective_keys) naming the side that holds the
    # objective on a tie, 0-0 included (skirmish: `home: SIDE`); None: a tie holds nothing.
    tie_to: str | None = None


@dataclass(frozen=True)
class Analysis:
    """The numbers map analysis needs when a board is judged for this ruleset."""

    move: float               # inches a typical unit moves in a turn
    climb_free: float         # climbing costs nothing up to this height ...
    climb_free_below: bool    # ... or only strictly below it (skirmish: pieces under 2")

    @property
    def climb_threshold(self) -> float:
        """Heights above this count as climbing (geometry.paths.Terrain's free height)."""
        return self.climb_free - 1e-6 if self.climb_free_below else self.climb_free


DEFAULT_ANALYSIS = Analysis(move=6.0, climb_free=1.0, climb_free_below=False)

LAYOUT_TARGETS = ("visible", "hidden", "objective", "reach")


@dataclass(frozen=True)
class LayoutDefaults:
    """What `battlefield layout generate` starts from for this ruleset: its piece catalogue
    (a file in the ruleset's folder) and the figures a good table meets (analyze's terms)."""

    pieces: Path
    targets: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class ActionDoc:
    """One entry of a ruleset's action vocabulary: its id, fields, what it does, an example.
    `fields` are the keys the action may carry besides `type` and `side` ("path | paths": one
    of them, "weapon?": optional); the engine refuses any other (unknown_key), and `shorthand`
    names the keys `try` reads off it as the other side's answers (the ruleset refuses them in
    a game). `phases`: when it is used ("movement", or "your movement" / "enemy movement":
    in the acting side's own turn or the other's); the engine refuses it in any other phase
    (wrong_phase). `drag`: the window gives it by dragging a unit (it has a path); `targeted`:
    the drop needs an enemy (the one under the cursor; a targeted action is dragged);
    `straight`: the move goes in a straight line, so the drag does not route it round what is
    in the way (openwg's charge); `passes`: the acting side gives up its turn to act with it
    and does nothing else (end-phase, stop, pass) - the window gives it by itself when nothing
    else is available (auto-pass)."""

    id: str
    fields: tuple[str, ...]
    does: str
    example: dict
    drag: bool = False
    targeted: bool = False
    straight: bool = False
    passes: bool = False
    explain: str = ""         # one line for a button's tooltip: what choosing it costs or means
    phases: tuple[str, ...] = ()
    shorthand: tuple[str, ...] = ()

    @property
    def tip(self) -> str:
        """What a button for this action says on hover: `explain:`, else `does:`."""
        return self.explain or self.does

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key the action may carry, in the order its fields name them."""
        return tuple(dict.fromkeys(("type", "side", *field_names(self.fields))))


def field_names(fields: tuple[str, ...]) -> list[str]:
    """The key names in vocabulary fields: "path | paths" -> path, paths; "weapon?" -> weapon."""
    return [name.strip().rstrip("?") for f in fields for name in f.split("|") if name.strip()]


EXTRA_TYPES = ("mapping", "list", "text", "number", "boolean", "any")
NAMED = ["weapons"]         # what a model key's items may name (ExtraKey.names)


@dataclass(frozen=True)
class ExtraKey:
    """A key a ruleset adds to scene units (`unit_keys:`), models (`model_keys:`) or objectives
    (`objective_keys:`): its name, the YAML type the scene loader checks (mapping, list, text,
    number, boolean, any) and what it means. The loader keeps the value as written
    (UnitSpec.extra, ModelSpec.extra, Objective.extra; a null objective key is left out); the
    ruleset's package reads its meaning and reports errors with Scene.error."""

    name: str
    type: str
    description: str
    # A text key may name default bases: a model of a unit whose value is listed may leave out
    # its `base` (blocks: `type: infantry` is a 4" x 2" block). Value -> base as a scene writes it.
    bases: tuple[tuple[str, object], ...] = ()
    # The JSON Schema an editor checks the value with (`battlefield schema`), when the ruleset
    # gives one (aos4's spells); else the type's. The ruleset's package checks the value itself.
    schema: dict[str, Any] | None = field(default=None, compare=False)
    # A list key of a model whose items name entries of its unit (`names: weapons`: aos4's
    # `weapons: [Warhammer]`, the weapons a model carries): the loader refuses a name its unit
    # does not have, in one line naming it.
    names: str | None = None


@dataclass(frozen=True)
class RulesetData:
    """A ruleset's data, rulesets/ID/ruleset.yaml as read and checked (its code is the
    battlefield.rules.ruleset.Ruleset subclass of the same id)."""

    id: str
    name: str
    seed: str
    board: tuple[float, float]
    characteristics: tuple[str, ...]
    weapon_characteristics: tuple[str, ...]
    distance: str
    combat_range: float
    combat_needs_sight: bool
    coherency: Coherency
    objectives: ObjectiveRule
    folder: Path
    sight: str = "models"                        # one of SIGHT_MODES
    rect_bases: bool = False                     # a [frontage, depth] base is a rectangle
    demo: str | None = None                      # its battle: FOLDER/NAME.yaml or maps/
    analysis: Analysis | None = None             # None: map analysis uses its defaults
    actions: tuple[ActionDoc, ...] = ()
    resources: tuple[tuple[str, str], ...] = ()  # each side's resources: (key, name for people)
    unit_keys: tuple[ExtraKey, ...] = ()         # keys this ruleset adds to scene units
    # Keys of every scene unit that this ruleset does not play (a scene giving one is refused
    # rather than left unread): key -> why, for people.
    unplayed_unit_keys: tuple[tuple[str, str], ...] = ()
    model_keys: tuple[ExtraKey, ...] = ()        # ... and to models
    objective_keys: tuple[ExtraKey, ...] = ()    # ... and to objectives
    layout: LayoutDefaults | None = None         # layout generate's pieces and targets
    # The types of the fields the ruleset's actions add to the engine's own (unit, side,
    # target, weapon, path, paths, facing): name -> a type in battlefield.inputs' words.
    action_fields: tuple[tuple[str, str], ...] = ()
    # The fields (and phases) of an action type the vocabulary does not list: aos4's spells
    # and prayers, warband's fighters' own abilities, named by their ids (None: no such type).
    unlisted_actions: ActionDoc | None = None
    # Key paths of a position's `state:` (extra.orders.*) where null may stand for a value the
    # ruleset's start has (an order given up); anywhere else such a null is refused.
    position_nulls: tuple[str, ...] = ()
    # The characteristics every unit must give (in `stats:`) for a battle to be played: one
    # left out is an error naming the unit, never a default nobody stated.
    unit_needs: tuple[str, ...] = ()
    # What a weapon that leaves a characteristic out is taken to have (written in the schema
    # and shown by check as assumed), and the shortest range a weapon that has one may give
    # (aos4: a melee weapon has no range; a `range: 1` is refused, not taken as a 1" gun).
    weapon_defaults: tuple[tuple[str, float], ...] = ()
    weapon_range_min: float = 0.0

    @property
    def demo_path(self) -> Path | None:
        """The scene of its demo battle: a file of its own folder by that name (a ruleset
        installed apart ships its demo with its data), else a bundled map or scene, or None."""
        if not self.demo:
            return None
        own = self.folder / (self.demo if self.demo.endswith(".yaml") else f"{self.demo}.yaml")
        return own if own.is_file() else find_map(self.demo)


BOARD_ID = "board"


def board_ruleset() -> RulesetData:
    """What a plain board (a map file with no `ruleset:` key) is read and analysed with: bare
    geometry - horizontal distances, objectives contested by models within 3" of their centre
    (model count), a 6" move and climbing counted above 1" for marches; no rules to play."""
    return RulesetData(
        id=BOARD_ID, name="a plain board (no ruleset)", seed="", board=(60.0, 44.0),
        characteristics=(), weapon_characteristics=(), distance="horizontal",
        combat_range=1.0, combat_needs_sight=False,
        coherency=Coherency(2.0, 1, 0, 1, True),
        objectives=ObjectiveRule("model-count", 3.0, 0.0, False),
        folder=Path(), analysis=Analysis(move=6.0, climb_free=1.0, climb_free_below=False))


@cache
def load_ruleset(name: str) -> RulesetData:
    """The ruleset called `name` (aos4, skirmish, openwg, warband, blocks; `board` for a map
    with none)."""
    if name == BOARD_ID:
        return board_ruleset()
    folder = ruleset_dir(name)
    file = folder / "ruleset.yaml"
    r = Reader.open(file)
    top = r.mapping((), r.data, ["id", "name", "seed", "board", "characteristics",
                                 "weapon_characteristics", "geometry"],
                    ["demo", "analysis", "actions", "unlisted_actions", "action_fields",
                     "resources", "unit_keys",
                     "model_keys", "objective_keys", "unplayed_unit_keys", "position_nulls",
                     "unit_needs",
                     "weapon_defaults", "weapon_range_min", "layout"])
    board = r.mapping(("board",), top["board"], ["width", "depth"])
    geo = r.mapping(("geometry",), top["geometry"],
                    ["distance", "combat_range", "combat_needs_sight", "coherency", "objectives"],
                    ["sight", "rect_bases"])
    coh = r.mapping(("geometry", "coherency"), geo["coherency"],
                    ["distance", "neighbours", "large_unit", "large_neighbours", "one_group"])
    obj = r.mapping(("geometry", "objectives"), geo["objectives"],
                    ["rule", "range", "marker_mm", "sticky"], ["tie_to"])
    objective_keys = _extra_keys(r, "objective_keys", top.get("objective_keys"))
    p = ("geometry", "coherency")
    return RulesetData(
        id=r.string(("id",), top["id"], [name]),
        name=r.string(("name",), top["name"]),
        seed=r.string(("seed",), top["seed"]),
        board=(r.number(("board", "width"), board["width"], 1),
               r.number(("board", "depth"), board["depth"], 1)),
        characteristics=tuple(r.strings(("characteristics",), top["characteristics"])),
        weapon_characteristics=tuple(r.strings(("weapon_characteristics",),
                                               top["weapon_characteristics"])),
        distance=r.string(("geometry", "distance"), geo["distance"], DISTANCE_MODES),
        combat_range=r.number(("geometry", "combat_range"), geo["combat_range"], 0),
        combat_needs_sight=_bool(r, ("geometry", "combat_needs_sight"), geo["combat_needs_sight"]),
        coherency=Coherency(
            r.number((*p, "distance"), coh["distance"], 0),
            r.number((*p, "neighbours"), coh["neighbours"], 0, integer=True),
            r.number((*p, "large_unit"), coh["large_unit"], 0, integer=True),
            r.number((*p, "large_neighbours"), coh["large_neighbours"], 0, integer=True),
            _bool(r, (*p, "one_group"), coh["one_group"])),
        objectives=ObjectiveRule(
            r.string(("geometry", "objectives", "rule"), obj["rule"], OBJECTIVE_RULES),
            r.number(("geometry", "objectives", "range"), obj["range"], 0),
            r.number(("geometry", "objectives", "marker_mm"), obj["marker_mm"], 0),
            _bool(r, ("geometry", "objectives", "sticky"), obj["sticky"]),
            r.string(("geometry", "objectives", "tie_to"), obj["tie_to"],
                     [k.name for k in objective_keys if k.type == "text"])
            if "tie_to" in obj else None),
        folder=folder,
        sight=r.string(("geometry", "sight"), geo["sight"], SIGHT_MODES) if "sight" in geo
        else "models",
        rect_bases=_bool(r, ("geometry", "rect_bases"), geo["rect_bases"]) if "rect_bases" in geo
        else False,
        demo=r.string(("demo",), top["demo"]) if "demo" in top else None,
        analysis=_analysis(r, top.get("analysis")),
        actions=_actions(r, top.get("actions"), top.get("action_fields")),
        unlisted_actions=_unlisted(r, top.get("unlisted_actions"), top.get("action_fields")),
        action_fields=_action_fields(r, top.get("action_fields")),
        position_nulls=tuple(r.strings(("position_nulls",), top["position_nulls"]))
        if "position_nulls" in top else (),
        unit_needs=tuple(r.strings(("unit_needs",), top["unit_needs"], ))
        if "unit_needs" in top else (),
        weapon_defaults=tuple(
            (str(k), r.number(("weapon_defaults", k), v, 0))
            for k, v in r.mapping(("weapon_defaults",), top["weapon_defaults"], [],
                                  list(top["weapon_defaults"])
                                  if isinstance(top["weapon_defaults"], dict) else []).items())
        if "weapon_defaults" in top else (),
        weapon_range_min=r.number(("weapon_range_min",), top["weapon_range_min"], 0)
        if "weapon_range_min" in top else 0.0,
        resources=_resources(r, top.get("resources")),
        unit_keys=_extra_keys(r, "unit_keys", top.get("unit_keys")),
        model_keys=_extra_keys(r, "model_keys", top.get("model_keys")),
        objective_keys=objective_keys,
        unplayed_unit_keys=_unplayed(r, top.get("unplayed_unit_keys")),
        layout=_layout(r, folder, top.get("layout")),
    )


def _layout(r: Reader, folder: Path, raw: object) -> LayoutDefaults | None:
    """`layout: {pieces: FILE, targets: {visible: 0.45, ...}}`."""
    if raw is None:
        return None
    d = r.mapping(("layout",), raw, ["pieces", "targets"])
    file = folder / r.string(("layout", "pieces"), d["pieces"])   # read by layout generate
    t = r.mapping(("layout", "targets"), d["targets"], [], LAYOUT_TARGETS)
    targets = tuple((k, r.number(("layout", "targets", k), v, 0)) for k, v in t.items())
    return LayoutDefaults(file, targets)


def _unplayed(r: Reader, raw: object) -> tuple[tuple[str, str], ...]:
    """`unplayed_unit_keys: {KEY: why}`: keys of every scene unit (scene_keys.py UNIT), or keys
    another ruleset adds (aos4's spells), that the ruleset does not play."""
    if raw is None:
        return ()
    given = r.mapping(("unplayed_unit_keys",), raw, [], list(raw) if isinstance(raw, dict)
                      else [])
    return tuple((k, r.string(("unplayed_unit_keys", k), why)) for k, why in given.items())


def _extra_keys(r: Reader, where: str, raw: object) -> tuple[ExtraKey, ...]:
    if raw is None:
        return ()
    items = r.mapping((where,), raw, [], list(raw) if isinstance(raw, dict) else [])
    out = []
    for name, spec in items.items():
        p = (where, name)
        d = r.mapping(p, spec, ["type", "description"], ["bases", "schema", "names"])
        schema = r.mapping((*p, "schema"), d["schema"], [], list(d["schema"])
                           if isinstance(d["schema"], dict) else []) if "schema" in d else None
        bases = r.mapping((*p, "bases"), d["bases"], [], list(d["bases"])
                          if isinstance(d["bases"], dict) else []) if "bases" in d else {}
        out.append(ExtraKey(str(name), r.string((*p, "type"), d["type"], EXTRA_TYPES),
                            r.string((*p, "description"), d["description"]),
                            tuple((str(k), v) for k, v in bases.items()), schema,
                            r.string((*p, "names"), d["names"], NAMED) if "names" in d
                            else None))
    return tuple(out)


def _analysis(r: Reader, raw: object) -> Analysis | None:
    if raw is None:
        return None
    a = r.mapping(("analysis",), raw, ["move", "climb_free"], ["climb_free_below"])
    return Analysis(
        move=r.number(("analysis", "move"), a["move"], 0.1),
        climb_free=r.number(("analysis", "climb_free"), a["climb_free"], 0),
        climb_free_below=_bool(r, ("analysis", "climb_free_below"),
                               a.get("climb_free_below", False)))


def _resources(r: Reader, raw: object) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    items = r.mapping(("resources",), raw, [], list(raw) if isinstance(raw, dict) else [])
    return tuple((str(k), r.string(("resources", k), v)) for k, v in items.items())


ACTION_KEYS = ("id", "fields", "does", "example")
ENGINE_FIELDS = ("type", "unit", "side", "target", "weapon", "path", "paths", "facing")


def _action_fields(r: Reader, raw: object) -> tuple[tuple[str, str], ...]:
    """`action_fields: {NAME: TYPE}`: each field the ruleset's actions add, with its type
    (battlefield.inputs.parse_type), checked here so a typo is an error at its line."""
    if raw is None:
        return ()

    items = r.mapping(("action_fields",), raw, [], list(raw) if isinstance(raw, dict) else [])
    out = []
    for name, text in items.items():
        p = ("action_fields", name)
        if name in ENGINE_FIELDS:
            raise r.error(p, "is one of the engine's own fields, whose type is fixed")
        try:
            parse_type(r.string(p, text))
        except FieldTypeError as exc:
            raise r.error(p, f"not a field type: {exc}",
                          "e.g. text, unit, whole 0..6, list of unit, side -> whole") from None
        out.append((str(name), str(text)))
    return tuple(out)


def _fields(r: Reader, path: tuple, raw: object, declared: object) -> tuple[str, ...]:
    """An action's `fields:`, each a field the engine has or `action_fields:` declares."""
    fields = tuple(r.strings(path, raw))
    known = [*ENGINE_FIELDS[1:], *(declared if isinstance(declared, dict) else {})]
    for i, name in enumerate(fields):
        for part in field_names((name,)):
            if part not in known:
                raise r.error((*path, i), f"no field {part!r}",
                              f"one of {', '.join(known)} (or give its type in action_fields)")
    return fields


def _unlisted(r: Reader, raw: object, declared: object) -> ActionDoc | None:
    """`unlisted_actions: {fields: [...], phases: [...], does: ...}`."""
    if raw is None:
        return None
    p = ("unlisted_actions",)
    a = r.mapping(p, raw, ["fields", "does"], ["phases"])
    return ActionDoc("", _fields(r, (*p, "fields"), a["fields"], declared),
                     r.string((*p, "does"), a["does"]), {},
                     phases=tuple(r.strings((*p, "phases"), a.get("phases", []))))


def _actions(r: Reader, raw: object, declared: object = None) -> tuple[ActionDoc, ...]:
    if raw is None:
        return ()
    out = []
    for i, item in enumerate(r.sequence(("actions",), raw)):
        p = ("actions", i)
        a = r.mapping(p, item, ACTION_KEYS, ["drag", "targeted", "straight", "passes", "explain",
                                             "phases", "shorthand"])
        ident = r.string((*p, "id"), a["id"])
        example = a["example"]
        if not isinstance(example, dict) or "type" not in example:
            raise r.error((*p, "example"), "must be an action: a mapping with a \"type\"",
                          f"e.g. {{type: {ident}, unit: red-1}}")
        if example["type"] != ident:
            raise r.error((*p, "example", "type"), f"the example is a {example['type']!r} "
                                                   f"action, not {ident!r}")
        doc = ActionDoc(ident, _fields(r, (*p, "fields"), a["fields"], declared),
                        r.string((*p, "does"), a["does"]), dict(example),
                        _bool(r, (*p, "drag"), a.get("drag", False)),
                        _bool(r, (*p, "targeted"), a.get("targeted", False)),
                        _bool(r, (*p, "straight"), a.get("straight", False)),
                        _bool(r, (*p, "passes"), a.get("passes", False)),
                        r.string((*p, "explain"), a["explain"]) if "explain" in a else "",
                        tuple(r.strings((*p, "phases"), a.get("phases", []))),
                        tuple(r.strings((*p, "shorthand"), a.get("shorthand", []))))
        if doc.targeted and not doc.drag:
            raise r.error((*p, "targeted"), f"{ident} is targeted but not dragged: the window "
                                            f"takes a targeted action's enemy from the drop",
                          "drag: true with targeted: true")
        odd = [k for k in doc.shorthand if k not in (declared if isinstance(declared, dict)
                                                     else {})]
        if odd:
            raise r.error((*p, "shorthand"), f"no field {odd[0]!r} in action_fields",
                          "keys whose type action_fields gives")
        out.append(doc)
    return tuple(out)


def _bool(r: Reader, path: tuple, value: object) -> bool:
    if not isinstance(value, bool):
        raise r.error(path, f"must be true or false, not {value!r}")
    return value


__all__ = ["RulesetData", "load_ruleset", "ruleset_names", "Coherency", "ObjectiveRule", "Analysis",
           "ActionDoc"]
