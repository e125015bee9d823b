"""Every event in words, one line each: "blue decides all-out-defence: red-archers shoot ->
blue-drake (choices: all-out-defence, decline)", "red-scouts moves 3.86\" (overextended)",
"the battle is over: red wins". rules/outcome.py words what an action did to the units (damage,
models slain, wounds left) and the dice; these are the other events an action causes - the
clock, decisions and their answers, moves, spells, orders - so that `try`, the pages and the
window say all of it in the same words, and `--json` keeps the raw fields.

`line(event)` words one event (None for the action record, which the caller words); an event
type with no words of its own is said as its type and its fields in plain words ("cover
none", "overextended no"), never as Python's repr."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Event = dict[str, Any]


def plain(v: Any) -> str:
    """A value in words: a list joined, a mapping 'key value', yes / no, numbers short."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else f"{int(v)}"
    if isinstance(v, Mapping):
        if not v:
            return "none"
        return ", ".join(f"{k} {plain(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        if not v:
            return "none"
        if len(v) == 2 and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                               for c in v):
            return f"({plain(v[0])}, {plain(v[1])})"            # a point
        return ", ".join(plain(x) for x in v)
    if v is None:
        return "-"
    return str(v)


def inches(v: Any) -> str:
    try:
        return f'{float(v):.2f}"'
    except (TypeError, ValueError):
        return plain(v)


def about_words(about: Any) -> str:
    """What a decision is about: 'red-archers shoot -> blue-drake', else its fields."""
    if not isinstance(about, Mapping):
        return plain(about)
    who = about.get("attacker") or about.get("unit")
    what = about.get("ability") or about.get("action")
    whom = about.get("target") or about.get("defender")
    if who and whom:
        rolled = f", rolled {about['roll']}" if about.get("roll") else ""
        return (f"{who} {what} -> {whom}" if what else f"{who} -> {whom}") + rolled
    if who and about.get("from"):
        return f"{who}, attacked by {plain(about['from'])}"
    if who and what:
        return f"{who} {what}" + (f" ({about['reaction']} possible)"
                                  if about.get("reaction") else "")
    return plain(about)


def answer_words(answer: Any) -> str:
    """A decision's answer: 'decline', 'commit 2', 'red-bows retreats from blue-ballista'."""
    if not isinstance(answer, Mapping):
        return plain(answer)
    if answer.get("unit") and answer.get("from"):       # a unit's answer to an attack
        rest = [f"{k.replace('_', ' ')} {plain(v)}" for k, v in answer.items()
                if k not in ("type", "side", "unit", "from") and v is not None]
        return (f"{answer['unit']} {answer.get('type', '?')}s from {plain(answer['from'])}"
                + (f" ({', '.join(rest)})" if rest else ""))
    rest = [plain(v) for k, v in answer.items() if k not in ("type", "side") and v is not None]
    return " ".join([str(answer.get("type", "?")), *rest])


def _generic(e: Event) -> str:
    """An event with no words of its own: 'red-scouts skirmish -> blue-scouts (in range yes;
    overextended no)' when it names a unit and a target, else 'type: field value; ...'."""
    kind = str(e.get("type", "event"))
    if e.get("unit") and e.get("target") and isinstance(e.get("in_range"), Mapping) \
            and isinstance(e.get("sight"), Mapping):
        return _reach(e)
    if e.get("unit") and e.get("target"):
        fields = [f"{k.replace('_', ' ')} {plain(v)}" for k, v in e.items()
                  if k not in ("type", "unit", "target")]
        head = f"{e['unit']} {kind} -> {plain(e['target'])}"
        return f"{head} ({'; '.join(fields)})" if fields else head
    fields = [f"{k.replace('_', ' ')} {plain(v)}" for k, v in e.items() if k != "type"]
    return f"{kind}: {'; '.join(fields)}" if fields else kind


def _with(text: str, e: Event, key: str, words: Callable[[Any], str]) -> str:
    return text + words(e[key]) if e.get(key) not in (None, "", [], {}) else text


def _turn(e: Event) -> str:
    text = f"{e.get('active', '?')}'s turn"
    text = _with(text, e, "round", lambda r: f", round {r}")
    text = _with(text, e, "phase", lambda p: f", {p} phase")
    if "command_points" in e:
        n = e["command_points"]
        text += f", {plain(n)} command point{'' if n == 1 else 's'}"
    return text


def _phase(e: Event) -> str:
    who = f"{e['active']}'s " if e.get("active") else ""
    text = f"{who}{e.get('phase', '?')} phase"
    return _with(text, e, "round", lambda r: f" (round {r})")


def _round(e: Event) -> str:
    text = f"battle round {e.get('round', '?')}"
    text = _with(text, e, "first", lambda s: f": {s} goes first")
    text = _with(text, e, "underdog", lambda s: f"; underdog {plain(s)}")
    text = _with(text, e, "fewest_auxiliary",
                 lambda s: f"; fewest auxiliary units {plain(s)} (1 more command point)")
    text = _with(text, e, "command_points", lambda c: f"; command points {plain(c)}")
    return _with(text, e, "morale", lambda m: f"; morale {plain(m)}")


def _round_end(e: Event) -> str:
    text = f"end of battle round {e.get('round', '?')}"
    text = _with(text, e, "objectives", lambda o: f"; objectives {plain(o)}")
    text = _with(text, e, "gained", lambda g: f"; gained {plain(g)}")
    return _with(text, e, "vp", lambda v: f"; victory points {plain(v)}")


def _over(e: Event) -> str:
    text = "the battle is over"
    if e.get("winner"):
        text += f": {e['winner']} wins"
    elif "winner" in e:
        text += ": a draw"
    text = _with(text, e, "by", lambda b: f" ({plain(b)})")
    for key in ("scores", "morale", "victory_points"):
        text = _with(text, e, key, lambda v, k=key: f"; {k.replace('_', ' ')} {plain(v)}")
    return text


def _decision(e: Event) -> str:
    about = e.get("about")
    if e.get("kind") == "adjust" and isinstance(about, Mapping) and "by" in about:
        what = " ".join(str(about[k]) for k in ("kind", "unit") if k in about)
        text = f"{e.get('side', '?')} to accept or refuse {about['by']}'s adjustment by hand"
        return text + (f" ({what.replace(' ', ' on ', 1)})" if what else "")
    text = f"{e.get('side', '?')} decides {e.get('kind', '?')}"
    if e.get("secret"):
        text += " (secret)"
    text = _with(text, e, "about", lambda a: f": {about_words(a)}")
    return _with(text, e, "answers", lambda a: f" (choices: {plain(a)})")


def _decided(e: Event) -> str:
    if "answer" not in e:
        return f"{e.get('side', '?')} has answered {e.get('kind', '?')} (secret until revealed)"
    return f"{e.get('side', '?')} answers {e.get('kind', '?')}: {answer_words(e['answer'])}"


def _revealed(e: Event) -> str:
    answers = e.get("answers")
    if isinstance(answers, Mapping):
        said = "; ".join(f"{s} {answer_words(a)}" for s, a in answers.items())
    elif isinstance(answers, Sequence) and not isinstance(answers, str):
        said = "; ".join(f"{a.get('side', '?')} {answer_words(a.get('answer', a))}"
                         if isinstance(a, Mapping) else plain(a) for a in answers)
    else:
        said = plain(answers)
    return f"revealed: {said}"


def _passed(verb: str) -> Callable[[Event], str]:
    def say(e: Event) -> str:
        text = f"{e.get('side', '?')} {verb}"
        return _with(text, e, "phase", lambda p: f" ({p} phase)")
    return say


def _moved(e: Event) -> str:
    text = f"{e.get('unit', '?')} moves"
    text = _with(text, e, "distance", lambda d: f" {inches(d)}")
    text = _with(text, e, "by", lambda b: f" ({plain(b)})")
    if e.get("target"):
        text += f" to {plain(e['target'])}"
    text = _with(text, e, "to", lambda p: f" to {plain(p)}")
    if e.get("overextended"):
        text += ", overextended"
    return _with(text, e, "stopped_by", lambda s: f", stopped by {plain(s)}")


def _charge(e: Event) -> str:
    text = f"{e.get('unit', '?')} charges {plain(e.get('target', '?'))}"
    return _with(text, e, "distance", lambda d: f", {inches(d)}")


def _onto_terrain(e: Event) -> str:
    foes = plain(e.get("in_combat") or []) or "no one yet"
    return (f"{e.get('unit', '?')} is in combat through {e.get('terrain', '?')} with the "
            f"enemy units wholly on it: {foes}")


def _charge_roll(e: Event) -> str:
    text = f"{e.get('unit', '?')} rolls {plain(e.get('roll'))} to charge"
    text = _with(text, e, "reroll", lambda r: f" (re-rolled: {plain(r)})")
    return _with(text, e, "needed", lambda n: f", {inches(n)} needed")


def _run(e: Event) -> str:
    text = f"{e.get('unit', '?')} runs: rolled {plain(e.get('roll'))}"
    if "added" in e:               # no roll made: what was added instead, and by what
        text = (f"{e.get('unit', '?')} runs: {inches(e['added'])} added, no roll"
                + (f" ({e['instead_of_roll']})" if e.get("instead_of_roll") else ""))
    return _with(text, e, "allowed", lambda a: f", up to {inches(a)}")


def _command(e: Event) -> str:
    text = f"{e.get('side', '?')} uses {e.get('command', '?')}"
    text = _with(text, e, "unit", lambda u: f" on {u}")
    return _with(text, e, "cost", lambda c: f" ({c} CP)")


def _cast(e: Event) -> str:
    text = f"{e.get('unit', '?')} casts {e.get('spell', '?')}"
    text = _with(text, e, "target", lambda t: f" at {plain(t)}")
    text = _with(text, e, "roll", lambda r: f": rolled {plain(r)}")
    text = _with(text, e, "casting_value", lambda v: f" against {v}")
    text = _with(text, e, "needed", lambda v: f" against {v}")
    text = _with(text, e, "cast", lambda c: ", cast" if c else ", not cast")
    return _with(text, e, "result", lambda r: f", {plain(r)}")


def _chant(e: Event) -> str:
    text = f"{e.get('unit', '?')} chants {e.get('prayer', '?')}"
    text = _with(text, e, "roll", lambda r: f": rolled {plain(r)}")
    text = _with(text, e, "result", lambda r: f", {plain(r)}")
    text = _with(text, e, "ritual", lambda r: f"; ritual points {plain(r)}")
    return _with(text, e, "ritual_spent", lambda r: f"; ritual points spent {plain(r)}")


def _unbind(e: Event) -> str:
    text = f"{e.get('unit', '?')} tries to unbind: rolled {plain(e.get('roll'))}"
    return text + (", unbound" if e.get("unbound") else ", not unbound")


def _score(e: Event) -> str:
    who = f"{e['side']} scores" if e.get("side") else "scored"
    text = f"{who} {plain(e.get('vp'))} VP"
    text = _with(text, e, "objectives", lambda o: f" (objectives {plain(o)})")
    return _with(text, e, "total", lambda t: f", {plain(t)} in all")


def holders(held: Mapping[str, Any], what: str) -> str:
    """Who holds what, as a player says it: 'red holds south-east; nobody holds centre,
    north-west' (`what`: 'objectives', 'terrain')."""
    by: dict[str, list[str]] = {}
    for name, side in held.items():
        by.setdefault(str(side) if side else "", []).append(str(name))
    if not by:
        return f"nobody holds any {what}"
    said = [f"{side} holds {', '.join(names)}" for side, names in by.items() if side]
    if "" in by:
        said.append(f"nobody holds {', '.join(by[''])}")
    return "; ".join(said)


def _control(e: Event) -> str:
    held = e.get("controlled_by")
    if isinstance(held, Mapping):
        return "objectives: " + holders(held, "objective")
    return f"objectives: {plain(held)}"


def _terrain(e: Event) -> str:
    held = e.get("controlled_by")
    if isinstance(held, Mapping):
        return "terrain: " + holders(held, "terrain")
    return f"terrain: {plain(held)}"


def _reach(e: Event) -> str:
    """An attack declared with who reaches and sees whom ('in_range', 'sight': by unit):
    'blue-ballista skirmish -> red-bows: blue-ballista in range, partial sight; red-bows out
    of range, partial sight'."""
    text = f"{e.get('unit', '?')} {e.get('type', '?')} -> {plain(e.get('target', '?'))}"
    if e.get("overextended"):
        text += " (overextended)"
    reach, sight = e.get("in_range"), e.get("sight")
    sides = []
    for unit in dict.fromkeys([*reach, *sight]):
        said = []
        if unit in reach:
            said.append("in range" if reach[unit] else "out of range")
        if unit in sight:
            seen = sight[unit]
            said.append("no sight" if seen in (None, False, "none") else f"{plain(seen)} sight")
        sides.append(f"{unit} {', '.join(said)}")
    return f"{text}: {'; '.join(sides)}"


def _priority(e: Event) -> str:
    text = (f"priority: {e['decides']} decides who goes first" if "decides" in e
            else f"priority: {e.get('first', '?')} goes first")
    return _with(text, e, "rolls", lambda r: f" (rolls {plain(r)})")


def _order(e: Event) -> str:
    return f"{e.get('unit', '?')} is ordered to {plain(e.get('order'))}"


def _card(e: Event) -> str:
    text = f"{e.get('side', '?')} plays {e.get('card', '?')}"
    text = _with(text, e, "unit", lambda u: f" on {u}")
    return _with(text, e, "effect", lambda x: f": {plain(x)}")


def _card_drawn(e: Event) -> str:
    text = f"{e.get('side', '?')} draws a command card"
    return _with(text, e, "card", lambda c: f" ({c})")


def _special(e: Event) -> str:
    text = f"{e.get('side', '?')} uses {e.get('ability', 'its special ability')}"
    return _with(text, e, "courage", lambda c: f" ({plain(c)} courage)")


def _courage(e: Event) -> str:
    text = f"{e.get('unit', '?')} "
    text += f"{e['why']}" if e.get("why") else "courage check"
    text = _with(text, e, "courage", lambda c: f": courage {plain(c)}")
    text += (", passed" if e.get("passed") else ", failed") if "passed" in e else ""
    return _with(text, e, "modifiers", lambda m: f" ({plain(m)})")


def _ability(e: Event) -> str:
    text = f"{e.get('unit', '?')} uses {e.get('ability', '?')}"
    text = _with(text, e, "value", lambda v: f" (value {plain(v)})")
    return _with(text, e, "paid", lambda p: f", paying {plain(p)}")


def _activation(e: Event) -> str:
    return f"{e.get('unit', '?')} activates" + (" again" if e.get("second") else "")


def _attack_declared(e: Event) -> str:
    text = f"{e.get('unit', '?')} attacks {plain(e.get('target', '?'))}"
    return _with(text, e, "weapon", lambda w: f" with {w}")


def _damage(e: Event) -> str:
    text = f"{e.get('unit', '?')} takes {plain(e.get('amount'))} damage"
    text = _with(text, e, "for", lambda f: f" ({f})")
    return _with(text, e, "total", lambda t: f", {plain(t)} in all")


def _first(e: Event) -> str:
    text = f"{e.get('side', '?')} activates first"
    return _with(text, e, "chosen_by", lambda s: f" (chosen by {s})")


def _initiative(e: Event) -> str:
    text = f"{e.get('side', '?')} has the initiative"
    return _with(text, e, "singles", lambda s: f" ({plain(s)} singles)")


def _initiative_dice(e: Event) -> str:
    text = f"{e.get('side', '?')} rolls {plain(e.get('dice'))}"
    text = _with(text, e, "singles", lambda s: f": reaction dice {plain(s)}")
    return _with(text, e, "ability_dice", lambda a: f"; ability dice {plain(a)}")


def _reaction(e: Event) -> str:
    text = f"{e.get('unit', '?')} reacts: {plain(e.get('reaction'))}"
    return _with(text, e, "singles_left", lambda s: f" ({plain(s)} reaction dice left)")


def _disengaged(e: Event) -> str:
    text = f"{e.get('unit', '?')} disengages"
    return _with(text, e, "distance", lambda d: f" {inches(d)}")


def _wait(e: Event) -> str:
    return f"{e.get('unit', '?')} waits" + (" and activates again later"
                                           if e.get("activates_again") else "")


def _bombard(e: Event) -> str:
    return f"{e.get('unit', '?')} places a bombardment token at {plain(e.get('at'))}"


def _unit_said(verb: str) -> Callable[[Event], str]:
    return lambda e: f"{e.get('unit', '?')} {verb}"


def _failed(e: Event) -> str:
    kind = str(e.get("type", "")).replace("-", " ")
    return f"{e.get('unit', '')} {kind}".strip() + (f": {e['reason']}" if e.get("reason") else "")


def _adjustment(e: Event) -> str:
    """An adjustment by hand (rules/adjust.py) as the table says it: 'mortal 2 on blue-orcs
    (Alpha Charge, from red-doombull)'."""
    kind = e.get("kind", "?")
    what = {"token": f"{plain(e.get('amount'))} {e.get('token', 'token')} token",
            "modifier": f"{plain(e.get('by'))} to the next {e.get('roll', '?')} roll",
            "move": "a move"}.get(kind, f"{kind} {plain(e.get('amount'))}")
    source = f", from {e['source']}" if e.get("source") and e.get("source") != e.get("unit") \
        else ""
    return f"{what} on {e.get('unit', '?')} ({e.get('reason', '')}{source})"


def _proposed(e: Event) -> str:
    return f"{e.get('side', '?')} proposes by hand: {_adjustment(e)}"


def _adjusted(e: Event) -> str:
    return f"adjusted by hand: {_adjustment(e)}"


def _adjust_refused(e: Event) -> str:
    return f"refused by {plain(e.get('refused_by'))}: {_adjustment(e)}"


def _declared(e: Event) -> str:
    played = "" if e.get("played") else " (by hand)"
    target = f" -> {e['target']}" if e.get("target") else ""
    return f"{e.get('unit', '?')} declares {e.get('ability', '?')}{target}{played}: " + \
        " ".join(str(e.get(k) or "") for k in ("declare", "effect")).strip()


def declaration(shown: dict[str, Any], events: Sequence[Event]) -> str | None:
    """A move declared before its path - the roll first, the move its answer (aos4's charge
    and run in the seed's order) - as what happened: 'red declares a charge at blue, rolls
    7'; None for any other action. Told by its events: no path given, the unit's roll for it
    (an event of the action's own kind, or its '-roll', with a `roll`), and then a decision
    whose answers include the action's kind (its move) or the unit's failure."""
    kind, unit = str(shown.get("type") or ""), shown.get("unit")
    if not unit or shown.get("path") or shown.get("paths"):
        return None
    own = [e for e in events if e.get("unit") == unit
           and str(e.get("type", "")).removesuffix("-roll") in kind.split("-")]
    roll = next((e["roll"] for e in own if "roll" in e and not e.get("reroll")), None)
    added = next((e for e in own if "added" in e and "roll" not in e), None)
    rerolled = next((e["roll"] for e in events if e.get("unit") == unit and e.get("reroll")
                     and "roll" in e), None)
    answered = any(e.get("type") == "decision" and kind in (e.get("answers") or ())
                   for e in events) or any(e.get("unit") == unit and e.get("failed")
                                           for e in events)
    if (roll is None and added is None) or not answered or any(
            e.get("type") == "moved" and e.get("unit") == unit for e in events):
        return None
    tgt = shown.get("target")
    at = (" at " + (", ".join(tgt) if isinstance(tgt, list) else str(tgt))) if tgt else ""
    if roll is None and added is not None:     # no roll made (aos4's At the Double)
        by = f" ({added['instead_of_roll']})" if added.get("instead_of_roll") else ""
        return (f"{unit} declares a {kind}{at}, adds {inches(added['added'])} with "
                f"no roll{by}")
    again = f", re-rolls {plain(rerolled)}" if rerolled is not None else ""
    return f"{unit} declares a {kind}{at}, rolls {plain(roll)}{again}"


WORDS: dict[str, Callable[[Event], str]] = {
    "adjust-proposed": _proposed, "adjusted": _adjusted, "adjust-refused": _adjust_refused,
    "ability-declared": _declared,
    "turn": _turn, "phase": _phase, "battle-round": _round,
    "end-of-battle-round": _round_end, "end-round": _round_end, "battle-over": _over,
    "decision": _decision, "decided": _decided, "revealed": _revealed,
    "pass": _passed("passes"), "stop": _passed("stops"), "end-phase": _passed("ends the phase"),
    "end-turn": lambda e: f"{e.get('side', '?')} ends its turn",
    "moved": _moved, "move": _moved, "charge": _charge, "charged": _charge,
    "charge-roll": _charge_roll, "run": _run, "charged-onto-terrain": _onto_terrain,
    "left-terrain-combat": lambda e: (f"{e.get('unit', '?')} moves off "
                                      f"{e.get('terrain', '?')}: no longer in combat through it"),
    "disengaged": _disengaged,
    "disengage-declared": _unit_said("declares a disengage"),
    "command": _command, "cast": _cast, "chant": _chant, "unbind": _unbind,
    "score": _score, "objective-control": _control,
    "terrain-control": _terrain, "priority": _priority,
    "order": _order, "card": _card, "card-drawn": _card_drawn, "special": _special,
    "rallied": _unit_said("rallies"), "courage": _courage,
    "bombardment-token": _bombard, "ability": _ability, "activation": _activation,
    "activation-ends": lambda e: f"{e.get('unit', '?')}'s activation ends",
    "attack-declared": _attack_declared, "damage": _damage, "first": _first,
    "initiative": _initiative, "initiative-dice": _initiative_dice, "reaction": _reaction,
    "wait": _wait, "roll-off": lambda e: f"roll-off: {plain(e.get('rolls'))}",
    "slain": lambda e: f"{e.get('unit', '?')}: slain" + (
        f" ({plain(e['models'])})" if e.get("models") else ""),
    "destroyed": _unit_said("is destroyed"),
    "healed": lambda e: f"{e.get('unit', '?')} healed {plain(e.get('points', ''))}".rstrip(),
    "deployed-unit": lambda e: f"{e.get('unit', '?')} is set up ({plain(e.get('models'))} "
                               f"models)",
    "deploy-regiment": lambda e: f"{e.get('side', '?')} deploys regiment "
                                 f"{e.get('regiment', '?')}",
    "deployed": lambda e: f"{e.get('side', '?')} has finished deploying",
    "deployment-over": lambda e: f"deployment is over (finished: {plain(e.get('finished'))})",
    "not-deployed": lambda e: f"not set up, out of the battle: {plain(e.get('units'))}",
}


def line(e: Event) -> str | None:
    """One event in words; None for the action record (the caller words the action)."""
    kind = str(e.get("type", ""))
    if kind == "action":
        return None
    if kind.endswith("-failed") or kind.endswith("-short") or kind == "no-charge":
        return _failed(e)
    words = WORDS.get(kind)
    if words is None:
        return _generic(e)
    try:
        return words(e)
    except (TypeError, ValueError, AttributeError, KeyError):    # an event of another shape
        return _generic(e)


__all__ = ["line", "plain", "about_words", "answer_words", "holders", "WORDS"]
