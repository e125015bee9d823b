"""BSData catalogues (.cat) and game systems (.gst): every entry by id, links followed, so that
a roster's selection can be filled in from the entry it was made from (by its entryId)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

from battlefield.army.entries import Entry, profile_of, text_of
from battlefield.army.xmlfile import read_xml
from battlefield.errors import InputError

SUFFIXES = (".cat", ".gst", ".catz", ".gstz")
_TAG = {"selectionEntries": "selectionEntry", "sharedSelectionEntries": "selectionEntry",
        "entryLinks": "entryLink"}
_ENTRY_TAGS = ("selectionEntry", "entryLink", "selectionEntryGroup", "profile", "rule",
               "categoryEntry")


@dataclass
class Catalogues:
    """One or more catalogue files read into one index of ids."""

    files: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    by_id: dict[str, Element] = field(default_factory=dict)
    units_of: dict[str, list[Element]] = field(default_factory=dict)   # file -> root entries
    links: dict[str, list[str]] = field(default_factory=dict)   # file -> catalogue ids it links
    ids: dict[str, str] = field(default_factory=dict)           # catalogue id -> file

    @classmethod
    def read(cls, *paths: str | Path) -> Catalogues:
        """Catalogue files, or folders of them."""
        out = cls()
        for p in paths:
            p = Path(p)
            if p.is_dir():
                files = sorted(f for f in p.iterdir() if f.suffix.lower() in SUFFIXES)
                if not files:
                    raise InputError(str(p), "", None, "no catalogue files in the folder",
                                     "a folder of BSData .cat/.gst files")
            else:
                files = [p]
            for f in files:
                out.add(f)
        return out

    def add(self, path: Path) -> None:
        root = read_xml(path)
        if root.tag not in ("catalogue", "gameSystem"):
            raise InputError(str(path), "", None, f"the XML is a <{root.tag}>",
                             "a BSData <catalogue> (.cat) or <gameSystem> (.gst)")
        self.files.append(str(path))
        self.names.append(root.get("name", path.stem))
        self.ids[root.get("id", "")] = str(path)
        for el in root.iter():
            if el.tag in _ENTRY_TAGS and el.get("id"):
                self.by_id.setdefault(el.get("id", ""), el)
        self.units_of[str(path)] = [el for holder in ("selectionEntries",
                                                      "sharedSelectionEntries", "entryLinks")
                                    for el in _children(root, holder, _TAG[holder])]
        self.links[str(path)] = [c.get("targetId", "")
                                 for c in _children(root, "catalogueLinks", "catalogueLink")]

    def entry(self, ids: list[str]) -> Entry | None:
        """The catalogue entry for the first of `ids` (most specific first) that it has."""
        for i in ids:
            el = self.by_id.get(i)
            if el is not None and el.tag in ("selectionEntry", "entryLink"):
                return self.build(el)
        return None

    def add_linked(self, folder: Path) -> None:
        """The catalogues the read ones link to (a faction's library), from the same folder."""
        wanted = {i for ids in self.links.values() for i in ids} - set(self.ids)
        if not wanted:
            return
        for f in sorted(folder.iterdir()):
            if f.suffix.lower() in SUFFIXES and str(f) not in self.files:
                head = f.read_bytes()[:2000].decode("utf-8", "replace")
                if any(f'id="{i}"' in head for i in wanted):
                    self.add(f)

    def units(self, file: str | None = None) -> list[Entry]:
        """The units of one file (its own and those it links to at its top level), or of all."""
        out, seen = [], set()
        for f, els in self.units_of.items():
            if file is not None and f != file:
                continue
            for el in els:
                target = (self.by_id.get(el.get("targetId", ""))
                          if el.tag == "entryLink" else el)
                if target is None or target.get("type") != "unit" or id(target) in seen:
                    continue
                seen.add(id(target))
                out.append(self.build(el))
        return out

    # --- building entries ----------------------------------------------------------------------
    def build(self, el: Element, depth: int = 0) -> Entry:
        """An entry with its links followed: the entryLink's target, the infoLinks' profiles
        and rules, the categoryLinks' names; children from entries, links and groups."""
        name, eid = el.get("name", ""), el.get("id", "")
        link = el
        if el.tag == "entryLink":
            target = self.by_id.get(el.get("targetId", ""))
            if target is None or depth > 20:
                return Entry(name, eid, "upgrade", 0)
            el = target
            eid = f"{eid}::{el.get('id', '')}"
        entry = Entry(name=name or el.get("name", ""), entry_id=eid,
                      type=el.get("type", "upgrade"), number=_count(link, el))
        for holder in (link, el) if link is not el else (el,):
            self._fill(entry, holder, depth)
        return entry

    def _fill(self, entry: Entry, el: Element, depth: int) -> None:
        for p in _children(el, "profiles", "profile"):
            entry.profiles.append(profile_of(p))
        for r in _children(el, "rules", "rule"):
            entry.rules.setdefault(r.get("name", ""), text_of(r.find("description")))
        for info in _children(el, "infoLinks", "infoLink"):
            target = self.by_id.get(info.get("targetId", ""))
            if target is None:
                continue
            if target.tag == "profile":
                entry.profiles.append(profile_of(target))
            elif target.tag == "rule":
                entry.rules.setdefault(target.get("name", ""),
                                       text_of(target.find("description")))
        for c in _children(el, "categoryLinks", "categoryLink"):
            target = self.by_id.get(c.get("targetId", ""))
            entry.categories.append(c.get("name") or (target.get("name", "")
                                                      if target is not None else ""))
        if depth < 20:
            for kid in _kids(el):
                if kid.tag == "selectionEntryGroup":
                    for k in _kids(kid):
                        entry.children.append(self.build(k, depth + 1))
                else:
                    entry.children.append(self.build(kid, depth + 1))


def _children(el: Element, holder: str, tag: str) -> list[Element]:
    h = el.find(holder)
    return [] if h is None else [c for c in h if c.tag == tag]


def _kids(el: Element) -> list[Element]:
    return (_children(el, "selectionEntries", "selectionEntry")
            + _children(el, "entryLinks", "entryLink")
            + _children(el, "selectionEntryGroups", "selectionEntryGroup"))


def _count(*els: Element) -> int:
    """How many of an entry its parent takes unless told otherwise: the entry's own minimum
    (a unit's models: `min 5 selections in parent`), else 1."""
    for el in els:
        for c in _children(el, "constraints", "constraint"):
            if (c.get("type") == "min" and c.get("field") == "selections"
                    and c.get("scope") == "parent"):
                try:
                    return max(int(float(c.get("value", "1"))), 0)
                except ValueError:
                    return 1
    return 1


def merge(roster: Entry, cats: Catalogues | None) -> Entry:
    """A roster's selection with what it leaves out (profiles, rules, categories) taken from
    the catalogue entry of its entryId; children merged the same way."""
    if cats is not None:
        ref = cats.entry(roster.ids())
        if ref is not None:
            have = {(p.type_name, p.name) for p in roster.profiles}
            roster.profiles += [p for p in ref.profiles if (p.type_name, p.name) not in have]
            for k, v in ref.rules.items():
                roster.rules.setdefault(k, v)
            roster.categories += [c for c in ref.categories if c not in roster.categories]
    for c in roster.children:
        merge(c, cats)
    return roster
