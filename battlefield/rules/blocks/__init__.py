"""blocks (shared/seeds/004_bae87288a9d78020.txt) on the battlefield engine: rank-and-flank
blocks with facing, standing orders, command points and cards, courage and routing.

Modules by the table's own words: data (the numbers in rulesets/blocks/game.yaml), movement
(blocks swept along paths, charges, marches, rout routes), combat (contact, arcs, shooting,
the attack and courage procedures), phases (the turn, orders, the courage phases), rules
(checking and resolving actions), player (the computer player), package (odds and check).
"""

from battlefield.rules.blocks.rules import RULESET  # noqa: F401
