"""Errors people can act on: every bad input names the file, the key path, the line and what
was expected. The command line prints the message and exits with status 2, never a traceback."""

from __future__ import annotations


class BattlefieldError(Exception):
    """Base of every error the command line reports as a one-line message (exit status 2)."""


class InputError(BattlefieldError):
    """A file (scene, map, ruleset, log) or a command-line value that cannot be used."""

    def __init__(self, file: str, path: str, line: int | None, message: str,
                 expected: str | None = None, hint: str = "") -> None:
        self.file, self.path, self.line = file, path, line
        self.message, self.expected, self.hint = message, expected, hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        text = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        text = f"{text} (expected {self.expected})" if self.expected else text
        text = f"{text}; {self.hint}" if self.hint else text     # did you mean NAME?
        return _one_line(text)


def _one_line(text: str) -> str:
    """Control characters (a newline in a quoted key, say) written as escapes: one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class UsageError(BattlefieldError):
    """A command-line argument that names nothing in the scene (an unknown unit id, say)."""


class UnknownUnit(UsageError, KeyError):
    """A unit id the scene does not have: a KeyError to code that looks units up, one line
    naming the scene's units to the person who typed it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
