"""Property-based tests (hypothesis) for every registered ruleset with a demo battle: actions of
every type of the vocabulary with random and hostile field values never make State.check raise
or change the state, and a check that passes is followed by an apply that does not raise;
mutated positions are restored or refused with the one-line InputError, and one restored is
played on by the computer players. Examples are modest and
derandomized, with no example database, so the suite stays quick and repeatable in CI."""

from __future__ import annotations

import copy
import math
from functools import cache

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlefield.errors import InputError
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.boundary import Refused, read
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game, State
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text

PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]
PROPERTY = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@cache
def moments(ruleset: str) -> tuple[str, tuple[State, ...]]:
    """The demo battle's scene text and a few states along a seeded computer battle."""
    package = registry.get(ruleset)
    text, name = battle_scene(ruleset, None)
    state = Game(package, load_scene_text(text, name), 3).new_state()
    players = {side: package.player() for side in state.sides}
    out = [state.snapshot()]
    for k in range(80):
        if state.over:
            break
        state.apply(players[state.acting_side].choose(state))
        if k % 4 == 3:
            out.append(state.snapshot())
    return text, tuple(out)


def hostile() -> st.SearchStrategy:
    """Values a client might send: wrong types, non-finite and huge numbers, deep lists."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-10**40, 10**40),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
        st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 10**30, "\x00", "\ufeff"]))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
        max_leaves=8)


def field_values(state: State) -> st.SearchStrategy:
    scene = state.scene
    units = [u.id for u in scene.units]
    point = st.tuples(st.floats(-5, scene.width + 5), st.floats(-5, scene.depth + 5)
                      ).map(list)
    sane = st.one_of(
        st.sampled_from(units), st.sampled_from(scene.sides), st.lists(st.sampled_from(units),
                                                                        max_size=3),
        st.lists(point, min_size=1, max_size=4), point, st.integers(0, 8), st.booleans(),
        st.dictionaries(st.sampled_from(["1", "2", "3"]), st.lists(point, min_size=1,
                                                                    max_size=3), max_size=2))
    return st.one_of(sane, hostile())


@st.composite
def action_data(draw, state: State) -> dict:
    rs = state.scene.ruleset
    doc = draw(st.sampled_from(rs.actions))
    names = {one for f in doc.fields for one in f.rstrip("?").split(" | ")}
    names |= set(draw(st.lists(st.sampled_from(
        ["unit", "side", "target", "weapon", "path", "paths", "facing",
         *(k for k, _ in rs.action_fields)]), max_size=2)))
    often = st.sampled_from([True, True, True, False])     # shrinks to True: mostly kept
    data = {"type": doc.id if draw(often) else draw(hostile())}
    values = field_values(state)
    own = [u.id for u in state.scene.units if u.side == state.acting_side]
    for name in sorted(names):
        if name == "unit" and own and draw(often):
            data[name] = draw(st.sampled_from(own))
        elif draw(often):
            data[name] = draw(values)
    return data


def _frozen(v):
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, _frozen(x)) for k, x in v.items())
    return v


def forced(raw: dict) -> Action:
    """An Action object holding the raw values as they came, past every conversion of
    Action.from_dict and __post_init__: what a buggy or hostile caller could build."""
    action = object.__new__(Action)
    fields = {"type": None, "unit": None, "side": None, "path": None, "paths": None,
              "target": None, "weapon": None, "facing": None}
    for k in fields:
        fields[k] = _frozen(raw.get(k))
    for k, v in fields.items():
        object.__setattr__(action, k, v)
    object.__setattr__(action, "options", tuple((k, _frozen(v)) for k, v in raw.items()
                                                if k not in fields))
    return action


@pytest.mark.parametrize("ruleset", PLAYABLE)
@PROPERTY
@given(data=st.data())
def test_check_never_raises_nor_changes_the_state(ruleset, data):
    _, states = moments(ruleset)
    state = data.draw(st.sampled_from(states)).snapshot()
    raw = data.draw(action_data(state))
    action = read(raw, state.scene)
    if isinstance(action, Refused):
        assert action.violations and all(v.code == "bad_field" for v in action.violations)
        action = forced(raw)       # the same data forced into an Action: check still refuses
    before = state.fingerprint()
    violations = state.check(action)
    assert state.fingerprint() == before
    if not violations:
        state.apply(action, checked=True)     # a passing check: apply does not raise


@pytest.mark.parametrize("ruleset", PLAYABLE)
@PROPERTY
@given(data=st.data())
def test_a_mutated_position_is_restored_or_one_line(ruleset, data):
    text, states = moments(ruleset)
    state = data.draw(st.sampled_from(states))
    doc = scene_after(state)
    position = doc["state"]
    keys = data.draw(st.lists(st.sampled_from(sorted(position)), min_size=1, max_size=2))
    for key in keys:
        target = position
        path = [key]
        while isinstance(target.get(path[-1]) if isinstance(target, dict) else None, dict) \
                and target[path[-1]] and data.draw(st.booleans()):
            target = target[path[-1]]
            path.append(data.draw(st.sampled_from(sorted(target, key=str))))
        target[path[-1]] = data.draw(st.one_of(hostile(), st.just(copy.deepcopy(
            target.get(path[-1]))) if isinstance(target, dict) else hostile()))
    try:
        mutated = yaml.safe_dump(doc, sort_keys=False)
    except yaml.YAMLError:
        return
    package = registry.get(ruleset)
    try:
        scene = load_scene_text(mutated, "position.yaml")
        registry.checked(scene)
        restored = Game(package, scene, 3).new_state()
    except InputError as exc:
        assert "\n" not in str(exc) and "position.yaml" in str(exc)
        return
    for name in restored.available()[:3]:            # and it can be asked about
        restored.check(Action(name))
    players = {side: package.player() for side in restored.sides}
    for _ in range(3):                               # and played on
        if restored.over:
            break
        action = players[restored.acting_side].choose(restored)
        if restored.check(action):
            break
        restored.apply(action, checked=True)
