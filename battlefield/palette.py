"""Colours of the battlefield picture: the sides (Okabe-Ito, colour-blind safe), terrain shaded by
height, and the marks the referee adds (coherency breaks, combat, sight blockers).

Pure data and arithmetic on (r, g, b) tuples - nothing here needs pygame.
"""

from __future__ import annotations

from collections.abc import Iterable

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

# Okabe-Ito: distinguishable with every common form of colour blindness.
VERMILLION: RGB = (0xD5, 0x5E, 0x00)
BLUE: RGB = (0x00, 0x72, 0xB2)
GREEN: RGB = (0x00, 0x9E, 0x73)
PURPLE: RGB = (0xCC, 0x79, 0xA7)
ORANGE: RGB = (0xE6, 0x9F, 0x00)
SKY: RGB = (0x56, 0xB4, 0xE9)
YELLOW: RGB = (0xF0, 0xE4, 0x42)

SIDE_ORDER: tuple[RGB, ...] = (VERMILLION, BLUE, GREEN, PURPLE, ORANGE, SKY)
NAMED_SIDES: dict[str, RGB] = {
    "red": VERMILLION, "vermillion": VERMILLION, "blue": BLUE, "green": GREEN,
    "purple": PURPLE, "pink": PURPLE, "magenta": PURPLE, "orange": ORANGE, "yellow": ORANGE,
    "sky": SKY, "cyan": SKY, "light-blue": SKY, "lightblue": SKY,
}
NEUTRAL: RGB = (140, 140, 140)

# The board.
BOARD: RGB = (238, 238, 228)
GRID_1: RGB = (220, 221, 208)
GRID_6: RGB = (178, 181, 164)
BORDER: RGB = (60, 60, 56)
PAPER: RGB = (250, 250, 246)       # margins and legend background
INK: RGB = (30, 30, 30)            # text
INK_SOFT: RGB = (95, 95, 90)
HALO: RGB = (252, 252, 248)

# Referee marks.
COHERENCY: RGB = (230, 0, 126)     # magenta: distinct from every side colour
HIGHLIGHT: RGB = (255, 214, 0)     # sight blockers, drawn with a black edge
COMBAT: RGB = (25, 25, 25)
MEASURE: RGB = (15, 15, 15)

# Terrain ramps: (colour at height 0, colour at TALL and above).
TALL = 7.0
TERRAIN_RAMP: dict[str, tuple[RGB, RGB]] = {
    "solid": ((222, 206, 176), (112, 84, 56)),
    "obstacle": ((214, 200, 178), (104, 86, 66)),
    "obscuring": ((206, 198, 190), (80, 70, 66)),
    "impassable": ((200, 192, 184), (70, 66, 62)),
    "area": ((196, 214, 160), (86, 118, 50)),
    "place-of-power": ((216, 204, 226), (110, 86, 140)),
}


def side_colours(sides: Iterable[str]) -> dict[str, RGB]:
    """A colour for each side: named sides (red, blue, ...) get their Okabe-Ito colour; the rest
    take the unused colours in order, then repeat."""
    sides = list(dict.fromkeys(s for s in sides if s))
    out: dict[str, RGB] = {}
    for s in sides:
        c = NAMED_SIDES.get(s.lower())
        if c is not None and c not in out.values():
            out[s] = c
    free = [c for c in SIDE_ORDER if c not in out.values()]
    k = 0
    for s in sides:
        if s not in out:
            out[s] = free[k] if k < len(free) else SIDE_ORDER[k % len(SIDE_ORDER)]
            k += 1
    return out


def mix(c1: Iterable[int], c2: Iterable[int], t: float) -> RGB:
    """c1 at t = 0, c2 at t = 1."""
    t = min(max(t, 0.0), 1.0)
    a, b = tuple(c1)[:3], tuple(c2)[:3]
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def darker(c: Iterable[int], f: float = 0.35) -> RGB:
    return mix(c, (0, 0, 0), f)


def lighter(c: Iterable[int], f: float = 0.35) -> RGB:
    return mix(c, (255, 255, 255), f)


def with_alpha(c: Iterable[int], alpha: int) -> RGBA:
    r, g, b = tuple(c)[:3]
    return (r, g, b, alpha)


def luminance(c: Iterable[int]) -> float:
    """Relative luminance 0 (black) .. 1 (white)."""
    def lin(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = tuple(c)[:3]
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def terrain_fill(height: float, kind: str) -> RGB:
    """Terrain colour: darker and more saturated the taller the piece."""
    low, high = TERRAIN_RAMP.get(kind, TERRAIN_RAMP["solid"])
    return mix(low, high, (max(height, 0.0) / TALL) ** 0.8)


def text_on(c: Iterable[int]) -> RGB:
    """Ink that reads on a background of colour c."""
    return INK if luminance(c) > 0.3 else HALO


# --- palette keys: how a depiction (battlefield/depiction) names its colours -------------------
# A key is a name below or "side:NAME" (that side's colour), optionally followed by "/dNN"
# (darker by NN %) or "/lNN" (lighter by NN %): "side:red/d45", "combat", "ok/d20". Every
# renderer turns keys into colours here, so the window, the SVG and the browser agree.
NAMED: dict[str, RGB] = {
    "ink": INK, "ink-soft": INK_SOFT, "white": (255, 255, 255), "black": (0, 0, 0),
    "paper": PAPER, "halo": HALO, "board": BOARD, "neutral": NEUTRAL, "coherency": COHERENCY,
    "highlight": HIGHLIGHT, "combat": COMBAT, "measure": MEASURE, "ok": GREEN, "near": ORANGE,
    "over": VERMILLION, "leader-line": (70, 70, 66), "marker-face": (205, 205, 200),
    "obscuring-edge": (28, 24, 22), "tag-face": (235, 235, 230), "star-edge": (70, 40, 110),
}


def paint(key: str, sides: dict[str, RGB]) -> RGB:
    """The colour a palette key names, with the scene's side colours (side_colours)."""
    name, _, mod = key.partition("/")
    if name.startswith("side:"):
        side = name[5:]
        c = sides.get(side) or NAMED_SIDES.get(side.lower()) or NEUTRAL
    else:
        c = NAMED[name]
    if mod:
        f = int(mod[1:]) / 100
        c = darker(c, f) if mod[0] == "d" else lighter(c, f)
    return c


def side_key(side: str | None, mod: str = "") -> str:
    """The key of a side's colour ("neutral" for none), with a modifier such as "/d45"."""
    return (f"side:{side}" if side else "neutral") + mod


def hex_of(c: Iterable[int]) -> str:
    r, g, b = tuple(c)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"
