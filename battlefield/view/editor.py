"""The map editor of the play window (E): terrain, objectives and deployment zones edited on the
table, one checked edit at a time, saved to maps/ as a map file.

Left mouse: click a piece to select it (the smallest one under the cursor), drag it to move it;
drag a square handle of the selected piece or zone to move that corner; objectives are selected
and dragged like pieces; click inside a deployment zone where there is no piece to select the
zone; click empty board to deselect. Keys: R / Shift+R rotate the piece 15 degrees counter-
clockwise / clockwise about its centroid; ] / [ grow / shrink it by 10%; PageUp / PageDown raise /
lower it by 0.5"; K cycles its kind; N adds a 4" x 4" solid piece 2" high at the cursor; O adds
an objective at the cursor; Delete or Backspace deletes the selected piece or objective; Escape
deselects; Ctrl+S saves the map; Ctrl+Z undoes the last edit.

Every edit builds a new Scene and offers it to `on_change`, which rebuilds the game on it and
answers None (accepted) or why not (then the old scene stays and the reason is said).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pygame
import shapely

from battlefield.geometry.terrain import Piece
from battlefield.scene import edits
from battlefield.scene.mapfile import save_map
from battlefield.scene.model import Objective, Scene
from battlefield.view.editor_marks import SHORTCUTS, draw_marks
from battlefield.view.layers import fmt_in, objective_radii
from battlefield.view.table_view import TableView

Point = tuple[float, float]
Selection = tuple[str, str]          # ("piece", id) | ("objective", id) | ("zone", side)

TURN_DEG = 15.0
GROW, SHRINK = 1.1, 0.9
NEW_SIDE, NEW_HEIGHT = 4.0, 2.0
HANDLE_PX = 9                       # how near a corner handle a press picks it
OBJECTIVE_PX = 12                   # the least radius that picks an objective


@dataclass
class Held:
    """What the mouse holds: the selection, the table point pressed, the corner (None: all of
    it) and where the cursor is now."""

    what: Selection
    start: Point
    vertex: int | None = None
    to: Point | None = None


class Editor:
    """Edit mode of the play window: pick, drag and change the map; draw the editor's marks."""

    def __init__(self, table: TableView, say: Callable[[str], None],
                 on_change: Callable[[Scene], str | None], maps_dir: str | Path = "maps") -> None:
        self.table = table
        self.say = say
        self.on_change = on_change
        self.maps_dir = Path(maps_dir)
        self.scene: Scene = table.state.scene
        self.selected: Selection | None = None
        self.held: Held | None = None
        self.history: list[Scene] = []
        self.cursor: tuple[int, int] | None = None

    # --- what is where ------------------------------------------------------------------------
    def outline(self, what: Selection | None) -> edits.Outline | None:
        """The outline of a selected piece or zone (None for objectives and nothing)."""
        if what is None:
            return None
        kind, key = what
        if kind == "piece":
            return next((p.outline for p in self.scene.terrain if p.id == key), None)
        if kind == "zone":
            return self.scene.deployment.get(key)
        return None

    def piece_at(self, p: Point) -> str | None:
        """The topmost piece under a table point: the smallest by area."""
        pt = shapely.Point(p)
        under = [q for q in self.scene.terrain if q.polygon.covers(pt)]
        return min(under, key=lambda q: q.polygon.area).id if under else None

    def objective_at(self, pos: tuple[int, int]) -> str | None:
        """The objective whose marker is under a window pixel (at least OBJECTIVE_PX round)."""
        view = self.table.view
        reach = max(OBJECTIVE_PX, view.length(objective_radii(self.scene)[1]))
        best, best_d = None, reach
        for o in self.scene.objectives:
            x, y = view.px(o.x, o.y)
            d = ((x - pos[0]) ** 2 + (y - pos[1]) ** 2) ** 0.5
            if d <= best_d:
                best, best_d = o.id, d
        return best

    def zone_at(self, p: Point) -> str | None:
        pt = shapely.Point(p)
        under = [(shapely.Polygon(z).area, side) for side, z in self.scene.deployment.items()
                 if shapely.Polygon(z).covers(pt)]
        return min(under)[1] if under else None

    def handle_at(self, pos: tuple[int, int]) -> int | None:
        """The corner of the selected piece or zone whose handle is under a window pixel."""
        outline = self.outline(self.selected)
        if outline is None:
            return None
        best, best_d = None, float(HANDLE_PX)
        for k, (x, y) in enumerate(self.table.view.points(outline)):
            d = max(abs(x - pos[0]), abs(y - pos[1]))
            if d <= best_d:
                best, best_d = k, d
        return best

    def on_board(self, pos: tuple[int, int] | None) -> Point | None:
        """The table point under a window pixel when it is on the board, else None."""
        if pos is None or not self.table.rect.collidepoint(pos):
            return None
        x, y = self.table.table_at(pos)
        s = self.scene
        return (x, y) if 0 <= x <= s.width and 0 <= y <= s.depth else None

    # --- events -------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> bool:
        """Mouse and keys of the editor; True when used (the rest is left to the window)."""
        if e.type == pygame.MOUSEMOTION:
            self.cursor = e.pos
            if self.held is None:
                return False
            self.held.to = self.table.table_at(e.pos)
            return True
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            if not self.table.rect.collidepoint(e.pos):
                return False
            self.cursor = e.pos
            self.press(e.pos)
            return True
        if e.type == pygame.MOUSEBUTTONUP and e.button == 1 and self.held is not None:
            self.held.to = self.table.table_at(e.pos)
            self.drop()
            return True
        if e.type == pygame.KEYDOWN:
            return self.key(e)
        return False

    def press(self, pos: tuple[int, int]) -> None:
        """Pick up a corner handle, an objective or a piece, or select a zone, or deselect."""
        p = self.table.table_at(pos)
        corner = self.handle_at(pos)
        if corner is not None and self.selected is not None:
            self.held = Held(self.selected, p, corner)
            return
        found: Selection | None = None
        if (oid := self.objective_at(pos)) is not None:
            found = ("objective", oid)
        elif (pid := self.piece_at(p)) is not None:
            found = ("piece", pid)
        elif (side := self.zone_at(p)) is not None:
            self.selected = ("zone", side)
            self.say(f"deployment zone {side}: drag a corner handle to reshape it")
            return
        self.selected = found
        if found is None:
            self.say("")
            return
        self.held = Held(found, p)
        self.say(self.describe())

    def key(self, e: pygame.event.Event) -> bool:
        mod = getattr(e, "mod", 0)
        ctrl, shift = mod & pygame.KMOD_CTRL, mod & pygame.KMOD_SHIFT
        char = getattr(e, "unicode", "")
        if ctrl:
            if e.key == pygame.K_s:
                try:
                    self.save()
                except OSError as exc:
                    self.say(f"cannot save the map: {exc}")
                return True
            if e.key == pygame.K_z:
                self.undo()
                return True
            return False
        if e.key == pygame.K_r:
            self.change_piece(lambda q: replace(q, outline=edits.rotated(
                q.outline, -TURN_DEG if shift else TURN_DEG)),
                "turned {id} 15 deg " + ("clockwise" if shift else "counter-clockwise"))
        elif e.key == pygame.K_RIGHTBRACKET or char == "]":
            self.change_piece(lambda q: replace(q, outline=edits.scaled(q.outline, GROW)),
                              "grew {id} by 10%")
        elif e.key == pygame.K_LEFTBRACKET or char == "[":
            self.change_piece(lambda q: replace(q, outline=edits.scaled(q.outline, SHRINK)),
                              "shrank {id} by 10%")
        elif e.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            up = e.key == pygame.K_PAGEUP
            self.change_piece(lambda q: replace(q, height=edits.next_height(q.height, up)),
                              "{id} is now {height} high")
        elif e.key == pygame.K_k:
            self.change_piece(lambda q: replace(q, kind=edits.next_kind(q.kind)),
                              "{id} is now {kind}")
        elif e.key == pygame.K_n:
            self.add_piece(self.on_board(self.cursor_pos()))
        elif e.key == pygame.K_o:
            self.add_objective(self.on_board(self.cursor_pos()))
        elif e.key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.delete()
        elif e.key == pygame.K_ESCAPE and self.selected is not None:
            self.selected, self.held = None, None
        else:
            return False
        return True

    def cursor_pos(self) -> tuple[int, int]:
        return self.cursor if self.cursor is not None else pygame.mouse.get_pos()

    # --- edits --------------------------------------------------------------------------------
    def commit(self, new: Scene, done: str) -> bool:
        """Offer the edited scene to the game; keep it when accepted, else say why not."""
        problem = self.on_change(new)
        if problem is not None:
            self.say(f"refused: {problem}")
            return False
        self.history.append(self.scene)
        self.scene = new
        self.say(done)
        return True

    def selected_piece(self) -> Piece | None:
        if self.selected is None or self.selected[0] != "piece":
            self.say("select a terrain piece first")
            return None
        return edits.find_piece(self.scene, self.selected[1])

    def change_piece(self, change: Callable[[Piece], Piece], done: str) -> bool:
        """Apply `change` to the selected piece, check it, and offer the result."""
        old = self.selected_piece()
        if old is None:
            return False
        new = change(old)
        problem = edits.piece_problem(new, self.scene.width, self.scene.depth)
        if problem is not None:
            self.say(f"refused: {problem}")
            return False
        return self.commit(edits.with_piece(self.scene, new),
                           done.format(id=new.id, height=fmt_in(new.height), kind=new.kind))

    def add_piece(self, at: Point | None) -> bool:
        """A new 4" x 4" solid piece 2" high centred at the cursor (kept on the board)."""
        if at is None:
            self.say("put the cursor on the board to add a piece there")
            return False
        s, h = self.scene, NEW_SIDE / 2
        centre = (min(max(at[0], h), s.width - h), min(max(at[1], h), s.depth - h))
        pid = edits.fresh_id("piece", (p.id for p in s.terrain))
        new = Piece(pid, edits.square(centre, NEW_SIDE), NEW_HEIGHT, "solid")
        problem = edits.piece_problem(new, s.width, s.depth)
        if problem is not None:
            self.say(f"refused: {problem}")
            return False
        if self.commit(edits.with_piece(s, new), f"added {pid} at ({centre[0]:.2f}, "
                                                  f"{centre[1]:.2f})"):
            self.selected = ("piece", pid)
            return True
        return False

    def add_objective(self, at: Point | None) -> bool:
        if at is None:
            self.say("put the cursor on the board to add an objective there")
            return False
        s = self.scene
        oid = edits.fresh_id("objective", (o.id for o in s.objectives))
        x, y = edits.clamp(at, s.width, s.depth)
        if self.commit(edits.with_objective(s, Objective(oid, x, y)),
                       f"added {oid} at ({x:g}, {y:g})"):
            self.selected = ("objective", oid)
            return True
        return False

    def delete(self) -> bool:
        if self.selected is None:
            self.say("select a piece or an objective to delete")
            return False
        kind, key = self.selected
        if kind == "zone":
            self.say("deployment zones are reshaped with their handles, not deleted")
            return False
        new = (edits.without_piece(self.scene, key) if kind == "piece"
               else edits.without_objective(self.scene, key))
        if self.commit(new, f"deleted {kind} {key}"):
            self.selected = None
            return True
        return False

    def dragged(self, preview: bool = False) -> tuple[Scene, str] | str | None:
        """What the held thing would become if dropped now: (scene, what was done), a problem,
        or None when it has not moved. A preview (drawn every frame) skips the models' heights."""
        held, s = self.held, self.scene
        if held is None or held.to is None or held.to == held.start:
            return None
        kind, key = held.what
        if held.vertex is not None:
            outline = list(self.outline(held.what) or ())
            outline[held.vertex] = edits.clamp(held.to, s.width, s.depth)
            problem = edits.outline_problem(tuple(outline), s.width, s.depth, key)
            if problem is not None:
                return problem
            done = f"moved corner {held.vertex + 1} of {key}"
            if kind == "zone":
                return edits.with_zone(s, key, tuple(outline)), done
            piece = edits.find_piece(s, key)
            return edits.with_piece(s, replace(piece, outline=edits.rounded(outline)),
                                    not preview), done
        dx, dy = held.to[0] - held.start[0], held.to[1] - held.start[1]
        if kind == "objective":
            o = edits.find_objective(s, key)
            x, y = edits.clamp((o.x + dx, o.y + dy), s.width, s.depth)
            return edits.with_objective(s, replace(o, x=x, y=y)), f"moved {key} to ({x:g}, {y:g})"
        piece = edits.find_piece(s, key)
        dx, dy = edits.kept_on_board(piece.outline, dx, dy, s.width, s.depth)
        moved = replace(piece, outline=edits.translated(piece.outline, dx, dy))
        return edits.with_piece(s, moved, not preview), f"moved {key} by ({dx:+.2f}\", {dy:+.2f}\")"

    def drop(self) -> bool:
        """Let go: one offered edit for the whole drag."""
        result = self.dragged()
        self.held = None
        if result is None:
            return False
        if isinstance(result, str):
            self.say(f"refused: {result}")
            return False
        return self.commit(*result)

    def undo(self) -> bool:
        """Back to the scene before the last edit (the game is rebuilt on it)."""
        if not self.history:
            self.say("nothing to undo")
            return False
        before = self.history[-1]
        problem = self.on_change(before)
        if problem is not None:
            self.say(f"cannot undo: {problem}")
            return False
        self.history.pop()
        self.scene = before
        if self.selected is not None and not self.exists(self.selected):
            self.selected = None
        self.say("undone")
        return True

    def exists(self, what: Selection) -> bool:
        kind, key = what
        if kind == "objective":
            return any(o.id == key for o in self.scene.objectives)
        return self.outline(what) is not None

    def save(self, path: str | Path | None = None) -> Path:
        """Write the map (no units) to `path`, by default maps_dir/NAME-edited.yaml."""
        if path is None:
            stem = slug(self.scene.name) or slug(Path(self.scene.file).stem) or "map"
            path = self.maps_dir / f"{stem}-edited.yaml"
        written = save_map(self.scene, path)
        self.say(f"saved the map to {written}")
        return written

    def describe(self) -> str:
        """The selected thing in words: id, kind, height, corners or place."""
        if self.selected is None:
            return "nothing selected"
        kind, key = self.selected
        if kind == "piece":
            p = edits.find_piece(self.scene, key)
            return f"{p.id}: {p.kind}, {fmt_in(p.height)} high, {len(p.outline)} corners"
        if kind == "objective":
            o = edits.find_objective(self.scene, key)
            home = self.scene.tie_side(o)
            return f"objective {o.id} at ({o.x:g}, {o.y:g})" + (f", {home} home" if home else "")
        return f"deployment zone {key}: {len(self.scene.deployment[key])} corners"

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The editor's marks over the table: zones, selection and handles, the drag's preview,
        the tool strip and what is selected. Changes nothing."""
        draw_marks(self, surface)


def slug(text: str) -> str:
    """'Aos4 battlefield' -> 'aos4-battlefield'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


__all__ = ["Editor", "Held", "SHORTCUTS", "slug"]
