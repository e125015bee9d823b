"""The effect reader: an ability's Timing, Declare and Effect text (a unit's `abilities:` entry)
read into a structured effect of a small vocabulary, or None. It reads the WHOLE text or nothing:
every sentence must be one it knows, else the ability is left alone (never a partial reading).

The vocabulary (each effect a dict, JSON-ready):
- `{"modify": ROLL, "by": +-N, "who": WHO}`: a modifier to hit, wound, save, rend, damage,
  attacks, move, run, charge, control, casting or chanting, or to the number of dice of
  charge rolls (`charge_dice`, "to a maximum of 3" / "to a minimum of 1"); for hit and wound
  rolls `"of"` says whose attacks (`"attacks"`: melee or shooting only) and `"against"` whose
  attacks that target WHO; rend, damage and attacks modify weapons (`"weapons"`: melee or ranged).
- `{"ward": N, "who": WHO}`: a ward of N+.
- `{"mortal": AMOUNT, "who": WHO}`: mortal damage (AMOUNT a number, dice, or "roll": the roll).
- `{"heal": AMOUNT, "who": WHO}`; `{"return": AMOUNT, "who": WHO}`: slain models returned.
- `{"keyword": "STRIKE-FIRST" | "STRIKE-LAST", "who": WHO}`: the keyword given.
- `{"slay": N | "all", "who": target, "on": {"roll", "dice": 1, "health": "exceeds" |
  "reaches" | "double"}}`: N models of the target slain (or the unit destroyed) when the roll
  exceeds, equals or exceeds, or is at least double its Health characteristic.
- `{"no_commands": true, "who": WHO}`: WHO cannot use commands.
- `{"unbind": N, "who": self}`: this unit unbinds as if it had WIZARD (N).
- `{"use": "retreat" | "normal-move", "who": self, "no_mortal"?: true}`: this unit can use the
  'Retreat' ('Normal Move') ability as if it were your movement phase (without any mortal
  damage being inflicted on it).
- `{"set_up": {"away": N}, "who": self}`: this unit removed and set up again more than N"
  from all enemy units.
Any effect may carry `"on": {"roll": DICE, "at_least": N}` (On a N+, ...), `"each": {"roll":
DICE, "dice": K, "at_least": N}` (Roll K dice. For each N+, ...), `"if": [CONDITION ...]` and
`"until"` (phase, turn, next-turn, battle). WHO: `{"unit": "self" | "target" | "friendly" |
"enemy", "keywords": [...], "wholly_within": N, "within": N}` (the last two: of this unit).
CONDITION: `{"charged": true | false}` (this unit charged this turn, or not), `{"in_combat":
true | false}`, `{"damaged": true}`, `{"damage_points_at_least": N}`, `{"target_has": KEYWORD}`,
`{"target_has_any": [KEYWORD, KEYWORD]}`, `{"target_models_at_least": N}`, `{"contesting":
"any" | "yours" | "not_yours"}`, `{"in_combat_with": KEYWORD}`, `{"in_combat_with_charged":
true}`, `{"wholly_within" | "within": N, "of": {"unit": "friendly", "keywords": [...]}}`.
WHO may also say `"other": true` (other friendly units: not this one); its distance may be
"combat range" (this unit's). `{"any": WHO}`: some unit is WHO ('While any friendly X are
within this unit's combat range').

The phrases inside a clause (its subject, conditions, durations and what a modifier names) are
phrases.py's. `read(ability)` -> Reading | None; `shape(text)` is a text with its numbers, dice
and keywords taken out, for counting which shapes the reader does not read yet (`army coverage`).
Keywords are read as the import writes them: in capitals (INFANTRY, VANGUARD CHAMBER).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battlefield.rules.aos4.phrases import (  # the clauses' subjects, conditions, modifiers
    _CONDITIONS,
    _KW,
    _UNTIL,
    _UNTIL_WORDS,
    _condition,
    _modifiers,
    _negated,
    _subject_with_tail,
    _Unread,
    _who,
)

ROLLS = ("hit", "wound", "save", "rend", "damage", "attacks", "move", "run", "charge",
         "control", "casting", "chanting", "charge_dice", "unbinding", "ward")
PHASES = ("hero", "movement", "shooting", "charge", "combat", "end of turn")

_AMOUNT = r"(\d*D[36](?:\+\d+)?|\d+)"
_DICE_WORD = {"a dice": "D6", "a d6": "D6", "a d3": "D3", "2d6": "2D6", "d3": "D3", "d6": "D6"}


@dataclass(frozen=True)
class Reading:
    """What an ability does, read whole: when it is used, what it targets, the conditions to
    use it, and its effects."""

    timing: dict[str, Any] | None = None
    target: dict[str, Any] | None = None
    conditions: tuple[dict[str, Any], ...] = ()
    effects: tuple[dict[str, Any], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"timing": self.timing, "target": self.target,
                "if": list(self.conditions), "effects": list(self.effects)}


def read(ability: Mapping[str, Any]) -> Reading | None:
    """The ability's Timing, Declare and Effect read whole, or None."""
    try:
        timing = read_timing(ability.get("timing"))
        target, conditions = _declare(ability.get("declare"))
        text = str(ability.get("effect") or "")
        fights = timing is not None and timing.get("reaction") == "fight" and target is None
        got = _fight_after(text) if fights else None
        if got is not None:
            target, effects = got
        else:
            effects = _effect(text, target is not None)
    except _Unread:
        return None
    conditions += [e["_if"] for e in effects if "_if" in e]
    effects = [e for e in effects if "_if" not in e]
    if not effects:
        return None
    return Reading(timing, target, tuple(conditions), tuple(effects))


def readable(ability: Mapping[str, Any]) -> bool:
    return read(ability) is not None


def has_keywords(phrase: str, keywords: tuple[str, ...] | list[str]) -> bool:
    """Whether a unit with `keywords` has the keywords a text names together: 'CITIES OF SIGMAR
    HUMAN' is CITIES OF SIGMAR and HUMAN, 'MONSTERS' is MONSTER (a plural names the keyword)."""
    have = {k.upper() for k in keywords}
    words = phrase.upper().split()

    def covered(i: int) -> bool:
        if i == len(words):
            return True
        for j in range(len(words), i, -1):
            name = " ".join(words[i:j])
            singular = {name, name[:-1] if name.endswith("S") else name,
                        name[:-2] if name.endswith("ES") else name}
            if have & singular and covered(j):
                return True
        return False

    return bool(words) and covered(0)


def shape(text: str) -> str:
    """A text with its keywords, dice, distances and numbers taken out: 'Add N to hit rolls for
    KW units ...'."""
    t = re.sub(r"\b" + _KW + r"\b", "KW", " ".join(str(text).split()))
    t = re.sub(r"\b\d*D[36](\+\d+)?\b", "DICE", t)
    t = re.sub(r'\d+"', 'N"', t)
    return re.sub(r"\b\d+\b", "N", t)


# --- timing ---------------------------------------------------------------------------------
_TIMING = re.compile(r"^(?:once per (?P<once>turn|battle)(?: \(army\))?, )?(?:"
                     r"(?P<whose>your|enemy|any) (?P<phase>hero|movement|shooting|charge|combat"
                     r"|end of turn) phase|(?P<edge>start|end) of (?P<turn>your|enemy|any) turn"
                     r"|(?P<deploy>deployment phase)"
                     r"|(?P<fight>(?:reaction: )?you declared a fight ability for this unit))$",
                     re.I)


def read_timing(text: Any) -> dict[str, Any] | None:
    """'Once Per Turn (Army), Any Combat Phase' -> {"phase": "combat", "whose": "any"}; None
    for a passive ability (no timing); 'Reaction: You declared a FIGHT ability for this unit'
    -> {"phase": "combat", "whose": "any", "reaction": "fight"} (declared when this unit
    fights); any other reaction is unread."""
    if text is None or not str(text).strip() or str(text).strip().lower() == "passive":
        return None
    m = _TIMING.match(" ".join(str(text).split()))
    if m is None:
        raise _Unread(text)
    if m.group("deploy"):
        return {"phase": "deployment", "whose": "any"}
    if m.group("fight"):
        return {"phase": "combat", "whose": "any", "reaction": "fight"}
    if m.group("edge"):
        return {"phase": f"{m.group('edge').lower()} of turn", "whose": m.group("turn").lower()}
    return {"phase": m.group("phase").lower(), "whose": m.group("whose").lower()}


# --- declare --------------------------------------------------------------------------------
_PICK = re.compile(
    r"^pick (?:(?P<n>a|an|each|up to (?P<k>\d+)) )?(?:different )?(?P<visible>visible )?"
    r"(?P<side>enemy|friendly|another friendly|other friendly) (?P<not>non-)?(?P<kw>" + _KW +
    r" )?(?:(?:(?P<or>or " + _KW + r") )?units?|(?P<kwonly>" + _KW + r")(?: (?P<oronly>or " +
    _KW + r"))?)(?P<free> that is not in combat and is)?"
    r"(?: (?:(?P<wholly>wholly )?within (?:(?P<d>\d+)\"(?: of (?:this unit|it))?"
    r"|(?P<range>this unit's combat range))"
    r"|(?P<charged>that charged this turn and is )?in combat with (?:this unit|it)"
    r"(?P<charged2> and that charged this turn)?))?"
    r" to be the targets?(?:, then make a (?P<roll>casting|chanting) roll of 2?D6)?$")
_FIRST = re.compile(r"^(?P<cond>if this unit (?:charged this (?:phase|turn)|did not charge this "
                    r"turn|has not charged this turn|is (?:not )?in combat|is damaged))"
                    r", (?P<rest>pick .*)$")
_ROLL_ONLY = re.compile(r"^(?:then, )?make a (casting|chanting) roll of 2?D6$")


def _declare(text: Any) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    if text is None or not str(text).strip():
        return None, []
    target: dict[str, Any] | None = None
    conditions: list[dict[str, Any]] = []
    for s in _sentences(str(text)):
        low = _lower_first(s)
        m = _FIRST.match(low)
        if m is not None:
            conditions.append(_condition(" " + m.group("cond")))
            low = m.group("rest")
        if _ROLL_ONLY.match(low):
            continue
        m = _PICK.match(low)
        if m is None or target is not None:
            raise _Unread(s)
        if m.group("n") is None and "another" not in m.group("side"):
            raise _Unread(s)
        target = {"unit": "friendly" if "friendly" in m.group("side") else "enemy"}
        kw = " ".join(k.strip() for k in (m.group("kw"), m.group("kwonly")) if k)
        alternative = m.group("or") or m.group("oronly")
        if (alternative or m.group("not")) and not kw:
            raise _Unread(s)
        if m.group("not"):      # 'non-HERO INFANTRY': not a HERO, and INFANTRY
            no, kw = _negated(kw)
            target["not_keywords"] = [no]
        if alternative:         # 'an enemy HERO or MONSTER': either keyword; 'a friendly
            other = alternative[len("or "):].strip()        # DAUGHTERS OF KHAINE PRIEST or
            *shared, first = kw.split()                     # WIZARD': both, then either
            if not first or len(other.split()) > 1:
                raise _Unread(s)
            if shared:
                target["keywords"] = [" ".join(shared)]
            target["any_keywords"] = [first, other]
        elif kw:
            target["keywords"] = [kw]
        if "another" in m.group("side") or "other" in m.group("side"):
            target["other"] = True
        if m.group("visible"):
            target["visible"] = True
        if m.group("d"):
            target["wholly_within" if m.group("wholly") else "within"] = int(m.group("d"))
        elif m.group("range"):
            target["wholly_within" if m.group("wholly") else "within"] = "combat range"
        elif "in combat with" in low:
            target["in_combat"] = True
        if m.group("charged") or m.group("charged2"):
            target["charged"] = True
        if m.group("free"):
            if not (m.group("d") or m.group("range")):
                raise _Unread(s)
            target["not_in_combat"] = True
        n = m.group("n")
        target["count"] = "each" if n == "each" else int(m.group("k")) if m.group("k") else 1
    return target, conditions


# --- a reaction to this unit's fight: another unit fights immediately after ------------------
_FIGHT_PICK = re.compile(
    r"^pick a (?P<visible>visible )?friendly (?:non-(?P<not>[A-Z][A-Z'\-]+) )?(?:(?P<kw>" + _KW +
    r") unit|(?P<kwonly>" + _KW + r")|(?P<name>[A-Z][a-z'\-]+(?: [A-Z][a-z'\-]+)*) unit)"
    r" that has not used a (?i:fight) ability this turn and is within this unit's combat range"
    r"(?P<seen> and visible to this unit)? to be the target$")
_FIGHT_AFTER = re.compile(r"^the target can be picked to use a (?i:fight) ability immediately "
                          r"after the (?i:fight) ability used by this unit has been resolved$")
_IF_PICKED = re.compile(r"^if it is picked to do so, (?P<rest>.+)$")


def _fight_after(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """'Pick a friendly non-HERO X unit that has not used a FIGHT ability this turn and is
    within this unit's combat range to be the target. The target can be picked to use a FIGHT
    ability immediately after the FIGHT ability used by this unit has been resolved. [If it is
    picked to do so, add 1 to ... for the rest of the turn.]' -> the target (`not_fought`: it
    may still fight this phase) and {"fight_after": true, "who": target} with what the target
    is given; None when the first sentence picks no such unit (the effect is read as any)."""
    said = _sentences(" ".join(text.split()))       # a line broken inside a sentence
    m = _FIGHT_PICK.match(_lower_first(said[0])) if said else None
    if m is None:
        return None
    if len(said) < 2 or not _FIGHT_AFTER.match(_lower_first(said[1])):
        raise _Unread(text)
    target: dict[str, Any] = {"unit": "friendly", "within": "combat range", "count": 1,
                              "not_fought": True}
    kw = m.group("kw") or m.group("kwonly")
    if m.group("not"):
        if not kw:
            raise _Unread(said[0])
        target["not_keywords"] = [m.group("not")]
    if kw:
        target["keywords"] = [kw]
    if m.group("name"):
        target["name"] = m.group("name")
    if m.group("visible") or m.group("seen"):
        target["visible"] = True
    out: list[dict[str, Any]] = [{"fight_after": True, "who": {"unit": "target"}}]
    for s in said[2:]:
        picked = _IF_PICKED.match(_lower_first(s))
        if picked is None:
            raise _Unread(s)
        out += _clause(picked.group("rest"), True)
    return target, out


# --- effect -----------------------------------------------------------------------------------
_THIS_KW = re.compile(r"\bthis (?:MANIFESTATION|HERO|MONSTER|WIZARD|PRIEST|UNIT)\b"
                      r"(?! abilit| keyword)")


def _sentences(text: str) -> list[str]:
    """The sentences of a text ('this MANIFESTATION' and the like read as 'this unit')."""
    text = _THIS_KW.sub("this unit", text)
    out = []
    for line in text.replace("\r", "").split("\n"):
        line = line.strip()
        for s in re.split(r"(?<=[.:])\s+(?=[A-Z•])", line):
            s = s.strip()
            if s:
                out.append(s)
    return out


def _lower_first(s: str) -> str:
    """The sentence without its full stop, its first word in lower case (keywords kept)."""
    s = s.strip().rstrip(".").strip()
    first, _, rest = s.partition(" ")
    if first and not (first.isupper() and len(first) > 1):
        first = first.lower()
    return f"{first} {rest}".strip()


_HEADERS = {"for the rest of the turn:": "turn", "until the start of your next turn:": "next-turn",
            "for the rest of the phase:": "phase"}
_ROLL = re.compile(r"^roll (?:(?P<what>a dice|a d6|a d3|d3|d6|2d6|(?P<k>\d+) dice)"
                   r"(?: for each (?:(?P<each>target)|model in (?P<per>the target|this) unit"
                   r"(?:, to a maximum of (?P<most>\d+))?))?"
                   r"|a number of dice equal to (?P<equal>the "
                   r"target's health characteristic|the number of damage points the target has"
                   r"|the number of models in (?:the target|this) unit)"
                   r"(?:, to a maximum of (?P<most2>\d+))?)$", re.I)
# 'Roll a number of dice equal to ...' -> how many dice (activated._dice counts them)
_EQUAL = {"the target's health characteristic": "health of target",
          "the number of damage points the target has": "damage of target",
          "the number of models in the target unit": "models of target",
          "the number of models in this unit": "models of self"}
_ON = re.compile(r"^on an? (?P<n>\d)(?P<plus>\+|-(?P<top>\d))?, (?P<rest>.+)$")
_VS_HEALTH = re.compile(r"^if the roll (?P<cmp>exceeds|equals or exceeds|is at least double) the "
                        r"target's health characteristic, (?:(?P<n>\d+) models? in the target "
                        r"unit (?:is|are) slain|it is automatically destroyed)$", re.I)
_VS = {"exceeds": "exceeds", "equals or exceeds": "reaches", "is at least double": "double"}
_FOR_EACH = re.compile(r"^for each (?P<n>\d)(?P<plus>\+)?, (?P<rest>.+)$")


def _effect(text: str, has_target: bool) -> list[dict[str, Any]]:
    effects: list[dict[str, Any]] = []
    roll: dict[str, Any] | None = None        # a roll made and not yet used
    used: dict[str, Any] | None = None        # the roll the last sentence used
    header: dict[str, Any] | None = None      # what a header line gives the bullets below it
    for s in _sentences(text):
        if s.startswith("•"):
            if header is None:
                raise _Unread(s)
            got = _clause(_lower_first(s.lstrip("• ")), has_target)
            for e in got:
                if "until" in header and "until" in e:
                    raise _Unread(s)
                e.update(header)
            effects += got
            continue
        if header is not None and not effects:
            raise _Unread("a header without bullets")
        header = None
        low = _lower_first(s)
        if low in _HEADERS:
            header = {"until": _HEADERS[low]}
            continue
        m = re.match(r"^on an? (\d)\+:$", low)
        if m is not None:
            if roll is None or roll["dice"] != 1:
                raise _Unread(s)
            header = {"on": {**roll, "at_least": int(m.group(1))}}
            roll = None
            continue
        m = _ROLL.match(low)
        lead = _LEAD.match(low) if m is None and not effects else None
        if lead is not None and _ROLL.match(lead.group("rest")):
            # 'If this unit is in combat, roll a dice. On a 3+, ...': nothing happens otherwise
            effects.append({"_if": _condition(" " + lead.group("cond"))})
            m = _ROLL.match(lead.group("rest"))
        if m is not None:
            if roll is not None:
                raise _Unread(s)
            roll = _rolled(m, has_target)
            continue
        m = _VS_HEALTH.match(low)
        if m is not None:                  # 'If the roll exceeds the target's Health ...'
            if roll is None or roll["dice"] != 1 or not has_target or roll.get("each_target"):
                raise _Unread(s)
            n = m.group("n")
            effects.append({"slay": int(n) if n else "all", "who": {"unit": "target"},
                            "on": {**roll, "health": _VS[m.group("cmp")]}})
            roll = None
            continue
        m = _ON.match(low) or _FOR_EACH.match(low)
        if m is not None:
            roll = roll or (used if m.re is _ON else None)      # On a 1, ... of the same roll
            if roll is None or (m.re is _ON and roll["dice"] != 1) or (
                    m.re is _FOR_EACH and roll["dice"] == 1):
                raise _Unread(s)
            got = _clause(m.group("rest"), has_target, equal_to_roll=m.re is _ON)
            for e in got:
                key = "on" if m.re is _ON else "each"
                e[key] = {**roll, **_outcome(m)}
            effects += got
            used, roll = roll, None
            continue
        used = None
        if roll is not None:
            raise _Unread(s)
        effects += _clause(low, has_target)
    if roll is not None or header is not None and not effects:
        raise _Unread("a roll or a header nothing uses")
    return effects


def _outcome(m: re.Match[str]) -> dict[str, int]:
    """'On a 3+' -> at_least 3; 'On a 1' -> exactly 1; 'On a 2-5' -> from 2 to 5."""
    n = int(m.group("n"))
    if m.group("plus") == "+":
        return {"at_least": n}
    if m.re is _FOR_EACH:                           # 'For each 6, ...': the sixes
        return {"at_least": n, "at_most": n}
    if m.group("top"):
        return {"at_least": n, "at_most": int(m.group("top"))}
    return {"at_least": n, "at_most": n}


def _rolled(m: re.Match[str], has_target: bool) -> dict[str, Any]:
    """'Roll a D3 for each target.' -> {"roll": "D3", "dice": 1, "each_target": true}; 'Roll a
    dice for each model in the target unit, to a maximum of 10.' -> {"roll": "D6", "dice":
    "models of target", "most": 10}; 'Roll a number of dice equal to the target's Health
    characteristic.' -> {"roll": "D6", "dice": "health of target"}."""
    if m.group("equal"):
        dice = _EQUAL[m.group("equal").lower()]
        if dice.endswith("target") and not has_target:
            raise _Unread(m.group(0))
        got: dict[str, Any] = {"roll": "D6", "dice": dice}
        if m.group("most2"):
            got["most"] = int(m.group("most2"))
        return got
    what = m.group("what").lower()
    roll: dict[str, Any] = {"roll": "D6" if m.group("k") else _DICE_WORD[what],
                            "dice": int(m.group("k")) if m.group("k") else 1}
    if m.group("each"):
        roll["each_target"] = True
    if m.group("per"):
        if m.group("per") == "the target" and not has_target:
            raise _Unread(m.group(0))
        roll["dice"] = "models of " + ("target" if m.group("per") == "the target" else "self")
        if m.group("most"):
            roll["most"] = int(m.group("most"))
    return roll


# --- one clause -------------------------------------------------------------------------------
_LEAD = re.compile(r"^(?P<cond>(?:if|while) [^,]+), (?P<rest>.+)$")
_MODIFY = re.compile(r"^(?P<verb>add|subtract) (?P<n>\d+)\"? (?:to|from) (?P<what>.+)$")
_WARD = re.compile(r"^(?P<who>.+?) (?:has|have) (?:WARD|Ward) \((?P<n>\d)\+\)(?P<tail>.*)$")
_MORTAL = re.compile(r"^inflict (?:(?P<amount>" + _AMOUNT + r") mortal damage on (?P<who>.+?)"
                     r"|an amount of mortal damage on (?P<who2>.+?) equal to the roll)"
                     r"(?P<tail>(?: for the rest of the turn| this phase)?)$")
_HEAL = re.compile(r"^heal \((?P<amount>" + _AMOUNT + r")\) (?P<who>.+?)$")
_RETURN = re.compile(r"^(?:you can )?return (?:(?P<amount>" + _AMOUNT + r")|(?P<roll>a number of))"
                     r" slain models? to (?P<who>this unit|the target(?: unit)?|it)"
                     r"(?P<eq> equal to the roll)?$")
_SET = re.compile(r"^the (?P<c>attacks|damage) characteristic of (?:its |this unit's |the )?"
                  r"(?P<weapon>[^,]+?) is (?P<n>\d+)$", re.I)


_SET_UP = re.compile(r"^remove (?:this unit|it) from the battlefield and set it up again"
                     r"(?: on the battlefield)? (?P<where>.+)$")
_WHERE = ((re.compile(r"^more than (\d+)\" from all enemy units$"), "away"),)


def _set_up(where: str) -> dict[str, int]:
    """'more than 9" from all enemy units' -> {"away": 9}; any other place unread."""
    out: dict[str, int] = {}
    for part in where.split(" and "):
        got = [(key, m) for p, key in _WHERE if (m := p.match(part)) is not None]
        if not got or got[0][0] in out:
            raise _Unread(where)
        out[got[0][0]] = int(got[0][1].group(1))
    return out


_UNBIND = re.compile(r"^this unit can use (?:UNBIND abilities|the 'Unbind' ability) as if it had "
                     r"WIZARD \((?P<n>\d)\)$")
_USE = re.compile(r"^(?P<who>this unit|the target) can (?:immediately )?use the '(?P<what>Normal "
                  r"Move|Retreat)' ability as if it were your movement phase(?P<free> without any "
                  r"mortal damage being inflicted on it)?$")


_BOTH_WARD = re.compile(r"^while any friendly (?P<kw>" + _KW + r") are (?P<wholly>wholly )?within "
                        r"this unit's combat range, both this unit and those friendly units have "
                        r"(?:WARD|Ward) \((?P<n>\d)\+\)$")


_GIVES = re.compile(r"^(?P<who>.+?) (?:has|have) (?:the )?(?P<kw>STRIKE-FIRST|STRIKE-LAST)"
                    r"(?: keyword)?(?P<tail>.*)$")
_NO_COMMANDS = re.compile(r"^(?P<who>.+?) cannot use commands(?P<tail>.*)$")
_LEAD_UNTIL = re.compile(r"^(?P<until>for the rest of the turn|until the start of your next "
                         r"turn|for the rest of the battle), (?P<rest>.+)$", re.I)
_ONLY_IF = re.compile(r"^this unit can use this ability (?:only )?if it is "
                      r"(?P<not>not )?in combat$")


def _clause(text: str, has_target: bool, equal_to_roll: bool = False) -> list[dict[str, Any]]:
    """One clause that does something: a modifier, a ward, mortal damage or healing (or, as
    {"_if": CONDITION}, a condition on using the ability at all)."""
    m = _ONLY_IF.match(text)
    if m is not None:
        return [{"_if": {"in_combat": not m.group("not")}}]
    m = _LEAD_UNTIL.match(text)
    if m is not None:                       # 'For the rest of the turn, add 1 to ...'
        got = _clause(m.group("rest"), has_target, equal_to_roll)
        for e in got:
            if "until" in e or "_if" in e:
                raise _Unread(text)
            e["until"] = _UNTIL_WORDS[m.group("until").lower()]
        return got
    m = _UNBIND.match(text)
    if m is not None:       # 'This unit can use UNBIND abilities as if it had WIZARD (1).'
        return [{"unbind": int(m.group("n")), "who": {"unit": "self"}}]
    m = _USE.match(text)
    if m is not None:       # '... can immediately use the 'Retreat' ability as if it were ...'
        if m.group("free") and m.group("what") != "Retreat":
            raise _Unread(text)
        got: dict[str, Any] = {"use": m.group("what").lower().replace(" ", "-"),
                               "who": _who(m.group("who"), has_target)}
        if m.group("free"):
            got["no_mortal"] = True
        return [got]
    m = _BOTH_WARD.match(text)
    if m is not None:       # 'While any friendly X are within this unit's combat range, both ...'
        near = "wholly_within" if m.group("wholly") else "within"
        them = {"unit": "friendly", "keywords": [m.group("kw")], near: "combat range"}
        return [{"ward": int(m.group("n")), "who": {"unit": "self"},
                 "if": [{"any": {**them, "other": True}}]},
                {"ward": int(m.group("n")), "who": them}]
    lead: list[dict[str, Any]] = []
    m = _LEAD.match(text)
    if m is not None:
        lead.append(_condition(" " + m.group("cond")))
        text = m.group("rest")
    m = _MORTAL.match(text)
    if m is not None:
        if m.group("who2") is not None and not equal_to_roll:
            raise _Unread(text)
        who = _who(m.group("who") or m.group("who2"), has_target)
        out: dict[str, Any] = {"mortal": (m.group("amount") or "roll").upper(), "who": who}
        return [_finish(out, m.group("tail"), lead)]
    m = _RETURN.match(text)
    if m is not None:           # 'You can return D3 slain models to this unit.'
        if bool(m.group("roll")) != bool(m.group("eq")) or m.group("eq") and not equal_to_roll:
            raise _Unread(text)
        who = _who("the target" if m.group("who") == "it" else m.group("who"), has_target)
        return [_finish({"return": (m.group("amount") or "roll").upper(), "who": who}, "",
                        lead)]
    m = _HEAL.match(text)
    if m is not None:
        return [_finish({"heal": m.group("amount").upper(),
                         "who": _who(m.group("who"), has_target)}, "", lead)]
    m = _WARD.match(text)
    if m is not None:
        who, tail = _subject_with_tail(m.group("who"), m.group("tail"), has_target)
        return [_finish({"ward": int(m.group("n")), "who": who}, tail, lead)]
    m = _GIVES.match(text)
    if m is not None:
        who, tail = _subject_with_tail(m.group("who"), m.group("tail"), has_target)
        return [_finish({"keyword": m.group("kw"), "who": who}, tail, lead)]
    m = _NO_COMMANDS.match(text)
    if m is not None:
        who, tail = _subject_with_tail(m.group("who"), m.group("tail"), has_target)
        return [_finish({"no_commands": True, "who": who}, tail, lead)]
    m = _SET_UP.match(text)
    if m is not None:           # 'Remove this unit ... and set it up again ... more than 9" ...'
        return [_finish({"set_up": _set_up(m.group("where")), "who": {"unit": "self"}}, "",
                        lead)]
    m = _SET.match(text)
    if m is not None:
        return [_finish({"set": m.group("c").lower(), "to": int(m.group("n")),
                         "weapon": m.group("weapon"), "who": {"unit": "self"}}, "", lead)]
    m = _MODIFY.match(text)
    if m is not None:
        by = int(m.group("n")) * (1 if m.group("verb") == "add" else -1)
        return [_finish(e, tail, lead) for e, tail in _modifiers(m.group("what"), by,
                                                                  has_target)]
    raise _Unread(text)


def _finish(effect: dict[str, Any], tail: str, lead: list[dict[str, Any]]
            ) -> dict[str, Any]:
    conditions = [*lead, *effect.pop("if", [])]
    rest = tail
    while rest:
        m = _UNTIL.match(rest)
        if m is not None:
            if "until" in effect:
                raise _Unread(tail)
            effect["until"] = _UNTIL_WORDS[m.group(1)]
            rest = rest[m.end():]
            continue
        got = [m for p, _ in _CONDITIONS if (m := re.match(p, rest)) is not None]
        if not got:
            raise _Unread(tail)
        m = max(got, key=lambda m: m.end())          # the longest: 'in combat with any X'
        conditions.append(_condition(m.group(0)))
        rest = rest[m.end():]
    if conditions:
        effect["if"] = conditions
    return effect
