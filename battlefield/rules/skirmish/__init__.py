"""Skirmish (shared/seeds/001_781a0dca2fdd241b.txt) on the battlefield engine.

Modules by the table's own words: turns (rounds, turns, morale, objectives), movement (paths,
climbing, dangerous drops, retreat and charge paths), potshots (what a path triggers), attacks
(the attack procedure, support, retreats), skirmishes (morale, ranges, initiative, charges),
bombardment (artillery tokens), rules (checking and resolving actions); numbers in data.
"""

from battlefield.rules.skirmish.rules import RULESET  # noqa: F401
