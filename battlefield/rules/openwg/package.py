"""What openwg answers beyond the game itself, for its Ruleset hooks (rules.OpenWG): the computer
player, the odds it answers (an attack's WOUNDS, a morale test's fleeing models), the unit
builder's points, `try`'s starting moment, what the window shows while a unit is dragged, and
the game log's words for its events."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.actions import Action
from battlefield.rules.chance import mean
from battlefield.rules.openwg import attacks
from battlefield.rules.openwg.data import phase_of
from battlefield.rules.openwg.odds import morale_distribution
from battlefield.rules.openwg.profiles import profiles, scene_profiles
from battlefield.rules.questions import Asked, OddsOption, OddsQuestion
from battlefield.rules.ruleset import Effect, Player, Ruleset, first_side
from battlefield.rules.state import Game, State
from battlefield.rules.window import DragContext, DragNotes, Ring, Window
from battlefield.scene.model import Scene
from battlefield.text import distribution, plural, table


def player(level: str = "normal") -> Player:
    """easy: the first heuristic player; normal: it playing for the objectives along routes
    round the terrain (openwg/normal.py)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.openwg.normal import OpenWGNormal
    from battlefield.rules.openwg.player import OpenWGPlayer

    return OpenWGPlayer() if level == "easy" else OpenWGNormal()


def _dist(dist: dict[int, Fraction]) -> dict[str, float]:
    return {str(k): float(dist[k]) for k in sorted(dist)}


def attack_answer(asked: Asked) -> dict[str, Any]:
    """A's attack on B: the exact distribution of the WOUNDS B suffers."""
    (a, b), (u, w) = asked.names, asked.units
    state, scene, ruleset = asked.state, asked.scene, asked.ruleset
    weapon = asked.options.get("weapon")
    prof = profiles(state)[u]
    kind = "melee"
    if weapon is not None:
        found = [wp for ws in prof.model_weapons for wp in ws if wp.name == weapon]
        if not found:
            raise UsageError(f"{a} has no weapon '{weapon}' (weapons: "
                             f"{', '.join(prof.weapon_names())})")
        kind = found[0].type
    p = attacks.plan(state, u, w, kind, weapon)
    dist = p.distribution()
    return {"attacker": a, "target": b, "kind": kind,
            "refused_now": _refused_now(ruleset, scene, a, b, kind, weapon),
            "expected_damage": float(mean(dist)), "distribution": _dist(dist),
            "attackers": p.attackers, "armor": attacks.armor(state, w),
            "groups": [{"models": g.models, "precision": g.precision, "damage": g.damage,
                        "wounds_over": g.threshold, "rerolled_hits": sorted(g.hit_faces),
                        "rerolled_armor": sorted(g.wound_faces)} for g in p.groups],
            "after": [{"dice": x.dice, "on": x.on} for x in p.bursts]}


# Refusals about whose turn or which phase it is, which say nothing about the attack (it is
# checked in its own phase with its side acting).
NOT_NOW = ("wrong_phase", "not_your_turn")


def _refused_now(ruleset: Ruleset, scene: Scene, a: str, b: str, kind: str, weapon: str | None
                 ) -> list[dict[str, str]]:
    """What the game would refuse of this attack in its own phase, its side acting, with the
    units as they stand (in combat, already shot or fought this round, ...): the odds are the
    dice's all the same."""
    action = Action("shoot" if kind == "ranged" else "fight", unit=a, target=b, weapon=weapon)
    moment = {"phase": phase_of(scene, action.type),
              "active": scene.units[scene.unit_index(a)].side}
    st = dict(scene.extra.get("state") or {})
    if "clock" in st:                 # a whole position: its clock moved to that moment
        st["clock"] = {**st["clock"], **moment, "stopped": []}
    else:
        st.update(moment)
    state = Game(ruleset, replace(scene, extra={**scene.extra, "state": st})).new_state()
    return [{"code": x.code, "message": x.message} for x in state.check(action)
            if x.code not in NOT_NOW]


def _attack_text(d: dict[str, Any]) -> str:
    lines = [f"{d['attacker']} attacks {d['target']} ({d['kind']}; armor {d['armor']})"]
    for x in d["refused_now"]:
        lines.append(f"  the game would refuse this attack now: {x['code']}: {x['message']}")
    if not d["attackers"]:
        lines.append("  no model has the target within its weapon's range")
    for g in d["groups"]:
        lines.append(f"  {g['models']} models: hit on {g['precision']} or less, "
                     f"{g['damage']} dice a hit, each over {g['wounds_over']} a WOUND"
                     + (f", re-roll hits on {g['rerolled_hits']}" if g["rerolled_hits"] else "")
                     + (f", re-roll armor on {g['rerolled_armor']}" if g["rerolled_armor"]
                        else ""))
    for x in d["after"]:
        lines.append(f"  then {x['dice']} dice, each {x['on']} or less a WOUND")
    lines.extend(distribution(d))
    return "\n".join(lines)


def morale_answer(asked: Asked) -> dict[str, Any]:
    """How many models of UNIT flee after N were slain this round."""
    (name,), (u,) = asked.names, asked.units
    slain = asked.options.get("slain")
    if slain is None or slain < 0:
        raise UsageError("--morale needs --slain N (models slain this round, 0 or more)")
    state = asked.state
    bravery = int(profiles(state)[u].stat("bravery"))
    models = len(state.models_of(u))
    if slain > models:
        raise UsageError(f"--slain {slain}: {name} has {models} model"
                         f"{'s' * (models != 1)} on the table (the slain are counted among them)")
    left = models - slain
    dist = morale_distribution(bravery, slain, left)
    return {"unit": name, "slain": slain, "bravery": bravery, "models_left": left,
            "expected_fled": float(sum(k * p for k, p in dist.items())),
            "distribution": _dist(dist)}


def _morale_text(d: dict[str, Any]) -> str:
    rows = [[k, f"{p:.1%}", "#" * round(p * 40)] for k, p in d["distribution"].items()]
    return "\n".join([f"{d['unit']}: D6 + {d['slain']} slain over bravery {d['bravery']} "
                      f"flee (at most the {d['models_left']} left)",
                      f"  expected to flee {d['expected_fled']:.2f}",
                      table(["fled", "chance", ""], rows)])


def points(ruleset: Ruleset, scene: Scene) -> dict[str, Any]:
    """The points of every unit given by `build:`, and each side's total."""
    units: dict[str, Any] = {}
    sides: dict[str, int] = {}
    for spec, prof in zip(scene.units, scene_profiles(scene, ruleset.book.builder),
                          strict=True):
        if prof.built is None:
            continue
        units[spec.id] = {"points": prof.built.points, "template": prof.built.template,
                          "upgrades": prof.built.upgrades,
                          "stats": {**prof.built.stats, "weapons": prof.built.weapons}}
        sides[spec.side] = sides.get(spec.side, 0) + prof.built.points
    return {"units": units, "sides": sides}


def try_start(scene: Scene, actions: list[Action]) -> dict[str, Any]:
    """`try` starts in the phase of the first action that has one, with the first action's
    side acting. A first `stop` that names no side is the stop of the side that acts first
    in that phase (the scene's, else its first side): `stop` then a blue shoot is red
    stopping and blue shooting, not blue stopping before its own shot."""
    out: dict[str, Any] = {}
    if not (actions and actions[0].type == "stop" and not actions[0].side):
        out["active"] = first_side(scene, actions)
    first = next((a for a in actions if phase_of(scene, a.type)), None)
    if first is not None:
        out["phase"] = phase_of(scene, first.type)
    return out


ODDS = (
    OddsQuestion("attack", ("A", "B"),
                 "unit A attacks unit B: the exact distribution of the WOUNDS B suffers "
                 "(melee unless --weapon names a ranged one)",
                 attack_answer, _attack_text,
                 "expected_damage, distribution {\"0\": p, ...}, attackers {WEAPON: [models]}",
                 (OddsOption("weapon", "attack with this weapon only (its name)", "text"),),
                 enemies=True),
    OddsQuestion("morale", ("UNIT",),
                 "UNIT's morale test after --slain N models were slain this round: how many "
                 "flee", morale_answer, _morale_text,
                 "distribution {\"0\": p, ...}, expected_fled, bravery, models_left",
                 (OddsOption("slain", "models slain this round", "whole"),)),
)


def check_scene(ruleset: Ruleset, scene: Scene) -> None:
    """Every unit's profile, build and specials (InputError at the key path)."""
    scene_profiles(scene, ruleset.book.builder)


def health(state: State, u: int) -> list[int]:
    """Each model's Health from its profile (models of a unit may differ)."""
    prof = profiles(state)[u]
    return [int(prof.stat("health", k)) for k in range(len(state.scene.units[u].models))]


# --- the game log's words for openwg's own events (Ruleset.effect) ------------------------------
def effect(e: dict[str, Any]) -> Effect | None:
    """An attack's wounds pooled on its target, the wounds taken at the end of the phase,
    models that flee a morale test."""
    kind = e.get("type")
    if kind in ("shoot", "fight", "charge-attack", "charge-dice") and "attackers" in e:
        n = sum(len(v) for v in (e.get("attackers") or {}).values())
        return Effect(str(e["target"]), pooled=int(e.get("wounds", 0)),
                      dice=f"{e.get('with', kind)}: {plural(n, 'model')} attacking, "
                           f"{e.get('wounds', 0)} wounds")
    if kind == "wounds" and "shrug" in e:                           # the end of the phase
        return Effect(str(e["unit"]), damage=int(e.get("wounds", 0)),
                      slain=list(e.get("slain") or ()),
                      notes=[f"{e['shrug']} shrugged off"] if e.get("shrug") else [])
    if kind == "morale" and "fled" in e:
        return Effect(str(e["unit"]), removed=list(e.get("fled") or ()),
                      notes=[f"morale: {len(e['fled'])} fled (Bravery {e.get('bravery')})"]
                      if e.get("fled") else [])
    return None


class OpenWGWindow(Window):
    """What the play window shows of openwg: the attack odds while dragged, the wounds pooled on
    each unit."""

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """The charge target's 1" ring; the allowance and the wound pools in the caption."""
        notes = DragNotes()
        state = ctx.state
        allowed = state.rules.move_allowance(state, ctx.unit, ctx.ability)
        if allowed is not None:
            notes.lines.append(f"{ctx.ability}: up to {round(allowed, 2):g}\""
                               + (" in a straight line" if ctx.ability == "charge" else ""))
        if ctx.target is not None and ctx.ability == "charge":
            notes.rings.append(Ring(ctx.target, "charge: end within 1\""))
        return notes

    def unit_notes(self, state: State) -> dict[int, str]:
        """The wounds pooled on each unit this round (resolved in the Leadership phase), and what
        it did this round."""
        out = {}
        for u, us in enumerate(state.units):
            bits = []
            if us.counters.get("wounds"):
                bits.append(f"{int(us.counters['wounds'])} wounds pooled")
            done = sorted(f for f in us.flags if f in ("ran", "charged", "retreated", "held",
                                                       "shot"))
            if done:
                bits.append(", ".join(done))
            if bits:
                out[u] = "; ".join(bits)
        return out
