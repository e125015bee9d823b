"""openwg, "Reglas basicas" (shared/seeds/002_2820d2f43ec186dc.txt), on the battlefield engine.

Modules by the table's own words: turns (the four phases with Stop, wounds, morale, scoring),
movement (move, run, charge, retreat, adjust), attacks (who attacks with what), dice (the
attack, morale and shrug procedures and their exact odds), profiles (characteristics, weapons,
special rules as effects), builder (templates, upgrades, health ranks, points), rules (checking
and resolving actions), player, package (odds, points, try); numbers in rulesets/openwg/.
"""

from battlefield.rules.openwg.rules import RULESET  # noqa: F401
