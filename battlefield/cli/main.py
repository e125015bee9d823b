"""The `battlefield` command: rulings, pictures and checks of scene files.

Every command reads scene files through the same checked loader; a bad file or argument prints
one line (file:line: key.path: what is wrong (expected ...)) and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import NoReturn

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")     # no banner on the command line

from battlefield.cli import commands
from battlefield.errors import BattlefieldError
from battlefield.names import after
from battlefield.paths import as_typed, map_names

DESCRIPTION = """\
battlefield - exact rulings for tabletop miniature wargames.

Describe the battlefield in a YAML scene file, or use a bundled scene or map:
  {bundled}
and ask: how far apart are these models, can this one see that one, who is in combat, is the
unit in coherency, who holds the objective.
"""

SCENE_FORMAT = """\
scene files (YAML; inches on the table, millimetres for bases):
  ruleset: aos4                      # aos4 | skirmish | openwg | warband | blocks
  board: {width: 60, depth: 44}      # or  map: aos4  to take a bundled board
  terrain:                           # outline extruded to its height; kind optional
    - {id: ruin, outline: [[20, 10], [26, 10], [26, 14], [20, 14]], height: 4, kind: obscuring}
  objectives:
    - {id: centre, at: [30, 22]}
    # skirmish adds  home: SIDE  to an objective: that side holds it on a tie
  deployment: {red: [[0, 0], [60, 0], [60, 12], [0, 12]]}
  units:
    - id: red-1
      side: red
      stats: {move: 5, health: 2, save: 4, control: 1}
      models:                                        # first model leads unless  leader: N
        - {base: 32, at: [10, 10]}                   # round base, diameter in mm
        - {base: [60, 35], at: [12, 10], facing: 90} # oval (long, short) mm, facing in degrees
        - {base: 32, at: [14, 10], z: 3, height: 2}  # elevation and height in inches

  terrain kinds: solid (default; stand on top), obstacle, area, obscuring, impassable,
  place-of-power. A model whose base is wholly on a piece of any kind but area and impassable
  stands on its top.

rulings (see README.md for the details):
  distance   closest base edge to base edge, horizontal; distance_3d adds the difference in
             elevation. Unit to unit = the closest pair of models.
  visible    full / partial / none: how much of the target the observer's models can see,
             sight lines between model volumes (base x height) over extruded terrain; other
             models block, the observer's own unit never does.
  combat     aos4: within 3" horizontally and visible to each other.
  coherency  aos4: every model within 1/2" of another (2 others in units of 7+), one group.
  objectives aos4: 3" of the 40 mm marker, sum of Control, sticky; skirmish: 2" of the centre,
             all models of the units on it, home objectives held on a tie.

examples:
  battlefield check                       the bundled demo battle
  battlefield check demo --json
  battlefield measure demo red-archers blue-drake
  battlefield measure demo red-archers/3 blue-riders/1 --json
  battlefield odds demo --attack red-archers blue-drake
  battlefield try demo --action '{"type": "shoot", "unit": "red-archers", "target": "blue-drake"}'
  battlefield simulate --ruleset aos4 --seed 3
  battlefield render demo -o demo.png --measure red-archers blue-drake
  battlefield validate my-scene.yaml
"""


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors (`--seed x`) quote a huge argument cut short, as every
    other error line does (its subcommands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        super().error(_short(_suggest(message)))


def _suggest(message: str) -> str:
    """argparse's "invalid choice: 'checks' (choose from 'check', ...)" (a command, a
    subcommand, an option's choices) followed by the closest choice."""
    m = re.match(r"(.*invalid choice: )'(.*)' \(choose from (.*)\)$", message, re.S)
    if not m:
        return message
    choices = re.findall(r"'((?:[^'\\]|\\.)*)'", m.group(3)) or \
        [c.strip() for c in m.group(3).split(",")]
    return message + after(m.group(2), choices)


def build_parser() -> argparse.ArgumentParser:
    bundled = textwrap.fill(", ".join(map_names()), width=92, subsequent_indent="  ")
    parser = Parser(
        prog="battlefield", description=DESCRIPTION.format(bundled=bundled), epilog=SCENE_FORMAT,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="battlefield 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()      # reads every ruleset's data for the help texts
    except BattlefieldError as exc:
        print(f"battlefield: {exc}", file=sys.stderr)
        return 2
    args, extra = parser.parse_known_args(argv)
    if extra:                        # said by the subcommand, with its own usage
        sub = parser._subparsers._group_actions[0].choices.get(getattr(args, "command", None))
        (sub or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except BattlefieldError as exc:
        print(f"battlefield {args.command}: {_short(as_typed(str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _short(message: str, limit: int = 1000) -> str:
    """An error line of sane length: a message quoting a 1 MB argument is cut in its middle."""
    if len(message) <= limit:
        return message
    return f"{message[:limit * 2 // 3]} ...({len(message) - limit:,} characters)... " \
           f"{message[-limit // 4:]}"
