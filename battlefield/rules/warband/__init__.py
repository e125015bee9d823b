"""warband (shared/seeds/003_9e9dcd26291534cd.txt) on the battlefield engine.

The common roles (battlefield/rules/README.md): rules (the Ruleset subclass Warband: checking
and resolving actions), turns (the battle round, objectives, VP), movement (moves, climbing,
falls, disengage), attacks (the attack roll, engagement), odds (an attack's exact
distribution), player, data (game.yaml, fighters, abilities), package (odds questions, the
window, try). In the table's own words besides: initiative (the dice: singles and ability
dice, paying for abilities), abilities (what each ability does), reactions (dodge, counter,
opportunistic strike).
"""

from battlefield.rules.warband.rules import RULESET  # noqa: F401
