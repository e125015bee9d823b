"""Age of Sigmar 4th edition (shared/seeds/000_07d36a3aa1d90cbd.txt) on the battlefield engine.

Modules by the table's own words: weapons (profiles), cover (terrain effects on attacks),
charge (how far a charge needs, and its odds), attacks (the attack sequence as chance
procedures: played by attacking, enumerated for its exact odds), rolls (the charge and run rolls
as chance procedures), data (abilities.yaml, battleplan.yaml, rules.yaml).
"""

from battlefield.rules.aos4.rules import RULESET  # noqa: F401
