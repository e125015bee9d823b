"""Age of Sigmar 4th edition (shared/seeds/000_07d36a3aa1d90cbd.txt) on the battlefield engine.

The common roles (battlefield/rules/README.md): rules (the Ruleset subclass Aos4: every ability
checked and resolved), turns (the battle round, phases, battleplan scoring), movement (paths,
climbing, what a move may not cross or end in), attacks (the attack sequence as chance
procedures: played by allocation, enumerated by odds), odds (an attack's exact damage
distribution), player, data (abilities.yaml, battleplan.yaml, rules.yaml), package (odds
questions, the window, try). In the table's own words besides: the phase mixins movement_phase,
shooting, fighting and heroics; allocation (attacks rolled with the game's dice, damage
allocated to models); weapons (profiles), cover (terrain effects on attacks), charge (how far a
charge needs, and its odds), rolls (the charge and run rolls), magic (spells and prayers),
defence (All-out Defence, the other side's decision), turnfinder (the moment of the turn an
action of `try` belongs to).
"""

from battlefield.rules.aos4.rules import RULESET  # noqa: F401
