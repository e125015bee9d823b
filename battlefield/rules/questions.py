"""The questions `battlefield odds` asks of a scene, written once for every ruleset: each
question says its flag, the units it names, whether they must be enemies, the command-line
options it takes (with their help), what its JSON holds, and how to answer and word it.

`OddsQuestion.answer(ruleset, scene, args, options)` does what every question needs before its
own answer - finds the units named (an unknown one is said with the units there are), refuses
two units of one side where the question is about enemies, and makes the game at the scene's
moment when the answer asks for it (`Asked.state`) - then calls the ruleset's `ask(asked)`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from battlefield.errors import UsageError
from battlefield.rules.state import Game, State
from battlefield.scene.model import Scene

if TYPE_CHECKING:
    from battlefield.rules.ruleset import Ruleset

Answer = dict[str, Any]
KINDS = ("flag", "text", "whole")


@dataclass(frozen=True)
class OddsOption:
    """A command-line option of an odds question: `--NAME` (a flag: true when given; text; a
    whole number), what it does for people, and the key its value has in `Asked.options`
    (NAME with underscores)."""

    name: str
    help: str
    kind: str = "flag"

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


@dataclass
class Asked:
    """One question asked of a scene: the ruleset, the scene, the units it names (their
    indices and ids, in order), the options given (by key), and the game at the scene's moment
    (`state`, made the first time an answer asks for it)."""

    ruleset: Ruleset
    scene: Scene
    units: tuple[int, ...]
    names: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def state(self) -> State:
        return Game(self.ruleset, self.scene).new_state()


@dataclass(frozen=True)
class OddsQuestion:
    """One question `battlefield odds` can ask of a scene: `--FLAG ARG ...`. `ask(asked)` gives
    the JSON answer, `text(answer)` the lines a person reads; `options` the command-line
    options it takes, `enemies`: the units it names (A and B) must be of different sides."""

    flag: str                                  # "attack" -> --attack
    args: tuple[str, ...]                      # metavars: ("A", "B")
    help: str
    ask: Callable[[Asked], Answer]
    text: Callable[[Answer], str]
    json_keys: str = ""                        # for --help: what the JSON holds
    options: tuple[OddsOption, ...] = ()
    enemies: bool = False

    def answer(self, ruleset: Ruleset, scene: Scene, args: Sequence[str],
               options: dict[str, Any]) -> Answer:
        """The question asked of `scene` about the units `args` with `options` (by key)."""
        names = tuple(str(a) for a in args)
        units = tuple(scene.unit_index(a) for a in names)
        if self.enemies and len(units) >= 2:
            a, b = units[:2]
            if scene.units[a].side == scene.units[b].side:
                raise UsageError(f"{names[1]} is not an enemy of {names[0]} (both are "
                                 f"{scene.units[a].side})")
        return self.ask(Asked(ruleset, scene, units, names, dict(options)))

    @property
    def keys(self) -> tuple[str, ...]:
        """The option keys it reads."""
        return tuple(o.key for o in self.options)


__all__ = ["Asked", "OddsOption", "OddsQuestion"]
