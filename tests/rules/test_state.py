"""The engine's contract, shown with a tiny ruleset made for this test: check changes nothing,
apply checks then commits, illegal actions leave the state as it was, dice are logged events,
undo/redo by snapshots, the log replays bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from battlefield.rules import log
from battlefield.rules.actions import Action, IllegalAction, Violation
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

SCENE = """
ruleset: aos4
board: {width: 20, depth: 20}
units:
  - {id: red, side: red, models: [{base: 32, at: [5, 5]}]}
  - {id: blue, side: blue, models: [{base: 32, at: [15, 15]}]}
"""


class Step(Ruleset):
    """Move a unit's model to a point up to D6 inches away; 'end' passes the turn."""

    id = "aos4"  # stands in for the aos4 rules module: the engine is tested on its own
    actions = ("step", "end")     # its own types, not aos4's vocabulary

    def setup(self, state: State) -> list[dict]:
        state.clock.update({"active": "red", "turn": 1})
        return [{"type": "setup"}]

    def acting_side(self, state: State) -> str:
        return state.clock["active"]

    def available(self, state: State) -> list[str]:
        return ["step", "end"]

    def check(self, state: State, action: Action) -> list[Violation]:
        if action.type == "end":
            return []
        u = state.unit_index(action.unit)
        if state.side_of(u) != state.clock["active"]:
            return [Violation("not_your_turn", f"{action.unit} is not {state.clock['active']}")]
        if action.path is None or len(action.path) != 1:
            return [Violation("path", "one point")]
        return []

    def resolve(self, state: State, action: Action) -> list[dict]:
        if action.type == "end":
            state.clock["active"] = "blue" if state.clock["active"] == "red" else "red"
            state.clock["turn"] += 1
            return [{"type": "end"}]
        u = state.unit_index(action.unit)
        m = state.table.unit_models[u][0]
        allowed = state.dice.roll("D6", f"step {action.unit}").total
        x, y = action.path[0]
        d = float(np.hypot(x - state.table.x[m], y - state.table.y[m]))
        if d > allowed:
            return [{"type": "fell-short", "allowed": allowed, "needed": d}]
        state.table = state.table.moved(np.array([m]), np.array([x]), np.array([y]))
        return [{"type": "moved", "unit": action.unit}]

    def over(self, state: State) -> bool:
        return state.clock["turn"] > 3

    def result(self, state: State) -> dict:
        return {"turns": state.clock["turn"]}


@pytest.fixture
def game():
    return Game(Step(), load_scene_text(SCENE), seed=5)


def test_check_changes_nothing_and_illegal_apply_leaves_state(game):
    s = game.new_state()
    before = s.fingerprint()
    bad = Action("step", unit="blue", path=((14, 14),))
    assert [v.code for v in s.check(bad)] == ["not_your_turn"]
    with pytest.raises(IllegalAction, match="not_your_turn"):
        s.apply(bad)
    assert s.fingerprint() == before and s.actions == []


def test_apply_checked_skips_only_the_check_that_just_passed(game):
    s = game.new_state(fixed_dice=[6, 6])
    bad = Action("step", unit="blue", path=((14, 14),))
    # Never checked (or checked and refused): checked=True still checks and refuses.
    with pytest.raises(IllegalAction, match="not_your_turn"):
        s.apply(bad, checked=True)
    s.check(bad)
    with pytest.raises(IllegalAction, match="not_your_turn"):
        s.apply(bad, checked=True)
    good = Action("step", unit="red", path=((8, 5),))
    assert s.check(good) == []
    calls = []
    real = s.rules.check
    s.game.rules.check = lambda state, action: calls.append(action) or real(state, action)
    s.apply(good, checked=True)
    assert calls == [] and s.table.x[0] == 8
    with pytest.raises(IllegalAction):
        s.apply(bad, checked=True)
    assert calls == [bad]
    s.check(good)
    s.undo()                      # undo/restore: the last check no longer holds
    s.apply(good, checked=True)
    assert calls == [bad, good, good]


def test_apply_logs_rolls_and_events(game):
    s = game.new_state(fixed_dice=[6])
    events = s.apply(Action("step", unit="red", path=((8, 5),)))
    assert events == [{"type": "moved", "unit": "red"}]
    record = [e for e in s.events if e["type"] == "action"][-1]
    assert record["rolls"][0]["values"] == [6] and record["rolls"][0]["for"] == "step red"
    assert s.table.x[0] == 8


def test_undo_redo(game):
    s = game.new_state(fixed_dice=[6, 6])
    start = s.fingerprint()
    s.apply(Action("step", unit="red", path=((8, 5),)))
    after = s.fingerprint()
    assert s.undo() and s.fingerprint() == start
    assert not s.undo()
    assert s.redo() and s.fingerprint() == after
    assert not s.redo()


def test_log_replays_bit_for_bit(game, tmp_path, monkeypatch):
    monkeypatch.setattr(log, "rules_for", lambda name: Step())
    s = game.new_state()
    for a in [Action("step", unit="red", path=((7, 6),)), Action("end"),
              Action("step", unit="blue", path=((13, 14),)), Action("end")]:
        s.apply(a)
    path = tmp_path / "game.jsonl"
    log.write(path, s, SCENE)
    saved = log.read(path)
    assert saved.actions == s.actions
    replayed, diff = log.replay(saved)
    assert diff is None and replayed.fingerprint() == s.fingerprint()
    # Same seed, same actions: byte-identical logs.
    again = tmp_path / "again.jsonl"
    log.write(again, replayed, SCENE)
    assert again.read_bytes() == path.read_bytes()


def test_a_position_key_without_its_clock_is_refused_not_left_out(tmp_path):
    """`state: {units: ...}` without `clock` is neither a battle's start nor a whole position:
    refused with the keys a start takes (it was read as a start and the units left out)."""
    from battlefield.errors import InputError
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    text, name = battle_scene("warband", None)
    text = text.replace("\nunits:", "\nstate: {units: {red-warlord: {damage: [3]}}}\nunits:", 1)
    with pytest.raises(InputError, match="'units' belongs to a whole position, which needs its "
                                         "'clock' too"):
        Game(rules_for("warband"), load_scene_text(text, name), 1).new_state()


# A bad `state:` value is one line with the file, the key path and its line, whatever the ruleset
# (some were tracebacks: aos4's round, command and victory points were read with int()).
BAD_STARTS = [
    ("aos4", "{round: x}", "state.round: 'x' is not a round (expected a whole number 1..4)"),
    ("aos4", "{round: 9}", "state.round: 9 is not a round (expected a whole number 1..4)"),
    ("aos4", "{command_points: {green: 2}}",
     "state.command_points.green: no side 'green' (expected one of red, blue)"),
    ("aos4", "{victory_points: {red: many}}",
     "state.victory_points.red: 'many' is not a number of victory points"),
    ("aos4", "{command_points: 3}", "state.command_points: expected command points for each"),
    ("aos4", "{active: green}", "state.active: no side 'green' (expected one of red, blue)"),
    ("aos4", "{turn: 2}", "state.turn: unknown key (expected round, active"),
    ("skirmish", "{morale: {red: -1}}", "state.morale.red: -1 is not a number of morale tokens"),
    ("skirmish", "{round: 0}", "state.round: 0 is not a round (expected a whole number 1..6)"),
    ("openwg", "{phase: shootin}", "state.phase: 'shootin' is not a phase (expected movement, "
                                   "ranged, melee, leadership)"),
    ("warband", "{round: true}", "state.round: True is not a round"),
    ("warband", "{initiative: {red: [1, 2, 3, 4, 5, 6], blue: [1, 1, 2, 2, 3, 3], green: []}}",
     "state.initiative.green: no side 'green'"),
    ("blocks", "{command: {red: 1.5}}", "state.command.red: 1.5 is not a number of command"),
    ("blocks", "{cards: {red: [joker]}}", "state.cards.red: not a list of card ids"),
    ("blocks", "{phase: lunch}", "state.phase: 'lunch' is not a phase"),
    ("aos4", "{clock: {round: 1}, units: {nobody: {}}}", "state.units.nobody: no unit 'nobody'"),
    ("aos4", "{clock: {round: 1}, objectives: {centre: green}}",
     "is not a side (expected one of red, blue, or null)"),
    ("aos4", "{clock: {round: 1}, dice: -3}", "state.dice: -3 is not the dice generator's"),
]


@pytest.mark.parametrize(("ruleset", "start", "said"), BAD_STARTS)
def test_a_bad_start_is_one_line_with_its_key_path_and_line(ruleset, start, said):
    from battlefield.errors import InputError
    from battlefield.rules.deploy import battle_scene

    text, name = battle_scene(ruleset, None)
    line = text[:text.index("\nunits:")].count("\n") + 2
    text = text.replace("\nunits:", f"\nstate: {start}\nunits:", 1)
    with pytest.raises(InputError) as err:
        Game(log.rules_for(ruleset), load_scene_text(text, name), 1).new_state()
    assert str(err.value).startswith(f"{name}:{line}: ") and said in str(err.value)


def test_a_state_that_is_not_a_mapping_is_refused_by_the_loader():
    from battlefield.errors import InputError
    from battlefield.rules.deploy import battle_scene

    text, name = battle_scene("aos4", None)
    with pytest.raises(InputError, match=r":\d+: state: 3 is not a mapping"):
        load_scene_text(text.replace("\nunits:", "\nstate: 3\nunits:", 1), name)


# A whole position (as try --out writes it) with a bad clock, side resources or extra is one
# line at its key and line, for every command that reads the scene - check and render too. A
# key left out keeps the start's value. (These were tracebacks, or taken and crashing later.)
def _position(ruleset: str) -> dict:
    import yaml

    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.trial import scene_after

    text, name = battle_scene(ruleset, None)
    state = Game(log.rules_for(ruleset), load_scene_text(text, name), 1).new_state()
    return yaml.safe_load(yaml.safe_dump(scene_after(state), sort_keys=False))


BAD_POSITIONS = [
    ("aos4", ("clock", "phase"), "bogus", "state.clock.phase: 'bogus' is not a phase (expected "
                                         "start, hero, movement, shooting, charge, combat, end)"),
    ("aos4", ("clock", "round"), "x", "state.clock.round: 'x' is the wrong kind of value "
                                      "(expected a count, 0 or more)"),
    ("aos4", ("clock", "round"), -3, "state.clock.round: -3 is the wrong kind of value"),
    ("aos4", ("sides", "red", "cp"), "x", "state.sides.red.cp: 'x' is the wrong kind of value"),
    ("aos4", ("clock", "acting"), "green", "state.clock.acting: no side 'green'"),
    ("skirmish", ("sides", "red", "morale"), None, "state.sides.red.morale: None is the wrong"),
    ("openwg", ("clock", "stopped"), ["green"], "state.clock.stopped: ['green'] is not a list of"),
    ("warband", ("clock", "active"), "green", "state.clock.active: no side 'green'"),
    # each ruleset's own clock sides (Ruleset.clock_sides)
    ("aos4", ("clock", "underdog"), "green", "state.clock.underdog: no side 'green'"),
    ("skirmish", ("clock", "first"), "green", "state.clock.first: no side 'green'"),
    ("warband", ("clock", "initiative"), "green", "state.clock.initiative: no side 'green'"),
    ("blocks", ("clock", "first"), "green", "state.clock.first: no side 'green'"),
    ("warband", ("sides", "red", "ability_dice"), "x", "state.sides.red.ability_dice: 'x' is "
                                                       "the wrong kind of value (expected a list)"),
    ("blocks", ("clock", "over"), "x", "state.clock.over: 'x' is the wrong kind of value "
                                       "(expected yes / no)"),
    ("blocks", ("extra", "orders"), 3, "state.extra.orders: 3 is the wrong kind of value "
                                       "(expected a mapping)"),
    ("blocks", ("extra", "orders"), {"red-spears": 5}, "state.extra.orders.red-spears: 5 is "
                                                      "the wrong kind of value"),
    ("blocks", ("extra", "start"), {"red-spears": None}, "state.extra.start.red-spears: null "
                                                        "is the wrong kind of value"),
    ("blocks", ("sides", "red", "command"), float("inf"), "state.sides.red.command: must be a "
                                                          "finite number"),
    ("blocks", ("dice",), 2 ** 70, "state.dice: 1180591620717411303424 is not the dice"),
]


@pytest.mark.parametrize(("ruleset", "path", "value", "said"), BAD_POSITIONS)
def test_a_bad_whole_position_is_one_line_for_every_command(tmp_path, capsys, ruleset, path,
                                                          value, said):
    import yaml

    from battlefield.cli.main import main

    doc = _position(ruleset)
    at = doc["state"]
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    scene = tmp_path / "position.yaml"
    scene.write_text(yaml.safe_dump(doc, sort_keys=False))
    for command in (["check", str(scene)], ["render", str(scene), "-o", str(tmp_path / "p.png")],
                    ["validate", str(scene)]):
        assert main(command) == 2, command
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and said in err and f"{scene}:" in err, err


def test_a_whole_position_may_leave_out_keys_that_keep_the_starts_values(tmp_path):
    import yaml

    doc = _position("aos4")
    doc["state"]["sides"]["red"]["vp"] = 3
    del doc["state"]["clock"]["underdog"], doc["state"]["sides"]["red"]["cp"]
    state = Game(log.rules_for("aos4"), load_scene_text(yaml.safe_dump(doc), "p.yaml"),
                 1).new_state()
    assert state.clock["underdog"] is None and state.sides["red"]["vp"] == 3
    assert state.sides["red"]["cp"] == 4                         # the demo's start: 4 CP


def test_enemies_within_measures_base_edge_to_base_edge_of_the_models_asked():
    scene = load_scene_text("""
ruleset: aos4
board: {width: 30, depth: 20}
units:
  - {id: red, side: red, models: [{base: 32, at: [5, 5]}, {base: 32, at: [5, 15]}]}
  - {id: blue, side: blue, models: [{base: 32, at: [10, 5]}]}
""")
    state = Game(Step(), scene, seed=1).new_state()
    gap = 5 - 32 / 25.4                  # centres 5" apart, two 32 mm bases
    (w, d), = state.enemies_within(0, 3.8)
    assert w == 1 and d == pytest.approx(gap)
    assert state.enemies_within(0, gap - 0.01) == []
    far = np.array([state.table.unit_models[0][1]])      # only the model 10" away
    assert state.enemies_within(0, 3.8, models=far) == []
    moved = state.table.moved(far, np.array([9.0]), np.array([8.0]))
    assert [w for w, _ in state.enemies_within(0, 3.8, table=moved, models=far)] == [1]
