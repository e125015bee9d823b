"""Skirmish (shared/seeds/001_781a0dca2fdd241b.txt) on the battlefield engine.

The common roles (battlefield/rules/README.md): rules (the Ruleset subclass Skirmish:
checking and resolving actions), turns (rounds, turns, morale, objectives), movement (paths,
climbing, dangerous drops, retreat and charge paths), attacks (the attack procedure, support,
retreats), odds (an attack's exact damage distribution), player, data (the numbers in
rulesets/skirmish/game.yaml), package (odds questions, the window). In the table's own words
besides: potshots (what a path triggers), skirmishes (morale, ranges, initiative, charges),
bombardment (artillery tokens).
"""

from battlefield.rules.skirmish.rules import RULESET  # noqa: F401
