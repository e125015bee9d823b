"""Pure geometry of the table: bases, terrain, measurement, sight, and rule building blocks.

Inches on the table, millimetres for bases. Nothing here knows about a ruleset's phases or dice;
rulesets pass the numbers (combat range, coherency distance, objective radius) in.
"""

MM_PER_INCH = 25.4
