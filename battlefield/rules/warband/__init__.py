"""warband (shared/seeds/003_9e9dcd26291534cd.txt) on the battlefield engine.

Modules by the table's own words: data (game.yaml, fighters, abilities), initiative (the dice:
singles and ability dice, paying for abilities), rounds (the battle round, objectives, VP),
attacks (the attack roll, engagement), movement (moves, climbing, falls, disengage),
reactions (dodge, counter, opportunistic strike), rules (checking and resolving actions),
odds, player, package.
"""

from battlefield.rules.warband.rules import RULESET  # noqa: F401
