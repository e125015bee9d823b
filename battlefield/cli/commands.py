"""The subcommands, in the order `battlefield --help` lists them: each lives in its own module
battlefield/cli/NAME.py with its `register(subparsers)`, added here by one line."""

from __future__ import annotations

import argparse

from battlefield.cli import (
    analyze,
    army,
    battles,
    bot,
    check,
    layout,
    measure,
    odds,
    play,
    points,
    render,
    rulesets,
    schema,
    serve,
    validate,
)


def register(sub: argparse._SubParsersAction) -> None:
    # Imported here as before the split, so that a branch adding a subcommand (its name on the
    # import line, its register call at the end) still merges line for line.

    check.register(sub)
    measure.register(sub)
    render.register(sub)
    odds.register(sub)
    points.register(sub)
    battles.register(sub)          # try, simulate, replay
    validate.register(sub)
    analyze.register(sub)
    layout.register(sub)
    play.register(sub)
    rulesets.register(sub)
    army.register(sub)
    schema.register(sub)
    serve.register(sub)
    bot.register(sub)
