"""The effect reader's phrases (effects.py reads sentences and clauses with them): a clause's
subject (WHO: this unit, the target, friendly or enemy units with keywords, an aura "while they
are within N\" of this unit"), its conditions ("if it charged this turn", "while it is
contesting an objective you control" ...) and durations, and the modifiers "Add N to ..." name
(rolls, characteristics of weapons, control scores, the Move, the number of charge dice).
A phrase it does not know raises Unread: the whole ability is left alone.
"""

from __future__ import annotations

import re
from typing import Any

_KW = r"[A-Z][A-Z'\-]+(?: [A-Z][A-Z'\-]+)*"


# The keywords of two words a text puts after 'non-' ('non-WAR MACHINE SIGMARITE'); any
# other 'non-X Y' negates its first word only ('non-HERO INFANTRY': not a HERO, and INFANTRY).
_TWO_WORD_KEYWORDS = ("WAR MACHINE", "FACTION TERRAIN", "ENDLESS SPELL")


def _negated(kw: str) -> tuple[str, str]:
    """'HERO INFANTRY' (after 'non-') -> ('HERO', 'INFANTRY'): the keyword negated and the
    keywords the unit must have (empty when none)."""
    words = kw.split()
    n = 2 if " ".join(words[:2]) in _TWO_WORD_KEYWORDS else 1
    return " ".join(words[:n]), " ".join(words[n:])


class _Unread(Exception):
    """A sentence the reader does not know: the ability is left alone."""


_UNTIL_WORDS = {"for the rest of the turn": "turn", "this phase": "phase",
                "until the start of your next turn": "next-turn",
                "for the rest of the battle": "battle"}
_UNTIL = re.compile(r"^ (for the rest of the turn|this phase|until the start of your next turn"
                    r"|for the rest of the battle)")
_CONDITIONS = [
    (r" (?:if|while) (?:it|this unit) charged (?:this turn|in the same turn|this phase)",
     lambda m: {"charged": True}),
    (r" (?:if|while) (?:it|this unit) is in combat", lambda m: {"in_combat": True}),
    (r" (?:if|while) (?:it|this unit) is not in combat", lambda m: {"in_combat": False}),
    (r" (?:if|while) (?:it|this unit) is damaged", lambda m: {"damaged": True}),
    (r" if (?:it|this unit) has not used a MOVE ability (?:this|in the same) turn(?P<s> and was "
     r"not set up this turn)?",
     lambda m: {"moved": False, **({"set_up": False} if m.group("s") else {})}),
    (r" (?:if|while) (?:it|this unit) has (\d+) or more damage points",
     lambda m: {"damage_points_at_least": int(m.group(1))}),
    (r" (?:if|while) the target (?:has the (" + _KW + r") keyword|is an? (" + _KW +
     r")(?: unit)?)", lambda m: {"target_has": m.group(1) or m.group(2)}),
    (r" (?:if|while) (?:it|this unit) is wholly within (\d+)\" of (?:a|any) friendly (" + _KW +
     r")(?: units?)?", lambda m: {"wholly_within": int(m.group(1)),
                                  "of": {"unit": "friendly", "keywords": [m.group(2)]}}),
    (r" (?:if|while) (?:it|this unit) is within (\d+)\" of (?:a|any) friendly (" + _KW +
     r")(?: units?)?", lambda m: {"within": int(m.group(1)),
                                  "of": {"unit": "friendly", "keywords": [m.group(2)]}}),
    (r" (?:if|while) (?:it|this unit) (?:has not charged|did not charge) (?:this turn|in the "
     r"same turn)", lambda m: {"charged": False}),
    (r" (?:if|while) (?:it|this unit) (?:is contesting|contests) an objective(?P<c> you control|"
     r" you do not control| that you do not control)?",
     lambda m: {"contesting": {None: "any", " you control": "yours"}.get(m.group("c"),
                                                                       "not_yours")}),
    (r" (?:if|while) (?:it|this unit) is in combat with (?:any|an|one or more) enemy (" + _KW +
     r")(?: units?)?", lambda m: {"in_combat_with": m.group(1)}),
    (r" (?:if|while) (?:it|this unit) is in combat with any enemy units that charged (?:this|in "
     r"the same) turn", lambda m: {"in_combat_with_charged": True}),
    (r" (?:if|while) the target unit has (\d+) or more models",
     lambda m: {"target_models_at_least": int(m.group(1))}),
    (r" (?:if|while) the target is an? (" + _KW + r"),? or an? (" + _KW + r")",
     lambda m: {"target_has_any": [m.group(1), m.group(2)]}),
    (r" for (?:combat |shooting )?attacks that target (?:an? )?(?:enemy )?(" + _KW +
     r")(?: units?)?(?:,? or (" + _KW + r")(?: units?)?)?",
     lambda m: {"target_has": m.group(1)} if not m.group(2) else
     {"target_has_any": [m.group(1), m.group(2)]}),
    (r" (?:for (?:combat |shooting )?attacks that target|if the target is) an enemy unit "
     r"(?:that has|with) (\d+) or more models",
     lambda m: {"target_models_at_least": int(m.group(1))}),
]


def _condition(text: str) -> dict[str, Any]:
    for pattern, make in _CONDITIONS:
        m = re.fullmatch(pattern, text)
        if m is not None:
            return make(m)
    raise _Unread(text)


# --- who --------------------------------------------------------------------------------------
_AURA = re.compile(r"^(?P<who>.+?) while they are (?:(?P<wholly>wholly )?within (?P<d>\d+)\" of "
                   r"|(?P<combat>in combat with ))this unit$")
_GROUP = re.compile(r"^(?P<other>other )?(?P<side>friendly|enemy) (?P<not>non-)?(?:(?P<kw>" +
                    _KW + r") units|"
                    r"(?P<kwonly>" + _KW + r")|units)(?: within (?P<d>\d+)\" of this unit)?$")


def _who(text: str, has_target: bool) -> dict[str, Any]:
    t = text.strip()
    if t in ("this unit", "it"):
        return {"unit": "self"}
    if t in ("the target", "the targets", "each target", "that unit"):
        if not has_target:
            raise _Unread(text)
        return {"unit": "target"}
    m = _AURA.match(t)
    if m is not None:
        who = _who(m.group("who"), has_target)
        if who["unit"] not in ("friendly", "enemy"):
            raise _Unread(text)
        if m.group("combat"):
            who["in_combat_with"] = "self"
        else:
            who["wholly_within" if m.group("wholly") else "within"] = int(m.group("d"))
        return who
    m = _GROUP.match(t)
    if m is not None:
        who = {"unit": m.group("side")}
        if m.group("other"):
            if m.group("side") != "friendly":
                raise _Unread(text)
            who["other"] = True
        kw = m.group("kw") or m.group("kwonly")
        if m.group("not"):          # 'non-HERO INFANTRY units': not HERO, and INFANTRY
            if not kw:
                raise _Unread(text)
            no, kw = _negated(kw)
            who["not_keywords"] = [no]
        if kw:
            who["keywords"] = [kw]
        if m.group("d"):
            who["within"] = int(m.group("d"))
        return who
    raise _Unread(text)


def _subject_with_tail(subject: str, tail: str, has_target: bool
                       ) -> tuple[dict[str, Any], str]:
    """A subject and what follows its verb: an aura's 'while they are wholly within N" of this
    unit' belongs to the subject."""
    m = _THEY.match(tail)
    if m is not None:
        return _who(subject + m.group(0), has_target), tail[m.end():]
    return _who(subject, has_target), tail


_THEY = re.compile(r"^ while they are (?:(?:wholly )?within \d+\" of |in combat with )this unit")
_POSSESSIVE = re.compile(r"^(?P<who>this unit|the target|the targets|(?:friendly|enemy) (?:"
                         + _KW + r")(?: units)?|that unit)(?:'s|')")
_SPLIT = re.compile(r"(?= (?:if|while) | for the rest of | this phase| until the start )")


def _owner(text: str, has_target: bool) -> tuple[dict[str, Any], str]:
    """'this unit's melee weapons' -> (this unit, 'melee weapons')."""
    m = _POSSESSIVE.match(text)
    if m is None:
        raise _Unread(text)
    return _who(m.group("who"), has_target), text[m.end():].strip()


_CHARGE_DICE = re.compile(r"^(?P<rest>the number of dice rolled when making charge rolls .+), "
                          r"to a (?P<bound>maximum of 3|minimum of 1)$")
_ROLL_WORDS = r"(?:hit|wound|save|run|charge|casting|chanting|unbinding|ward)"
_ROLLS = re.compile(r"^(?P<rolls>" + _ROLL_WORDS + r" rolls(?: and " + _ROLL_WORDS +
                    r" rolls)?) for "
                    r"(?P<for>.+)$")
_ATTACKS = re.compile(r"^(?:(?P<poss>.+?)'s? (?P<kind1>combat |shooting )?attacks"
                      r"|(?P<kind2>combat |shooting )?attacks (?P<rel>made by|that target) "
                      r"(?P<who>.+?))(?: that target (?:an? )?(?:enemy )?(?P<kw>" + _KW +
                      r")(?: units?)?)?$")
_CHARACTERISTIC = re.compile(r"^the (?P<c>rend|attacks|damage) characteristics? of "
                             r"(?P<rest>.+)$", re.I)
_USED = re.compile(r"^(?P<kind>melee |ranged )?weapons used (?:(?P<for>for (?:combat |shooting )"
                   r"?attacks that target )|by )(?P<who>.+)$")
_AGAINST = re.compile(r"^(?P<head>.+?) for (?:combat |shooting )?attacks that target "
                      r"(?P<t>.+)$")
_NAMED = re.compile(r"^[A-Z][\w'\-]*(?: (?:[A-Z][\w'\-]*|of|the|and|with))*$")
_TARGET_PHRASE = [
    (r"(?:an? )?(?:enemy )?(" + _KW + r")(?: units?)?", lambda m: {"target_has": m.group(1)}),
    (r"(?:an? )?(?:enemy )?(" + _KW + r")(?: units?)?,? or (?:an? )?(" + _KW +
     r")(?: units?)?", lambda m: {"target_has_any": [m.group(1), m.group(2)]}),
    (r"(?:an? )?enemy units? (?:that has|with) (\d+) or more models",
     lambda m: {"target_models_at_least": int(m.group(1))}),
]


def _target_phrase(text: str) -> dict[str, Any] | None:
    """What an attack's target must be: 'an enemy HERO', 'HEROES or MONSTERS', 'an enemy unit
    that has 10 or more models' (None: not such a phrase)."""
    for pattern, make in _TARGET_PHRASE:
        m = re.fullmatch(pattern, text)
        if m is not None:
            return make(m)
    return None


def _characteristic(c: str, rest: str, by: int, has_target: bool) -> dict[str, Any]:
    """'the Rend characteristic of' REST: 'this unit's melee weapons', 'weapons used for
    attacks that target this unit', 'melee weapons used by friendly X units while they ...',
    'this unit's Fire Breath' (a weapon by name), each maybe 'for attacks that target X'."""
    e: dict[str, Any] = {"modify": c, "by": by}
    m = _USED.match(rest)
    if m is not None:
        e["against" if m.group("for") else "who"] = _who(m.group("who"), has_target)
        if m.group("kind"):
            e["weapons"] = m.group("kind").strip()
        return e
    m = _AGAINST.match(rest)
    if m is not None:
        cond = _target_phrase(m.group("t"))
        if cond is None:
            raise _Unread(rest)
        e["if"] = [cond]
        rest = m.group("head")
    aura = re.search(r" while they are .+$", rest)
    owned = rest[:aura.start()] if aura else rest
    p = _POSSESSIVE.match(owned)
    if p is None:
        raise _Unread(rest)
    e["who"] = _who(p.group("who") + (aura.group(0) if aura else ""), has_target)
    what = owned[p.end():].strip()
    if what in ("weapons", "melee weapons", "ranged weapons"):
        if what != "weapons":
            e["weapons"] = what.split()[0]
    elif _NAMED.match(what) and "weapon" not in what.lower() and e["who"] == {"unit": "self"}:
        e["weapon"] = what
    else:
        raise _Unread(rest)
    return e
_CONTROL = re.compile(r"^(?:(?P<poss>.+?)'s? control scores?|the control scores? of "
                      r"(?P<who>.+?))$")
_MOVE = re.compile(r"^(?:(?P<poss>.+?)'s? move characteristic|the move characteristic of "
                   r"(?P<who>.+?))$", re.I)


def _modifiers(what: str, by: int, has_target: bool) -> list[tuple[dict[str, Any], str]]:
    """'hit rolls for this unit's combat attacks if it charged this turn' -> the modifiers, each
    with the tail of conditions and duration still to read."""
    dice = _CHARGE_DICE.match(what)
    if dice is not None:                     # the bound is the rule's own (passives.CHARGE_DICE)
        if (by > 0) != (dice.group("bound") == "maximum of 3"):
            raise _Unread(what)
        what = dice.group("rest")
    parts = _SPLIT.split(what, maxsplit=1)
    main, tail = parts[0], (parts[1] if len(parts) > 1 else "")
    aura = _THEY.match(tail)
    if aura is not None:                   # the subject's own: friendly X units while they ...
        main, tail = main + aura.group(0), tail[aura.end():]
    if dice is not None:
        m = re.match(r"^the number of dice rolled when making charge rolls for (?P<who>.+)$",
                     main)
        if m is None:
            raise _Unread(what)
        return [({"modify": "charge_dice", "by": by, "who": _who(m.group("who"), has_target)},
                 tail)]
    m = _ROLLS.match(main)
    if m is not None:
        rolls = re.findall(r"(hit|wound|save|run|charge|casting|chanting|unbinding|ward) rolls",
                           m.group("rolls"))
        return [(_roll_modifier(r, by, m.group("for"), has_target), tail) for r in rolls]
    m = _CHARACTERISTIC.match(main)
    if m is not None:
        return [(_characteristic(m.group("c").lower(), m.group("rest"), by, has_target), tail)]
    m = _CONTROL.match(main) or _MOVE.match(main)
    if m is not None:
        who = (_who(m.group("who"), has_target) if m.group("who")
               else _who(m.group("poss"), has_target))
        kind = "control" if "control" in main else "move"
        return [({"modify": kind, "by": by, "who": who}, tail)]
    raise _Unread(what)


def _roll_modifier(roll: str, by: int, subject: str, has_target: bool) -> dict[str, Any]:
    if roll in ("hit", "wound") and " that target " in subject and not re.match(
            r"^(?:combat |shooting )?attacks that target ", subject):
        head, t = subject.split(" that target ", 1)
        e = _roll_modifier(roll, by, head, has_target)
        cond = _target_phrase(t)
        if cond is not None:
            e["if"] = [*e.get("if", ()), cond]
        elif "against" in e or "of" not in e:
            raise _Unread(subject)
        else:
            e["against"] = _who(t, has_target)
        return e
    if roll in ("hit", "wound"):
        m = _ATTACKS.match(subject)
        if m is None:              # 'hit rolls for friendly X units': their attacks
            return {"modify": roll, "by": by, "of": _who(subject, has_target)}
        e: dict[str, Any] = {"modify": roll, "by": by}
        kind = (m.group("kind1") or m.group("kind2") or "").strip()
        if m.group("poss") is not None:
            e["of"] = _who(m.group("poss"), has_target)
        elif m.group("rel") == "made by":
            e["of"] = _who(m.group("who"), has_target)
        else:
            e["against"] = _who(m.group("who"), has_target)
        if kind:
            e["attacks"] = "melee" if kind == "combat" else "shooting"
        if m.group("kw"):
            e["if"] = [{"target_has": m.group("kw")}]
        return e
    return {"modify": roll, "by": by, "who": _who(subject, has_target)}
