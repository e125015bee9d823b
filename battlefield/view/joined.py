"""`battlefield play --join URL`: the play window as a client of `battlefield serve`.

The window is the same PlayScene; what differs is where actions go. The live checks while a
unit is dragged are computed locally from the position the client holds (a Mirror of the
server's game, battlefield/client/mirror.py); a legal drop or button is sent to the server
(battlefield/client/seat.py over a ThreadedLink) and applied when its event comes back, as the
other player's actions are, with the server's dice. The panel says which side this window
plays, whether it is connected, and whose decision it is. The network runs on its own thread;
this module only polls it each frame."""

from __future__ import annotations

import os
import time
from typing import Any

import pygame

from battlefield.client.link import ThreadedLink
from battlefield.client.seat import Seat
from battlefield.depiction import live
from battlefield.errors import UsageError
from battlefield.page.words import action_title
from battlefield.rules.actions import Action
from battlefield.view.app import SIZE, App, Opened, PlayScene
from battlefield.view.guard import TakeBack, choice_words, spends
from battlefield.view.picture import save_image
from battlefield.view.stack import window_size

JOIN_WAIT = 30.0            # seconds to wait for the server's hello before giving up


class JoinedScene(PlayScene):
    """The game at the table, played through a server."""

    def __init__(self, link: ThreadedLink, seat: Seat, size: tuple[int, int] = SIZE) -> None:
        assert seat.mirror is not None
        super().__init__(Opened(seat.mirror.state, "", f"game {seat.mirror.game_id}"), size)
        self.link, self.seat = link, seat
        self.drag.submit = self.submit
        self.auto_pass = False         # the server's game: every step is the seat's own
        self.panel.watching = seat.seat is None     # a spectator gets no buttons
        self.setup.mine = lambda side: side == self.seat.seat    # the reserve list: our turn only
        self.resend_at: float | None = None    # when to send the act the server put off
        seat.fresh = False
        who = f"you play {seat.seat}" if seat.seat else "watching (no seat)"
        self.say(f"joined game {seat.mirror.game_id}: {who}")

    # --- actions go to the server -------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """A locally legal action: sent; the state changes when the server's event is back."""
        if self.seat.seat is None:
            self.say("watching: a spectator does not act")
            return
        if self.seat.unanswered is not None:
            self.say("waiting for the server's answer to the last action")
            return
        self.seat.act(action)
        self.say(f"sent {action.type}" + (f" {action.unit}" if action.unit else "")
                 + ": waiting for the server")

    def not_yours(self, action: Action) -> str | None:
        """The server takes an action only from the seat the engine gives it to."""
        sender = self.state.sender(action)
        if self.seat.seat is not None and sender != self.seat.seat:
            return f"{action.type} is {sender}'s to send; you play {self.seat.seat}"
        return None

    def apply(self, action: Action, computer: bool = False) -> bool:
        refused = self.not_yours(action)
        if refused is not None:
            self.say("illegal: " + refused)
            return False
        bad = self.state.check(action)
        if bad:
            self.say("illegal: " + "; ".join(live.reasons(bad)))
            return False
        self.submit(action)
        return True

    def take_back_now(self) -> None:
        """The take-back button of a joined game: the server is asked to retract our
        spending choice (it does while the other side has not acted since and no dice were
        seen); its `retracted` and fresh hello then show the game as it was."""
        tb, self.take_back = self.take_back, None
        if tb is None or self.seat.seat is None or self.seat.mirror is None:
            return
        self.seat.retract(tb.before)
        self.say(f"taking back {tb.what}: waiting for the server")

    def undo(self) -> None:
        self.say("a game on a server has no undo")

    def redo(self) -> None:
        self.say("a game on a server has no redo")

    def save(self, path: str | None = None) -> str:
        gid = self.seat.mirror.game_id if self.seat.mirror else "ID"
        self.say(f"the server keeps the log: GET /games/{gid}/log once the game is over")
        return ""

    def load(self, path: str) -> None:
        self.say("a game on a server is not loaded from a file")

    def toggle_edit(self) -> None:
        self.say("the map cannot be edited in a game on a server")

    # --- the server's messages ----------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.drag.update(dt)
        self.poll()
        if self.resend_at is not None and time.monotonic() >= self.resend_at:
            self.resend_at = None
            self.seat.resend()          # the act the server did not read for the rate

    def poll(self) -> None:
        seat = self.seat
        for msg in self.link.poll():
            seat.receive(msg)
            if msg.get("type") == "refused" and seat.refused is msg:
                why = "; ".join(str(v.get("message")) for v in msg.get("violations", []))
                self.say(f"the server refused it: {why}")
            elif msg.get("type") == "error":
                self.say(f"the server says: {msg.get('message')}")
                if seat.wait is not None:
                    self.resend_at, seat.wait = time.monotonic() + seat.wait, None
            elif msg.get("type") == "retracted":
                self.take_back = None
                n = int(msg.get("from", 0)) - int(msg.get("version", 0))
                self.say(f"took back {n} action{'s' if n != 1 else ''}: choose again"
                         if msg.get("by") == seat.seat else
                         f"{msg.get('by')} took back {n} of their actions")
            elif msg.get("type") == "over":
                r = msg.get("result", {})
                self.say(f"the battle is over: {r.get('winner') or 'a draw'} "
                         f"({r.get('by')}); seed {msg.get('seed')}")
        if seat.out_of_step is not None:
            self.say(f"out of step with the server ({seat.out_of_step}): joining again")
            seat.out_of_step = None
            self.link.restart()
        if seat.fresh and seat.mirror is not None:
            seat.fresh = False
            self.drag.cancel("")
            self.table.state = seat.mirror.state
            self.table.fit()
            self.table.changed()
        applied = seat.take_applied()
        if applied:
            self.take_back = self._take_back(applied[-1])
            if self.drag.pickup is not None and not seat.ready():
                self.drag.cancel("the position changed: pick the unit up again")
            self.table.changed()
            self.say(heard(applied[-1], self.panel.entries(self.state)))

    def _take_back(self, msg: dict[str, Any]) -> TakeBack | None:
        """Our own spending choice, when the server could take it back (no dice rolled)."""
        if msg.get("by") != self.seat.seat or msg.get("dice"):
            return None
        try:
            action = Action.from_dict(msg["action"])
        except (KeyError, TypeError, ValueError):
            return None
        if not spends(self.state, action):
            return None
        return TakeBack(int(msg["version"]) - 1, choice_words(action))

    def shown(self) -> tuple:
        """What this window shows that changes by itself (view.frames.look): the connection
        and whose turn it is - an idle window redraws when the server goes away."""
        return (self.status_line(),)

    def status_line(self) -> str:
        """Which side this window plays, the connection, whose decision it is."""
        seat, m = self.seat, self.seat.mirror
        bits = [f"you: {seat.seat}" if seat.seat else "watching", seat.status]
        if seat.over is not None or m is None:
            bits.append("game over" if seat.over is not None else "joining")
        elif seat.unanswered is not None:
            bits.append("waiting for the server")
        elif m.acting is not None:
            bits.append("your decision" if m.acting == seat.seat else f"{m.acting} to act")
        return "  |  ".join(bits)

    def draw(self, surface: pygame.Surface) -> None:
        self.panel.network = self.status_line()
        super().draw(surface)

    def close(self) -> None:
        self.link.close()


def heard(msg: dict[str, Any], log: list[Any] | None = None) -> str:
    """An event in words, with its dice: 'blue: charge blue-riders -> red-1: done (2D6 7)';
    with the mirrored game's log (outcome.game_log), its newest entry as the window words it,
    credited to the side whose action the outcome is."""
    a = msg["action"]
    if a.get("secret"):
        return f"{msg['by']}: {a.get('type')} (secret until revealed)"
    if log:          # the action as the game log words it: a move with its distance
        en = log[-1]
        return f"{action_title(en.action, en.shown, en.caused)}: " + (
            en.lines[0] if en.lines else "done")
    what = f"{msg['by']}: {a.get('type')}" + (f" {a['unit']}" if a.get("unit") else "")
    if a.get("target"):
        what += f" -> {a['target']}"
    dice = "; ".join(f"{r.get('for')}: "
                     f"{r.get('total') if r.get('summed', True) else r.get('values')}"
                     for r in msg.get("dice", []))
    return f"{what}: {live.outcome(msg.get('events', []))}" + (f" ({dice})" if dice else "")


def open_joined(url: str, size: tuple[int, int] = SIZE, wait: float = JOIN_WAIT
                ) -> JoinedScene:
    """Join the game at `url` and wait (up to `wait` s) for its position and every event."""
    link = ThreadedLink(url)
    seat = Seat(link.send)
    end = time.monotonic() + wait
    while time.monotonic() < end:
        for msg in link.poll():
            seat.receive(msg)
            if msg.get("type") == "status" and msg.get("status") == "failed":
                link.close()
                raise UsageError(f"--join: {msg.get('message')}")
        if seat.mirror is not None and seat.mirror.in_step:
            return JoinedScene(link, seat, size)
        time.sleep(0.02)
    link.close()
    raise UsageError(f"--join {url}: no answer from the server in {wait:.0f} s")


def play_joined(url: str, size: tuple[int, int] | None = None, screenshot: str | None = None
                ) -> Any:
    """The window as a client of `battlefield serve` (view/joined.py); with `screenshot`, the
    first frame once the game is joined, drawn to a PNG. `size` None: a window that fits the
    desktop (view.stack.window_size), a screenshot SIZE."""
    if screenshot:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    size = (size or SIZE) if screenshot else window_size(size)
    scene = open_joined(url, size)
    try:
        if screenshot:
            scene.poll()
            surf = pygame.Surface(size)
            scene.draw(surf)
            save_image(surf, screenshot)     # whole or not at all, as every file written
            return scene
        App(scene, size).run()
    finally:
        scene.close()
    pygame.quit()
    return scene
