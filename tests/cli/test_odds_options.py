"""Each odds question declares its own command-line options (rules/questions.OddsOption):
`battlefield odds` offers exactly those, says which ruleset takes which, and hands a question
only the options it declares (any other given is refused by name)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from battlefield.cli.main import build_parser, main
from battlefield.rules import registry

ODDS_CLI = Path(__file__).parents[2] / "battlefield" / "cli" / "odds.py"


def odds_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["odds"]


def test_the_odds_command_offers_the_options_the_questions_declare():
    declared = {f"--{o.name}" for n in registry.playable() for q in registry.get(n).odds
                for o in q.options}
    flags = {q.flag for n in registry.playable() for q in registry.get(n).odds}
    offered = {s for a in odds_parser()._actions for s in a.option_strings}
    assert offered - {"-h", "--help", "--json"} - {f"--{f}" for f in flags} == declared
    assert declared >= {"--weapon", "--all-out-attack", "--slain"}


def test_the_command_names_no_option_of_its_own():
    source = ODDS_CLI.read_text(encoding="utf-8")
    for name in ("--weapon", "--all-out-attack", "--all-out-defence", "--charged", "--slain"):
        assert f'add_argument("{name}"' not in source


def test_a_question_gets_only_the_options_it_declares(capsys):
    assert main(["odds", "demo", "--attack", "red-archers", "blue-drake", "--all-out-attack",
                 "--json"]) == 0
    assert '"all-out-attack"' not in capsys.readouterr().err
    assert main(["odds", "demo", "--move", "red-lancers", "--charged"]) == 2
    assert "--charged: not used by aos4's --move (it takes no options)" in \
        capsys.readouterr().err


@pytest.mark.parametrize("name", registry.playable())
def test_every_question_says_its_options_in_the_help(name):
    epilog = odds_parser().epilog
    for q in registry.get(name).odds:
        for o in q.options:
            assert f"--{o.name}" in epilog.split(f"--{q.flag} ({name}):", 1)[1].split("\n")[0]
