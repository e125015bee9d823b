"""One definition of chance in aos4: the rolling path (attacking.volley, the charge) plays the
same procedures the odds enumerate. Statistical checks use fixed seeds, so they cannot flake."""

from __future__ import annotations

import math

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import attacks as seq
from battlefield.rules.aos4 import rolls
from battlefield.rules.aos4.allocation import volley
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.aos4.weapons import weapon_from
from battlefield.rules.chance import follow, leaves, outcomes, play
from battlefield.rules.dice import Dice
from battlefield.rules.state import Game
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

SCENE = """
ruleset: aos4
board: {{width: 60, depth: 44}}
units:
  - id: red
    side: red
    models: [{{base: 32, at: [10, 20]}}]
  - id: blue
    side: blue
    stats: {{move: 5, save: {save}, health: 1}}
    models: [{{base: 32, at: [19, 20]}}]
"""

# (id, weapon, attacking models, target's save, modifiers): each pins its distribution.
SCENARIOS = [
    ("plain", {"attacks": 2}, 1, 4, seq.Modifiers()),
    ("crit-2-hits", {"attacks": 2, "hit": 3, "rend": 1, "damage": "D3",
                     "abilities": ["crit-2-hits"]}, 2, 4, seq.Modifiers(ward=6)),
    ("crit-mortal", {"attacks": "D3", "wound": 5, "damage": 2, "abilities": ["crit-mortal"]},
     2, 3, seq.Modifiers(hit=-1, ward=5)),
    ("crit-auto-wound", {"attacks": 3, "hit": 4, "wound": 4, "rend": 2, "damage": "D6",
                         "abilities": ["crit-auto-wound"]}, 1, 3, seq.Modifiers(save=1)),
]


def weapon(spec: dict):
    return weapon_from({"name": "w", "attacks": 1, "hit": 4, "wound": 4, "rend": 0,
                        "damage": 1, **spec})


def state_for(save: int, seed: int = 1, fixed=()):
    scene = load_scene_text(SCENE.format(save=save))
    state = Game(RULESET, scene, seed).new_state()
    state.dice = Dice.seeded(seed, fixed)
    return state


@pytest.mark.parametrize("name, spec, models, save, mods", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_rolled_frequencies_match_the_exact_odds(name, spec, models, save, mods):
    w = weapon(spec)
    exact = seq.volley_dist(w, models, save, mods)
    n = 3000
    state = state_for(save, seed=7)
    counts = [0] * len(exact)
    for _ in range(n):
        dmg, _ = volley(state, 0, 1, w, models, mods)
        counts[dmg] += 1
        state.dice.log.clear()
    for d, p in enumerate(exact):
        f = counts[d] / n
        assert abs(f - p) <= 5 * math.sqrt(p * (1 - p) / n) + 2 / n, (name, d, f, p)


def test_the_fast_odds_are_the_procedure_enumerated():
    # The whole volley procedure (side by side rolls included), enumerated leaf by leaf, gives
    # the distribution attack odds compute from one strike.
    w, mods = weapon({"attacks": 2, "abilities": ["crit-auto-wound"]}), seq.Modifiers()
    brute = outcomes(lambda: seq.volley(w, 1, 4, mods), key=lambda r: r[1].damage)
    fast = seq.volley_dist(w, 1, 4, mods)
    assert {d: float(p) for d, p in brute.items()} == pytest.approx(
        {d: p for d, p in enumerate(fast) if p})


def test_fixed_dice_give_the_enumerated_outcome_for_every_leaf():
    # Every way the dice of 2 attacks (hit 4+, wound 4+, save 4+) can fall.
    w, mods = weapon({"attacks": 2}), seq.Modifiers()
    seen = 0
    state = state_for(4)
    for values, _, (attacks, s) in leaves(lambda: seq.volley(w, 1, 4, mods, "t", "blue")):
        state.dice = Dice.seeded(1, values)
        dmg, ev = volley(state, 0, 1, w, 1, mods)
        assert not state.dice.fixed                      # every value was used, no more
        assert (dmg, ev["attacks"], ev["hits"], ev["critical"], ev["wounds"], ev["unsaved"]) \
            == (s.damage, attacks, s.hits, s.critical, s.wounds, s.unsaved), values
        seen += 1
    assert seen > 1000


@pytest.mark.parametrize("name, spec, models, save, mods", SCENARIOS[1:],
                         ids=[s[0] for s in SCENARIOS[1:]])
def test_fixed_dice_give_the_enumerated_outcome(name, spec, models, save, mods):
    # 200 ways the dice can fall (drawn from a seeded generator), each walked down the
    # enumeration and rolled as fixed dice through the rolling path.
    w = weapon(spec)
    draw = Dice.seeded(sum(map(ord, name)))
    state = state_for(save)
    for _ in range(200):
        draw.log.clear()
        play(seq.volley(w, models, save, mods), draw)
        values = [v for r in draw.log for v in r.values]
        (attacks, s), used = follow(lambda: seq.volley(w, models, save, mods), values)
        assert used == len(values)
        state.dice = Dice.seeded(1, values)
        dmg, ev = volley(state, 0, 1, w, models, mods)
        assert not state.dice.fixed
        assert (dmg, ev["attacks"], ev["hits"], ev["critical"], ev["wounds"], ev["unsaved"]) \
            == (s.damage, attacks, s.hits, s.critical, s.wounds, s.unsaved)


@pytest.mark.parametrize("needed, reroll", [(3.0, False), (7.5, False), (7.5, True),
                                            (10.2, True)])
def test_charge_roll_frequencies_match_the_exact_odds(needed, reroll):
    dice = Dice.seeded(11)
    n = 4000
    hits = sum(play(rolls.charge_roll("2D6", "red", needed, reroll), dice).reached
               for _ in range(n))
    p = float(rolls.charge_chance("2D6", needed, reroll))
    assert abs(hits / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1 / n


def test_charge_odds_are_2d6_with_a_reroll():
    assert rolls.charge_chance("2D6", 7.5, False) == pytest.approx(15 / 36)
    assert rolls.charge_chance("2D6", 7.5, True) == pytest.approx(1 - (21 / 36) ** 2)
    assert rolls.charge_chance("2D6", 7.0000001, False) == pytest.approx(21 / 36)   # within 1e-6
    assert rolls.run_chance(RULESET.book.core.movement, 4) == pytest.approx(1 / 2)
    assert rolls.run_chance(RULESET.book.core.movement, 6.5, at_the_double=True) == 0



@pytest.mark.parametrize("reroll", [False, True])
def test_charge_chance_by_whole_inches_is_the_enumerated_procedure(reroll):
    """charge_chance works the odds out once per whole number of inches: the same Fraction
    as enumerating the procedure with the distance itself."""
    for needed in [0.0, 1.5, 6.999999, 6.9999995, 7.0, 7.0000001, 7.25, 9.9, 12.0, 12.5]:
        exact = outcomes(lambda n=needed: rolls.charge_roll("2D6", "", n, reroll),
                         key=lambda r: r.reached).get(True, 0)
        assert rolls.charge_chance("2D6", needed, reroll) == exact, needed

CHARGE = """
ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: red
    side: red
    stats: {move: 5, health: 1, save: 4}
    weapons: [{name: blade, attacks: 1, hit: 4, wound: 4, damage: 1}]
    models: [{base: 32, at: [10, 22]}]
  - id: blue
    side: blue
    stats: {move: 5, health: 1, save: 4}
    models: [{base: 32, at: [20, 22]}]
"""


@pytest.mark.parametrize("dice, command", [([4, 4], None), ([4, 5], None),
                                           ([4, 4, 5, 5], "forward-to-victory"),
                                           ([1, 2, 3, 1], "forward-to-victory"),
                                           ([6, 6], "forward-to-victory")])
def test_a_charge_with_fixed_dice_rolls_what_the_enumeration_says(dice, command):
    # Blue's base is 10 - 2r = 8.74" away; the path ends 0.49" short of it: 8.25" needed.
    action = {"type": "charge", "unit": "red", "target": "blue",
              "path": [[10, 22], [18.25, 22]], **({"command": command} if command else {})}
    _, (r,) = run(load_scene_text(CHARGE), [Action.from_dict(action)], dice=list(dice))
    assert r["legal"], r["violations"]
    rolled = [e["roll"] for e in r["events"] if e["type"] == "charge-roll"]
    needed = next(e["needed"] for e in r["events"] if e["type"] == "charge-roll")
    assert needed == pytest.approx(8.25, abs=1e-6)
    want, used = follow(lambda: rolls.charge_roll("2D6", "red", needed, command is not None), dice)
    assert used == len(dice)
    assert tuple(rolled) == want.rolls
    assert any(e["type"] == "charged" for e in r["events"]) == want.reached
