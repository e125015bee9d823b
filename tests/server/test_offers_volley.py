"""The play page's buttons for an attack at several targets (server/offers.py): a shoot (and a
fight where it stands) with more than one legal enemy has a button at all of them - the
engine's default split - and one per weapon sent all at one target, each carrying the very
action `battlefield try` takes, with the targets' attacks and odds as its tooltip."""

from __future__ import annotations

import json
from pathlib import Path

from battlefield.rules.actions import Action
from battlefield.rules.outcome import game_log
from battlefield.server.offers import offers
from battlefield.view.app import open_game, to_phase

SCENE = str(Path(__file__).parents[1] / "view" / "volley.yaml")


def buttons(phase: str) -> tuple[object, dict[str, dict]]:
    opened = open_game(SCENE)
    to_phase(opened.state, phase)
    got = offers(opened.state, "red", 1)
    return opened.state, {b["label"]: b for b in json.loads(json.dumps(got))["buttons"]}


def test_a_shot_at_both_targets_and_each_weapon_sent_at_one() -> None:
    state, by = buttons("shooting")
    both = by["shoot red-archers at blue-a + blue-b"]
    assert both["action"] == {"type": "shoot", "unit": "red-archers",
                              "target": ["blue-a", "blue-b"]}
    # each model's Longbow (2) dealt a, b and its Javelins (1) in turn: a, then b
    assert both["tip"].startswith("blue-a: Longbow 2 attacks, Javelins 1 attack; expected "
                                  "damage 0.85; blue-b: Longbow 2 attacks, Javelins 1 attack")
    aimed = by["shoot red-archers at blue-a + blue-b (Longbow all at blue-b)"]
    sent = Action.from_dict(aimed["action"])       # as the page sends its data-action JSON
    assert sent == Action.from_dict({
        "type": "shoot", "unit": "red-archers", "target": ["blue-a", "blue-b"],
        "split": {"blue-b": [{"model": 1, "weapon": "Longbow"},
                             {"model": 2, "weapon": "Longbow"}]}})
    assert not state.check(sent)
    assert "blue-a: Javelins 1 attack" in aimed["tip"]
    assert {k for k in by if "(" in k and k.startswith("shoot")} == {
        f"shoot red-archers at blue-a + blue-b ({w} all at {t})"
        for w in ("Longbow", "Javelins") for t in ("blue-a", "blue-b")}


def test_a_fight_where_it_stands_at_both_enemies_in_combat() -> None:
    state, by = buttons("combat")
    label = "fight red-blades at {} where it stands"
    first = next(k for k in by if k.startswith("fight red-blades at blue-") and "+" in k
                 and "(" not in k)
    pair = first.removeprefix("fight red-blades at ").removesuffix(" where it stands")
    assert set(pair.split(" + ")) == {"blue-c", "blue-d"}
    sent = Action.from_dict(by[label.format(pair)]["action"])
    assert sent.targets == tuple(pair.split(" + ")) and not state.check(sent)
    # one model, Blade Attacks 3, dealt in turn: two at the first, one at the second
    a, b = pair.split(" + ")
    assert by[label.format(pair)]["tip"].startswith(f"{a}: Blade 2 attacks")
    assert f"{b}: Blade 1 attack;" in by[label.format(pair)]["tip"]


def test_a_charge_is_declared_by_a_button_and_its_roll_answered_by_a_drag() -> None:
    """The seed's order on the page: "declare a charge: red at blue, the roll first, then its
    move" declares (no path; a charge declared is not done "where it stands"),
    the roll is made, and during red's charge-move decision the page may drag red (the
    decision's open answer) besides its decline button."""
    from battlefield.view.app import open_text
    CHARGE = _charge_scene()

    state = open_text("aos4", CHARGE, "charge").state
    got = offers(state, "red", 1)
    declare = next(b for b in got["buttons"]
                   if b["label"] == "declare a charge: red at blue, the roll first, then its move")
    assert declare["action"] == {"type": "charge", "unit": "red", "target": "blue"}
    state.apply(Action.from_dict(declare["action"]))
    # the log says what happened: declared, and the roll
    rolled = next(e["roll"] for e in reversed(state.events) if e.get("type") == "charge-roll")
    assert game_log(state)[-1].action == f"red declares a charge at blue, rolls {rolled}"
    if not state.pending:                       # the one roll (2) that reaches nothing
        return
    got = offers(state, "red", 2)
    assert [b["label"] for b in got["buttons"]] == ["decline"]
    assert got["drag"] == {"red": {"abilities": ["charge"], "ref": "red/1"}}


def _charge_scene() -> str:
    """The window's charge-roll test's scene (tests/view/test_play_charge_roll.py), read from
    that file: tests are not a package, so it is loaded by its path."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "view" / "test_play_charge_roll.py"
    spec = importlib.util.spec_from_file_location("_charge_roll_scene", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SCENE
