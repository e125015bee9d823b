"""A game's versions for the page viewer, and `battlefield replay game.jsonl --html game.html`:
one self-contained page with every version of a saved game, a slider and step buttons through
them, and a side panel with the round, phase and whose turn it is, the dice and events of each
action, and the result at the end. Version N is the game after N actions (0: the start); the
engine rebuilds each from the log. `game.html#v=N` opens at version N.

A version is plain JSON (what viewer.js's addVersion takes), so a live page can be fed the same
versions over a WebSocket: {"v", "clock": {"round", "phase", "active", "acting", "deciding",
"over", "now" (the step in one line and what it expects, rules/guide.py)}, "models": {"UNIT/N":
[x, y, facing, z] | null (off the table)} (those that changed; all at version 0), "objectives":
{ID: SIDE | null}, "rulings": {"breaks": [UNIT/N], "combat": [[UNIT, UNIT, UNIT/N, UNIT/N]]}
(the pairs in combat by their closest models), "marks": [{"kind", "points", "label", "side"}]
(the ruleset's, when they changed), "overlay": {LAYER: [shapes]} (the depiction of the table at
that version - objectives, combat, marks, rulings, labels placed by the one placer - the
layers that changed; the page draws these shapes, it decides nothing: battlefield/depiction),
"action" (in words; an answer that let the other side's action resolve is credited to that
action: 'shoot red-archers at blue-drake (blue answered all-out-defence: decline)'), "by" (the
side that took it), "credit" (the side whose action the outcome is), "outcome" (what came of
the action in words, first: damage dealt, models slain, wounds left, morale, what failed - else
what it did; rules/outcome.py, as the play window words it), "rolls", "events" (every other
event in words, rules/event_words.py), "sides" (text), "result" (text, at the end)}."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from battlefield import palette as pal
from battlefield.depiction.palette import full_palette
from battlefield.depiction.table import (
    Rulings,
    depict,
    pieces_of_state,
    side_colours,
)
from battlefield.files import write_text
from battlefield.page.html import document
from battlefield.page.legend import heading_html, legend_html
from battlefield.page.shapes import hex_colour
from battlefield.page.svg import Picture
from battlefield.page.words import action_title, profile_line, roll_text
from battlefield.rules.choices import open_choices
from battlefield.rules.guide import what_now
from battlefield.rules.log import SavedGame, new_game, rules_for
from battlefield.rules.outcome import GameLog, event_lines
from battlefield.rules.result import label
from battlefield.rules.standing import referee as standing_referee
from battlefield.rules.state import Game, State
from battlefield.scene.model import Scene

OVERLAY = ("objectives", "combat", "marks", "rulings", "labels")


def _r(v: float) -> float:
    return round(float(v), 4)


class Versions:
    """Versions of one game, one per state, each with only what changed in the models."""

    def __init__(self, state: State) -> None:
        self.scene = state.scene
        self.names = state.scene.model_names
        self.colours = side_colours(state.scene)
        self.last: list[Any] = [None] * len(self.names)
        self.last_marks: list[dict[str, Any]] | None = None
        self.last_cards: list[dict[str, Any]] = []
        self.last_overlay: dict[str, Any] = {}
        self.terrain = state.scene.terrain       # the terrain the page was drawn with
        self.terrain_key = _terrain_key(self.terrain)
        self.log = GameLog()                     # the actions worded and credited

    def version(self, state: State, n: int, record: dict | None = None,
                events: list | None = None) -> dict[str, Any]:
        """The version of `state` (after n actions); record: the action's log record
        (the action as shown and its rolls), events: what it did."""
        t = state.table
        now = np.column_stack([t.x, t.y, t.facing, t.z]).round(4)
        models: dict[str, Any] = {}
        for i, name in enumerate(self.names):
            pos = now[i].tolist() if t.unit[i] >= 0 else None
            if pos != self.last[i] or n == 0:
                models[name] = pos
                self.last[i] = pos
        held = {o.id: state.objectives.get(o.id, o.controlled_by) for o in self.scene.objectives}
        ruled = rulings(state)
        out: dict[str, Any] = {
            "v": n, "clock": clock(state), "models": models, "objectives": held,
            "rulings": ruled, "sides": sides_text(state),
        }
        if state.scene.terrain is not self.terrain:
            # terrain set up during the game (aos4's faction terrain): the page's terrain
            # group drawn again from this version on
            self.terrain = state.scene.terrain
            key = _terrain_key(self.terrain)
            if key != self.terrain_key:
                self.terrain_key = key
                out["terrain"] = Picture(state.scene).terrain_inner()
        drawn = marks(state)
        if drawn != self.last_marks:
            out["marks"] = self.last_marks = drawn
        now = cards(state)
        if now != self.last_cards:           # a scene without abilities never says any
            out["abilities"] = self.last_cards = now
        layers = overlay(state, ruled, held, self.colours)
        changed = {k: v for k, v in layers.items() if n == 0 or v != self.last_overlay.get(k)}
        self.last_overlay = layers
        if changed:
            out["overlay"] = changed
        caused = [e for e in (events or []) if e.get("type") != "action"]
        if record is not None:
            # the window's words (rules/outcome): who did what to whom; an answer that let
            # the other side's action resolve is that action's ('red-archers shoot ->
            # blue-drake (blue answered all-out-defence: decline)')
            en = self.log.feed(state)[-1]
            out["action"] = action_title(en.action, record.get("action", {}), caused)
            out["by"], out["credit"] = en.side, en.credit
            out["rolls"] = [roll_text(r) for r in record.get("rolls", [])]
            out["outcome"] = list(en.lines)
            out["events"] = [x for x in en.events if x not in en.lines]
        else:
            out["events"] = event_lines(caused, state.rules)
        if state.over:
            out["result"] = result_text(state)
        return out


def _terrain_key(terrain: Any) -> tuple[Any, ...]:
    return tuple((p.id, p.outline, p.height, p.kind) for p in terrain)


def clock(state: State) -> dict[str, Any]:
    """Whose step it is; `now`: the step in one line, what it expects (rules.guide, as the
    play window says it under its phase bar)."""
    over = state.over
    out = {"round": state.round, "phase": state.phase, "active": state.active,
           "acting": None if over else state.acting_side, "over": over,
           "now": what_now(state, open_choices(state) if not (state.pending or over)
                           else [])}
    if state.pending and not over:
        d = state.pending[0]
        out["deciding"] = f"{d.side} decides {d.kind}" + (" (secret)" if d.secret else "")
        out["decider"] = d.side             # before the first turn: whose decision it is
    return out


def rulings(state: State) -> dict[str, Any]:
    """The models out of coherency and the pairs of units in combat (by their closest models),
    as the depiction draws them."""
    scene, t = state.scene, state.table
    referee = standing_referee(state)
    names = scene.model_names
    breaks = []
    for u in range(len(scene.units)):
        if len(t.unit_models[u]):
            breaks += [names[m] for m in referee.coherency(u).breaks]
    combat = []
    for u, foes in referee.combat.items():
        for v in foes:
            if v <= u or not len(t.unit_models[u]) or not len(t.unit_models[v]):
                continue
            i, j = t.closest_between(t.unit_models[u], t.unit_models[v]).models
            combat.append([scene.units[u].id, scene.units[v].id, names[int(i)], names[int(j)]])
    return {"breaks": breaks, "combat": combat}


def cards(state: State) -> list[dict[str, Any]]:
    """The acting side's abilities whose timing is now (window.Card), as JSON."""
    if state.over:
        return []
    return [{"unit": c.unit, "name": c.name, "kind": c.kind, "line": c.line, "text": c.text,
             "played": c.played} for c in state.rules.window.cards(state)]


def marks(state: State) -> list[dict[str, Any]]:
    """What the ruleset draws on the table now (window.Mark), as JSON."""
    return [{"kind": m.kind, "points": np.asarray(m.points)[:, :2].round(4).tolist(),
             "label": m.label, "side": m.side} for m in state.rules.window.marks(state)]


def table_depiction(state: State, ruled: dict[str, Any], held: dict[str, str | None],
                    colours: dict) -> Any:
    """The depiction of the table at this state as its page shows it (labels placed)."""
    r = Rulings(breaks=list(ruled["breaks"]),
                combat=[(a, b, na, nb) for a, b, na, nb in ruled["combat"]], held=held)
    return depict(state.scene, pieces_of_state(state), r, None, state.rules.window.marks(state),
                  colours=colours, held=held)


def overlay(state: State, ruled: dict[str, Any], held: dict[str, str | None],
            colours: dict) -> dict[str, Any]:
    """The depiction's layers over the table at this state (OVERLAY), labels placed."""
    dep = table_depiction(state, ruled, held, colours)
    return {k: dep.layers[k] for k in OVERLAY}


def sides_text(state: State) -> list[str]:
    """Each side's resources: 'red: command points 2, victory points 5'."""
    named = dict(state.scene.ruleset.resources or ())
    out = []
    for side, res in state.sides.items():
        bits = [f"{named.get(k, k)} {_shown(v)}" for k, v in res.items()
                if (k in named if named else isinstance(v, (int, float)))]
        out.append(f"{side}: " + ", ".join(bits))
    return out


def _shown(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v) or "-"
    return str(v)


def result_text(state: State) -> str:
    r = state.result()
    tally = ", ".join(f"{s} {v:g}" for s, v in r.points.items())
    who = f"{r.winner} wins ({r.by})" if r.winner else "a draw"
    return f"Battle over: {who}; {label(r.score)}: {tally}; round {r.round}"


def game_versions(saved: SavedGame) -> tuple[Scene, list[dict[str, Any]]]:
    """Every version of a saved game, replayed by the engine from its log."""
    game = new_game(saved.ruleset, saved.seed, saved.scene_text, saved.scene_name or "<log>")
    state = game.new_state(keep_undo=False)
    versions = Versions(state)
    out = [versions.version(state, 0, None, list(state.events))]
    for n, action in enumerate(saved.actions, 1):
        start = len(state.events)
        state.apply(action)
        new = state.events[start:]
        out.append(versions.version(state, n, new[0], new[1:]))
    return game.scene, out


def meta(scene: Scene, colours: dict[str, pal.RGB]) -> dict[str, Any]:
    """What the viewer needs besides the versions: the model names in table order, each
    unit's models and leader, its passive abilities (shown on its hover), the sides'
    colours."""
    offsets = scene.model_offsets()
    passive = _passive(scene)
    return {"depth": scene.depth, "names": list(scene.model_names),
            "colours": {s: hex_colour(c) for s, c in colours.items()},
            "neutral": hex_colour(pal.NEUTRAL), "palette": full_palette(colours),
            "units": {u.id: {"first": offsets[k], "leader": u.leader, "count": len(u.models),
                             "name": u.name or u.id, "side": u.side, "profile": profile_line(u),
                             **({"passive": passive[k]} if passive.get(k) else {})}
                      for k, u in enumerate(scene.units)}}


def _passive(scene: Scene) -> dict[int, list[str]]:
    """Each unit's passive abilities in full (Window.passive_cards), by unit index."""
    if not any("abilities" in u.extra for u in scene.units):
        return {}
    state = Game(rules_for(scene.ruleset.id), scene, 0).new_state(keep_undo=False)
    return {k: [c.text for c in state.rules.window.passive_cards(state, k)]
            for k in range(len(scene.units))}


PANEL = """<aside class="panel">
<div id="clock"></div><div id="acting"></div><div id="sides"></div>
<div id="result" hidden></div>
<div class="controls"><button data-step="first" title="the start (Home)">|&#x25C0;</button>
<button data-step="-1" title="one action back (&#x2190;)">&#x25C0;</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="version">
<button data-step="+1" title="one action on (&#x2192;)">&#x25B6;</button>
<button data-step="last" title="the end (End)">&#x25B6;|</button>
<span id="version"></span></div>
<h2>This action</h2><div id="now"></div>
<h2 hidden>Abilities now</h2><div id="abilities" hidden></div>
<h2>Game log</h2><ol id="log"></ol>
</aside>"""


def game_page(scene: Scene, versions: list[dict[str, Any]], title: str, sub: str = "",
              extra: dict[str, Any] | None = None, scripts: tuple[str, ...] = (),
              play: str = "", kind: str = "replay", nonce: str | None = None) -> str:
    """A game page: the table at the start (the viewer moves it to the version shown), the
    side panel and `versions` as data. The live page of a server gives the versions so far
    (and `extra`, e.g. where to hear more) and feeds the rest to viewer.addVersion."""
    picture = Picture(scene, layers=versions[0].get("overlay") if versions else None)
    for v in versions:              # every side that ever holds an objective has its colour
        for side in v["objectives"].values():
            picture.side(side)
    svg = picture.svg("board", standalone=False, nonce=nonce)
    body = (f'<main><div class="board-col"><header>{heading_html(scene)}'
            f'<p class="sub">{escape(sub)}</p></header>'
            f'<div class="table-wrap">{svg}</div>'
            f"{legend_html(scene, None, None, picture.colours, _shown_marks(versions))}"
            f"</div>{PANEL.replace('<h2>This action</h2>', play + '<h2>This action</h2>')}"
            "</main>"
            '<div id="tip" class="tip" hidden></div>')
    data = {"kind": "replay", **meta(scene, picture.colours), "versions": versions,
            **(extra or {})}
    return document(title, body, data, "replay", scripts, kind, nonce)


def _shown_marks(versions: list[dict[str, Any]]) -> tuple[str, ...]:
    """The rulings some version shows: coherency breaks, combat pairs."""
    breaks = any(v.get("rulings", {}).get("breaks") for v in versions)
    combat = any(v.get("rulings", {}).get("combat") for v in versions)
    return ("coherency",) * breaks + ("combat",) * combat


def replay_html(saved: SavedGame, source: str = "") -> str:
    """The page of a saved game with every version in it."""
    scene, versions = game_versions(saved)
    title = f"{scene.name or saved.scene_name or 'game'}: {saved.ruleset}, seed {saved.seed}"
    sub = f"{len(saved.actions)} actions" + (f" from {source}" if source else "")
    return game_page(scene, versions, title, sub, {"ruleset": saved.ruleset,
                                                   "seed": saved.seed})


def write_replay(saved: SavedGame, path: str | Path, source: str = "") -> None:
    write_text(path, replay_html(saved, source))
