"""A unit's own warscroll abilities (`abilities:`) at the table (aos4): declared as an action,
`{"type": "ability", "unit": ID, "ability": NAME, "target"?: ID}`, at their timing; the ones
the engine cannot play are logged with their text, and their effect is applied by hand
(rules/adjust.py, with the other side's consent). Which abilities fall in the phase now (what
the window and the pages show), and how the computer player answers an adjustment: it accepts
one that a declared ability's text supports and refuses the others.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from battlefield.rules import adjust
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import (
    activated,
    allocation,
    commands,
    effects,
    passives,
    set_up,
    warscroll,
)
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.movement import v
from battlefield.rules.decisions import DECLINE, Decision, ask
from battlefield.rules.dice import parse
from battlefield.rules.state import State
from battlefield.rules.window import Card
from battlefield.scene.model import Scene

Event = dict[str, Any]
ABILITY = "ability"
REACTION = "fight-reaction"      # the decision a fight asks of its side: a reaction, or decline
DECLARED = "declared:"           # a unit's counter: the abilities it declared this battle
ROLLS = ("hit", "wound", "save", "run", "charge")   # the rolls an adjustment's modifier names
# The reader's phases as aos4's clock names them.
PHASE = {"hero": "hero", "movement": "movement", "shooting": "shooting", "charge": "charge",
         "combat": "combat", "end of turn": "end", "start of turn": "start",
         "deployment": "deployment"}


# --- a unit's abilities and their timing ---
def of(state: State, u: int) -> list[dict[str, Any]]:
    """Unit u's abilities as the scene gives them (warscroll.of: every key present)."""
    return warscroll.of(state.scene.units[u])


def find(state: State, u: int, name: str) -> dict[str, Any] | None:
    """Unit u's ability called `name` (spacing and case aside)."""
    want = " ".join(str(name).split()).lower()
    return next((a for a in of(state, u) if " ".join(a["name"].split()).lower() == want), None)


def timing(a: dict[str, Any]) -> dict[str, str] | None:
    """{"phase": aos4's phase or "every", "whose": your | enemy | any} of an ability that is
    not passive: its Timing as the reader reads it, else a reaction's by what it reacts to
    (a FIGHT ability: the combat phase; a SHOOT: your shooting phase; the opponent's SPELL:
    the enemy hero phase ...), else every phase (a reaction to a command); a deployment
    ability at the battle's start. None for a passive ability."""
    if a.get("kind") == "passive":
        return None
    text = " ".join(str(a.get("timing") or "").split())
    text = _ONCE.sub("", text).rstrip(".")
    try:
        t = effects.read_timing(text)
    except Exception:          # noqa: BLE001 - the reader's own 'unread': a reaction
        t = None
    if t is not None:
        if t["phase"] == "deployment":
            return {"phase": "start", "whose": "any"}
        return {"phase": PHASE.get(t["phase"], t["phase"]), "whose": t["whose"]}
    low = text.lower()
    if low.startswith("start of") and "battle round" in low:
        return {"phase": "start", "whose": "any"}
    m = _REACTION.search(low)
    if m is not None:
        whose = "enemy" if m.group("who") == "opponent" else "your"
        for word, phase, mine in _REACTS_TO:
            if word in m.group("what"):
                return {"phase": phase, "whose": mine if whose == "your" else
                        {"your": "enemy", "enemy": "your", "any": "any"}[mine]}
    return {"phase": "every", "whose": "any"}


_ONCE = re.compile(r"^once per (?:turn|battle round|battle)(?: \(army,?\))?,? ", re.I)
_REACTION = re.compile(r"(?P<who>you|opponent|you or your opponent) declared (?P<what>.*)$")
# What a reaction reacts to -> (phase, whose turn for "you declared").
_REACTS_TO = (("fight", "combat", "any"), ("shoot", "shooting", "your"),
              ("'counter-charge'", "charge", "enemy"), ("'covering fire'", "charge", "enemy"),
              ("charge", "charge", "your"), ("'redeploy'", "movement", "enemy"),
              ("spell", "hero", "your"), ("prayer", "hero", "your"))


def now(state: State, a: dict[str, Any], side: str) -> bool:
    """Whether ability `a` of a unit of `side` falls in the phase and turn of now."""
    t = timing(a)
    if t is None:
        return False
    if t["phase"] == "every":
        return True
    if t["phase"] != state.clock.get("phase"):
        return False
    mine = state.clock.get("active") == side
    return t["whose"] == "any" or (t["whose"] == "your") == mine


def _declared(scene: Scene, action: Action) -> dict[str, Any] | None:
    """The ability an `ability` action names, if its unit has it."""
    for spec in scene.units:
        if spec.id == action.unit:
            want = " ".join(str(action.option(ABILITY)).split()).lower()
            return next((a for a in warscroll.of(spec)
                         if " ".join(a["name"].split()).lower() == want), None)
    return None


def whose(scene: Scene, action: Action) -> str | None:
    """Whose turn an `ability` action's ability is used in (try's start): your, enemy, any."""
    a = _declared(scene, action)
    t = timing(a) if a is not None else None
    return None if t is None else t["whose"]


def phase_of(state: State, action: Action) -> tuple[str, str] | None:
    """(phase, whose) of the ability an `ability` action declares (try plays it then)."""
    a = _declared(state.scene, action)
    t = timing(a) if a is not None else None
    if t is None or t["phase"] == "every":
        return None
    return t["phase"], t["whose"]


def at_this_phase(state: State, side: str) -> list[tuple[str, dict[str, Any]]]:
    """(unit id, ability) for every ability of `side`'s units standing whose timing is now."""
    out = []
    for u, spec in enumerate(state.scene.units):
        if spec.side != side or not len(state.models_of(u)):
            continue
        out.extend((spec.id, a) for a in of(state, u) if a["kind"] != "passive"
                   and now(state, a, side))
    return out


def passive(state: State, u: int) -> list[dict[str, Any]]:
    return [a for a in of(state, u) if a["kind"] == "passive"]


def text(a: dict[str, Any]) -> str:
    """The ability in full, as a card says it."""
    bits = [f"{a['name']} ({a['kind']}"
            + (f", {a['timing']}" if a.get("timing") else "") + ")"]
    if a.get("declare"):
        bits.append(f"Declare: {a['declare']}")
    bits.append(f"Effect: {a['effect']}")
    return "\n".join(bits)


def card(unit: str, a: dict[str, Any]) -> Card:
    first = " ".join(str(a["effect"]).split())
    by_engine = (passives.playable(effects.read(a)) if a["kind"] == "passive"
                 else played(a) is not None)
    return Card(unit, a["name"], a["kind"], a.get("timing"), f"{a['name']}: {first}", text(a),
                by_engine)


def cards(state: State) -> list[Card]:
    """The acting side's abilities whose timing is now, a card each."""
    side = state.clock.get("acting") or state.acting_side      # not a decision's decider
    return [card(uid, a) for uid, a in at_this_phase(state, side)]


def passive_cards(state: State, u: int) -> list[Card]:
    return [card(state.scene.units[u].id, a) for a in passive(state, u)]


def menu(state: State, u: int) -> list[tuple[str, Action]]:
    """A right click on unit u: its abilities to declare now (the acting side's), then the
    adjustments by hand, each with the reason of the ability last declared this turn (its
    name, `ability` and `source`), else "by hand"."""
    spec = state.scene.units[u]
    out: list[tuple[str, Action]] = []
    if state.pending or state.over:
        return out
    if spec.side == state.acting_side:
        for a in of(state, u):
            if a["kind"] == "passive" or not now(state, a, spec.side):
                continue
            plain = Action(ABILITY, spec.id, options=((ABILITY, a["name"]),))
            r = played(a)
            if r is not None and reacts_to_fight(r):
                continue                # asked when the unit fights (fight_reactions)
            if r is None or r.target is None or r.target["count"] == "each":
                if r is None or not check(state, plain):
                    out.append((f"declare {a['name']}", plain))
                continue
            for w, other in enumerate(state.scene.units):      # one item per target it may pick
                pick = replace(plain, target=other.id)
                if len(state.models_of(w)) and not activated.check(state, u, r, pick):
                    out.append((f"{a['name']} -> {other.id}", pick))
    why: tuple[tuple[str, Any], ...] = (("reason", "by hand"),)
    for e in reversed(state.events):
        if e.get("type") in ("turn", "battle-round"):
            break
        if e.get("type") == "ability-declared":
            why = (("reason", e["ability"]), ("ability", e["ability"]),
                   ("source", e["unit"]))
            break
    def adj(label: str, kind: str, *more: tuple[str, Any]) -> None:
        action = Action(adjust.ADJUST, spec.id, side=state.acting_side,
                        options=(("kind", kind), *more, *why))
        if not adjust.check(state, action, ROLLS):
            out.append((label, action))

    for kind in ("mortal", "damage", "heal", "return"):
        adj(f"{kind} 1", kind, ("amount", 1))
    adj("mortal D3", "mortal", ("amount", "D3"))
    adj("token +1", "token", ("token", "token"), ("amount", 1))
    adj("token -1", "token", ("token", "token"), ("amount", -1))
    for roll in ROLLS:
        adj(f"next {roll} +1", "modifier", ("roll", roll), ("by", 1))
        adj(f"next {roll} -1", "modifier", ("roll", roll), ("by", -1))
    return out


# --- declaring one ---
def _used_key(a: dict[str, Any]) -> str:
    return DECLARED + a["name"]


def check(state: State, action: Action) -> list[Violation]:
    """The acting side's unit declares one of its own abilities, at its timing."""
    u, problem = commands.acting_unit(state, action)
    if problem:
        return [problem]
    name = action.option(ABILITY)
    if not isinstance(name, str) or not name.strip():
        names = ", ".join(a["name"] for a in of(state, u)) or "none"
        return [v("no_ability", f"name the ability (\"ability\"): {action.unit}'s are {names}",
                  choose=ABILITY)]
    a = find(state, u, name)
    if a is None:
        names = ", ".join(a["name"] for a in of(state, u)) or "none"
        return [v("unknown_ability", f"{action.unit} has no ability {name!r} (its abilities: "
                                     f"{names})")]
    if a["kind"] == "passive":
        return [v("passive", f"{a['name']} is passive: it is always on, never declared")]
    if not now(state, a, state.side_of(u)):
        return [v("not_now", f"{a['name']} is used in {a['timing']}, not now")]
    us = state.units[u]
    if a["once"] == "turn" and _used_key(a) in us.flags:
        return [v("once_per_turn", f"{a['name']} was used this turn")]
    if a["once"] == "battle" and us.counters.get(_used_key(a)):
        return [v("once_per_battle", f"{a['name']} was used this battle")]
    reading = played(a)
    if reading is not None and reacts_to_fight(reading):
        return [v("reaction", f"{a['name']} is a reaction to {action.unit}'s fight: it is asked "
                              f"when {action.unit} fights (a decision of kind {REACTION})")]
    if reading is not None:
        return activated.check(state, u, reading, action)
    return []


def reacts_to_fight(reading: effects.Reading) -> bool:
    return bool(reading.timing and reading.timing.get("reaction") == "fight")


# --- reactions to a unit's own fight ---
def fight_reactions(state: State, u: int) -> list[Action]:
    """Every reaction unit u may declare as it fights, as the answers of a decision: each
    played ability whose Timing is "You declared a FIGHT ability for this unit", not used up,
    once per target it may pick (another friendly unit that may still fight, within its
    combat range, ...: the one that fights immediately after)."""
    spec, side = state.scene.units[u], state.scene.units[u].side
    out = []
    for a in of(state, u):
        r = played(a)
        if r is None or not reacts_to_fight(r) or _used_up(state, u, a):
            continue
        plain = Action(ABILITY, spec.id, side=side, options=((ABILITY, a["name"]),))
        if r.target is None:
            if not activated.check(state, u, r, plain):
                out.append(plain)
            continue
        for w, other in enumerate(state.scene.units):
            pick = replace(plain, target=other.id)
            if len(state.models_of(w)) and not activated.check(state, u, r, pick):
                out.append(pick)
    return out


def ask_reaction(state: State, u: int, action: Action) -> list[Event] | None:
    """Unit u declares a fight (`action`): its side is asked first whether it declares a
    reaction to it (REACTION: each reaction and target, or decline); None when it has none."""
    choices = fight_reactions(state, u)
    if not choices:
        return None
    side = state.scene.units[u].side
    d = Decision(side, REACTION, (*choices, Action(DECLINE, side=side)),
                 about=(("unit", state.scene.units[u].id),))
    return ask(state, [d], {"step": REACTION, "action": action.to_dict()})


def resume_reaction(state: State, answer: Action) -> list[Event]:
    """The reaction declared (played at once: the unit it picks fights immediately after this
    fight), or none."""
    if answer.type != ABILITY:
        return [{"type": "no-reaction", "side": answer.side}]
    return declare(state, answer)


def _used_up(state: State, u: int, a: dict[str, Any]) -> bool:
    us = state.units[u]
    return (a["once"] == "turn" and _used_key(a) in us.flags) or \
        (a["once"] == "battle" and bool(us.counters.get(_used_key(a))))


def played(a: dict[str, Any]) -> effects.Reading | None:
    """The reading of an ability the engine plays when it is declared, else None."""
    if a["kind"] in ("passive", "spell", "prayer"):     # spells and prayers: magic.py's
        return None
    hit = _readings.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    r = effects.read(a)
    r = r if activated.playable(r) else None
    if len(_readings) > 4096:
        _readings.clear()
    _readings[id(a)] = (a, r)
    return r


_readings: dict[int, tuple[dict[str, Any], effects.Reading | None]] = {}


def offers(state: State) -> list[Action]:
    """What the computer player may declare now: each ability of its units standing that the
    engine plays and whose timing is now, at the first units it may pick (the enemy for
    damage, its own hurt units for healing, any other for the rest)."""
    side = state.clock.get("acting") or state.acting_side
    out = []
    for u, spec in enumerate(state.scene.units):
        if spec.side != side or not len(state.models_of(u)):
            continue
        for a in of(state, u):
            r = played(a)
            if r is None or not now(state, a, side) or reacts_to_fight(r):
                continue
            if any("use" in e for e in r.effects):
                continue                # a Retreat or Normal Move: the computer plans none
            heals = all("heal" in e or "return" in e for e in r.effects)
            opts: tuple[tuple[str, Any], ...] = ((ABILITY, a["name"]),)
            moving = next((e for e in r.effects if set_up.SET_UP in e), None)
            if moving is not None:          # where it would be set up again
                if not activated.conditions_hold(state, u, moving):
                    continue
                at = set_up.places_for(state, u, moving)
                if at is None:
                    continue
                opts += (("at", tuple(tuple(p) for p in at)),)
            if r.target is not None and r.target["count"] == "each":
                plain = Action(ABILITY, spec.id, options=opts)
                if not activated.check(state, u, r, plain) and not (heals and not any(
                        _hurt(state, w, r) for w in activated.each(state, u, r))):
                    out.append(plain)
                continue
            if r.target is None:
                if heals and not _hurt(state, u, r):
                    continue
                out.append(Action(ABILITY, spec.id, options=opts))
                continue
            fit = [state.scene.units[w].id for w in range(len(state.scene.units))
                   if len(state.models_of(w)) and not (heals and not _hurt(state, w, r))
                   and (state.scene.units[w].side == side) == (r.target["unit"] == "friendly")]
            picked = [x for x in fit if not activated.check(
                state, u, r, Action(ABILITY, spec.id, target=x, options=opts))][
                :r.target["count"]]
            if picked:
                target = picked[0] if len(picked) == 1 else tuple(picked)
                out.append(Action(ABILITY, spec.id, target=target, options=opts))
    return out


def _hurt(state: State, w: int, r: effects.Reading) -> bool:
    """Unit w has damage points the reading heals or slain models it returns."""
    us = state.units[w]
    return any(us.damage[us.alive].any() if "heal" in e else (~us.alive).any()
               for e in r.effects)


def declare(state: State, action: Action) -> list[Event]:
    """Logged with its text: the engine does not play it, the players apply it by hand."""
    u = state.unit_index(str(action.unit))
    a = find(state, u, str(action.option(ABILITY)))
    assert a is not None
    us = state.units[u]
    us.flags.add(_used_key(a))              # declared this turn (flags clear each turn)
    if a["once"] == "battle":
        us.counters[_used_key(a)] = 1
    reading = played(a)
    if reading is not None:
        return activated.play(state, u, a["name"], reading, action)
    event: Event = {"type": "ability-declared", "unit": action.unit, "ability": a["name"],
                    "kind": a["kind"], "played": False, "timing": a["timing"],
                    "declare": a["declare"], "effect": a["effect"]}
    if action.target is not None:
        event["target"] = action.target
    return [event]


# --- adjustments on aos4's table ---
def deal(state: State, u: int, points: int, mortal: bool, reason: str) -> list[Event]:
    """Damage an adjustment lands: mortal damage with the unit's ward, else points allocated as
    an attack's (no save, no ward)."""
    if mortal:
        return allocation.mortal(state, u, points, reason)
    return [{"type": "damage", "unit": state.scene.units[u].id, "amount": points,
             "for": reason}, *allocation.allocate(state, u, points, None, reason)]


def by_hand(state: State, u: int, w: int, mods: Modifiers) -> Modifiers:
    """An attack's modifiers with what adjustments left on the attacker's next hit and wound
    rolls and the target's next save roll (used up now)."""
    if not (state.units[u].counters or state.units[w].counters):
        return mods
    return replace(mods, hit=mods.hit + adjust.next_modifier(state, u, "hit"),
                   wound=mods.wound + adjust.next_modifier(state, u, "wound"),
                   save=mods.save + adjust.next_modifier(state, w, "save"))


def check_adjust(state: State, action: Action) -> list[Violation]:
    return adjust.check(state, action, ROLLS)


# --- the computer player's consent ---
_WORDS = {"damage": r"\bdamage\b", "mortal": r"\bmortal damage\b", "heal": r"\bheal",
          "return": r"\breturn", "move": r"\b(?:move|set (?:it )?up|set-up|moves?)\b",
          "token": r"\btokens?\b", "modifier": None}


def supports(a: dict[str, Any], adjustment: Action) -> bool:
    """Whether ability `a`'s text says to do what `adjustment` does: its kind's words, the
    amount as the text writes it, a modifier's roll and size."""
    said = " ".join(str(a.get(k) or "") for k in ("declare", "effect"))
    low = said.lower()
    kind = adjustment.option("kind")
    if kind == "modifier":
        by = int(adjustment.option("by") or 0)
        verb = "add" if by > 0 else "subtract"
        roll = str(adjustment.option("roll"))
        return bool(re.search(rf"\b{verb} {abs(by)} (?:to|from) [^.]*\b{roll} rolls?", low))
    pattern = _WORDS.get(str(kind))
    if pattern is None or not re.search(pattern, low):
        return False
    if kind == "damage" and re.search(r"\bmortal damage\b", low) \
            and not re.search(r"(?<!mortal )\bdamage\b", low):
        return False
    amount = adjustment.option("amount")
    if kind in ("damage", "mortal", "heal", "return") and amount is not None:
        if isinstance(amount, str):
            return amount.upper() in said.upper()
        if f"({amount})" in said or re.search(rf"\b{amount}\b", said):
            return True
        # an amount the text rolls for: any dice in it may come to this number
        return any(_can_roll(d, int(amount)) for d in re.findall(r"\b\d*D[36](?:\+\d+)?\b",
                                                                   said))
    return True


def _can_roll(expr: str, n: int) -> bool:
    k, sides, bonus = parse(expr)
    return k + bonus <= n <= k * sides + bonus


def answer(state: State, d: Decision) -> Action:
    """Accept the adjustment awaiting consent when a declared ability of the proposing side
    supports it (the one it names, declared by its source unit), else refuse."""
    accept = next(c for c in d.choices if c.type == adjust.ACCEPT)
    refuse = next(c for c in d.choices if c.type == adjust.REFUSE)
    proposed = adjust.waiting(state)
    if proposed is None:
        return refuse
    name = proposed.option(ABILITY)
    source = proposed.option("source") or proposed.unit
    if not isinstance(name, str):
        return refuse
    try:
        u = state.unit_index(str(source))
    except Exception:          # noqa: BLE001 - checked already; refuse rather than stop
        return refuse
    a = find(state, u, name)
    if a is None or state.side_of(u) != d.get("by"):
        return refuse
    if a["kind"] != "passive" and _used_key(a) not in state.units[u].flags:
        return refuse                       # not declared this turn
    return accept if supports(a, proposed) else refuse

