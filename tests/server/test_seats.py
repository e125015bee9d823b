"""Seats from the engine (State.sender), every playable ruleset: at every state of seeded games,
every action a seat might send - the computer player's choice, every answer to a pending
decision, each with its `side` changed or left out and with a unit of every side in it - is
refused `not_your_seat` for every seat but the one the engine names, and the game is unchanged;
an action the engine finds legal commands only its sender's units; and the sender's own act goes
through. Then the two cheats found by playing over the network: skirmish's retreat on its own
and warband's `first` sent by the side without the initiative."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.scene.load import load_scene_text
from battlefield.server.games import LiveGame, Refused

from ._serve import PLAYABLE, short_battle

SEEDS = (1, 2)


def _game(ruleset: str, seed: int, text: str | None = None) -> LiveGame:
    text = text or short_battle(ruleset)
    sides = list(load_scene_text(text, "t").sides)
    return LiveGame("g", ruleset, text, "t", seed, LiveGame.new_seats(sides))


def _candidates(state: State, chosen: Action, past: list[Action]) -> list[list[Action]]:
    """What a seat might send here: the choice, the pending decisions' answers and answers to
    earlier decisions (sent again out of their moment), each with its variants - every side
    named or none, a unit of every side in place of its own."""
    base = [chosen, *(c for d in state.pending for c in d.choices), *past]
    firsts = {}
    for u, spec in enumerate(state.scene.units):
        if len(state.models_of(u)):
            firsts.setdefault(spec.side, spec.id)
    out = []
    for a in base:
        variants = [a, replace(a, side=None), *(replace(a, side=s) for s in state.sides)]
        if a.unit is not None:
            variants += [replace(a, unit=uid) for uid in firsts.values()]
        out.append(list({json.dumps(x.to_dict(), sort_keys=True, default=str): x
                         for x in variants}.values()))
    return out


def _owner(state: State, action: Action) -> str | None:
    """The side whose unit `action` commands (None: it names none)."""
    if action.unit is None:
        return None
    return state.side_of(state.unit_index(action.unit))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_only_the_engines_sender_may_send_an_action(ruleset, seed):
    game = _game(ruleset, seed)
    players = {side: registry.get(ruleset).player() for side in game.seats}
    past: list[Action] = []                  # the answers to the last few decisions
    while not game.over:
        state = game.state
        chosen = players[state.acting_side].choose(state)
        for variants in _candidates(state, chosen, past):
            senders = {state.sender(a) for a in variants}
            if not state.pending:
                # the side an action names, or its unit's, never makes it another's to send
                assert len(senders) == 1, (variants, senders)
            assert senders <= {d.side for d in state.pending} | {state.acting_side}
            _refused_but_for_its_sender(game, variants)
        new = [c for d in state.pending for c in d.choices if c not in past]
        past = (past + new)[-6:]
        game.act(state.acting_side, chosen, json.dumps(f"ok-{game.version}"))
    assert game.version > 5


def _refused_but_for_its_sender(game: LiveGame, variants: list[Action]) -> None:
    state = game.state
    for action in variants:
        sender = state.sender(action)
        before = state.fingerprint()
        for seat in game.seats:
            if seat == sender:
                continue
            with pytest.raises(Refused) as refused:
                game.act(seat, action, json.dumps(f"not-{seat}"))
            assert [v["code"] for v in refused.value.violations] == ["not_your_seat"]
        assert game.state.fingerprint() == before and game.version == len(game.records)
        if not state.check(action):          # legal: it commands only its sender's units
            assert _owner(state, action) in (None, sender), action
            if not state.pending:
                assert sender == state.acting_side, action


# --- the cheats found over the network ----------------------------------------------------------
def test_a_skirmish_retreat_on_its_own_is_refused_in_a_game():
    game = _game("skirmish", 1)
    red, blue = list(game.seats)
    assert game.state.acting_side == red
    mine = [s.id for s in game.state.scene.units if s.side == blue]
    theirs = [s.id for s in game.state.scene.units if s.side == red]
    retreat = Action("retreat", unit=mine[0], options=(("from", theirs[0]),))
    with pytest.raises(Refused) as refused:
        game.act(blue, retreat, '"r1"')
    assert [v["code"] for v in refused.value.violations] == ["not_your_seat"]
    # the side whose turn it is may send it, and the engine refuses it: no attack was made
    with pytest.raises(Refused) as refused:
        game.act(red, retreat, '"r2"')
    assert [v["code"] for v in refused.value.violations] == ["no_decision"]
    assert game.version == 0


def _warband_at_first() -> tuple[LiveGame, str, str]:
    game = _game("warband", 3)
    state = game.state
    game.act(state.acting_side, Action("initiative"), '"i"')
    assert game.state.phase == "first"
    holder = game.state.clock["initiative"]
    other = next(s for s in game.seats if s != holder)
    return game, holder, other


def test_warbands_first_is_the_initiative_holders_choice_whatever_side_it_names():
    game, holder, other = _warband_at_first()
    for named in (holder, other, None):
        with pytest.raises(Refused) as refused:
            game.act(other, Action("first", side=named), json.dumps(f"x-{named}"))
        assert [v["code"] for v in refused.value.violations] == ["not_your_seat"]
    record = game.act(holder, Action("first", side=other), '"f"')
    (first,) = [e for e in record.events if e["type"] == "first"]
    assert first == {"type": "first", "side": other, "chosen_by": holder}
