"""openwg, "Reglas basicas" (shared/seeds/002_2820d2f43ec186dc.txt), on the battlefield engine.

The common roles (battlefield/rules/README.md): rules (the Ruleset subclass OpenWG: checking
and resolving actions), turns (the four phases with Stop, wounds, morale, scoring), movement
(move, run, charge, retreat, adjust), attacks (who attacks with what), odds (the attack,
morale and shrug procedures and their exact odds), player, data (rulesets/openwg/game.yaml),
package (odds questions, points, try, the window). In the table's own words besides: profiles
(characteristics, weapons, special rules as effects), builder (templates, upgrades, health
ranks, points), reach (the distances openwg rules on).
"""

from battlefield.rules.openwg.rules import RULESET  # noqa: F401
