"""Age of Sigmar 4th edition (shared/seeds/000_07d36a3aa1d90cbd.txt) on the battlefield engine.

Modules by the table's own words: weapons (profiles), cover (terrain effects on attacks),
charge (how far a charge needs, and its odds), attacks (the attack sequence and its exact odds).
"""

from battlefield.rules.aos4.package import RULESET  # noqa: E402,F401
from battlefield.rules.aos4.rules import RULES  # noqa: E402,F401
