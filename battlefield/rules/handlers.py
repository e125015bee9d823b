"""Which code plays each action type of a ruleset: a registry on the Ruleset class, filled where
the code is written rather than by a string looked up at run time.

On a method of a Ruleset subclass, `@handles("move")` makes it the check of `move` actions and
`.resolver` on what it returns makes the next method their resolve; both are then asked with
the ruleset bound, as `(state, action)`:

    @handles("fortify")
    def check_fortify(self, state, action): ...          # why it is illegal now

    @check_fortify.resolver
    def fortify(self, state, action): ...                # what it does

A phase module of plain functions registers them as they are, on the class:
`fight = handles("fight", check=fighting.check, resolve=fighting.fight)`; a ruleset whose own
check does the common part first (aos4's Rules of One) asks `self.handler(kind)` and calls them
with its own arguments. `Ruleset.handlers` lists every type registered, its bases' included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MethodType
from typing import Any


@dataclass
class Handler:
    """The check and the resolve of the action types `kinds`; `bound`: methods of the class,
    bound to the ruleset when asked (plain functions are called as they are)."""

    kinds: tuple[str, ...]
    check: Callable[..., Any]
    resolve: Callable[..., Any] | None = None
    bound: bool = True

    def resolver(self, fn: Callable[..., Any]) -> Handler:
        """Decorates the method that carries the same action types out."""
        self.resolve = fn
        return self

    def on(self, ruleset: object) -> Handler:
        """This handler as the ruleset calls it: its methods bound to `ruleset`."""
        if not self.bound:
            return self
        resolve = MethodType(self.resolve, ruleset) if self.resolve is not None else None
        return Handler(self.kinds, MethodType(self.check, ruleset), resolve, False)


def handles(*kinds: str, check: Callable[..., Any] | None = None,
            resolve: Callable[..., Any] | None = None
            ) -> Callable[[Callable[..., Any]], Handler] | Handler:
    """The handler of the action types `kinds`: given `check` (and `resolve`), plain functions
    registered as they are; else a decorator that makes the method it decorates the check."""
    if check is not None:
        return Handler(kinds, check, resolve, bound=False)

    def decorate(fn: Callable[..., Any]) -> Handler:
        return Handler(kinds, fn)

    return decorate


def collect(cls: type) -> dict[str, Handler]:
    """Every handler a class and its bases register, by action type (the class's own win)."""
    table: dict[str, Handler] = {}
    for base in reversed(cls.__mro__):
        for value in vars(base).values():
            if isinstance(value, Handler):
                for kind in value.kinds:
                    table[kind] = value
    return table


__all__ = ["Handler", "collect", "handles"]
