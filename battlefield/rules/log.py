"""The action log is the save file: a header line (ruleset, seed, the scene's own text) and one
JSON object per action with the state's fingerprint after it. Replaying the log rebuilds every
state bit for bit, and says where it does not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from battlefield.errors import BattlefieldError, InputError, UsageError
from battlefield.files import write_text
from battlefield.inputs import dumps, loads, readable_file
from battlefield.rules import registry
from battlefield.rules.actions import Action, ActionFormatError, IllegalAction
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

FORMAT = 1


def rules_for(ruleset: str) -> Ruleset:
    """The playable ruleset called `ruleset`, found through the registry."""
    return registry.get(ruleset)


@dataclass
class SavedGame:
    ruleset: str
    seed: int
    scene_text: str
    scene_name: str
    actions: list[Action]
    fingerprints: list[str | None]
    file: str = "<log>"                       # where it was read from, for messages
    lines: list[int] = field(default_factory=list)   # the line of each action in the file
    header_line: int | None = None
    params: dict[str, Any] = field(default_factory=dict)   # the game's parameters


def header(state: State, scene_text: str) -> dict[str, Any]:
    """The log's first line; a game with parameters (Game's params) has them too."""
    return {"battlefield": FORMAT, "ruleset": state.rules.id, "seed": state.game.seed,
            **({"params": dict(state.rules.params)} if state.rules.params else {}),
            "scene_name": state.scene.name or Path(state.scene.file).stem, "scene": scene_text}


def write(path: str | Path, state: State, scene_text: str) -> None:
    """Save a game: the header, then every action with the fingerprint after it."""
    replayed = replay_states(state.rules, state.game.seed, scene_text, state.actions)
    lines = [dumps(header(state, scene_text))]
    for action, s in zip(state.actions, replayed, strict=True):
        lines.append(dumps({"action": action.to_dict(), "fingerprint": s}))
    if state.over:
        lines.append(dumps({"result": state.result().to_dict()}))
    write_text(path, "\n".join(lines) + "\n")


def read(path: str | Path) -> SavedGame:
    name = str(path)
    readable_file(Path(path), name, "a game log", "a log as simulate --log writes it")
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(name, "", None, "no such file") from None
    except IsADirectoryError:
        raise InputError(name, "", None, "is a folder, not a file") from None
    except UnicodeDecodeError:
        raise InputError(name, "", None, "is not a UTF-8 text file") from None
    if not lines:
        raise InputError(name, "", None, "the log is empty", "a header line, then actions")
    items = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            items.append((n, loads(line, "this line")))
        except UsageError as exc:
            raise InputError(name, "", n, str(exc), "one JSON object per line") from None
    n, head = items[0]
    if not isinstance(head, dict) or head.get("battlefield") != FORMAT:
        raise InputError(name, "", n, "not a battlefield game log",
                         f'a first line {{"battlefield": {FORMAT}, "ruleset": ...}}')
    for key in ("ruleset", "seed", "scene"):
        if key not in head:
            raise InputError(name, key, n, f"the header has no '{key}'")
    if not isinstance(head["seed"], int) or isinstance(head["seed"], bool) \
            or not 0 <= head["seed"] < 2 ** 64 or not isinstance(head["ruleset"], str) \
            or not isinstance(head["scene"], str):
        raise InputError(name, "", items[0][0], "the header's ruleset, seed or scene is not "
                         "what a log holds", "ruleset and scene as text, seed a whole number")
    actions, prints, where = [], [], []
    for n, item in items[1:]:
        if not isinstance(item, dict):
            raise InputError(name, "", n, "not a JSON object")
        if "result" in item:
            continue
        if "action" not in item:
            raise InputError(name, "", n, "no 'action' in this line", '{"action": {...}}')
        try:
            actions.append(Action.from_dict(item["action"]))
        except ActionFormatError as exc:
            raise InputError(name, f"action {len(actions) + 1}", n, str(exc)) from None
        except (TypeError, ValueError, OverflowError) as exc:
            raise InputError(name, f"action {len(actions) + 1}", n,
                             f"not an action ({type(exc).__name__})") from None
        printed = item.get("fingerprint")
        prints.append(printed if isinstance(printed, str) else None)
        where.append(n)
    scene_name = head.get("scene_name", "")
    params = head.get("params", {})
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise InputError(name, "params", items[0][0], "the header's params are not a mapping",
                         '{"rounds": 3}')
    return SavedGame(head["ruleset"], int(head["seed"]), head["scene"],
                     scene_name if isinstance(scene_name, str) else "", actions, prints,
                     name, where, items[0][0], params)


def new_game(ruleset: str, seed: int, scene_text: str, scene_name: str = "<log>",
             params: dict[str, Any] | None = None) -> Game:
    scene = load_scene_text(scene_text, scene_name)
    if scene.ruleset.id != ruleset:
        raise UsageError(f"the scene is for {scene.ruleset.id}, the game for {ruleset}")
    return Game(rules_for(ruleset), scene, seed, params or {})


def replay_states(rules: Ruleset, seed: int, scene_text: str, actions: Iterable[Action]
                  ) -> list[str]:
    """Fingerprints of the states after each action, replayed from the start."""
    game = Game(rules, load_scene_text(scene_text, "<log>"), seed)
    state = game.new_state()
    out = []
    for a in actions:
        state.apply(a)
        out.append(state.fingerprint())
    return out


def replay(saved: SavedGame) -> tuple[State, int | None]:
    """Rebuild the game; returns the final state and the number (1-based) of the first action
    whose state differs from the one saved (None when every state matches)."""
    try:
        game = new_game(saved.ruleset, saved.seed, saved.scene_text,
                        saved.scene_name or "<log>", saved.params)
        state = game.new_state()
    except BattlefieldError as exc:      # the scene in the header: said at the header's line
        raise InputError(saved.file, "scene", saved.header_line,
                         f"the battle this log starts cannot be set up: {exc}") from None
    first_diff = None
    for i, (action, want) in enumerate(zip(saved.actions, saved.fingerprints, strict=True), 1):
        try:
            state.apply(action)
        except IllegalAction as exc:
            line = saved.lines[i - 1] if i - 1 < len(saved.lines) else None
            why = "; ".join(f"{v.code}: {v.message}" for v in exc.violations)
            raise InputError(saved.file, f"action {i}", line,
                             f"{action.type!r} is illegal here: {why}",
                             "the actions the game was played with") from None
        if want is not None and first_diff is None and state.fingerprint() != want:
            first_diff = i
    return state, first_diff
