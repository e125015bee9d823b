"""blocks (shared/seeds/004_bae87288a9d78020.txt) on the battlefield engine: rank-and-flank
blocks with facing, standing orders, command points and cards, courage and routing.

The common roles (battlefield/rules/README.md): rules (the Ruleset subclass Blocks: checking
and resolving actions), turns (the turn, orders, the courage phases), movement (blocks swept
along paths, charges, marches, rout routes), attacks (contact, arcs, shooting, the attack and
courage procedures and their exact distributions), player, data (rulesets/blocks/game.yaml),
package (odds questions, check, try). In the table's own words besides: marks (what the table
shows: orders, routes, engaged sides, front arcs).
"""

from battlefield.rules.blocks.rules import RULESET  # noqa: F401
