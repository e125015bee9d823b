"""The legend of a ruling page, as HTML: the scene's name and ruleset, who is who, what the
symbols mean (each drawn as a small SVG), what the referee ruled and the measurement in words -
what the PNG's caption bar says."""

from __future__ import annotations

from html import escape

from battlefield import palette as pal
from battlefield.page.svg import hex_colour, objective_radii
from battlefield.page.words import fmt_in, measure_caption, ruleset_name, scene_name
from battlefield.scene.model import Scene

KIND_NAMES = {"solid": "solid", "obstacle": "obstacle", "area": "area (translucent)",
              "obscuring": "obscuring", "impassable": "impassable",
              "place-of-power": "place of power"}


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
    "heights": icon("".join(
        f'<rect x="{2 + 11 * k}" y="3" width="11" height="14" '
        f'fill="{hex_colour(pal.terrain_fill(h, "solid"))}"/>' for k, h in enumerate((1, 3, 6)))),
}


def objective_icon(marker: bool) -> str:
    inner = ('<circle cx="18" cy="10" r="3.5" fill="#cdcdc8" stroke="#3f3f3f"/>' if marker
             else '<path d="M18 6L22 10L18 14L14 10Z" fill="#cdcdc8" stroke="#3f3f3f"/>')
    return icon('<circle cx="18" cy="10" r="8.5" fill="#8c8c8c" fill-opacity="0.2" '
                'stroke="#777" stroke-dasharray="3 2"/>' + inner)


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
    """The legend's HTML (a <section class="legend">); `marks`: rulings the page may show
    besides the report's ("coherency", "combat": a game's versions have them)."""
    out = ['<section class="legend">']
    sides = []
    for side in dict.fromkeys([*scene.sides, *scene.deployment]):
        ids = [u.id for u in scene.units if u.side == side]
        label = side + (": " + (", ".join(ids) if len(ids) <= 4 else f"{len(ids)} units")
                        if ids else "")
        sides.append(chip(swatch(colours.get(side, pal.NEUTRAL)), label))
    if sides:
        out.append(_row("Sides", sides))
    key = []
    if any(len(u.models) > 1 for u in scene.units):
        key.append(chip(ICONS["leader"], "leader"))
    if any(m.base.shape != 0 for u in scene.units for m in u.models):
        key.append(chip(ICONS["facing"], "facing"))
    if any(m.z > 0 for u in scene.units for m in u.models):
        key.append(chip(ICONS["height"], "height above the table"))
    if "coherency" in marks or report and any(u.get("coherency_breaks")
                                              for u in report.get("units", {}).values()):
        key.append(chip(ICONS["coherency"], "out of coherency"))
    if "combat" in marks or report and any(p.get("in_combat") for p in report.get("pairs", [])):
        key.append(chip(ICONS["combat"], "in combat"))
    if scene.objectives:
        zone, marker = objective_radii(scene)
        rule = scene.ruleset.objectives
        what = (f"objective zone {fmt_in(rule.range)} from a {rule.marker_mm:g} mm marker"
                if marker > 0 else f"objective zone {fmt_in(zone)} from the centre")
        key.append(chip(objective_icon(marker > 0), what))
    if measure:
        key.append(chip(ICONS["measure"], "closest points"))
        if measure.get("blocked_by"):
            key.append(chip(ICONS["blocker"], "blocks sight"))
    if key:
        out.append(_row("Key", key))
    kinds = list(dict.fromkeys(p.kind for p in scene.terrain))
    if kinds:
        out.append(_row("Terrain", [chip(ICONS["heights"], "darker = taller")] +
                        [chip(terrain_icon(k), KIND_NAMES.get(k, k)) for k in kinds]))
    out.append('<div class="rulings">' + "".join(
        f"<p>{escape(line)}</p>" for line in ruling_lines(report)) + "</div>")
    if measure:
        out.append(f'<p class="measure-caption">{escape(measure_caption(measure))}</p>')
    out.append("</section>")
    return "".join(out)


def _row(head: str, chips: list[str]) -> str:
    return f'<div class="row"><span class="head">{head}</span>{"".join(chips)}</div>'


def ruling_lines(report: dict | None) -> list[str]:
    """'Out of coherency: ...', 'In combat: a v b', 'Objectives: centre held by red ...'."""
    if not report:
        return []
    broken = []
    for u in report.get("units", {}).values():
        reasons = u.get("coherency_reasons", {})
        for name in u.get("coherency_breaks", []):
            broken.append(f"{name} ({reasons[name]})" if name in reasons else name)
    combat, seen = [], set()
    for p in report.get("pairs", []):
        key = frozenset((p["a"], p["b"]))
        if p.get("in_combat") and key not in seen:
            seen.add(key)
            combat.append(f"{p['a']} v {p['b']}")
    objectives = []
    for oid, o in report.get("objectives", {}).items():
        held = o.get("controlled_by")
        tally = " v ".join(f"{s} {v:g}" for s, v in (o.get("totals") or {}).items())
        text = f"{oid} held by {held}" if held else f"{oid} unheld"
        objectives.append(text + (f" ({tally})" if tally else ""))
    out = []
    if broken:
        out.append("Out of coherency: " + "; ".join(broken))
    if combat:
        out.append("In combat: " + "; ".join(combat))
    if objectives:
        out.append("Objectives: " + "; ".join(objectives))
    return out


def heading_html(scene: Scene) -> str:
    """The page's heading: the scene's name, its ruleset and board, its description."""
    out = [f"<h1>{escape(scene_name(scene))}</h1>",
           f'<p class="sub"><span class="ruleset">{escape(ruleset_name(scene))}</span> · '
           f"{escape(fmt_in(scene.width))} x {escape(fmt_in(scene.depth))} board</p>"]
    if scene.description:
        out.append(f'<p class="description">{escape(scene.description)}</p>')
    return "".join(out)
