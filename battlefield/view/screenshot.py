"""The table drawn to a PNG as the window would first show it, set up from the command line
(`battlefield play --screenshot`): the play scene with no display needed, and, for a new game
against the computer, its turn played on as the window plays it."""

from __future__ import annotations

import os
import time

import pygame

from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.view import auto
from battlefield.view.app import PlayScene, before_play, open_game, table_scene
from battlefield.view.opening import Setup


def computer_turn(scene: PlayScene, limit: int = 200) -> None:
    """Play on as the window would until the human side is to decide (or the battle ends):
    the computer's actions and the steps that pass by themselves, each move's glide at its
    end - but when the last action of all was a move, its glide is shown half way (a
    screenshot of the computer's turn)."""
    last: auto.Glide | None = None        # the glide of the last action applied, if it moved
    for _ in range(limit):
        if scene.glide is not None:
            scene.glide.finish()
        before = len(scene.state.actions)
        scene.update(0.0)                  # a finished glide ends; the next action, if any
        if len(scene.state.actions) > before:
            last = scene.glide
            continue
        if last is not None:               # the last action moved: held half way
            last.seconds = 3600.0
            last.t0 = time.perf_counter() - last.seconds / 2
            scene.glide = last
        return


def click(scene: PlayScene, name: str, surf: pygame.Surface) -> None:
    """The panel button `name` clicked with the mouse (the panel as drawn on `surf` now)."""
    scene.draw(surf)
    rect = next((r for r, n in scene.panel.buttons if n == name), None)
    if rect is None:
        raise UsageError(f"--click {name}: no such button now (buttons: "
                         + ", ".join(n for _, n in scene.panel.buttons) + ")"
                         + after(name, [n for _, n in scene.panel.buttons]))
    scene.panel.hover = rect.center
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))


MODS = {"ctrl": pygame.KMOD_CTRL, "shift": pygame.KMOD_SHIFT, "alt": pygame.KMOD_ALT}


def key_event(name: str) -> pygame.event.Event:
    """A key press from its name as `--key` takes it: a pygame key name, after ctrl+, shift+
    or alt+ (e, ctrl+o, shift+r, f12)."""
    *mods, key = name.lower().split("+")
    try:
        code = pygame.key.key_code(key)
    except ValueError:
        raise UsageError(f"--key {name}: no key {key!r} (a key's name: e, h, ctrl+o, "
                         "escape, f12)") from None
    odd = [m for m in mods if m not in MODS]
    if odd:
        raise UsageError(f"--key {name}: {odd[0]!r} is not ctrl, shift or alt")
    mod = 0
    for m in mods:
        mod |= MODS[m]
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="")


def screenshot_of(scene_arg: str | None, ruleset: str | None, seed: int,
                  size: tuple[int, int], setup: Setup, path: str) -> PlayScene:
    """The table as the window would first show it, set up as asked, drawn to a PNG (no
    display needed: SDL's dummy driver unless the user chose one)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    opened = open_game(scene_arg, ruleset, seed)
    setup.check(opened.state.scene)
    before_play(setup, opened.state)
    scene = table_scene(setup, opened, size)
    if setup.computer and not (setup.drag or setup.measure or setup.load or setup.phase
                               or setup.edit is not None):
        computer_turn(scene)           # a new game: the computer's turn as the window plays it
    surf = pygame.Surface(size)
    scene.draw(surf)
    if setup.aim is not None:          # a target picked with the cursor, before the click
        ability, unit, target = setup.aim
        st = scene.state
        scene.panel.chosen, scene.picking = ability, (ability, unit)
        lead = st.scene.leader_model(st.scene.unit_index(target), st.table)
        scene.aim(tuple(round(c) for c in scene.table.view.px(st.table.x[lead],
                                                               st.table.y[lead])))
        scene.draw(surf)
    for name in setup.clicks:          # buttons clicked as with the mouse, one after another
        click(scene, name, surf)
        if setup.computer:
            computer_turn(scene)       # what follows by itself, as the window plays it
        scene.draw(surf)
    for name in setup.keys:            # keys pressed, one after another
        scene.handle_event(key_event(name))
        scene.draw(surf)
    if setup.zoom is not None:         # zoomed about the board's centre (the wheel, + / -)
        rect = scene.table.rect
        scene.table.zoom(setup.zoom, rect.center)
        scene.draw(surf)
    if setup.hover is not None:        # the cursor over a button: its tooltip
        rect = next((r for r, n in scene.panel.buttons if n == setup.hover), None)
        if rect is None:
            raise UsageError(f"--hover {setup.hover}: no such button now (buttons: "
                             + ", ".join(n for _, n in scene.panel.buttons) + ")"
                             + after(setup.hover, [n for _, n in scene.panel.buttons]))
        scene.panel.hover = rect.center
        scene.draw(surf)
    # here, not at the top: the headless picture module sets SDL's dummy driver on import
    from battlefield.view.picture import save_image

    save_image(surf, path)
    return scene
