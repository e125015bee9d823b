"""Taking back: a seat retracts its own last actions ({"type": "retract"}) back to, never past,
the last one the other side answered - never the other seat's actions, never dice both seats
have seen. The rules on LiveGame (games played by the computer player on both sides, every
kind of record met), and the protocol over real sockets: everyone hears `retracted` and a fresh
hello, the database forgets the actions, a restarted server has the game as taken back."""

from __future__ import annotations

import asyncio

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.scene.load import load_scene_text
from battlefield.server.games import LiveGame, Refused

from ._serve import Served, short_battle
from .test_preview import MOVE, clients


def played(ruleset: str, seed: int, upto: int) -> LiveGame:
    """A game of `ruleset`'s demo battle, the computer player choosing for both seats."""
    text = short_battle(ruleset)
    scene = load_scene_text(text, "demo", files=False)
    game = LiveGame("g", ruleset, text, "demo", seed, LiveGame.new_seats(list(scene.sides)))
    player = registry.get(ruleset).player()
    while game.version < upto and not game.over:
        state = game.state
        action = player.choose(state.snapshot())
        game.act(state.sender(action), action, f'"k{game.version}"')
    return game


def positions(game: LiveGame) -> tuple:
    t = game.state.table
    return (tuple(t.x.round(6)), tuple(t.y.round(6)), game.state.round, game.state.phase,
            len(game.state.dice.log))


@pytest.mark.parametrize("ruleset", ["skirmish", "aos4", "warband"])
def test_a_seat_takes_back_only_its_own_actions_without_dice(ruleset):
    game = played(ruleset, 3, 40)
    kinds = set()
    for to in range(game.version - 1, max(-1, game.version - 12), -1):
        record = game.records[-1]
        side = record.by
        other = next(s for s in game.seats if s != side)
        # the other seat may never take back what this one did
        assert game.retract_problem(other, to)[0]["code"] in ("answered", "dice_rolled",
                                                               "revealed")
        bad = game.retract_problem(side, to)
        tail = game.records[to:]
        first = next((r for r in tail if r.by != side or r.dice), None)
        if first is not None and first.by != side:     # the first record that stands decides
            assert bad[0]["code"] == "answered"
            kinds.add("answered")
            continue
        if any(r.dice for r in tail):
            assert bad[0]["code"] == "dice_rolled"
            with pytest.raises(Refused):
                game.retract(side, to)
            kinds.add("dice")
            continue
        if any(r.reveal is not None for r in tail):
            assert bad[0]["code"] == "revealed"
            continue
        assert bad == []
        # taken back: the game is the one that had only the actions kept
        kept = LiveGame("h", game.ruleset, game.scene_text, game.scene_name, game.seed,
                        game.seats)
        for r in game.records[:to]:
            kept.act(r.by, Action.from_dict(r.action), r.client_key)
        cut: list[int] = []
        n = game.retract(side, to, cut.append)
        assert cut == [to] and n == len(tail) and game.version == to
        assert positions(game) == positions(kept)
        kinds.add("taken back")
        break
    assert "taken back" in kinds or "dice" in kinds or "answered" in kinds
    assert game.retract_problem(next(iter(game.seats)), game.version)[0]["code"] == \
        "nothing_to_retract"


def test_the_last_action_is_offered_back_only_while_it_may_be():
    game = played("skirmish", 1, 0)
    red = "red"
    action = Action.from_dict(MOVE)
    game.act(red, action, '"m1"')
    assert game.retractable(red) == 0 and game.retractable("blue") is None
    game.retract(red, 0)
    assert game.version == 0 and game.retractable(red) is None
    # the same id again is a new act (the one it named was taken back)
    record = game.act(red, action, '"m1"')
    assert record.version == 1


def test_a_retract_over_the_socket_tells_everyone_and_the_database_forgets(tmp_path):
    served = Served(tmp_path / "games.sqlite")
    try:
        game = served.new_game("demo-skirmish", 5)

        async def run() -> dict:
            session, (red, blue, watcher) = await clients(served, game, "red", "blue", None)
            try:
                await red.send({"type": "act", "id": "m1", "action": MOVE})
                moved = await red.wait(lambda m: m["type"] == "event")
                await blue.wait(lambda m: m["type"] == "event")
                await red.send({"type": "offers"})
                offered = await red.wait(lambda m: m["type"] == "offers")
                # blue may not take back red's move
                await blue.send({"type": "retract", "id": "b1", "version": 0})
                refused = await blue.wait(lambda m: m.get("id") == "b1")
                await red.send({"type": "retract", "id": "r1"})
                told = {name: await sock.wait(lambda m: m["type"] == "retracted")
                        for name, sock in (("red", red), ("blue", blue), ("watcher", watcher))}
                hellos = {name: await sock.wait(lambda m: m["type"] == "hello")
                          for name, sock in (("red", red), ("blue", blue),
                                             ("watcher", watcher))}
                await red.send({"type": "retract", "id": "r2"})
                again = await red.wait(lambda m: m.get("id") == "r2")
                return {"moved": moved, "offered": offered, "refused": refused, "told": told,
                        "hellos": hellos, "again": again}
            finally:
                await session.close()

        out = asyncio.run(run())
        assert out["moved"]["version"] == 1
        assert out["offered"]["retract"] == {"version": 0, "what": "move red-spears"}
        assert out["refused"]["type"] == "refused"
        assert out["refused"]["violations"][0]["code"] == "answered"
        told = out["told"]
        assert told["red"]["id"] == "r1" and "id" not in told["blue"]
        assert all(t["version"] == 0 and t["from"] == 1 and t["by"] == "red"
                   for t in told.values())
        assert all(h["version"] == 0 for h in out["hellos"].values())
        assert out["again"]["type"] == "refused"
        assert out["again"]["violations"][0]["code"] == "nothing_to_retract"
        assert served.request("GET", f"/games/{game['game']}")[1]["version"] == 0
        served.stop()
        served.start()                # the database kept the game as taken back
        assert served.request("GET", f"/games/{game['game']}")[1]["version"] == 0
    finally:
        served.stop()
