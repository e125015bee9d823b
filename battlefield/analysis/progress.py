"""A one-line progress bar on stderr for long runs (Monte Carlo battles, a board's sight map):
how much is done, how fast it goes and how long is left. It redraws at most a few times a
second and ends its line when the work is done."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 30


class ProgressBar:
    """Called as progress(done, total). `unit` names what is counted ("games", "sight lines");
    `clock` is injectable so tests fix the time; `every`: seconds between two redraws."""

    def __init__(self, label: str, unit: str, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, every: float = 0.2) -> None:
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.every = every
        self.start = clock()
        self.shown = -1.0
        self.ended = False

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        finished = done >= total
        if self.ended or (not finished and now - self.shown < self.every):
            return
        self.shown = now
        self.stream.write("\r" + self.line(done, total, now - self.start))
        if finished:
            self.stream.write("\n")
            self.ended = True
        self.stream.flush()

    def line(self, done: int, total: int, elapsed: float) -> str:
        filled = round(WIDTH * done / total) if total else WIDTH
        out = (f"  {self.label} [{'#' * filled}{'.' * (WIDTH - filled)}] "
               f"{count(done)}/{count(total)}")
        if elapsed > 0 and done > 0:
            rate = done / elapsed
            out += f"  {rate_text(rate)} {self.unit}/s"
            if done < total:
                out += f"  {clock_text((total - done) / rate)} left"
            else:
                out += f"  in {clock_text(elapsed)}"
        return out + "  "                 # clears the tail of a longer previous line


def count(n: int) -> str:
    """1,234 / 12.3M / 1.78G: short enough for one line."""
    if n < 100_000:
        return f"{n:,}"
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= size:
            return f"{n / size:.3g}{suffix}"
    return str(n)


def rate_text(rate: float) -> str:
    return count(round(rate)) if rate >= 100 else f"{rate:.2g}"


def clock_text(seconds: float) -> str:
    """0:07, 12:30, 3:05:00."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
