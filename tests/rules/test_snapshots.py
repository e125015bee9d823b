"""Snapshots copy what changes and share what cannot: arrays, containers and mutable
dataclasses are copied by their type's rule (so a field added to State later needs no code),
frozen values, the game and the table are shared, and the history lists copy only the list."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np
import pytest
from test_state import SCENE, Step  # the engine test's tiny ruleset (tests/rules)

from battlefield.rules.actions import Action
from battlefield.rules.snapshots import (
    HISTORY,
    NOT_COPIED,
    SHARED,
    copy_object,
    immutable,
    snapshot_copy,
)
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text


@dataclass(frozen=True)
class Pending:
    unit: str
    options: tuple[str, ...]


@dataclass
class Clock:
    round: int
    phase: str
    used: set[str] = field(default_factory=set)


@dataclass
class Holder:
    shared: list[int] = field(default_factory=list, metadata=SHARED)
    log: list[dict] = field(default_factory=list, metadata=HISTORY)
    cache: dict = field(default_factory=dict, metadata=NOT_COPIED)


class Opaque:
    def __init__(self) -> None:
        self.items = [1, [2]]


@pytest.fixture
def state():
    return Game(Step(), load_scene_text(SCENE), seed=5).new_state(fixed_dice=[6, 6])


def test_plain_data_is_copied_structurally():
    value = {"a": [1, {"b": np.arange(3)}], "s": {"x"}, "t": (1, [2]), "d": deque([[3]])}
    copy = snapshot_copy(value)
    assert copy["a"] is not value["a"] and copy["a"][1] is not value["a"][1]
    copy["a"][1]["b"][0] = 9
    copy["s"].add("y")
    copy["t"][1].append(4)
    copy["d"][0].append(5)
    assert value["a"][1]["b"][0] == 0 and value["s"] == {"x"}
    assert value["t"] == (1, [2]) and value["d"] == deque([[3]])


def test_frozen_and_declared_values_are_shared():
    p = Pending("red-1", ("retreat", "stand"))
    assert snapshot_copy([p])[0] is p

    @immutable
    class Fixed:
        pass

    f = Fixed()
    assert snapshot_copy({"f": f})["f"] is f


def test_mutable_dataclasses_copy_each_field():
    c = Clock(1, "hero", {"a"})
    d = snapshot_copy(c)
    d.used.add("b")
    d.round = 2
    assert c == Clock(1, "hero", {"a"}) and d == Clock(2, "hero", {"a", "b"})


def test_field_metadata_names_the_rule():
    entry = {"type": "roll"}
    h = Holder([1], [entry], {"k": 1})
    c = copy_object(h)
    assert c.shared is h.shared
    assert c.log is not h.log and c.log[0] is entry
    assert "cache" not in c.__dict__


def test_other_objects_are_deep_copied():
    o = Opaque()
    c = snapshot_copy(o)
    c.items[1].append(3)
    assert o.items == [1, [2]]


def test_snapshot_shares_game_and_table_copies_the_rest(state):
    snap = state.snapshot()
    assert snap.game is state.game and snap.table is state.table
    assert snap.units[0].alive is not state.units[0].alive
    assert snap.dice is not state.dice and snap.dice.log is not state.dice.log
    assert snap.events == state.events and snap.events is not state.events
    state.units[0].alive[0] = False
    state.units[0].flags.add("ran")
    state.clock["turn"] = 9
    assert snap.units[0].alive[0] and not snap.units[0].flags and snap.clock["turn"] == 1


def test_a_new_field_is_snapshotted_without_code(state):
    state.pending = [Pending("red", ("a",))]
    state.typed_clock = Clock(1, "hero")
    snap = state.snapshot()
    state.pending.clear()
    state.typed_clock.round = 2
    assert snap.pending == [Pending("red", ("a",))] and snap.typed_clock.round == 1
    state.restore(snap)
    assert state.pending == [Pending("red", ("a",))] and state.typed_clock.round == 1


def test_restore_leaves_the_snapshot_usable(state):
    snap = state.snapshot()
    state.apply(Action("step", unit="red", path=((8, 5),)))
    state.restore(snap)
    state.clock["turn"] = 7
    assert snap.clock["turn"] == 1 and state.actions == [] and len(state._undo) == 1


def test_undo_and_redo_through_several_actions(state):
    prints = [state.fingerprint()]
    for a in [Action("step", unit="red", path=((8, 5),)), Action("end"),
              Action("step", unit="blue", path=((13, 15),))]:
        state.apply(a)
        prints.append(state.fingerprint())
    for fp in reversed(prints[:-1]):
        assert state.undo() and state.fingerprint() == fp
    for fp in prints[1:]:
        assert state.redo() and state.fingerprint() == fp


def test_without_undo_apply_keeps_no_history():
    s = Game(Step(), load_scene_text(SCENE), seed=5).new_state(keep_undo=False)
    s.apply(Action("step", unit="red", path=((8, 5),)))
    assert len(s.actions) == 1 and not s.undo()
