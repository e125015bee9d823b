"""Base sizes from the `Base Size` rule of the BSData entries, in every form the data writes them:
"40mm" (round), "60x35mm" or "150x95mm" (an oval, long x short, any size), "40mm (Champion)" (a
named model's base), "1/10 32mm (Champion)" (that share of the unit's models), "40mm OR 32mm"
(a choice: the first is taken, with a warning) and "Use model" (no base: a documented default).
Each model of a unit gets its own base."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from battlefield.geometry.bases import OVAL_SIZES_MM, ROUND_SIZES_MM

BASE_RULE = "Base Size"
# "Use model": the model stands on its own hull, no base; battlefield gives it this round base.
USE_MODEL_MM = 100
_SHARE = re.compile(r"^(\d+)\s*/\s*(\d+)\s+(.*)$")
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:[x×]\s*(\d+(?:\.\d+)?)\s*)?mm$", re.I)
_WHO = re.compile(r"^(.*?)\s*\(([^)]*)\)\s*$")

Size = float | list[float]


class BaseSizeError(ValueError):
    """A Base Size text that names no base; the message says why."""


@dataclass(frozen=True)
class BaseLine:
    """One line of a Base Size text: the size, the share of the unit's models on it (None: all
    the others), the models it is named for ("Champion")."""

    size: Size
    share: tuple[int, int] | None = None
    who: str = ""


def expected() -> str:
    return "a size like 40mm (round) or 60x35mm (oval), optionally '1/10 ' before it"


def parse_base(text: str, warnings: list[str] | None = None) -> list[BaseLine]:
    """The lines of a Base Size text. A choice ("40mm OR 32mm") takes the first size and says
    so in `warnings`; "Use model" is a USE_MODEL_MM round base, said the same way."""
    out: list[BaseLine] = []
    w = warnings if warnings is not None else []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        share = None
        m = _SHARE.match(line)
        if m:
            share = (int(m.group(1)), max(int(m.group(2)), 1))
            line = m.group(3).strip()
        who = ""
        m = _WHO.match(line)
        if m:
            line, who = m.group(1).strip(), m.group(2).strip()
        if line.lower() in ("use model", "use the model"):
            w.append(f"base 'Use model': the model is given a {USE_MODEL_MM}mm round base")
            out.append(BaseLine(USE_MODEL_MM, share, who))
            continue
        choices = [c.strip() for c in re.split(r"\s+OR\s+", line, flags=re.I) if c.strip()]
        if len(choices) > 1:
            w.append(f"base '{line}' is a choice; the first ({choices[0]}) is taken")
        out.append(BaseLine(_size(choices[0] if choices else line), share, who))
    if not out:
        raise BaseSizeError(f"base size '{text}' gives no size")
    return out


def _size(text: str) -> Size:
    m = _SIZE.match(text.strip())
    if m is None:
        raise BaseSizeError(f"base size '{text}' is not a size in mm")
    a = float(m.group(1))
    if m.group(2) is None:
        if a <= 0:
            raise BaseSizeError(f"base size '{text}' is not a size in mm")
        return _num(a)
    b = float(m.group(2))
    if min(a, b) <= 0:
        raise BaseSizeError(f"base size '{text}' is not a size in mm")
    return [_num(max(a, b)), _num(min(a, b))]


def model_bases(lines: list[BaseLine], n: int) -> list[Size]:
    """The base of each of n models: a line with a share takes that share of the n models
    (rounded, at least one), a named line without one takes one model, the line with neither
    takes the rest; the last line with a share takes what is left over when none has neither."""
    out: list[Size] = []
    plain = [ln for ln in lines if ln.share is None and not ln.who]
    shared = [ln for ln in lines if ln.share is not None or ln.who]
    for i, ln in enumerate(shared):
        if len(out) >= n:
            break
        if not plain and i == len(shared) - 1:
            k = n - len(out)
        elif ln.share is not None:
            k = max(1, round(n * ln.share[0] / ln.share[1]))
        else:
            k = 1
        out += [ln.size] * min(k, n - len(out))
    out += [plain[0].size if plain else shared[-1].size] * (n - len(out))
    return out


def scene_base(size: Size) -> float | list[float] | dict[str, float | list[float]]:
    """A base as a scene writes it: 40 or [60, 35] for the sizes the loader knows by heart,
    {round: 45} or {oval: [150, 95]} for any other size."""
    if isinstance(size, list):
        if any(math.isclose(size[0], a) and math.isclose(size[1], b) for a, b in OVAL_SIZES_MM):
            return list(size)
        return {"oval": list(size)}
    if any(math.isclose(size, s) for s in ROUND_SIZES_MM):
        return size
    return {"round": size}


def label(size: Size) -> str:
    return f"{size[0]:g}x{size[1]:g}mm" if isinstance(size, list) else f"{size:g}mm"


def extent(size: Size) -> float:
    """The longest side of a base in mm."""
    return max(size) if isinstance(size, list) else size


def _num(x: float) -> float:
    return int(x) if float(x).is_integer() else x
