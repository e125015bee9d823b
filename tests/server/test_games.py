"""The server's game (server/games.py) and a client's copy of it (client/mirror.py), without
sockets: every seat's and a spectator's copy stays identical to the server's state, action by
action (aos4 and skirmish: the rulesets with the other side's decisions), and the game is the
one `simulate` plays; rebuilt from its stored actions it is the same game; a secret answer
reaches the other seat and spectators without its value until its batch is revealed, and a hello
never carries it; a seat acting for the other side is refused; an action that cannot be stored
leaves the game as it was."""

from __future__ import annotations

import json

import pytest

from battlefield.client.mirror import Mirror
from battlefield.rules import position, registry
from battlefield.rules.actions import Action
from battlefield.rules.battle import play
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text
from battlefield.server.games import LiveGame, Refused, replayed

from ._serve import PLAYABLE, short_battle

SEED = 7


def _seen(state: State) -> tuple:
    """The position as a client may hold it (everything but the dice generator's position)
    and where every model stands."""
    pos = position.write(state)
    pos.pop("dice", None)
    t = state.table
    return pos, [t.x.tolist(), t.y.tolist(), t.facing.tolist(), t.z.tolist()]


def _new(ruleset: str) -> LiveGame:
    text = short_battle(ruleset)
    sides = load_scene_text(text, "t").sides
    return LiveGame("g1", ruleset, text, "t", SEED, LiveGame.new_seats(list(sides)))


def _play(game: LiveGame, check_every: bool = True) -> tuple[dict, list]:
    """Two computer players on their seats' mirrors, a spectator's mirror beside; returns the
    mirrors and every (viewer, message) sent."""
    hellos = {side: game.hello(side)[0] for side in game.seats}
    mirrors: dict = {side: Mirror(h) for side, h in hellos.items()}
    mirrors[None] = Mirror(game.hello(None)[0])
    players = {side: registry.get(game.ruleset).player() for side in game.seats}
    sent = []
    while not game.over:
        side = next(s for s in game.seats if mirrors[s].my_turn())
        action = players[side].choose(mirrors[side].state)
        record = game.act(side, action, json.dumps(f"{side}-{game.version}"))
        for viewer, m in mirrors.items():
            msg = record.message(viewer)
            sent.append((viewer, msg))
            m.receive(msg)
        if check_every and not game.secret and (game.version % 4 == 0 or game.over):
            want = _seen(game.state)
            for m in mirrors.values():
                assert m.version == game.version
                assert _seen(m.state) == want, f"{game.ruleset} version {game.version}"
    return mirrors, sent


@pytest.mark.parametrize("ruleset", [r for r in PLAYABLE if r in ("aos4", "skirmish")])
def test_every_copy_stays_the_servers(ruleset):
    """The rulesets whose decisions belong to the other side (aos4's All-out Defence,
    skirmish's secret commitments); every ruleset plays through the server in test_serve.py."""
    game = _new(ruleset)
    mirrors, _ = _play(game)
    assert game.over and all(m.state.over for m in mirrors.values())
    alone = play(Game(registry.get(ruleset), load_scene_text(game.scene_text, "t"), SEED),
                 keep_undo=False)
    assert alone.fingerprint() == game.state.fingerprint()
    # Rebuilt from its stored actions (a server started again), the game is the same.
    again = replayed("g1", ruleset, game.scene_text, "t", SEED, game.seats,
                     [(r.by, r.client_key, r.action) for r in game.records])
    assert again.state.fingerprint() == game.state.fingerprint()
    assert [r.message("red") for r in again.records] == [r.message("red") for r in game.records]


def test_secret_answers_stay_secret_until_revealed():
    game = _new("skirmish")
    _, sent = _play(game, check_every=False)
    secret = [r for r in game.records if r.shown is not None]
    assert secret, "the skirmish demo asks secret commitments"
    revealed_at = {}
    for r in game.records:
        for x in r.reveal or ():
            revealed_at[x["version"]] = r.version
    for r in secret:
        assert r.shown == {"type": "commit", "side": r.by, "secret": True}
        assert r.version in revealed_at
        for viewer, msg in sent:
            if viewer == r.by or not r.version <= msg["version"] < revealed_at[r.version]:
                continue
            # Before the reveal the other seat and spectators hear of no answer's value.
            assert all(e["type"] != "revealed" for e in msg["events"])
            assert all("answer" not in e for e in msg["events"] if e.get("kind") == "commit")
            if msg["version"] == r.version:
                assert msg["action"] == r.shown and "id" not in msg
                assert msg["events"] == [{"type": "decided", "side": r.by, "kind": "commit",
                                          "secret": True}]
        own = next(m for v, m in sent if v == r.by and m["version"] == r.version)
        assert own["action"] == r.action and own["id"] == json.loads(r.client_key)


def test_a_hello_during_a_secret_batch_holds_no_secret_answer():
    game = _new("skirmish")
    players = {side: registry.get("skirmish").player() for side in game.seats}
    while not game.secret:
        side = game.state.acting_side
        game.act(side, players[side].choose(game.state), json.dumps(game.version))
    hidden = game.records[game.secret[0] - 1]
    for viewer in (None, *game.seats):
        hello, after = game.hello(viewer)
        assert hello["version"] == game.version
        assert hello["position_version"] == hidden.version - 1
        assert "answers" not in json.dumps(hello["position"]["state"].get("pending", {})) or \
            not hello["position"]["state"]["pending"]["answers"]
        assert "dice" not in hello["position"]["state"] and "seed" not in hello
        assert [m.version for m in after] == list(range(hidden.version, game.version + 1))
        shown = after[0].message(viewer)["action"]
        assert (shown == hidden.action) == (viewer == hidden.by)


def test_a_seat_acting_for_the_other_side_is_refused():
    game = _new("skirmish")
    red, blue = list(game.seats)
    player = registry.get("skirmish").player()
    theirs = player.choose(game.state)                   # red acts first
    assert game.sides_of(theirs) == {red}
    with pytest.raises(Refused) as refused:
        game.act(blue, theirs, '"x"')
    assert refused.value.violations[0]["code"] == "not_your_seat"
    with pytest.raises(Refused) as refused:
        game.act(blue, Action("end-turn"), '"y"')          # no side or unit: the acting side's
    assert refused.value.violations[0]["code"] == "not_your_seat"
    assert game.version == 0
    record = game.act(red, theirs, '"z"')
    assert record.version == 1 and game.answered(red, '"z"') is record


def test_an_action_that_cannot_be_stored_leaves_the_game_as_it_was():
    game = _new("skirmish")
    players = {side: registry.get("skirmish").player() for side in game.seats}
    for _ in range(3):
        side = game.state.acting_side
        game.act(side, players[side].choose(game.state), json.dumps(game.version))
    before = game.state.fingerprint()
    side = game.state.acting_side
    action = players[side].choose(game.state)

    def full_disk(*args):
        raise OSError("disk full")

    with pytest.raises(OSError):
        game.act(side, action, '"lost"', full_disk)
    assert game.version == 3 and game.state.fingerprint() == before
    assert game.answered(side, '"lost"') is None
    assert game.act(side, action, '"kept"').version == 4
