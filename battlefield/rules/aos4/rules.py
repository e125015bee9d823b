"""The aos4 rules on the engine: every action checked against the ability's data (phase, whose
turn, Rules of One, command points: commands.py) and its own rule, then resolved with logged
dice. Each ability's own rule is a check and a resolve in the module of its phase
(movement_phase, shooting, fighting, heroics; spells and prayers: magic), plain functions over
the State registered on the class with `handles`.

Reactions of the acting side (At the Double, Forward to Victory, All-out Attack) are given as
options of the action they react to: {"type": "run", ..., "command": "at-the-double"}. The other
side's are pending decisions (rules/decisions.py) that resume() finishes: All-out Defence, which
a shoot, fight or covering fire raises (its reacts_to; defence.py), and Unbind, which a spell
cast raises (magic.py). Who takes the first turn of a battle round is one too: the decision of
the side the rules name (turns.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.errors import InputError, UsageError
from battlefield.rules import adjust
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import (
    abilities_play,
    commands,
    defence,
    deployment,
    faction_terrain,
    fighting,
    heroics,
    magic,
    onto_terrain,
    package,
    shooting,
    spellbook,
    turns,
    warscroll,
    weapons,
)
from battlefield.rules.aos4 import data as aos4_data
from battlefield.rules.aos4 import movement_phase as moving
from battlefield.rules.aos4.data import Ability, Book, book
from battlefield.rules.aos4.movement import v
from battlefield.rules.boundary import in_phase
from battlefield.rules.decisions import DECLINE, Decision, answer_of
from battlefield.rules.handlers import handles
from battlefield.rules.result import Result
from battlefield.rules.rounds import other
from battlefield.rules.ruleset import Parameter, Ruleset
from battlefield.rules.state import State
from battlefield.rulings import TerrainCombat
from battlefield.scene.model import Scene

Event = dict[str, Any]
END_PHASE = "end-phase"
SHORTHAND = "all_out_defence"      # try's shorthand for the defender's answer
# Played at any moment of the acting side (the vocabulary's entries): a unit's own ability
# declared, and an adjustment by hand (asks the other side's consent). Type -> check, resolve.
BY_HAND = {abilities_play.ABILITY: (abilities_play.check, abilities_play.declare),
           adjust.ADJUST: (abilities_play.check_adjust, adjust.propose)}


def _as_option(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    """Magical Intervention is no action of its own: given on the spell or prayer it lets a
    unit use (its check refuses it; it is never resolved)."""
    return [v("use_as_option", "give it as \"command\": \"magical-intervention\" on "
                               "the spell or prayer it lets a unit use")]


# --- end of phase ------------------------------------------------------------------------------
def check_end_phase(state: State) -> list[Violation]:
    """A side passes; in the combat phase not while it has units in combat that must fight
    (a unit that charged and is in combat with nobody may fight, and need not)."""
    c = state.clock
    if c["phase"] == "combat":
        able = fighting.must_fight(state, c["acting"])
        if able:
            ids = ", ".join(state.scene.units[u].id for u in able)
            return [v("must_fight", f"units in combat must fight: {ids}")]
    return []


def end_phase(state: State) -> list[Event]:
    """The active side passes, then the other; the phase ends when both have (in the combat
    phase, when neither has a unit left to fight)."""
    c = state.clock
    side = c["acting"]
    if c["phase"] == deployment.PHASE:
        return deployment.pass_(state)
    events: list[Event] = [{"type": "pass", "side": side, "phase": c["phase"]}]
    if c["phase"] == "combat":
        immediate = fighting.passed(state, side)
        foe = other(state, side)
        if fighting.fighters(state, foe):
            c["acting"] = foe
            return events
        if immediate and fighting.fighters(state, side):
            return events
        events.extend(turns.next_phase(state))
        return events
    if side == c["active"]:
        c["acting"] = other(state, side)
        return events
    events.extend(turns.next_phase(state))
    if c["phase"] == "combat":
        fighting.first_fighter(state)
    return events


class Aos4(Ruleset):
    """aos4: the abilities of rulesets/aos4/abilities.yaml played phase by phase - each
    ability's check and resolve a pair of plain functions of its phase module, registered
    here - plus what package.py answers for the tools."""

    id = "aos4"
    phases = (deployment.PHASE, *turns.PHASES)
    clock_sides = ("first", "underdog")
    clock_side_lists = ("finished", "terrain")    # deployment: the sides that have deployed,
                                                  # those still to set faction terrain up
    odds = package.ODDS
    window = package.Aos4Window()
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

    # --- each played ability: its check and resolve, (state, ability, unit, action) -----------
    normal_move = handles("normal-move", check=moving.check_normal_move,
                          resolve=moving.normal_move)
    run = handles("run", check=moving.check_run, resolve=moving.run)
    retreat = handles("retreat", check=moving.check_retreat, resolve=moving.retreat)
    redeploy = handles("redeploy", check=moving.check_redeploy, resolve=moving.redeploy)
    shoot = handles("shoot", check=shooting.check_shoot, resolve=shooting.shoot)
    covering_fire = handles("covering-fire", check=shooting.check_covering_fire,
                            resolve=shooting.covering_fire)
    charge = handles("charge", "counter-charge", check=fighting.check_charge,
                     resolve=fighting.charge)
    fight = handles("fight", check=fighting.check_fight, resolve=fighting.fight)
    rally = handles("rally", check=heroics.check_rally, resolve=heroics.rally)
    power_through = handles("power-through", check=heroics.check_power_through,
                            resolve=heroics.power_through)
    place_of_power = handles("activate-place-of-power", check=heroics.check_place_of_power,
                             resolve=heroics.place_of_power)
    intervention = handles("magical-intervention", check=_as_option, resolve=_as_option)
    deploy_abilities = handles("deploy-unit", "deploy-regiment", check=deployment.as_deploy,
                               resolve=deployment.as_deploy)
    deploy_terrain = handles(faction_terrain.TERRAIN,
                             check=lambda state, a, u, action: deployment.check_terrain(
                                 state, action),
                             resolve=lambda state, a, u, action: deployment.deploy_terrain(
                                 state, action))

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        if len(state.scene.sides) != 2:
            raise UsageError(f"an aos4 battle needs two sides; the scene has "
                             f"{len(state.scene.sides)}: {', '.join(state.scene.sides)}")
        spellbook.check_scene(state.scene)
        if deployment.played(state):        # units in reserve: the deployment phase first
            return turns.begin(state, first_round=False) + deployment.start(state)
        return turns.begin(state)

    def acting_side(self, state: State) -> str:
        return state.clock["acting"]

    def over(self, state: State) -> bool:
        if state.clock.get("over"):
            return True
        if state.clock.get("phase") == deployment.PHASE:
            return False
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
        if state.clock["phase"] == deployment.PHASE:
            if faction_terrain.step(state):
                return [*out, faction_terrain.TERRAIN]
            mine = deployment.reserves(state, state.clock["acting"])
            return [*out, deployment.DEPLOY] if mine else out
        for a in book(state).abilities.values():
            if a.id in book(state).not_played or a.reaction or a.id == "magical-intervention":
                continue
            if in_phase(state, self.when(state, a.id)):
                out.append(a.id)
        c = state.clock
        if c["phase"] == "hero" and c["acting"] == c["active"]:
            out += magic.cast_by(state, c["acting"])    # its own hero phase: cast and chant
        return out

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
        if kind == deployment.DEPLOY:
            return (deployment.PHASE,)
        a = self.book.abilities.get(kind)
        if a is None or a.reaction or a.not_played or a.id == "magical-intervention":
            return ()
        return tuple(p if whose == "any" else f"{whose} {p}" for p, whose in a.phases)

    def check_position(self, state: State) -> None:
        onto_terrain.check_position(state)

    def combat_links(self, state: State) -> tuple[TerrainCombat, ...]:
        """The combats through terrain pieces charges have made (onto_terrain)."""
        return onto_terrain.links(state)

    # --- check ----------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        """Whose decision, what the type is (end-phase, a spell, an ability played or not), the
        acting unit and the Rules of One; then the ability's own check."""
        if state.pending:
            moving_now = {fighting.MOVE: fighting.check_charge_move,
                          moving.RUN_MOVE: moving.check_run_move}.get(state.pending[0].kind)
            if moving_now is not None and action.type != DECLINE:
                return moving_now(state, action)
            why = magic.check_unbind(state, action) if action.type == magic.UNBIND else None
            # an answer that is not a choice: the engine lists the choices
            return [v("cannot_unbind", why)] if why else []
        if action.option(SHORTHAND) is not None or action.type in (DECLINE, defence.ID):
            return [v("defenders_decision",
                      "All-out Defence is the defending side's decision, asked when a shoot or "
                      "fight targets its unit (none is asked now); it answers {\"type\": "
                      "\"all-out-defence\", \"side\", \"unit\"} or {\"type\": \"decline\", "
                      "\"side\"} (try also takes \"all_out_defence\": true on the attack)")]
        if action.type == magic.UNBIND:
            return [v("defenders_decision",
                      "Unbind is the other side's decision, asked when a spell is cast (none is "
                      "asked now); it answers {\"type\": \"unbind\", \"side\", \"unit\": "
                      "WIZARD} or {\"type\": \"decline\", \"side\"}")]
        if action.type in turns.FIRST_TURN:
            return [v("not_asked", "who takes the first turn is decided at the start of a "
                                   "battle round, by the side the rules name (none is asked "
                                   "now)")]
        if action.type == adjust.ADJUST:        # either side proposes one (adjust.check)
            return BY_HAND[action.type][0](state, action)
        if action.side is not None and action.side != state.clock["acting"]:
            return [v("not_your_decision", f"it is {state.clock['acting']}'s decision, not "
                                           f"{action.side}'s")]
        if action.type == END_PHASE:
            return check_end_phase(state)
        if action.type == deployment.DEPLOY:
            return deployment.check(state, action)
        if action.type == faction_terrain.TERRAIN:
            return deployment.check_terrain(state, action)
        if action.type in BY_HAND:
            return BY_HAND[action.type][0](state, action)
        a = book(state).abilities.get(action.type)
        if a is None:                  # a spell or prayer: Aos4.unknown has refused any other
            return magic.check_spell(state, action)
        if a.id == "magical-intervention":           # never an action of its own
            return _as_option(state, a, -1, action)
        if a.id in book(state).not_played:
            return [v("not_played", f"{a.id}: {book(state).not_played[a.id]}")]
        if a.reaction:
            return [v("reaction", f"{a.id} is a reaction: give it as \"command\": \"{a.id}\" "
                                  f"on the {book(state).reactions[a.id].replace('|', ' or ')} "
                                  f"action")]
        if "DEPLOY" in a.keywords:            # played as the action `deploy`
            return self.handler(a.id).check(state, a, -1, action)
        u, problem = commands.acting_unit(state, action)
        if problem:
            return [problem]
        out = commands.rules_of_one(state, a, u, action)
        if out:
            return out
        return self.handler(a.id).check(state, a, u, action)

    def sender(self, state: State, action: Action) -> str:
        """An adjustment naming its side is that side's to send, acting or not (the server
        takes it from that side's seat); everything else as every ruleset."""
        if action.type == adjust.ADJUST and not state.pending \
                and action.side in state.scene.sides:
            return str(action.side)
        return super().sender(state, action)

    # --- resolve --------------------------------------------------------------------------------
    def resolve(self, state: State, action: Action) -> list[Event]:
        """The action played, then the combats through terrain it ended (onto_terrain)."""
        events = self._resolve(state, action)
        return [*events, *onto_terrain.settle(state)]

    def _resolve(self, state: State, action: Action) -> list[Event]:
        if action.type == END_PHASE:
            return end_phase(state)
        if action.type == deployment.DEPLOY:
            return deployment.deploy(state, action)
        if action.type == faction_terrain.TERRAIN:
            return deployment.deploy_terrain(state, action)
        if action.type in BY_HAND:
            return BY_HAND[action.type][1](state, action)
        a = book(state).abilities.get(action.type)
        if a is None:
            return magic.use_spell(state, action)
        u = state.unit_index(action.unit)
        events = commands.pay(state, a, u, action)
        state.units[u].flags.update(moving.used(a))
        if a.id == "fight":                 # its side may react first (a decision)
            asked = abilities_play.ask_reaction(state, u, action)
            if asked is not None:
                return events + asked
        events.extend(self.handler(a.id).resolve(state, a, u, action))
        if state.clock["phase"] == "combat" and a.id == "fight" and not state.pending:
            fighting.next_fighter(state)
        return events

    # --- decisions ------------------------------------------------------------------------------
    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """The action that waited, then the combats through terrain it ended."""
        events = self._resume(state, suspended, answers)
        return [*events, *onto_terrain.settle(state)]

    def _resume(self, state: State, suspended: dict[str, Any],
                answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """The action that waited for the other side: a cast for its Unbind, the start of a
        battle round for who takes the first turn, an adjustment for the other side's consent,
        an attack for All-out Defence."""
        step = suspended.get("step")
        if step == magic.UNBIND:
            return magic.resume_unbind(state, suspended, answer_of(answers, magic.UNBIND))
        if step == turns.PRIORITY:
            return turns.resume_first_turn(state, suspended, answers[-1][1])
        if step == fighting.MOVE:
            return fighting.resume_charge(state, suspended, answers[-1][1])
        if step == moving.RUN_MOVE:
            return moving.resume_run(state, suspended, answers[-1][1])
        if "adjust" in suspended:
            return adjust.resume(state, suspended, answers, abilities_play.deal)
        if step == abilities_play.REACTION:         # the fight goes on once its side reacted
            events = abilities_play.resume_reaction(state, answers[-1][1])
            fought = Action.from_dict(suspended["action"])
            u = state.unit_index(str(fought.unit))
            events.extend(fighting.fight(state, book(state).abilities["fight"], u, fought))
            if not state.pending:
                fighting.next_fighter(state)
            return events
        events = shooting.roll_attack(state, suspended, answer_of(answers, defence.ID))
        if state.clock["phase"] == "combat" and suspended["action"]["type"] == "fight":
            fighting.next_fighter(state)
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
                         ) -> Action | None:
        """The answer the shorthand stands for; without it, the defender declines All-out
        Defence, unbinds with its nearest WIZARD (it costs nothing) and takes the first turn. An
        adjustment's consent has no shorthand: it waits for the other side's answer."""
        if decision.kind in (adjust.ADJUST, fighting.MOVE, moving.RUN_MOVE):
            return None
        if decision.kind in (magic.UNBIND, turns.PRIORITY):
            return decision.choices[0]
        want = given.get(decision.kind)
        for c in decision.choices:
            if c.type == defence.ID and (want is True or want == c.unit):
                return c
        return Action(DECLINE, side=decision.side)

    # --- moving: asked by rules.moves and the window ------------------------------------------
    move_allowance = staticmethod(moving.allowance)

    move_cost = staticmethod(moving.cost)

    move_ground = staticmethod(moving.ground)

    futile = staticmethod(heroics.futile)

    # --- beyond the game: the computer player, the window, try (package.py) -------------------
    player = staticmethod(package.player)


    try_start = package.try_start

    try_advance = staticmethod(package.try_advance)

    def check_scene(self, scene: Scene) -> None:
        spellbook.check_scene(scene)
        weapons.check_scene(scene)
        warscroll.check_scene(scene)

    health = staticmethod(package.health)

    effect = staticmethod(package.effect)


def _handled(data: dict[str, Ability]) -> dict[str, Ability]:
    """`data`, once every ability in it has a handler, reacts to others or is not played."""
    for a in data.values():
        if a.id in Aos4.handlers or a.reacts_to or a.not_played or a.decision:
            continue
        file, path, line = a.where
        raise InputError(file, path, line, f"ability '{a.id}' has no handler in "
                                           f"battlefield/rules/aos4",
                         "a handler on Aos4 (rules.py), reacts_to: [ABILITY, ...], "
                         "decision: true or not_played: REASON")
    return data


RULESET = Aos4()
