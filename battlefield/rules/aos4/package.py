"""What aos4 answers beyond the game itself, for its Ruleset hooks (rules.Aos4): the computer
player, the odds questions (charge, attack, move), what the window shows while a unit is
dragged, each model's health, where in the turn an action of `battlefield try` belongs, and
the game log's words for its events."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import rolls
from battlefield.rules.aos4.allocation import stat
from battlefield.rules.chance import mean, outcomes
from battlefield.rules.questions import Asked, OddsOption, OddsQuestion
from battlefield.rules.ruleset import Effect, Player, Ruleset
from battlefield.rules.standing import referee, scene_referee
from battlefield.rules.state import State
from battlefield.rules.window import Card, DragContext, DragNotes, SetUpArea, Volley, Window
from battlefield.scene.model import Scene
from battlefield.text import distribution, inches, plural, table


def player(level: str = "normal") -> Player:
    """easy: the first heuristic player; normal: it moving along routes round the terrain
    and spending command points (aos4/normal.py)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4.normal import Aos4Normal
    from battlefield.rules.aos4.player import Aos4Player

    return Aos4Player() if level == "easy" else Aos4Normal()


# --- odds ----------------------------------------------------------------------------------------
def _charge(asked: Asked) -> dict[str, Any]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4.charge import charge_odds

    referee = scene_referee(asked.scene)
    a, b = asked.names
    o = charge_odds(asked.ruleset.book, referee, *asked.units)
    names = referee.names
    return {"charger": a, "target": b, "needed": o.needed,
            "probability": round(o.probability, 9),
            "probability_reroll": round(o.probability_reroll, 9),
            "model": names[o.model] if o.model is not None else None,
            "target_model": names[o.target_model] if o.target_model is not None else None,
            "path": [[round(x, 6), round(y, 6)] for x, y in o.path],
            **({"onto": referee.table.layout.pieces[o.onto].id} if o.onto is not None else {}),
            **({"reason": o.reason} if o.reason else {})}


def _charge_text(d: dict[str, Any]) -> str:
    if d["needed"] is None:
        return f"{d['charger']} charging {d['target']}: cannot charge ({d.get('reason', '')})"
    path = " -> ".join(f"({x:.3f}, {y:.3f})" for x, y in d["path"])
    to = (f"{d['onto']}: {d['target']} is wholly on it and no charge reaches it for want of "
          f"space" if d.get("onto") else d["target_model"])
    return "\n".join([
        f"{d['charger']} charging {d['target']}",
        f"  needed       {inches(d['needed'])}  ({d['model']} to within 1/2\" of {to})",
        f"  path         {path}",
        f"  2D6 reaches  {d['probability']:.1%}",
        f"  with re-roll {d['probability_reroll']:.1%}  (Forward to Victory)",
    ])


def _attack(asked: Asked) -> dict[str, Any]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4.odds import attack_odds

    options = asked.options
    o = attack_odds(scene_referee(asked.scene), *asked.units, weapon=options.get("weapon"),
                    all_out_attack=bool(options.get("all_out_attack")),
                    all_out_defence=bool(options.get("all_out_defence")),
                    charged=bool(options.get("charged")),
                    charging=bool(options.get("charging")),
                    shooting=bool(options.get("shooting")))
    a, b = asked.names
    return {"attacker": a, "target": b, **o.to_dict()}


def _attack_text(d: dict[str, Any]) -> str:
    lines = [f"{d['attacker']} attacking {d['target']} ({d['kind']})"]
    if d.get("reason"):
        lines.append(f"  {d['reason']}")
    for w, models in d["attackers"].items():
        lines.append(f"  {w}: {len(models)} model{'s' if len(models) != 1 else ''} in range "
                     f"and able to see")
    m = d["modifiers"]
    if m.get("cover"):
        lines.append(f"  target in cover ({', '.join(m['cover'])}): -1 to hit")
    for w, said in m.get("anti", {}).items():
        lines.append(f"  {w}: {', '.join(said)} (Anti-X)")
    lines.extend(distribution(d))
    return "\n".join(lines)


def _move(asked: Asked) -> dict[str, Any]:
    """How far unit A can move: its Move (a dice Move as the exact chance of each inches) and
    with a run roll added."""
    (a,) = asked.names
    move = asked.scene.units[asked.units[0]].stats.get("move", 0)
    dist = (rolls.move_distribution(str(move)) if rolls.is_dice(move)
            else {float(move or 0): Fraction(1)})
    run: dict[float, Fraction] = {}
    movement = asked.ruleset.book.core.movement
    for r, q in outcomes(lambda: rolls.run_roll(movement, "", False)).items():
        for m, p in dist.items():
            run[m + r] = run.get(m + r, Fraction(0)) + p * q

    def shown(d: dict) -> dict[str, float]:
        return {f"{k:g}": round(float(p), 9) for k, p in sorted(d.items())}

    return {"unit": a, "move": str(move), "dice": rolls.is_dice(move),
            "mean": round(float(mean(dist)), 9), "distribution": shown(dist),
            "run_mean": round(float(mean(run)), 9), "run_distribution": shown(run)}


def _move_text(d: dict[str, Any]) -> str:
    def rows(dist: dict[str, float]) -> list[list[str]]:
        at_least, out = 1.0, []
        for k, p in dist.items():
            out.append([f'{k}"', f"{p:.1%}", f"{at_least:.1%}", "#" * round(p * 40)])
            at_least -= p
        return out

    kind = "rolled each time it moves" if d["dice"] else "a fixed distance"
    return "\n".join([
        f"{d['unit']} moving: Move {d['move']}{'' if d['dice'] else chr(34)} ({kind}), mean "
        f"{d['mean']:.2f}\"", table(["move", "chance", "at least", ""], rows(d["distribution"])),
        f"  running (D6 added): mean {d['run_mean']:.2f}\"",
        table(["run", "chance", "at least", ""], rows(d["run_distribution"]))])


WEAPON = OddsOption("weapon", "attack with this weapon only (its name)", "text")
ODDS = (
    OddsQuestion("charge", ("A", "B"),
                 "unit A charges unit B: the shortest legal path and the chance 2D6 reaches it",
                 _charge, _charge_text,
                 "needed, probability, probability_reroll, path, model, target_model"),
    OddsQuestion("attack", ("A", "B"),
                 "unit A attacks unit B: the exact distribution of the damage B takes",
                 _attack, _attack_text,
                 "expected_damage, distribution {\"0\": p, ...}, models_slain, attackers, "
                 "modifiers",
                 (WEAPON, OddsOption("all-out-attack", "+1 to hit (the All-out Attack command)"),
                  OddsOption("all-out-defence", "+1 to save (the All-out Defence command)"),
                  OddsOption("charged", "the target charged this turn: it gets no cover, and "
                                        "an Anti-charge weapon adds its rend"),
                  OddsOption("charging", "the attacker charged this turn: a Charge (+1 Damage) "
                                         "weapon adds 1 to its Damage"),
                  OddsOption("shooting", "a shooting attack even at a unit in combat with the "
                                         "attacker (its Shoot in Combat weapons)")),
                 enemies=True),
    OddsQuestion("move", ("A",),
                 "how far unit A moves: its Move, or the exact distribution of a dice Move "
                 "(2D6), and with a run roll added",
                 _move, _move_text,
                 "move, dice, mean, distribution {\"7\": p, ...}, run_mean, run_distribution"),
)


# --- the play window ---------------------------------------------------------------------------
def _dice_move_note(ctx: DragContext, move: str) -> str:
    """A dice Move while dragging: the chance the roll reaches the drag, from its distribution
    (a run adds the run roll's)."""
    paths = [ctx.action.path] if ctx.action.path else [p for _, p in ctx.action.paths or ()]
    far = max((sum(math.dist(p, q) for p, q in zip(path, path[1:], strict=False))
               for path in paths), default=0.0)
    dist = rolls.move_distribution(move)
    if ctx.ability == "run":
        runs = outcomes(lambda: rolls.run_roll(ctx.state.rules.book.core.movement, "", False))
        chance = sum(p * q for m, p in dist.items() for r, q in runs.items()
                     if m + r >= far - rolls.EPS)
        return f"move {move} + run D6 reaches {far:.1f}\": {float(chance):.0%}"
    lo, hi = min(dist), max(dist)
    return (f"move {move} ({lo}-{hi}\") reaches {far:.1f}\": "
            f"{float(rolls.move_chance(move, far)):.0%}")


class Aos4Window(Window):
    """What the play window shows of aos4: retreat first for a unit in combat, the charge odds
    against the enemy under the cursor, a dice Move's chance to reach, a click that fights, the
    9" line round enemy territory while a unit is set up."""

    def set_up_area(self, state: State, side: str) -> SetUpArea:
        """The side's territory and the line 9" (rules.yaml deployment) round enemy territory
        that a unit is set up more than that far from."""
        # here, not at the top: start-up time of the CLI
        import shapely

        area = super().set_up_area(state, side)
        gap = state.rules.book.core.deployment.enemy_territory
        lines = []
        for s, pts in state.scene.deployment.items():
            if s == side or not pts:
                continue
            grown = shapely.Polygon(pts).buffer(gap, 32)
            lines.append(np.asarray(grown.exterior.coords, dtype=float))
        area.keep_out = lines
        area.label = f"{gap:g}\" from enemy territory"
        return area

    def aim_options(self, state: State, ability: str) -> dict[str, Any]:
        """A SHOOT ability (shoot, covering fire) asks the odds of a shooting attack, even at
        a unit in combat with the shooter (Shoot in Combat weapons)."""
        a = state.rules.book.abilities.get(ability)
        return {"shooting": True} if a is not None and "SHOOT" in a.keywords else {}

    def volley(self, state: State, action: Action, aims: dict[str, str]) -> Volley | None:
        """A shoot or a fight at several targets: its split and each target's odds."""
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4.volley import volley

        return volley(state, action, aims)

    def choice_buttons(self, state: State) -> dict[str, list[tuple[str, Action]]]:
        """Magical Intervention in the enemy hero phase: the spells and prayers it may cast."""
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4.magic import INTERVENTION, intervention_choices

        got = intervention_choices(state)
        return {INTERVENTION: got} if got else {}

    def drag_abilities(self, state: State, u: int, offered: list[str]) -> list[str]:
        """A unit in combat retreats in the movement phase; one out of combat cannot."""
        if "retreat" not in offered:
            return offered

        in_combat = bool(referee(state).combat[u])
        if in_combat:
            return ["retreat", *[a for a in offered if a != "retreat"]]
        return [a for a in offered if a != "retreat"]

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """The charge odds against the enemy under the cursor (from where the unit stood)."""
        notes = DragNotes()
        move = ctx.state.scene.units[ctx.unit].stats.get("move")
        if ctx.ability in ("normal-move", "retreat", "run") and isinstance(move, str) and "D" in \
                move.upper():
            notes.lines.append(_dice_move_note(ctx, move))
        if ctx.target is None or ctx.ability not in ("charge", "counter-charge"):
            return notes
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4.charge import charge_odds

        key = ("charge", ctx.target)
        if key not in ctx.cache:
            ctx.cache[key] = charge_odds(ctx.state.rules.book,
                                         referee(ctx.state), ctx.unit,
                                         ctx.target)
        c = notes.odds = ctx.cache[key]
        if c.needed is None:
            notes.lines.append(f"charge: {c.reason}")
        else:
            notes.lines.append(f"charge needs {c.needed:.2f}\": {c.probability:.1%} "
                               f"(re-roll {c.probability_reroll:.1%})")
        return notes

    def cards(self, state: State) -> list[Card]:
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4 import abilities_play

        return abilities_play.cards(state)

    def passive_cards(self, state: State, u: int) -> list[Card]:
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4 import abilities_play

        return abilities_play.passive_cards(state, u)

    def unit_menu(self, state: State, u: int) -> list[tuple[str, Action]]:
        # here, not at the top: start-up time of the CLI
        from battlefield.rules.aos4 import abilities_play

        return abilities_play.menu(state, u)

    def in_place_words(self, state: State, action: Action) -> str:
        """A charge or run clicked is declared, the roll first ('declare a charge: red at
        blue, the roll first, then its move'); a fight clicked fights where it stands."""
        if action.type not in ("charge", "counter-charge", "run") or action.path or action.paths:
            return super().in_place_words(state, action)
        at = f" at {', '.join(action.targets)}" if action.targets else ""
        return f"declare a {action.type}: {action.unit}{at}, the roll first, then its move"

    def drop_in_place(self, state: State, u: int, ability: str, target: int | None) -> Action | str:
        """A click on a unit in combat, on the enemy: it fights where it stands. A click on a
        unit that may charge: the charge declared in the seed's order at the enemy nearest the
        cursor, else the nearest one it may charge (the roll first; then the unit is dragged
        to answer it). A click on a unit chosen to run: the run declared, the roll first."""
        if ability == "run":                 # the roll first, then the drag answers it
            return Action("run", state.scene.units[u].id)
        if ability in ("charge", "counter-charge"):
            if target is None:              # the nearest enemy a charge may be declared at
                near = sorted(state.enemies(u), key=lambda w: state.table.unit_distance(u, w))
                target = next((w for w in near if not state.check(Action(
                    ability, state.scene.units[u].id, target=state.scene.units[w].id))), None)
            if target is None:
                return f"{ability}: no enemy unit a charge roll can reach"
            return Action(ability, state.scene.units[u].id, target=state.scene.units[target].id)
        if ability != "fight":
            return "put back"
        if target is None:
            return "fight: drop beside the enemy to fight (drag to pile in first)"
        return Action("fight", state.scene.units[u].id, target=state.scene.units[target].id)


# --- battlefield try -----------------------------------------------------------------------------
def try_start(ruleset: Ruleset, scene: Scene, actions: list[Action]) -> dict[str, Any]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4 import turnfinder

    return turnfinder.start(ruleset.book, scene, actions)


def try_advance(state: State, action: Action) -> list[Violation]:
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4 import turnfinder

    return turnfinder.advance(state, action)


def health(state: State, u: int) -> list[int]:
    """Each model's Health (1 when the warscroll gives none)."""
    return [stat(state, u, "health", 1) or 1] * len(state.scene.units[u].models)


# --- the game log's words for aos4's own events (Ruleset.effect) --------------------------------
def effect(e: dict[str, Any]) -> Effect | None:
    """An attack's hits, wounds and damage; mortal damage; a rally."""
    kind = e.get("type")
    if kind == "attack" and "unsaved" in e:                         # the slain follow
        crit = f" ({e['critical']} critical)" if e.get("critical") else ""
        return Effect(str(e["target"]), damage=int(e.get("damage", 0)), hit=True,
                      dice=f"{e.get('weapon', 'attack')}: {e['attacks']} attacks, "
                           f"{plural(e['hits'], 'hit')}{crit}, {plural(e['wounds'], 'wound')}, "
                           f"{e['unsaved']} unsaved")
    if kind == "mortal-damage":
        return Effect(str(e["unit"]), damage=int(e.get("damage", 0)),
                      notes=[f"mortal damage ({e.get('for')})"])
    if kind == "rally":
        back = list(e.get("returned") or ())
        return Effect(str(e["unit"]), notes=[f"rallied: healed {e.get('healed', 0)}"
                                             + (f", {len(back)} returned" if back else "")])
    return None
