"""What the window opens, worked out before anything heavy is imported (view.launch draws the
board from it at once): the battle's scene text, and what the command line asks of the table
beside it (`Setup`), checked against the scene alone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from battlefield.errors import InputError, UsageError
from battlefield.inputs import readable_file
from battlefield.names import after
from battlefield.paths import no_such_scene
from battlefield.scene.model import Scene

if TYPE_CHECKING:
    from battlefield.rules.state import State


def battle_text(scene_arg: str | None, ruleset: str | None = None) -> tuple[str, str, str]:
    """(ruleset, scene text, name) of the battle to open: the bundled demo battle (no
    argument), a scene file or a map (the ruleset's demo armies deployed on it)."""
    # here, not at the top: the first frame draws before numba is imported (view.launch)
    from battlefield.rules.deploy import battle_scene, default_ruleset
    from battlefield.rulesets import BOARD_ID
    from battlefield.scene.load import load_scene, resolve_scene_path

    if scene_arg is not None and not resolve_scene_path(scene_arg).exists():
        raise no_such_scene(scene_arg)
    if scene_arg is not None and ruleset is None:
        ruleset = load_scene(resolve_scene_path(scene_arg)).ruleset.id
        if ruleset == BOARD_ID:      # a plain board: the default ruleset's demo armies on it
            ruleset = None
    ruleset = ruleset or (scene_arg is None and _default_named()) or default_ruleset()
    text, name = battle_scene(ruleset, scene_arg)
    return ruleset, text, name


def _default_named() -> str | None:
    """The `ruleset:` the bundled default scene names, read from its YAML alone (loading the
    whole scene, as deploy.default_ruleset does, costs a tenth of the first frame); None when
    it is not a plain name, and default_ruleset decides."""
    # here, not at the top: the first frame draws before numba is imported (view.launch)
    import yaml

    from battlefield.paths import find_map
    from battlefield.rules.deploy import DEFAULT_SCENE

    path = find_map(DEFAULT_SCENE)
    if path is None:
        return None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    top = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    named = top.get("ruleset") if isinstance(top, dict) else None
    return named if isinstance(named, str) else None


@dataclass
class Setup:
    """What the command line asks of the table beside the battle: who the computer plays,
    where to save, the phase to pass to, a log to load, a measurement, a unit held mid-drag,
    the heat map, the editor, auto-passing."""

    computer: tuple[str, ...] = ()
    save_path: str = "battlefield-game.jsonl"
    phase: str | None = None
    load: str | None = None
    measure: tuple[str, str] | None = None
    drag: str | None = None
    to: tuple[float, float] | None = None
    target: str | None = None
    ability: str | None = None
    facing: float | None = None
    heat: bool = False
    edit: str | None = None
    auto_pass: bool = True
    hover: str | None = None          # a screenshot with the cursor over this button
    aim: tuple[str, str, str] | None = None   # (ability, unit, target): the cursor on target
    clicks: tuple[str, ...] = ()      # a screenshot after these panel buttons were clicked
    zoom: float | None = None         # a screenshot zoomed in this much about the board's centre
    keys: tuple[str, ...] = ()        # a screenshot after these keys were pressed (e, ctrl+o)
    level: str = "normal"             # the computer player's level (easy, normal, strong)

    def check(self, scene: Scene) -> None:
        """Refuse, before anything opens, what the scene alone shows is wrong."""
        for side in self.computer:
            if side not in scene.sides:
                raise UsageError(f"--computer {side}: no such side (sides: "
                                 f"{', '.join(scene.sides)}){after(side, scene.sides)}")
        if self.load:
            try:
                readable_file(Path(self.load), self.load, "a saved game", "a saved game's log")
            except InputError as exc:
                raise UsageError(f"--load {exc}") from None
        if self.aim:
            for uid in self.aim[1:]:
                scene.unit_index(uid)
        if self.zoom is not None and not 1 <= self.zoom <= 20:
            raise UsageError(f"--zoom {self.zoom:g}: from 1 (the whole board) to 20")
        if self.edit and self.edit not in {p.id for p in scene.terrain}:
            pieces = [p.id for p in scene.terrain]
            raise UsageError(f"--edit {self.edit!r}: no such terrain piece (pieces: "
                             + ", ".join(pieces) + ")" + after(self.edit, pieces))


__all__ = ["Setup", "battle_text", "to_phase"]


def to_phase(state: State, phase: str) -> None:
    """Pass (the vocabulary's action that needs nothing: end-phase, stop; warband's first, the
    initiative side itself) until the named phase of the acting side comes up; a decision
    asked before the first turn (aos4's who goes first) is answered with its first choice (the
    deciding side goes first)."""
    # here, not at the top: the first frame draws before the rules are imported (view.launch)
    from battlefield.rules.actions import Action, IllegalAction

    while state.pending and state.phase is None:
        state.apply(state.pending[0].choices[0])
    if state.phase is None:
        raise UsageError(f"--phase {phase}: {state.rules.id} has no phases (sides take turns)")
    phases = state.rules.phases
    if phases and phase not in phases:
        raise UsageError(f"--phase {phase}: no such phase (phases: {', '.join(phases)})"
                         f"{after(phase, phases)}")
    for _ in range(50):
        now = state.phase
        if now == phase and state.acting_side == state.active:
            return
        passing = next((a.id for a in state.scene.ruleset.actions    # all its fields optional
                        if all(f.endswith("?") for f in a.fields)
                        and a.id in state.available()), None)
        if passing is None:
            raise UsageError(f"--phase {phase}: the game cannot pass the {now} phase (no "
                             f"action that needs nothing is available: "
                             f"{', '.join(state.available()) or 'none'})")
        try:
            state.apply(Action(passing))      # aos4's end-phase, openwg's stop
        except IllegalAction as exc:
            why = "; ".join(v.message for v in exc.violations)
            raise UsageError(f"--phase {phase}: the game cannot pass the {now} phase ({why})"
                             ) from None
    raise UsageError(f"--phase {phase}: not reached after 50 passes")
