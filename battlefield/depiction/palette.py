"""The colours a page needs for every depiction it may be sent: each palette key the depiction
uses (the named colours, and each side's - and "neutral" - with the shades the depiction asks
for), resolved once by palette.paint, so the browser looks colours up and works none out."""

from __future__ import annotations

from battlefield import palette as pal

# The shades of a side's colour the depiction uses ("side:red/d45": 45 % darker).
SHADES = ("", "/d15", "/d20", "/d30", "/d35", "/d45", "/d55", "/d60", "/l35", "/l55")


def full_palette(colours: dict[str, pal.RGB]) -> dict[str, str]:
    """Every key a depiction of a table with these sides can use -> "#rrggbb"."""
    out = {k: pal.hex_of(c) for k, c in pal.NAMED.items()}
    for base in [*(f"side:{s}" for s in colours), "neutral", "ok", "near", "over", "coherency",
                 "combat", "ink", "ink-soft", "highlight"]:
        for shade in SHADES:
            key = base + shade
            out[key] = pal.hex_of(pal.paint(key, colours))
    return out


__all__ = ["SHADES", "full_palette"]
