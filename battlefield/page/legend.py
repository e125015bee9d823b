"""The legend of a ruling page, as HTML: the scene's name and ruleset, who is who, what the
symbols mean (each drawn as a small SVG), what the referee ruled and the measurement in words -
what the PNG's caption bar says."""

from __future__ import annotations

from html import escape

from battlefield import palette as pal
from battlefield.depiction.legend import KIND_NAMES, legend, ruling_lines  # noqa: F401
from battlefield.page.svg import hex_colour
from battlefield.page.words import fmt_in, ruleset_name, scene_name
from battlefield.scene.model import Scene


def icon(body: str) -> str:
    return (f'<svg class="icon" viewBox="0 0 36 20" width="36" height="20" '
            f'aria-hidden="true">{body}</svg>')


def swatch(colour: pal.RGB) -> str:
    return icon(f'<circle cx="18" cy="10" r="7.5" fill="{hex_colour(colour)}" '
                f'stroke="{hex_colour(pal.darker(colour, 0.6))}" stroke-width="1.5"/>')


ICONS = {
    "leader": icon('<circle cx="18" cy="10" r="8" fill="#8c8c8c" stroke="#464646" '
                   'stroke-width="1.5"/><circle cx="18" cy="10" r="5" fill="none" '
                   'stroke="#fff" stroke-width="2"/>'),
    "facing": icon('<ellipse cx="18" cy="10" rx="15" ry="7" fill="#8c8c8c" stroke="#464646" '
                   'stroke-width="1.2"/><path d="M25 10H33" stroke="#464646" '
                   'stroke-width="2.5"/>'),
    "height": icon('<rect x="3" y="3" width="30" height="14" fill="#fff" stroke="#5f5f5a"/>'
                   '<text x="18" y="14" font-size="10" text-anchor="middle">+2"</text>'),
    "coherency": icon('<circle cx="18" cy="10" r="5" fill="#8c8c8c"/><circle cx="18" cy="10" '
                      f'r="8" fill="none" stroke="{hex_colour(pal.COHERENCY)}" '
                      'stroke-width="2.5"/>'),
    "combat": icon('<path d="M4 10H32" stroke="#fff" stroke-width="7"/><path d="M4 10H32" '
                   'stroke="#191919" stroke-width="4"/><circle cx="18" cy="10" r="7" '
                   'fill="#191919" stroke="#fff" stroke-width="1.5"/><path d="M15 7L21 13M15 '
                   '13L21 7" stroke="#fff" stroke-width="1.8"/>'),
    "measure": icon('<path d="M5 10H31" stroke="#0f0f0f" stroke-width="2.5"/><circle cx="5" '
                    'cy="10" r="3.5" fill="#0f0f0f"/><circle cx="31" cy="10" r="3.5" '
                    'fill="#0f0f0f"/>'),
    "blocker": icon('<rect x="5" y="3" width="26" height="14" fill="#50463f" stroke="#000" '
                    f'stroke-width="4"/><rect x="5" y="3" width="26" height="14" fill="none" '
                    f'stroke="{hex_colour(pal.HIGHLIGHT)}" stroke-width="2"/>'),
    "wound-bar": icon('<rect x="3" y="7" width="30" height="7" fill="#5a5a5a" stroke="#1e1e1e"/>'
                      '<rect x="3" y="7" width="18" height="7" fill="#009e73"/>'),
    "slain": icon('<circle cx="18" cy="10" r="8" fill="none" stroke="#5f5f5a" '
                  'stroke-dasharray="3 2"/><path d="M13 5L23 15M13 15L23 5" stroke="#1e1e1e" '
                  'stroke-width="2.5"/>'),
    "heights": icon("".join(
        f'<rect x="{2 + 11 * k}" y="3" width="11" height="14" '
        f'fill="{hex_colour(pal.terrain_fill(h, "solid"))}"/>' for k, h in enumerate((1, 3, 6)))),
}


def objective_icon(marker: bool) -> str:
    """The zone, dashed, and the marker as the depiction draws it: hollow, a cross through it
    (a point objective: a hollow diamond) - nothing like a base."""
    inner = ('<circle cx="18" cy="10" r="3.6" fill="none" stroke="#5f5f5a" stroke-width="1.4"/>'
             if marker else '<path d="M18 6.4L21.6 10L18 13.6L14.4 10Z" fill="none" '
             'stroke="#5f5f5a" stroke-width="1.4"/>')
    cross = ('<path d="M12.5 10H16.4M19.6 10H23.5M18 4.5V8.4M18 11.6V15.5" stroke="#5f5f5a" '
             'stroke-width="1.4"/>')
    return icon('<circle cx="18" cy="10" r="8.5" fill="#8c8c8c" fill-opacity="0.2" '
                'stroke="#777" stroke-dasharray="3 2"/>' + inner + cross)


def terrain_icon(kind: str) -> str:
    fill = pal.terrain_fill(3, kind)
    edge = hex_colour(pal.darker(fill, 0.45))
    body = f'<rect x="4" y="3" width="28" height="14" fill="{hex_colour(fill)}"'
    if kind == "area":
        body += (' fill-opacity="0.6" stroke="' + hex_colour(pal.darker(fill, 0.5)) +
                 '" stroke-dasharray="1 2"/>')
    elif kind == "obscuring":
        body += ' stroke="#1c1816" stroke-width="3"/>'
    elif kind == "impassable":
        body += (f' stroke="{edge}" stroke-width="1.5"/><path d="M4 17L18 3M12 17L26 3M20 17L32 '
                 f'5" stroke="{hex_colour(pal.darker(fill, 0.55))}"/>')
    elif kind == "place-of-power":
        body += (f' stroke="{edge}"/><path d="M18 4L19.8 8.5L24.5 8.7L20.8 11.6L22.1 16.2L18 '
                 '13.5L13.9 16.2L15.2 11.6L11.5 8.7L16.2 8.5Z" fill="#fff" stroke="#46286e"/>')
    else:
        body += f' stroke="{edge}" stroke-width="1.5"/>'
    return icon(body)


def chip(icon_html: str, label: str) -> str:
    return f'<span class="chip">{icon_html}<span>{escape(label)}</span></span>'


def legend_html(scene: Scene, report: dict | None, measure: dict | None,
                colours: dict[str, pal.RGB], marks: tuple[str, ...] = ()) -> str:
    """The legend's HTML (a <section class="legend">) from the depiction's entries
    (depiction/legend.py); `marks`: rulings the page may show besides the report's
    ("coherency", "combat": a game's versions have them)."""
    entries = legend(scene, report, measure, shown=marks)
    out = ['<section class="legend">']
    for head, items in entries.rows:
        out.append(_row(head, [chip(_icon(key, colours), words) for key, words in items]))
    out.append('<div class="rulings">' + "".join(
        f"<p>{escape(line)}</p>" for line in entries.rulings) + "</div>")
    if entries.caption:
        out.append(f'<p class="measure-caption">{escape(entries.caption)}</p>')
    out.append("</section>")
    return "".join(out)


def _icon(key: str, colours: dict[str, pal.RGB]) -> str:
    """The legend's icon for an entry's key."""
    if key.startswith("side:"):
        return swatch(colours.get(key[5:], pal.NEUTRAL))
    if key.startswith("terrain:"):
        return terrain_icon(key[8:])
    if key in ("objective", "objective-point"):
        return objective_icon(key == "objective")
    return ICONS[key]


def _row(head: str, chips: list[str]) -> str:
    return f'<div class="row"><span class="head">{head}</span>{"".join(chips)}</div>'


def heading_html(scene: Scene) -> str:
    """The page's heading: the scene's name, its ruleset and board, its description."""
    out = [f"<h1>{escape(scene_name(scene))}</h1>",
           f'<p class="sub"><span class="ruleset">{escape(ruleset_name(scene))}</span> · '
           f"{escape(fmt_in(scene.width))} x {escape(fmt_in(scene.depth))} board</p>"]
    if scene.description:
        out.append(f'<p class="description">{escape(scene.description)}</p>')
    return "".join(out)
