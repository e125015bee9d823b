"""`battlefield play`: the table in a window, with live rules checks while a unit is dragged."""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

from battlefield.errors import UsageError
from battlefield.inputs import shown
from battlefield.rules.boundary import option_problem

EPILOG = """\
examples:
  battlefield play                                the demo battle, hot-seat
  battlefield play --computer blue                against the computer player
  battlefield play demo --phase movement --drag red-lancers --to 12.5,16 --screenshot a.png
  battlefield play demo --phase charge --drag red-blades --to 40,18 --target blue-drake \\
      --screenshot charge.png
  battlefield play aos4 --heat --screenshot heat.png
  battlefield play aos4 --edit ruin-sw --screenshot edit.png
  battlefield play --load game.jsonl --screenshot decision.png   a saved game, as it stands
  battlefield play --join 'ws://HOST:8765/games/ID/play?seat=TOKEN'   a seat of a server's game

In the window press H for every shortcut."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="play at the table: the battlefield in a window with live rules checks",
        description="Open the battlefield in a window: drag units and see every ruling live "
                    "(distance used, coherency, combat ranges, sight, charge odds, objective "
                    "control); drop to apply the action through the rules engine.",
        epilog=EPILOG)
    p.add_argument("scene", nargs="?", default=None,
                   help="scene file or bundled scene/map (default: the ruleset's demo battle)")
    p.add_argument("--ruleset", default=None,
                   help="a playable ruleset (default: the scene's; aos4 without a scene)")
    p.add_argument("--seed", type=int, default=1, help="the dice's seed (default 1)")
    p.add_argument("--computer", action="append", default=[], metavar="SIDE",
                   help="the computer player plays SIDE (repeatable)")
    p.add_argument("--level", default="normal", metavar="LEVEL",
                   help="the computer player's level: easy, normal (default) or strong")
    p.add_argument("--save", default="battlefield-game.jsonl",
                   help="where Ctrl+S saves and Ctrl+O loads the action log")
    p.add_argument("--load", metavar="LOG",
                   help="continue a saved action log (simulate --log, Ctrl+S) where it stands")
    p.add_argument("--screenshot", metavar="PNG",
                   help="draw the window to PNG and exit: its first frame as the other "
                        "options set it up (with --computer, once your side is to decide)")
    p.add_argument("--phase", help="pass until this phase (e.g. movement, charge); a decision "
                                   "before the first turn is answered with its first choice")
    p.add_argument("--drag", metavar="UNIT", help="hold UNIT (or UNIT/N) as if dragged")
    p.add_argument("--to", metavar="X,Y", help="where the dragged unit's leader is held")
    p.add_argument("--target", metavar="UNIT", help="the enemy under the cursor while dragging")
    p.add_argument("--ability", metavar="NAME",
                   help="what the drag stands for, as its button (e.g. run, charge; default: "
                        "the first the engine offers)")
    p.add_argument("--facing", type=float, metavar="DEG",
                   help="the dragged unit turned to face DEG degrees (as the wheel or Q / E)")
    p.add_argument("--aim", nargs=3, metavar=("ABILITY", "UNIT", "TARGET"),
                   help="with --screenshot: ABILITY chosen with its button, UNIT clicked and the "
                        "cursor over the enemy TARGET - the panel's verdict before the click "
                        "(legal or why not, distance, sight, expected damage)")
    p.add_argument("--hover", metavar="BUTTON",
                   help="with --screenshot: the cursor over that panel button (its tooltip)")
    p.add_argument("--click", action="append", default=[], metavar="BUTTON",
                   help="with --screenshot: that panel button clicked, as with the mouse "
                        "(repeatable, in order; an ability's button then asks for its unit)")
    p.add_argument("--key", action="append", default=[], metavar="KEY",
                   help="with --screenshot: that key pressed, after any --click (repeatable; "
                        "e.g. e, h, ctrl+o)")
    p.add_argument("--zoom", type=float, metavar="FACTOR",
                   help="with --screenshot: zoomed in FACTOR times about the board's centre "
                        "(the wheel in the window)")
    p.add_argument("--measure", nargs=2, metavar=("A", "B"), help="show a measurement")
    p.add_argument("--heat", action="store_true",
                   help="start with the sight heat map of the layout shown (V in the window)")
    p.add_argument("--edit", metavar="PIECE", nargs="?", const="",
                   help="start in the map editor (E in the window), PIECE selected")
    p.add_argument("--no-auto-pass", action="store_true",
                   help="every step is yours: a phase or reaction in which your side has "
                        "nothing to do but pass waits for your click (A in the window "
                        "toggles it); by default such steps pass by themselves")
    p.add_argument("--size", help="window size WxH (default: what fits the screen with the "
                                  "window's frame and a task bar, 1600x1000 at most; a "
                                  "--screenshot's 1600x1000)")
    p.add_argument("--join", metavar="URL",
                   help="play a seat of a `battlefield serve` game (ws://HOST:PORT/games/ID/"
                        "play?seat=TOKEN; without ?seat= watch it)")
    p.set_defaults(run=run_play)


def _size(text: str) -> tuple[int, int]:
    """--size WxH, checked: at least the room the side panel and the board need."""
    from battlefield.view.stack import SMALLEST  # here, not at the top: pygame's start-up

    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {text!r}: expected WxH, e.g. 1400x900") from None
    if w < SMALLEST[0] or h < SMALLEST[1]:
        raise UsageError(f"--size {text}: at least {SMALLEST[0]}x{SMALLEST[1]} (the side "
                         "panel and the board need the room)")
    return w, h


def _point(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--to {shown(text)}: expected X,Y in inches, e.g. 12.5,16") from None
    problem = option_problem("point", (x, y))
    if problem:
        raise UsageError(f"--to {shown(text)}: {problem}")
    return x, y


def _facing(value: float | None) -> float | None:
    problem = None if value is None else option_problem("facing", value)
    if problem:
        raise UsageError(f"--facing {problem}")
    return value


def display_missing() -> str | None:
    """Why no window can open here (None: a display may be there). On Linux a window needs an
    X or Wayland display; SDL's own driver choice (SDL_VIDEODRIVER) is taken as the user's."""
    if not sys.platform.startswith("linux") or os.environ.get("SDL_VIDEODRIVER"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)"


# Kernels the window's first drag compiles (view.warm.warm_up), by package folder, module and
# function: numba names each one's cache index `MODULE.FUNCTION-LINE.pyXY.nbi`.
WINDOW_KERNELS = (("sight", "kernel", "model_blocks"), ("sight", "units", "groups_see"),
                  ("", "separation", "distance_matrix"), ("", "paths", "segments_free"))


def numba_index_dirs(folder: Path) -> list[Path]:
    """Where numba keeps the cache of a module in `folder`, as its locators choose it:
    under NUMBA_CACHE_DIR, beside the module in __pycache__, or in the user's cache
    (~/.cache/numba), the last two under FOLDER-NAME_SHA1-OF-THE-FOLDER."""
    src = os.path.abspath(folder)
    sub = f"{os.path.basename(src)}_{hashlib.sha1(src.encode()).hexdigest()}"
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return [Path(root) / sub]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
    return [Path(src) / "__pycache__", user / sub]


def kernels_cached() -> bool:
    """Whether the play window's kernels are compiled already (else the first game waits for
    them to compile): `battlefield check` stamped them ready (view.warm), or numba's cache
    holds the index file of each of WINDOW_KERNELS (a window launched before compiled them)."""
    # here, not at the top: start-up time of the CLI (not .sight: that would import numba)
    import battlefield.geometry
    from battlefield.view.warm import play_kernels_ready

    if play_kernels_ready():
        return True
    geometry = Path(battlefield.geometry.__file__).parent
    python = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return all(any(any(d.glob(f"{module}.{function}-*.{python}.nbi"))
                   for d in numba_index_dirs(geometry / folder))
               for folder, module, function in WINDOW_KERNELS)


def run_play(args: argparse.Namespace) -> int:
    only = [flag for flag, v in (("--hover", args.hover), ("--aim", args.aim),
                                 ("--click", args.click), ("--zoom", args.zoom),
                                 ("--key", args.key))
            if v not in (None, [])]
    if only and not args.screenshot:
        raise UsageError(f"{', '.join(only)}: only with --screenshot FILE.png (in the window, "
                         "use the mouse)")
    if not args.screenshot and (why := display_missing()):
        raise UsageError(f"{why}: the window cannot open here; draw the table to a picture "
                         "with --screenshot FILE.png instead")

    size = None if args.size is None else _size(args.size)
    if args.screenshot and not Path(args.screenshot).resolve().parent.is_dir():
        raise UsageError(f"--screenshot {args.screenshot}: no such folder "
                         f"{Path(args.screenshot).resolve().parent}")
    if args.scene is not None and not args.join:
        # here, not at the top: start-up time of the CLI
        from battlefield.paths import no_such_scene
        from battlefield.scene.load import resolve_scene_path

        if not resolve_scene_path(args.scene).exists():
            raise no_such_scene(args.scene)       # before any word of compiling kernels
    if not kernels_cached():
        if args.screenshot or args.join:
            print("first launch: compiling the geometry kernels once (a minute or two; later "
                  "launches take seconds)...", file=sys.stderr, flush=True)
        else:
            print("first launch: the window opens now and prepares sight and reach behind "
                  "the board, once (a minute or two; later launches take seconds; "
                  "`battlefield check` does it ahead)",
                  file=sys.stderr, flush=True)
    from battlefield.rules.players import check_kind  # here, not at the top: start-up time

    check_kind(args.level)
    if args.join:
        # here, not at the top: start-up time of the CLI
        from battlefield.client.link import check_url
        from battlefield.view.joined import play_joined

        given = [flag for flag, v in (("a scene", args.scene), ("--computer", args.computer),
                                      ("--load", args.load), ("--phase", args.phase),
                                      ("--drag", args.drag), ("--edit", args.edit),
                                      ("--level", None if args.level == "normal"
                                       else args.level))
                 if v not in (None, [])]
        if given:
            raise UsageError(f"--join plays the server's game: leave out {', '.join(given)}")
        check_url(args.join)
        play_joined(args.join, size, args.screenshot)
        if args.screenshot:
            print(f"wrote {args.screenshot}")
        return 0
    # here, not at the top: pygame is imported only once a window may open; the window's
    # start-up module stays clear of numba (view.launch), the screenshot's draws the whole
    # table at once
    from battlefield.view.opening import Setup

    setup = Setup(tuple(args.computer), args.save, args.phase, args.load,
                  tuple(args.measure) if args.measure else None, args.drag, _point(args.to),
                  args.target, args.ability, _facing(args.facing), args.heat, args.edit,
                  not args.no_auto_pass, args.hover,
                  tuple(args.aim) if args.aim else None, tuple(args.click), args.zoom,
                  tuple(args.key), args.level)
    if args.screenshot:
        from battlefield.view.screenshot import screenshot_of  # here, not at the top: as above
        from battlefield.view.stack import SIZE  # here, not at the top: as above

        screenshot_of(args.scene, args.ruleset, args.seed, size or SIZE, setup,
                      args.screenshot)
    else:
        from battlefield.view.launch import window  # here, not at the top: as above

        window(args.scene, args.ruleset, args.seed, size, setup)
    if args.screenshot:
        print(f"wrote {args.screenshot}")
    return 0
