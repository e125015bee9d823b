"""`battlefield render`: the scene from above as a PNG, SVG or HTML page, with its rulings."""

from __future__ import annotations

import argparse
from pathlib import Path

from battlefield.cli.common import open_scene
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.rules.deploy import DEFAULT_SCENE
from battlefield.rules.registry import with_ruleset_check
from battlefield.rules.standing import scene_referee
from battlefield.rules.state import Game


def register(sub: argparse._SubParsersAction) -> None:
    """Add `render` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "render", formatter_class=fmt,
        help="draw the scene from above as a PNG, SVG or HTML page, with its rulings",
        description="Draw the scene from above - a picture (.png, .jpg ...), an SVG or one "
                    "self-contained HTML page, by the name of --out: terrain shaded by "
                    "height, true-size bases, "
                    "objectives and their zones and controllers, coherency breaks, combat "
                    "pairs; with --measure the closest-point line and what blocks the sight.",
        epilog="examples:\n  battlefield render demo -o demo.png\n"
               "  battlefield render demo -o m.png --measure red-archers blue-drake\n"
               "  battlefield render demo -o ruling.html --measure red-archers blue-drake")
    p.add_argument("scene", nargs="?", default=DEFAULT_SCENE,
                   help="scene file, or a bundled scene name (default: demo)")
    p.add_argument("-o", "--out", required=True,
                   help="file to write: .png, .svg (inches as its units) or .html (one "
                        "self-contained page with a legend and hover details); also .jpg, "
                        ".bmp, .tga")
    p.add_argument("--measure", nargs=2, metavar=("A", "B"), help="draw the measurement A -> B")
    p.add_argument("--scale", type=_scale, default=20.0,
                   help="pixels per inch of a picture, 2 to 200 (default 20; an SVG or a "
                        "page is drawn in inches)")
    p.set_defaults(run=run_render)


PAGES = (".svg", ".html", ".htm")
PICTURES = (".png", ".jpg", ".jpeg", ".bmp", ".tga")   # pygame writes these by their name


def _scale(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 2 <= v <= 200:                      # also refuses nan
        raise argparse.ArgumentTypeError(f"{text} pixels per inch: give 2 to 200")
    return v


def run_render(args: argparse.Namespace) -> int:
    scene = open_scene(args.scene)

    referee = scene_referee(scene)
    report = with_ruleset_check(scene, referee.check_report())
    measure = referee.measure_report(*args.measure) if args.measure else None
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        raise UsageError(f"{args.out}: folder {out.parent} does not exist")
    if out.suffix.lower() not in PAGES + PICTURES:     # not a TGA under any other name
        raise UsageError(f"{args.out}: expected a picture's or page's name: "
                         f"{', '.join(PAGES + PICTURES)}")
    if out.suffix.lower() in PAGES:
        # here, not at the top: start-up time of the CLI
        from battlefield.page.ruling import write_ruling

        write_ruling(scene, report, measure, out, marks=tuple(_marks(scene)))
    else:
        # here, not at the top: start-up time of the CLI
        from battlefield.view.picture import render_scene

        render_scene(scene, report, str(out), measure=measure, px_per_inch=args.scale,
                     marks=tuple(_marks(scene)))
    print(f"wrote {out}")
    return 0


def _marks(scene) -> list:
    """What the scene's ruleset draws on it (orders, routes, engaged sides; window.Mark)."""
    ruleset = registry.find(scene.ruleset.id)
    if ruleset is None or not ruleset.window.provides("marks") or not scene.units:
        return []
    return ruleset.window.marks(Game(ruleset, scene).new_state())
