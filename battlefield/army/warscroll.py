"""A unit's abilities as its warscroll gives them, for the scene's `abilities:` (aos4's unit key):
every `Ability (...)` profile of the unit and of what it holds (its models, its wargear, the
enhancements a roster picked), each as `{name, kind, timing, declare, effect, keywords, once}`
with `value` (a spell's casting or a prayer's chanting value) or `cost` (a command's) where the
data gives one. The shared tables a catalogue links into a unit for a list to pick from
(heroic traits, artefacts, lores, paths: Entry.table) are not the unit's own; the
unit-command roles' rules go on the models that carry them (loadout.py).

Texts keep their words: the data's markup is taken off, and a keyword it marks (**^^Infantry^^**)
is written in capitals as warscrolls print it (INFANTRY), so the effect reader can tell it."""

from __future__ import annotations

import re
from typing import Any

from battlefield.army.entries import Entry, Profile
from battlefield.army.loadout import is_command

KINDS = {"Ability (Passive)": "passive", "Ability (Activated)": "activated",
         "Ability (Command)": "command", "Ability (Spell)": "spell",
         "Ability (Prayer)": "prayer"}
# Other ability profiles (Blood Tithe, Fate: activated abilities paid for with a faction's own
# points) are activated abilities.
OTHER_KIND = "activated"
VALUES = {"spell": "Casting Value", "prayer": "Chanting Value"}
_ONCE = re.compile(r"^\s*once per (turn|battle)(?!\s+round)\b", re.I)
_KEYWORD = re.compile(r"\*\*\^\^(.+?)\^\^\*\*|\^\^(.+?)\^\^")


def rules_text(text: str) -> str:
    """A rule's text as people read it: marked keywords in capitals, bold marks off, odd
    spaces and hyphens made plain, each line's spaces tidied."""
    text = _KEYWORD.sub(lambda m: (m.group(1) or m.group(2)).upper(), text)
    text = text.replace("**", "").replace("\xa0", " ").replace("\u2011", "-")
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def is_ability(p: Profile) -> bool:
    return p.type_name.startswith("Ability")


def ability(p: Profile) -> dict[str, Any]:
    """One ability profile as a scene's ability entry."""
    kind = KINDS.get(p.type_name, OTHER_KIND)
    timing = rules_text(p.get("Timing")) or None
    once = None
    if timing:
        m = _ONCE.match(timing)
        once = m.group(1).lower() if m else None
    keywords = [k.strip().upper() for k in rules_text(p.get("Keywords")).split(",")
                if k.strip()]
    out: dict[str, Any] = {"name": rules_text(p.name) or p.name, "kind": kind,
                           "timing": timing, "declare": rules_text(p.get("Declare")) or None,
                           "effect": rules_text(p.get("Effect")), "keywords": keywords,
                           "once": once}
    said = p.get(VALUES[kind]).strip() if kind in VALUES else p.get("Cost").strip()
    if said:
        out["value" if kind in VALUES else "cost"] = int(said) if said.isdigit() else said
    return out


def abilities(entry: Entry) -> list[dict[str, Any]]:
    """Every ability of the unit (the first of each name), in the order the data gives them."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def visit(e: Entry) -> None:
        if e.table or is_command(e):
            return
        for p in e.profiles:
            if is_ability(p) and p.name not in seen:
                seen.add(p.name)
                out.append(ability(p))
        for c in e.children:
            if c.number > 0 or c.type == "model":
                visit(c)

    visit(entry)
    return out
