"""A depiction (battlefield/depiction) as SVG text: the pages' renderer of the shapes every view
draws. The browser's renderer (page/static/depict.js) writes the same elements from the same
JSON, so a page's overlays are Python's whether the server wrote them or the browser did (the
tests compare the two). No inline style attributes: a Content-Security-Policy may forbid them;
the look of labels and tags is in page.css (and STYLE, for a standalone .svg file)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape
from typing import Any

from battlefield.depiction.metrics import LINE, PAGE, SIZES, text_width
from battlefield.depiction.shapes import Shape

STYLE = ("text.label{paint-order:stroke;stroke:#fcfcf8;stroke-width:0.14px;"
         "stroke-linejoin:round;text-anchor:middle;dominant-baseline:central}"
         "text.plain{text-anchor:middle;dominant-baseline:central}"
         ".tag text{text-anchor:middle;dominant-baseline:central;stroke:none}"
         ".model.raised{filter:drop-shadow(0.12px 0.12px 0.06px rgba(0,0,0,0.45))}")


def num(v: float) -> str:
    """A coordinate in inches, short: 4 decimals are 2.5 micrometres."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _attrs(values: dict[str, Any]) -> str:
    return "".join(f' {k}="{escape(str(v), quote=True)}"' for k, v in values.items()
                   if v is not None)


class Svg:
    """Writes shapes for a board `depth` inches deep (SVG's y runs down: y' = depth - y)."""

    def __init__(self, depth: float, palette: dict[str, str]) -> None:
        self.D = depth
        self.palette = palette

    def c(self, key: str | None) -> str | None:
        return None if key is None else self.palette[key]

    def xy(self, p: Iterable[float]) -> tuple[str, str]:
        x, y = list(p)[:2]
        return num(x), num(self.D - y)

    def paint(self, s: Shape, fill_default: str | None = "none") -> dict[str, Any]:
        out: dict[str, Any] = {"fill": self.c(s["f"]) if "f" in s else fill_default}
        if "o" in s:
            out["fill-opacity"] = num(s["o"])
        if "s" in s:
            out["stroke"] = self.c(s["s"])
            out["stroke-width"] = num(s["w"] * LINE)
        if "d" in s:
            out["stroke-dasharray"] = " ".join(num(d * LINE) for d in s["d"])
        return out

    def shapes(self, shapes: Iterable[Shape]) -> str:
        return "".join(self.shape(s) for s in shapes)

    def shape(self, s: Shape) -> str:
        kind = s["k"]
        data = s.get("a", {})
        if kind == "group":
            head = _attrs({"id": s.get("id"), **data})
            return f"<g{head}>{self.shapes(s['g'])}</g>"
        if kind == "line":
            d = "M" + "L".join(" ".join(self.xy(p)) for p in s["p"]) + (" Z" if s.get("z") else "")
            extra = {"stroke-linecap": s.get("cap"), "stroke-linejoin": "round"}
            return f"<path{_attrs({**data, 'd': d, **self.paint(s), **extra})}/>"
        if kind == "circle":
            cx, cy = self.xy(s["c"])
            r = s["r"] + s.get("rl", 0) * LINE
            return f"<circle{_attrs({**data, 'cx': cx, 'cy': cy, 'r': num(r), **self.paint(s)})}/>"
        if kind == "dot":
            cx, cy = self.xy(s["c"])
            return (f"<circle{_attrs({**data, 'cx': cx, 'cy': cy, 'r': num(s['rl'] * LINE)})}"
                    f"{_attrs({'fill': self.c(s['f'])})}/>")
        if kind == "base":
            return self.base(s, data)
        if kind == "glyph":
            return self.glyph(s, data)
        if kind == "area":
            d = " ".join("M" + "L".join(" ".join(self.xy(p)) for p in ring) + "Z"
                         for ring in s["rings"])
            return (f"<path{_attrs({**data, 'd': d, 'fill-rule': 'evenodd'})}"
                    f"{_attrs(self.paint(s))}/>")
        if kind == "text":
            return self.text(s, data)
        raise ValueError(f"unknown shape kind {kind!r}")

    def base(self, s: Shape, data: dict[str, Any]) -> str:
        """A base's outline grown by some line units, about its centre, turned to its facing."""
        g = s.get("g", 0) * LINE
        a, b = s["ab"][0] + g, s["ab"][1] + g
        if s["sh"] == 2:
            d = f"M{num(-a)} {num(-b)}H{num(a)}V{num(b)}H{num(-a)}Z"
        else:
            arc = f"{num(a)} {num(b)} 0 1 1"
            d = f"M{num(a)} 0A{arc} {num(-a)} 0A{arc} {num(a)} 0Z"
        x, y = self.xy(s["c"])
        t = f"translate({x} {y})" + (f" rotate({num(-s['t'])})" if s.get("t") else "")
        return f"<path{_attrs({**data, 'd': d, 'transform': t, **self.paint(s)})}/>"

    def glyph(self, s: Shape, data: dict[str, Any]) -> str:
        cx, cy = (float(v) for v in self.xy(s["c"]))
        r = s["rl"] * LINE
        kind = s["g"]
        if kind == "cross":
            d = (f"M{num(cx - r)} {num(cy - r)}L{num(cx + r)} {num(cy + r)}"
                 f"M{num(cx - r)} {num(cy + r)}L{num(cx + r)} {num(cy - r)}")
            return f"<path{_attrs({**data, 'd': d, **self.paint(s)})}/>"
        if kind == "arrowhead":
            ang = -math.radians(s.get("t", 0.0))            # SVG's y runs down
            pts = [(cx, cy)] + [(cx - r * math.cos(ang - k), cy - r * math.sin(ang - k))
                                for k in (0.45, -0.45)]
        else:                                                 # star
            pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5),
                    cy + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5))
                   for k in range(10)]
        points = " ".join(f"{num(x)},{num(y)}" for x, y in pts)
        return f"<polygon{_attrs({**data, 'points': points, **self.paint(s, None)})}/>"

    def text(self, s: Shape, data: dict[str, Any]) -> str:
        """A label (halo text), a tag (text on a box) or a label with a boxed badge after it,
        centred on "c"; "wh" is its size as the placer measured it (PAGE metrics)."""
        size = SIZES.get(s["r"], SIZES["small"])
        w, h = s.get("wh") or PAGE.size(s)
        x, y = (float(v) for v in self.xy(s["c"]))
        font = {"font-size": num(size), "fill": self.c(s["f"]),
                "font-weight": "bold" if s.get("b") else None}
        if s.get("badge"):
            small = SIZES["small"]
            bw, bh = s.get("bw") or text_width(s["badge"], small) + 0.3, small * 1.5
            bx = x + w / 2 - bw
            tx = x - w / 2 + (w - bw - 0.15) / 2
            rect = {"x": num(bx), "y": num(y - bh / 2), "width": num(bw), "height": num(bh),
                    "fill": "#ffffff", "stroke": self.c(s["f"]), "stroke-width": num(LINE),
                    "rx": "0.05"}
            badge = {"x": num(bx + bw / 2), "y": num(y), "font-size": num(small),
                     "fill": self.palette.get("ink", "#1e1e1e")}
            return _el("g", {"class": "badged", **data},
                       _el("text", {"class": "label", "x": num(tx), "y": num(y), **font},
                           escape(s["t"]))
                       + _el("g", {"class": "tag"}, _el("rect", rect)
                             + _el("text", badge, escape(s["badge"]))))
        if s.get("box"):
            fill, edge = (self.c(k) for k in s["box"])
            rect = {"x": num(x - w / 2), "y": num(y - h / 2), "width": num(w),
                    "height": num(h), "fill": fill, "stroke": edge,
                    "stroke-width": num(LINE), "rx": "0.05"}
            return _el("g", {"class": "tag", **data}, _el("rect", rect)
                       + _el("text", {"x": num(x), "y": num(y), **font}, escape(s["t"])))
        cls = "label" if s.get("halo", True) else "plain"
        return _el("text", {"class": cls, **data, "x": num(x), "y": num(y), **font},
                   escape(s["t"]))


def _el(tag: str, attrs: dict[str, Any], inner: str | None = None) -> str:
    return f"<{tag}{_attrs(attrs)}/>" if inner is None else f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"


def layers_svg(layers: dict[str, list[Shape]], order: Iterable[str], depth: float,
               palette: dict[str, str]) -> dict[str, str]:
    """Each named layer as one <g id=NAME> element."""
    out = Svg(depth, palette)
    done = {}
    for name in order:
        shapes = layers.get(name, [])
        if len(shapes) == 1 and shapes[0].get("id") == name:     # the layer is its group
            done[name] = out.shape(shapes[0])
        else:
            done[name] = f'<g id="{name}">{out.shapes(shapes)}</g>'
    return done


__all__ = ["Svg", "STYLE", "layers_svg", "num"]
