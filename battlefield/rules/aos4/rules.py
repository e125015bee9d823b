"""The aos4 rules on the engine: every action checked against the ability's data (phase, whose
turn, Rules of One, command points) and its own rule, then resolved with logged dice.

Reactions of the acting side (At the Double, Forward to Victory, All-out Attack) are given as
options of the action they react to: {"type": "run", ..., "command": "at-the-double"}. All-out
Defence is the other side's: a pending decision (defence.py, rules/decisions.py) that a shoot or
fight raises and resume() finishes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.errors import InputError, UsageError
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import data as aos4_data
from battlefield.rules.aos4 import defence, magic, package, spellbook, turns
from battlefield.rules.aos4.data import Ability, Book, book
from battlefield.rules.aos4.fighting import Fighting
from battlefield.rules.aos4.heroics import Heroics
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.movement_phase import Moving
from battlefield.rules.aos4.shooting import Shooting
from battlefield.rules.boundary import in_phase
from battlefield.rules.decisions import DECLINE, Decision, answer_of
from battlefield.rules.handlers import Handler, handles
from battlefield.rules.moves import find_unit
from battlefield.rules.result import Result
from battlefield.rules.ruleset import (
    DragContext,
    DragNotes,
    Effect,
    Parameter,
    Player,
    Ruleset,
)
from battlefield.rules.state import State
from battlefield.scene.model import Scene

Event = dict[str, Any]
END_PHASE = "end-phase"
SHORTHAND = "all_out_defence"      # try's shorthand for the defender's answer




class Aos4(Moving, Shooting, Fighting, Heroics, Ruleset):
    """aos4: the abilities of rulesets/aos4/abilities.yaml played phase by phase (the game
    hooks here and in the mixins by phase), plus what package.py answers for the tools."""

    id = "aos4"
    phases = turns.PHASES
    clock_sides = ("first", "underdog")
    odds = package.ODDS

    parameters = (Parameter("rounds", "battleplan.rounds", "battle rounds", least=1),
                  Parameter("command_points", "battleplan.command_points",
                            "each side's command points a battle round", least=0))

    def __init__(self, data: dict[str, Ability] | None = None, book: Book | None = None
                 ) -> None:
        """The rules for the abilities in `data` (default rulesets/aos4/abilities.yaml): every
        one has a handler, is a reaction given on other abilities, or is not played - else the
        ruleset does not load (when the book is first read, or here for `data`)."""
        super().__init__(book)
        if data is not None:
            self._book = replace(self.book, abilities=_handled(data))

    def load(self) -> Book:
        loaded = aos4_data.load(self.folder, self.spec)
        _handled(loaded.abilities)
        return loaded

    # Each played ability's check and resolve (the mixins' methods, bound when asked).
    normal_move = Handler(("normal-move",), Moving._check_normal_move, Moving._do_normal_move)
    run = Handler(("run",), Moving._check_run, Moving._do_run)
    retreat = Handler(("retreat",), Moving._check_retreat, Moving._do_retreat)
    redeploy = Handler(("redeploy",), Moving._check_redeploy, Moving._do_redeploy)
    shoot = Handler(("shoot",), Shooting._check_shoot, Shooting._do_shoot)
    covering_fire = Handler(("covering-fire",), Shooting._check_covering_fire,
                            Shooting._do_covering_fire)
    charge = Handler(("charge",), Fighting._check_charge, Fighting._do_charge)
    counter_charge = Handler(("counter-charge",), Fighting._check_counter_charge,
                             Fighting._do_counter_charge)
    fight = Handler(("fight",), Fighting._check_fight, Fighting._do_fight)
    rally = Handler(("rally",), Heroics._check_rally, Heroics._do_rally)
    power_through = Handler(("power-through",), Heroics._check_power_through,
                            Heroics._do_power_through)
    activate_place_of_power = Handler(("activate-place-of-power",),
                                      Heroics._check_activate_place_of_power,
                                      Heroics._do_activate_place_of_power)

    @handles("magical-intervention")
    def check_intervention(self, state: State, a: Ability, u: int, action: Action
                           ) -> list[Violation]:
        return [v("use_as_option", "give it as \"command\": \"magical-intervention\" on "
                                   "the spell or prayer it lets a unit use")]

    @check_intervention.resolver
    def intervention(self, state: State, a: Ability, u: int, action: Action) -> list[Event]:
        raise UsageError("magical-intervention is given on a spell or prayer")

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        if len(state.scene.sides) != 2:
            raise UsageError(f"an aos4 battle needs two sides; the scene has "
                             f"{len(state.scene.sides)}: {', '.join(state.scene.sides)}")
        spellbook.check_scene(state.scene)
        return turns.begin(state)

    def acting_side(self, state: State) -> str:
        return state.clock["acting"]

    def over(self, state: State) -> bool:
        if state.clock.get("over"):
            return True
        scene = state.scene
        _, standing = state.table.memo(("sides-standing", id(scene)), lambda: (scene, {
            s.side for u, s in enumerate(scene.units) if len(state.models_of(u))}))
        return any(side not in standing for side in state.sides)

    def result(self, state: State) -> Result:
        vp = {s: d["vp"] for s, d in state.sides.items()}
        standing = [s for s in state.sides
                    if any(len(state.models_of(u)) for u, spec in enumerate(state.scene.units)
                           if spec.side == s)]
        if len(standing) == 1:
            winner, how = standing[0], "the other army was destroyed"
        else:
            best = max(vp.values())
            top = [s for s, x in vp.items() if x == best]
            winner, how = (top[0], "more victory points") if len(top) == 1 else (None, "draw")
        return Result(winner, how, "victory_points", {"victory_points": vp},
                      state.clock["round"])

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        out = [END_PHASE]
        for a in book(state).abilities.values():
            if a.id in book(state).not_played or a.reaction or a.id == "magical-intervention":
                continue
            if in_phase(state, self.when(state, a.id)):
                out.append(a.id)
        c = state.clock
        if c["phase"] == "hero" and c["acting"] == c["active"]:
            out += magic.cast_by(state, c["acting"])    # its own hero phase: cast and chant
        return out

    # --- check ----------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        if state.pending:
            return []         # an answer that is not a choice: the engine lists the choices
        if action.option(SHORTHAND) is not None or action.type in (DECLINE, defence.ID):
            return [v("defenders_decision",
                      "All-out Defence is the defending side's decision, asked when a shoot or "
                      "fight targets its unit (none is asked now); it answers {\"type\": "
                      "\"all-out-defence\", \"side\", \"unit\"} or {\"type\": \"decline\", "
                      "\"side\"} (try also takes \"all_out_defence\": true on the attack)")]
        if action.side is not None and action.side != state.clock["acting"]:
            return [v("not_your_decision", f"it is {state.clock['acting']}'s decision, not "
                                           f"{action.side}'s")]
        if action.type == END_PHASE:
            return self._check_end_phase(state)
        a = book(state).abilities.get(action.type)
        if a is None:                  # a spell or prayer: Aos4.unknown has refused any other
            return self._check_magic(state, action)
        if a.id == "magical-intervention":           # never an action of its own
            return self.handler(a.id).check(state, a, -1, action)
        if a.id in book(state).not_played:
            return [v("not_played", f"{a.id}: {book(state).not_played[a.id]}")]
        if a.reaction:
            return [v("reaction", f"{a.id} is a reaction: give it as \"command\": \"{a.id}\" "
                                  f"on the {book(state).reactions[a.id].replace('|', ' or ')} "
                                  f"action")]
        u, problem = self._unit(state, action)
        if problem:
            return [problem]
        out = self._rules_of_one(state, a, u, action)
        if out:
            return out
        return self.handler(a.id).check(state, a, u, action)

    def unknown(self, state: State, action: Action) -> list[Violation]:
        """A type of the vocabulary (end-phase, the answers), an ability of the book, or a
        spell or prayer a unit knows."""
        kind = action.type
        if any(a.id == kind for a in state.scene.ruleset.actions) \
                or kind in self.book.abilities or kind in magic.known(state):
            return []
        return self.unknown_action(kind, [END_PHASE, *self.book.abilities,
                                          *sorted(magic.known(state))], "ability")

    def when(self, state: State, kind: str) -> tuple[str, ...]:
        """The phases of the ability (abilities.yaml, the seed's): "your movement" ...; none
        for what is no action of its own (a reaction, one not played, Magical Intervention)
        nor for a spell or prayer (magic.check says when)."""
        a = self.book.abilities.get(kind)
        if a is None or a.reaction or a.not_played or a.id == "magical-intervention":
            return ()
        return tuple(p if whose == "any" else f"{whose} {p}" for p, whose in a.phases)

    def _unit(self, state: State, action: Action) -> tuple[int, Violation | None]:
        u, problem = find_unit(state, action)
        if problem:
            return u, problem
        if state.side_of(u) != state.clock["acting"]:
            return u, v("not_yours", f"{action.unit} is {state.side_of(u)}'s; "
                                     f"{state.clock['acting']} is acting")
        return u, None

    def _commands(self, action: Action, a: Ability) -> list[Ability]:
        names = action.option("command")
        names = [names] if isinstance(names, str) else list(names or [])
        out = [a] if a.command else []
        for n in names:
            if n in self.book.abilities:
                out.append(self.book.abilities[n])
        return out

    def _rules_of_one(self, state: State, a: Ability, u: int, action: Action
                      ) -> list[Violation]:
        us = state.units[u]
        reactions = book(state).reactions
        out = []
        if "CORE" in a.keywords and book(state).used_core(us.phase_used):
            out.append(v("rules_of_one", f"{action.unit} has used a CORE ability this phase"))
        elif a.id in us.phase_used:
            out.append(v("once_per_phase", f"{action.unit} has used {a.id} this phase"))
        names = action.option("command")
        names = [names] if isinstance(names, str) else list(names or [])
        for n in names:
            if n == defence.ID:
                out.append(v("defenders_decision", "all-out-defence is the defending side's "
                                                   "decision, asked when the attack is declared"))
            elif n not in book(state).abilities or n not in reactions:
                own = [r for r in reactions if r != defence.ID]
                out.append(v("unknown_command", f"'{n}' is not a reaction command (valid: "
                                                f"{', '.join(own)})"))
            elif a.id not in reactions[n].split("|"):
                out.append(v("wrong_reaction", f"{n} reacts to {reactions[n]}, not {a.id}"))
        side = state.clock["acting"]
        cost = 0
        for c in self._commands(action, a):
            if c.id == defence.ID:
                continue                      # the defender's decision (refused above)
            cost += c.cost
            if c.id in state.sides[side]["commands"]:
                out.append(v("command_used", f"{side} has used {c.id} this phase"))
        if cost and any(x in us.phase_used for x in ("command",)):
            out.append(v("unit_command_used", f"{action.unit} has used a command this phase"))
        if cost > state.sides[side]["cp"]:
            out.append(v("command_points", f"{cost} command points needed, {side} has "
                                           f"{state.sides[side]['cp']}",
                         needed=cost, have=state.sides[side]["cp"]))
        return out

    # --- resolve --------------------------------------------------------------------------------
    def _check_magic(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._unit(state, action)
        if problem:
            return [problem]
        if magic.lookup(state, u, action.type) is None:
            return [v("unknown_spell", f"{action.unit} does not know {action.type}")]
        intervention = "magical-intervention" in self._option_commands(action)
        out = magic.check(state, u, action, intervention)
        side = state.clock["acting"]
        cost = book(state).abilities["magical-intervention"].cost
        if intervention and not out:
            if state.sides[side]["cp"] < cost:
                out.append(v("command_points", f"magical-intervention needs {cost} command "
                                               f"point{'s' * (cost != 1)}, {side} has "
                                               f"{state.sides[side]['cp']}",
                             needed=cost, have=state.sides[side]["cp"]))
            elif "magical-intervention" in state.sides[side]["commands"]:
                out.append(v("command_used", f"{side} has used magical-intervention this "
                                             f"phase"))
        return out

    def _resolve_magic(self, state: State, action: Action) -> list[Event]:
        u = state.unit_index(action.unit)
        intervention = "magical-intervention" in self._option_commands(action)
        events: list[Event] = []
        if intervention:
            side = state.clock["acting"]
            cost = book(state).abilities["magical-intervention"].cost
            state.sides[side]["cp"] -= cost
            state.sides[side]["commands"].append("magical-intervention")
            events.append({"type": "command", "side": side, "command": "magical-intervention",
                           "cost": cost})
        return events + magic.resolve(state, u, action, intervention)

    def resolve(self, state: State, action: Action) -> list[Event]:
        if action.type == END_PHASE:
            return self._end_phase(state)
        if action.type not in book(state).abilities:
            return self._resolve_magic(state, action)
        a = book(state).abilities[action.type]
        u = state.unit_index(action.unit)
        us = state.units[u]
        us.phase_used.add(a.id)
        side = state.clock["acting"]
        events: list[Event] = []
        for c in self._commands(action, a):
            if c.id in ("all-out-defence", "forward-to-victory"):
                continue                      # paid when (and by whom) it is used
            state.sides[side]["cp"] -= c.cost
            state.sides[side]["commands"].append(c.id)
            us.phase_used.add("command")
            events.append({"type": "command", "side": side, "command": c.id, "cost": c.cost})
        events.extend(self.handler(a.id).resolve(state, a, u, action))
        if state.clock["phase"] == "combat" and a.id == "fight" and not state.pending:
            self._next_fighter(state)
        return events

    # --- decisions ------------------------------------------------------------------------------
    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """The attack that waited for the defender's All-out Defence decision."""
        events = self._roll_attack(state, suspended, answer_of(answers, defence.ID))
        if state.clock["phase"] == "combat" and suspended["action"]["type"] == "fight":
            self._next_fighter(state)
        return events

    def shorthand(self, state: State, action: Action
                  ) -> tuple[Action, dict[str, Any], list[Violation]]:
        """try's `"all_out_defence": true` (or a target's id) on a shoot or fight."""
        given = action.option(SHORTHAND)
        if given is None:
            return action, {}, []
        plain = replace(action, options=tuple(o for o in action.options if o[0] != SHORTHAND))
        if not isinstance(given, (bool, str)):
            return plain, {}, [v("bad_all_out_defence", f"\"{SHORTHAND}\" is true, false or "
                                                        f"the id of the unit it protects")]
        return plain, {defence.ID: given}, []

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action:
        """The answer the shorthand stands for; without it, the defender declines."""
        want = given.get(decision.kind)
        for c in decision.choices:
            if c.type == defence.ID and (want is True or want == c.unit):
                return c
        return Action(DECLINE, side=decision.side)

    # --- end of phase ---------------------------------------------------------------------------
    def _check_end_phase(self, state: State) -> list[Violation]:
        c = state.clock
        if c["phase"] == "combat":
            able = self._fighters(state, c["acting"])
            if able:
                ids = ", ".join(state.scene.units[u].id for u in able)
                return [v("must_fight", f"units in combat must fight: {ids}")]
        return []

    def _end_phase(self, state: State) -> list[Event]:
        c = state.clock
        side = c["acting"]
        events: list[Event] = [{"type": "pass", "side": side, "phase": c["phase"]}]
        if c["phase"] == "combat":
            foe = turns.other(state, side)
            if self._fighters(state, foe):
                c["acting"] = foe
                return events
            events.extend(turns.next_phase(state))
            return events
        if side == c["active"]:
            c["acting"] = turns.other(state, side)
            return events
        events.extend(turns.next_phase(state))
        if c["phase"] == "combat":
            self._first_fighter(state)
        return events

    # --- beyond the game: the computer player, the window, try (package.py) -------------------
    def player(self) -> Player:
        return package.player()

    def drag_abilities(self, state: State, u: int, offered: list[str]) -> list[str]:
        return package.drag_abilities(state, u, offered)

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        return package.drag_notes(ctx)

    def drop_in_place(self, state: State, u: int, ability: str, target: int | None
                      ) -> Action | str:
        return package.drop_in_place(state, u, ability, target)

    def check_scene(self, scene: Scene) -> None:
        spellbook.check_scene(scene)

    def try_start(self, scene: Scene, actions: list[Action]) -> dict[str, Any]:
        return package.try_start(self, scene, actions)

    def try_advance(self, state: State, action: Action) -> list[Violation]:
        return package.try_advance(state, action)

    def health(self, state: State, u: int) -> list[int]:
        return package.health(state, u)

    def effect(self, event: Event) -> Effect | None:
        return package.effect(event)


def _handled(data: dict[str, Ability]) -> dict[str, Ability]:
    """`data`, once every ability in it has a handler, reacts to others or is not played."""
    for a in data.values():
        if a.id in Aos4.handlers or a.reacts_to or a.not_played:
            continue
        file, path, line = a.where
        raise InputError(file, path, line, f"ability '{a.id}' has no handler in "
                                           f"battlefield/rules/aos4",
                         "a handler on Aos4 (rules.py), reacts_to: [ABILITY, ...] "
                         "or not_played: REASON")
    return data


RULESET = Aos4()
