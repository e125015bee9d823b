"""aos4 rules as data: every ability is played, a reaction or not played (checked when the
rules are made), and the core rules' numbers come from rules.yaml with unknown keys an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlefield.errors import InputError
from battlefield.paths import ruleset_dir
from battlefield.rules.aos4.data import load_abilities, load_rules
from battlefield.rules.aos4.rules import RULESET, Aos4

BOGUS = """
- id: bogus-ability
  name: Bogus
  type: normal
  timing: Your Hero Phase
  phases: [yourHero]
  keywords: [CORE]
"""


def abilities_with(tmp_path: Path, extra: str) -> Path:
    text = (ruleset_dir("aos4") / "abilities.yaml").read_text(encoding="utf-8")
    path = tmp_path / "abilities.yaml"
    path.write_text(text.rstrip("\n") + "\n" + extra.strip("\n") + "\n", encoding="utf-8")
    return path


def test_every_ability_of_the_data_is_handled_a_reaction_or_not_played():
    rules = Aos4()
    for a in rules.book.abilities.values():
        assert (a.id in rules.handlers) + bool(a.reacts_to) + bool(a.not_played) \
            + a.decision == 1, a.id


def test_an_ability_without_a_handler_is_a_load_error_naming_it(tmp_path):
    data = load_abilities(abilities_with(tmp_path, BOGUS))
    with pytest.raises(InputError) as err:
        Aos4(data)
    text = str(err.value)
    assert "bogus-ability" in text and "abilities.yaml" in text and "no handler" in text


def test_an_ability_listed_as_not_played_loads(tmp_path):
    data = load_abilities(abilities_with(tmp_path, BOGUS + "  not_played: a test says so\n"))
    assert "bogus-ability" not in Aos4(data).handlers
    assert data["bogus-ability"].not_played == "a test says so"


def test_a_reaction_must_say_what_it_reacts_to(tmp_path):
    reaction = BOGUS.replace("timing: Your Hero Phase", "timing: 'Reaction: You declared it'")
    with pytest.raises(InputError, match="neither what it reacts to"):
        load_abilities(abilities_with(tmp_path, reaction))
    with pytest.raises(InputError, match="no ability 'nothing'"):
        load_abilities(abilities_with(tmp_path, reaction + "  reacts_to: [nothing]\n"))


def test_reactions_and_not_played_come_from_the_data():
    assert RULESET.book.reactions == {"at-the-double": "run", "forward-to-victory": "charge",
                         "all-out-attack": "shoot|fight|covering-fire",
                         "all-out-defence": "shoot|fight|covering-fire"}
    assert sorted(RULESET.book.not_played) == ["banish-manifestation"]


def test_core_numbers():
    c = RULESET.book.core
    assert (c.charge.roll, c.charge.reach, c.combat.pile_in) == ("2D6", 0.5, 3.0)
    assert (c.movement.run_roll, c.movement.at_the_double, c.magic.unbind_range) == ("D6", 6, 30)


def test_rules_file_unknown_key_lists_the_valid_ones(tmp_path):
    text = (ruleset_dir("aos4") / "rules.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "rules.yaml"
    bad.write_text(text.replace("  pile_in: 3", "  pile_in: 3\n  pile_out: 2"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_rules(bad)
    assert "pile_out" in str(err.value) and "pile_in" in str(err.value)
    bad.write_text(text.replace("roll: 2D6", "roll: 2X6"), encoding="utf-8")
    with pytest.raises(InputError, match="charge.roll"):
        load_rules(bad)
