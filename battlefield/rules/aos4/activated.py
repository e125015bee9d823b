"""Activated warscroll abilities the engine plays (aos4): a unit's ability read whole by the
effect reader and made only of what this module carries out, declared as `{"type":
"ability", "unit": ID, "ability": NAME, "target": ID}` at its timing:

- the target the Declare picks: one enemy or friendly unit, up to N or each of them (another
  one, with or without keywords or with either of two, within or wholly within N", in combat
  with this unit, that charged this turn, not in combat), or none (this unit); "each" picks
  every unit that fits
  (the action names no target);
- the conditions of using it: this unit charged this turn, is (not) in combat, is damaged;
- mortal damage on the target or this unit (N, dice, or equal to the roll), heal (N or dice);
- for the rest of the turn: a modifier to hit or wound rolls of the unit's (melee or shooting)
  attacks, to save rolls for it, to the Attacks, Rend or Damage of its (melee or ranged)
  weapons, to its charge and run rolls, Move, control score, casting and chanting rolls and
  the number of dice of its charge rolls (counters `buff_...` the turn's end clears;
  passives.in_attack and passives.roll_bonus apply them);
- for the rest of the turn, on friendly or enemy units (within N" of this unit ...): any
  modifier passives.py plays, in force as a passive one until the turn ends
  (state.extra[passives.TURN_AURAS]);
- for the rest of the turn: STRIKE-FIRST or STRIKE-LAST (fighting.strike), cannot use
  commands (commands.rules_of_one, defence.can_use) - the unit's flags, cleared as the turn
  ends;
- models slain when a roll exceeds (equals or exceeds, is at least double) the target's
  Health characteristic (the most damaged first, its leader last; "it is automatically
  destroyed": every model);
- any of these on a roll: "Roll a dice. On a 3+, ..." (one roll for every effect that names
  it; "On a 1, ..." of the same roll), "Roll K dice (or one for each model in this or the
  target unit). For each 4+, inflict 1 mortal damage".

`playable(reading)` says whether the engine plays it whole (else the declared ability is
logged with its text and applied by hand).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import ability_moves as moving
from battlefield.rules.aos4 import allocation, effects, passives, set_up
from battlefield.rules.aos4.defence import NO_COMMANDS
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.passives import _within, in_play
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]
BUFFS = ("hit", "wound", "save", "attacks", "rend", "damage", "charge", "run", "move",
         "control", "casting", "chanting", "charge_dice")
TARGET_KEYS = {"unit", "keywords", "any_keywords", "not_keywords", "within", "wholly_within",
               "in_combat", "charged", "other", "count", "visible", "not_in_combat", "name",
               "not_fought"}
MOST_TARGETS = 6
# How many dice 'Roll a number of dice equal to ...' rolls: the models of this or the target
# unit, the target's Health characteristic, the damage points the target has (_dice).
DICE_COUNTS = ("models of", "health of", "damage of")
TURN_END = "turn-end:"     # a counter: what of a buff_ counter lasts only until the turn ends
NEXT_TURN = "next-turn:"   # a counter next-turn:SIDE:KEY: what lasts until SIDE's next turn starts
LASTING = ("turn", "next-turn")
FIGHTS_NEXT = "fights_next"     # state.extra: the unit a reaction picked to fight immediately
                                # after the fight it reacted to (fighting.fighters)
PASSED_FIGHT = "passed-fight"   # phase_used: a unit its side passed over in the combat phase


# --- what the engine plays ---
def _subject(who: Mapping[str, Any] | None) -> bool:
    return who in ({"unit": "self"}, {"unit": "target"})


def _effect_ok(e: Mapping[str, Any], has_target: bool) -> bool:
    if "fight_after" in e:
        return e.get("who") == {"unit": "target"} and set(e) == {"fight_after", "who"}
    if "weapon" in e or ("against" in e and "mortal" not in e):
        return False
    if e.get("if") and (_aura(e) or any(set(c) - _now_ok(e) for c in e["if"])):
        return False
    if set_up.SET_UP in e:
        return e.get("who") == {"unit": "self"} and "each" not in e and "until" not in e
    if "use" in e:                  # a Retreat or a Normal Move as if in the movement phase
        return e.get("who") == {"unit": "self"} and "each" not in e and "until" not in e
    on = e.get("on") or e.get("each")
    if on is not None and not isinstance(on.get("dice"), int) and not str(
            on.get("dice")).startswith(DICE_COUNTS):
        return False
    if "each" in e and "mortal" not in e:
        return False
    if _aura(e):
        return e.get("until") == "turn" and "each" not in e and passives.effect_ok(
            {k: x for k, x in e.items() if k not in ("until", "on")})
    if "mortal" in e or "heal" in e or "slay" in e or "return" in e:
        return _subject(e.get("who"))
    if "ward" in e or "keyword" in e or "no_commands" in e:
        return _subject(e.get("who")) and e.get("until") in LASTING
    roll = e.get("modify")
    if roll not in BUFFS or e.get("until") not in LASTING:
        return False
    if roll in ("hit", "wound"):
        return "of" in e and _subject(e["of"])
    return _subject(e.get("who"))


def _now_ok(e: Mapping[str, Any]) -> set[str]:
    """The conditions on an effect the engine decides when it plays it ('If this unit charged
    this turn, ...'): whether this unit charged (true all turn), and for what happens at once
    (no duration: an 'if' and a 'while' are the same then) whether it is in combat or damaged;
    whether it used a MOVE ability (normal move, run, retreat, charge: its `moved` and
    `charged` flags) or was set up (set_up.FLAG) this turn."""
    lasting = {"charged", "moved", "set_up"}      # only ever said with 'if'
    return lasting if "until" in e else lasting | {"in_combat", "damaged"}


def conditions_hold(state: State, u: int, e: Mapping[str, Any]) -> bool:
    """Whether the conditions on effect e ('If this unit is not in combat, ...') hold now."""
    return all(_holds(state, u, c) for c in e.get("if", ()))


def _holds(state: State, u: int, c: Mapping[str, Any]) -> bool:
    us = state.units[u]
    if "moved" in c or "set_up" in c:
        moved = bool(us.flags & {"moved", "charged"})
        return ("moved" not in c or moved == c["moved"]) and (
            "set_up" not in c or (set_up.FLAG in us.flags) == c["set_up"])
    if "charged" in c:
        return ("charged" in us.flags) == bool(c["charged"])
    if "in_combat" in c:
        return bool(referee(state).combat[u]) == bool(c["in_combat"])
    return (us.damage[us.alive].sum() > 0) == bool(c["damaged"])


def _aura(e: Mapping[str, Any]) -> bool:
    """An effect on friendly or enemy units (within N" of this unit ...), not on one unit."""
    subject = e.get("who") or e.get("of") or {}
    return subject.get("unit") in ("friendly", "enemy") and not {"mortal", "heal",
                                                                  "return"} & set(e)


def _target_ok(t: Mapping[str, Any] | None) -> bool:
    if t is None:
        return True
    count = t.get("count")
    reach = t.get("within", t.get("wholly_within", 0))
    return (set(t) <= TARGET_KEYS and (count == "each" or isinstance(count, int)
                                       and 1 <= count <= MOST_TARGETS)
            and (not isinstance(reach, str) or reach == "combat range"))


def playable(reading: effects.Reading | None) -> bool:
    """An activated reading the engine plays whole."""
    if reading is None or reading.timing is None or not _target_ok(reading.target):
        return False
    if any(set(c) - {"charged", "in_combat", "damaged"} for c in reading.conditions):
        return False
    if reading.timing.get("phase") == "deployment" and any(
            set_up.SET_UP in e or "use" in e for e in reading.effects):
        return False        # a set-up or move in the deployment phase: it plays no ability
    has_target = reading.target is not None
    after = [e for e in reading.effects if "fight_after" in e]
    if after and (reading.timing.get("reaction") != "fight" or not has_target
                  or reading.target.get("count") != 1):
        return False
    return bool(reading.effects) and all(_effect_ok(e, has_target) for e in reading.effects) \
        and all(not ((e.get("who") or e.get("of") or {}).get("unit") == "target")
                or has_target for e in reading.effects)


# --- declaring it ---
def check(state: State, u: int, reading: effects.Reading, action: Action) -> list[Violation]:
    """The conditions and the target of a played ability (its timing is checked already)."""
    us, spec = state.units[u], state.scene.units[u]
    ref = referee(state)
    for c in reading.conditions:
        if "charged" in c and ("charged" in us.flags) != c["charged"]:
            return [v("not_charged", f"{spec.id} did not charge this turn") if c["charged"]
                    else v("charged", f"{spec.id} charged this turn")]
        if "damaged" in c and (us.damage.sum() > 0) != c["damaged"]:
            return [v("not_damaged", f"{spec.id} has no damage points")]
        if "in_combat" in c and bool(ref.combat[u]) != c["in_combat"]:
            return [v("in_combat" if ref.combat[u] else "not_in_combat",
                      f"{spec.id} is {'' if ref.combat[u] else 'not '}in combat")]
    for e in reading.effects:         # where the unit is set up again: the action's places;
        if not conditions_hold(state, u, e):        # where it moves: the action's path
            continue
        out = set_up.check(state, u, e, action) if set_up.SET_UP in e else \
            moving.check(state, u, e, action) if "use" in e else []
        if out:
            return out
    t = reading.target
    if t is None:
        return [v("no_target_needed", "this ability picks no target")] if action.target \
            else []
    if t["count"] == "each":
        if action.target is not None:
            return [v("each_target", f"it picks every {_target_words(t)}: name no target")]
        if not each(state, u, reading):
            return [v("no_target", f"there is no {_target_words(t)}")]
        return []
    if action.target is None:
        return [v("no_target", f"pick the target: {_target_words(t)}", choose="target")]
    picked = action.targets
    ids = {x.id for x in state.scene.units}
    if len(picked) > t["count"] or len(set(picked)) < len(picked) or not set(picked) <= ids:
        return [v("bad_target", f"up to {t['count']} different units: {_target_words(t)}")]
    table = in_play(state, ref)
    for tid in picked:
        w = state.unit_index(tid)
        if not len(state.models_of(w)):
            return [v("target_destroyed", f"{tid} has no model on the table")]
        if not _fits(state, ref, table, t, u, w):
            return [v("not_a_target", f"{tid} is not {_target_words(t)}")]
    return []


def each(state: State, u: int, reading: effects.Reading) -> list[int]:
    """Every unit standing that a Declare picking "each" unit picks."""
    ref = referee(state)
    table = in_play(state, ref)
    assert reading.target is not None
    return [w for w in range(len(state.scene.units)) if len(state.models_of(w))
            and _fits(state, ref, table, reading.target, u, w)]


def _fits(state: State, ref: Referee, table: Any, t: Mapping[str, Any], u: int, w: int
          ) -> bool:
    """Unit w is a unit the Declare lets unit u pick."""
    spec, tspec = state.scene.units[u], state.scene.units[w]
    keys = tuple(tspec.keywords)
    reach = {k: (ref.rules.combat_range if t[k] == "combat range" else float(t[k]))
             for k in ("within", "wholly_within") if k in t}
    return not ((t["unit"] == "friendly") != (tspec.side == spec.side)
                or (t.get("other") and w == u)
                or ("name" in t and not named(tspec, t["name"]))
                or (t.get("not_fought") and (w == u or not may_fight(state, ref, w)))
                or any(not effects.has_keywords(k, keys) for k in t.get("keywords", ()))
                or any(effects.has_keywords(k, keys) for k in t.get("not_keywords", ()))
                or ("any_keywords" in t
                    and not any(effects.has_keywords(k, keys) for k in t["any_keywords"]))
                or ("within" in reach and not _within(table, w, u, reach["within"], False))
                or ("wholly_within" in reach
                    and not _within(table, w, u, reach["wholly_within"], True))
                or (t.get("in_combat") and w not in ref.combat[u])
                or (t.get("charged") and "charged" not in state.units[w].flags)
                or (t.get("not_in_combat") and bool(ref.combat[w]))
                or (t.get("visible") and w != u and not _sees(ref, state, u, w)))


def named(spec: Any, name: str) -> bool:
    """A unit the text names by its warscroll's name ('a friendly Crypt Horrors unit'): its
    name, the catalogue's "(N Models)" aside, or a keyword of that name."""
    own = re.sub(r"\s*\(\d+ models?\)\s*$", "", str(spec.name or ""), flags=re.I)
    return " ".join(own.split()).lower() == " ".join(name.split()).lower() \
        or effects.has_keywords(name.upper(), tuple(spec.keywords))


def may_fight(state: State, ref: Referee, w: int) -> bool:
    """Unit w has not fought (nor been passed over) this phase and may fight: in combat, or
    charged this turn (fighting.all_fighters' rule)."""
    return not state.units[w].phase_used & {"fight", PASSED_FIGHT} \
        and bool(ref.combat[w] or "charged" in state.units[w].flags)


def _sees(ref: Referee, state: State, u: int, w: int) -> bool:
    """Some model of unit u sees some model of unit w."""
    return any(ref.sight.model_visibility(int(m), int(n)).any
               for m in state.models_of(u) for n in state.models_of(w))


def _target_words(t: Mapping[str, Any]) -> str:
    bits = ["another" if t.get("other") else "a", t["unit"],
            *[f"non-{k}" for k in t.get("not_keywords", ())], *t.get("keywords", ()),
            *([" or ".join(t["any_keywords"])] if "any_keywords" in t else []),
            *([t["name"]] if "name" in t else []), "unit"]
    if t.get("count") == "each":
        bits[0] = "each"
    elif t.get("count", 1) > 1:
        bits[0] = f"up to {t['count']}"
    if t.get("visible"):
        bits.insert(1, "visible")
    if "within" in t:
        bits.append(f"within {t['within']}\"")
    if "wholly_within" in t:
        bits.append(f"wholly within {t['wholly_within']}\"")
    if t.get("in_combat"):
        bits.append("in combat with this unit")
    if t.get("charged"):
        bits.append("that charged this turn")
    if t.get("not_in_combat"):
        bits.append("not in combat")
    if t.get("not_fought"):
        bits.append("that may still fight this phase")
    return " ".join(bits)


# --- playing it ---
def play(state: State, u: int, name: str, reading: effects.Reading, action: Action
         ) -> list[Event]:
    """Every effect, each roll made once (the effects that name one roll share it)."""
    spec = state.scene.units[u]
    targets = [state.unit_index(t) for t in action.targets]
    if reading.target is not None and reading.target["count"] == "each":
        targets = each(state, u, reading)
    events: list[Event] = [{"type": "ability-declared", "unit": spec.id, "ability": name,
                            "played": True, **({"target": action.target} if action.targets
                                               else {})}]
    if reading.target is not None and reading.target["count"] == "each":
        events[0]["targets"] = [state.scene.units[w].id for w in targets]
    rolled: dict[str, Any] = {}
    for w in targets or [None]:
        for e in reading.effects:
            events.extend(_one(state, u, w, name, e, rolled, action))
    return events


def _one(state: State, u: int, w: int | None, name: str, e: Mapping[str, Any],
         rolled: dict[str, Any], action: Action) -> list[Event]:
    """One effect on the target w (or this unit u); `rolled`: the rolls made so far."""
    spec = state.scene.units[u]
    why = f"{name} ({spec.id})"
    who = e.get("who") or e.get("of") or {}
    x = w if who.get("unit") == "target" and w is not None else u
    if not len(state.models_of(x)):
        return []
    if not conditions_hold(state, u, e):
        return [{"type": "ability-effect", "unit": spec.id, "ability": name,
                 "effect": "no effect: its condition does not hold"}]
    times, value = 1, None
    if "on" in e:
        key = e["on"]["roll"] + (f" {w}" if e["on"].get("each_target") else "")
        if key not in rolled:
            rolled[key] = state.dice.total(e["on"]["roll"], why)
        value = int(rolled[key])
        if "health" in e["on"]:
            health = allocation.stat(state, x, "health", 1) or 1
            need = {"exceeds": health + 1, "reaches": health, "double": 2 * health}
            if value < need[e["on"]["health"]]:
                return []
        elif not e["on"]["at_least"] <= value <= e["on"].get("at_most", 99):
            return []
    if "each" in e:
        dice = _dice(state, e["each"], u, w)
        faces = e["each"]["roll"].upper().lstrip("1")
        values = state.dice.roll(f"{dice}{faces}", why).values if dice else []
        times = sum(1 for r in values
                    if e["each"]["at_least"] <= r <= e["each"].get("at_most", 99))
    if "slay" in e:
        return _slay(state, x, e["slay"], why)
    if set_up.SET_UP in e:
        return set_up.play(state, x, name, action)
    if "use" in e:
        return moving.play(state, x, e, action)
    if "fight_after" in e:          # fighting.fighters: only it may fight next
        state.extra[FIGHTS_NEXT] = x
        return [{"type": "ability-effect", "unit": state.scene.units[x].id, "ability": name,
                 "effect": f"fights immediately after {spec.id}"}]
    if "mortal" in e:
        out: list[Event] = []
        for _ in range(times):
            expr = value if e["mortal"] == "ROLL" else e["mortal"]
            out.extend(allocation.mortal(state, x, expr, why, state.models_of(u)))
        return out
    if "heal" in e:
        return [_heal(state, x, e["heal"], why)]
    if "return" in e:
        return [_return(state, x, value if e["return"] == "ROLL" else e["return"], why, name)]
    if _aura(e):                    # in force for the rest of the turn (passives.in_force)
        state.extra.setdefault(passives.TURN_AURAS, []).append(
            [u, name, {k: x for k, x in e.items() if k not in ("until", "on")}])
        return [{"type": "ability-effect", "unit": spec.id, "ability": name,
                 "effect": "for the rest of the turn: " + _aura_words(e)}]
    c = state.units[x].counters
    # until the turn ends, or until the start of the caster's side's next turn (lasting)
    until = f"{NEXT_TURN}{spec.side}:" if e.get("until") == "next-turn" else TURN_END
    when = (f"until the start of {spec.side}'s next turn" if until != TURN_END
            else "for the rest of the turn")
    if "keyword" in e or "no_commands" in e:     # flags: the turn's start clears them
        flag = e["keyword"].lower() if "keyword" in e else NO_COMMANDS
        state.units[x].flags.add(flag)
        if until != TURN_END:
            c[f"{until}flag:{flag}"] = 1         # lasting() gives it again
        words = (f"{e['keyword']} {when}" if "keyword" in e
                 else f"cannot use commands {when}")
        return [{"type": "ability-effect", "unit": state.scene.units[x].id, "ability": name,
                 "effect": words}]
    if "ward" in e:
        c["buff_ward"] = min(int(c.get("buff_ward", 7)), int(e["ward"]))
        c[until + "buff_ward"] = int(e["ward"]) if until != TURN_END else 1
        words = f"WARD ({e['ward']}+) {when}"
    else:
        key = _buff_key(e)
        c[key] = c.get(key, 0) + int(e["by"])
        c[until + key] = c.get(until + key, 0) + int(e["by"])   # taken back as it ends
        words = _buff_words(e).removesuffix("for the rest of the turn") + when
    return [{"type": "ability-effect", "unit": state.scene.units[x].id, "ability": name,
             "effect": words}]


def lasting(us: Any, side: str) -> dict[str, float]:
    """`side`'s turn starts (turns.start_turn, once the unit's flags are cleared): what its
    abilities gave "until the start of your next turn" (NEXT_TURN counters) ends - its share
    of each buff_ counter taken back, a ward or a flag gone -; what another side's give goes
    on: its flags set again, and the buff_ shares returned (what the unit's own side's start
    must keep of its buff_ counters)."""
    keep: dict[str, float] = {}
    for k in [k for k in us.counters if k.startswith(NEXT_TURN)]:
        owner, _, key = k[len(NEXT_TURN):].partition(":")
        share = us.counters[k]
        if owner != side:
            if key.startswith("flag:"):
                us.flags.add(key[len("flag:"):])
            else:
                keep[key] = min(keep.get(key, 7), share) if key == "buff_ward" \
                    else keep.get(key, 0) + share
            continue
        del us.counters[k]
        if key.startswith("flag:"):
            continue
        if key == "buff_ward":
            us.counters.pop(key, None)
        elif key in us.counters:
            us.counters[key] -= share
            if not us.counters[key]:
                del us.counters[key]
    return keep


def _slay(state: State, x: int, n: int | str, why: str) -> list[Event]:
    """N models of unit x slain (no save, no ward), the most damaged first and its leader
    last, or every model ("all": the unit destroyed)."""
    alive = [int(m) for m in state.models_of(x)]
    first = state.scene.model_offsets()[x]
    leader = first + state.scene.units[x].leader
    dmg = state.units[x].damage
    alive.sort(key=lambda m: (m == leader, -int(dmg[m - first]), m))
    slain = alive if n == "all" else alive[:int(n)]
    allocation.kill(state, x, slain)
    return [{"type": "slain", "unit": state.scene.units[x].id, "cause": why,
             "models": [state.scene.model_names[m] for m in slain]},
            *allocation.restore_coherency(state, x)]


def _dice(state: State, each: Mapping[str, Any], u: int, w: int | None) -> int:
    """How many dice a roll for each ... rolls (to its maximum, if it has one)."""
    n = each["dice"]
    if isinstance(n, int):
        return n
    x = w if n.endswith("target") and w is not None else u
    if n.startswith("health of"):
        count = int(allocation.stat(state, x, "health", 1) or 1)
    elif n.startswith("damage of"):
        count = int(state.units[x].damage[state.units[x].alive].sum())
    else:
        count = len(state.models_of(x))
    return min(count, int(each.get("most", count)))


def _heal(state: State, x: int, amount: str, why: str) -> Event:
    points = state.dice.total(str(amount), why)
    us = state.units[x]
    healed = 0
    for k in sorted(range(len(us.damage)), key=lambda k: -int(us.damage[k])):
        while points and us.alive[k] and us.damage[k] > 0:
            us.damage[k] -= 1
            points -= 1
            healed += 1
    return {"type": "healed", "unit": state.scene.units[x].id, "points": healed}


def _return(state: State, x: int, amount: Any, why: str, name: str) -> Event:
    """Slain models of unit x returned, `amount` of them (rolled now) or as many as there is
    room for, each where it fell or beside a standing model as Rally returns them
    (allocation.place_returned)."""
    n = state.dice.total(amount, why)
    back = allocation.return_slain(state, x, n)
    return {"type": "returned", "unit": state.scene.units[x].id, "ability": name,
            "models": back}


def _buff_key(e: Mapping[str, Any]) -> str:
    """buff_hit (every attack: magic's), buff_hit_melee, buff_rend_ranged ..."""
    kind = e.get("attacks") or e.get("weapons")
    kind = {"shooting": "ranged"}.get(kind, kind)
    return f"buff_{e['modify']}" + (f"_{kind}" if kind else "")


def _aura_words(e: Mapping[str, Any]) -> str:
    subject = e.get("who") or e.get("of") or {}
    whom = " ".join([subject["unit"], *subject.get("keywords", ()), "units"])
    if "wholly_within" in subject or "within" in subject:
        d = subject.get("wholly_within", subject.get("within"))
        whom += f" {'wholly ' if 'wholly_within' in subject else ''}within {d}\""
    if "keyword" in e:
        return f"{whom} have {e['keyword']}"
    return f"{_buff_words(e).removesuffix(' for the rest of the turn')} for {whom}"


def _buff_words(e: Mapping[str, Any]) -> str:
    by = int(e["by"])
    what = {"hit": "hit rolls", "wound": "wound rolls", "save": "save rolls",
            "attacks": "Attacks", "rend": "Rend", "damage": "Damage", "charge": "charge rolls",
            "run": "run rolls", "move": "Move", "control": "control score",
            "casting": "casting rolls", "chanting": "chanting rolls",
            "charge_dice": "the dice of charge rolls"}[e["modify"]]
    kind = e.get("attacks") or e.get("weapons")
    return f"{by:+d} to {what}" + (f" ({kind})" if kind else "") + " for the rest of the turn"
