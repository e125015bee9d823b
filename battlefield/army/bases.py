"""Base sizes from the `Base Size` rule of the BSData entries: "40mm" is a round base, "60x35mm"
an oval (long x short); sizes are the ones battlefield knows (geometry/bases.py)."""

from __future__ import annotations

import math
import re

from battlefield.geometry.bases import OVAL_SIZES_MM, ROUND_SIZES_MM

BASE_RULE = "Base Size"
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:[x×]\s*(\d+(?:\.\d+)?)\s*)?mm\s*(?:\((.+)\))?$", re.I)


class BaseSizeError(ValueError):
    """A Base Size text that names no base battlefield knows; the message says why."""


def expected() -> str:
    rounds = ", ".join(f"{s:g}mm" for s in ROUND_SIZES_MM)
    ovals = ", ".join(f"{a:g}x{b:g}mm" for a, b in OVAL_SIZES_MM)
    return f"a round base ({rounds}) or an oval one ({ovals})"


def parse_base(text: str) -> tuple[float | list[float], dict[str, float | list[float]]]:
    """The base of a Base Size text as a scene writes it (40, or [60, 35] for an oval), and the
    bases the text gives some models by name ("40mm (Champion)" -> {"Champion": 40})."""
    default: float | list[float] | None = None
    named: dict[str, float | list[float]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        m = _SIZE.match(line)
        if m is None:
            raise BaseSizeError(f"base size '{line}' is not a size in mm")
        a, b, who = float(m.group(1)), m.group(2), m.group(3)
        if b is None:
            if not any(math.isclose(a, s) for s in ROUND_SIZES_MM):
                raise BaseSizeError(f"base size '{line}' is not a round base battlefield knows")
            size: float | list[float] = _num(a)
        else:
            long_, short = max(a, float(b)), min(a, float(b))
            if not any(math.isclose(long_, x) and math.isclose(short, y)
                       for x, y in OVAL_SIZES_MM):
                raise BaseSizeError(f"base size '{line}' is not an oval base battlefield knows")
            size = [_num(long_), _num(short)]
        if who:
            named[who.strip()] = size
        elif default is None:
            default = size
        else:
            raise BaseSizeError(f"base size '{text}' gives two sizes for the same models")
    if default is None:
        raise BaseSizeError(f"base size '{text}' gives no size for the unit's models")
    return default, named


def _num(x: float) -> float:
    return int(x) if float(x).is_integer() else x
