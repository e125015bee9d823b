"""One shape for what rosters and catalogues say about a unit: an entry (a roster's selection or
a catalogue's selectionEntry) with its profiles, rules, categories and child entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element


@dataclass(frozen=True)
class Profile:
    type_name: str                # "Unit", "Melee Weapon", "Ranged Weapon", "Ability (Spell)", ...
    name: str
    characteristics: tuple[tuple[str, str], ...]

    def get(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.characteristics if k == name), default)


@dataclass
class Entry:
    name: str
    entry_id: str                 # the roster's entryId ("link::target") or the catalogue's id
    type: str                     # unit, model, upgrade
    number: int = 1
    profiles: list[Profile] = field(default_factory=list)
    rules: dict[str, str] = field(default_factory=dict)      # name -> description
    categories: list[str] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)
    # A catalogue's shared table of choices linked into the unit (heroic traits, artefacts,
    # lores, paths): what a list may pick, not what the warscroll gives every such unit.
    table: bool = False

    def walk(self):
        """This entry and every entry below it, depth first."""
        yield self
        for c in self.children:
            yield from c.walk()

    def ids(self) -> list[str]:
        """The catalogue ids this entry may be found under, the most specific first: a roster
        writes an entry reached through a link as LINK::TARGET."""
        return list(reversed([p for p in self.entry_id.split("::") if p]))


def text_of(el: Element | None) -> str:
    """An element's text without the markup nested in it, spaces tidied."""
    if el is None:
        return ""
    text = "".join(el.itertext()).replace("\xa0", " ").replace("\u2011", "-")
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines()
                     if line.strip())


def profile_of(el: Element) -> Profile:
    chars = el.find("characteristics")
    return Profile(el.get("typeName", ""), el.get("name", ""),
                   tuple((c.get("name", ""), text_of(c))
                         for c in (chars if chars is not None else [])))
