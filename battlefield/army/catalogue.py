"""BSData catalogues (.cat) and game systems (.gst): every entry by id, links followed, so that
a roster's selection can be filled in from the entry it was made from (by its entryId). Entries
no list can field at the table are not followed: the Path to Glory catalogues' (campaign scars,
paths, renown) and the build-your-own heroes' templates (NOT_FIELDED)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
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
# Catalogues whose entries only a campaign takes, and units that are templates to build a hero
# from: neither is a unit a matched-play list fields.
NOT_FIELDED_CATALOGUES = ("Path to Glory",)
NOT_FIELDED_UNITS = ("Anvil of Apotheosis",)
SHARED_CATALOGUES = ("Lores",)       # linked by every faction; they link every library back


@dataclass
class Catalogues:
    """One or more catalogue files read into one index of ids."""

    files: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    by_id: dict[str, Element] = field(default_factory=dict)
    units_of: dict[str, list[Element]] = field(default_factory=dict)   # file -> root entries
    links: dict[str, list[str]] = field(default_factory=dict)   # file -> catalogue ids it links
    imports: dict[str, list[str]] = field(default_factory=dict)  # ... whose root entries it takes
    ids: dict[str, str] = field(default_factory=dict)           # catalogue id -> file
    source: dict[str, str] = field(default_factory=dict)        # entry id -> catalogue name
    revisions: dict[str, str] = field(default_factory=dict)     # catalogue name -> revision

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

    @classmethod
    def for_roster(cls, folder: Path, catalogue_ids: list[str]) -> Catalogues:
        """From a folder of the whole dataset, the game system, the catalogues of these ids and
        what they link to (reading the 130-odd files of the dataset takes seconds)."""
        out = cls()
        wanted = set(catalogue_ids)
        files = sorted(f for f in folder.iterdir()
                       if f.suffix.lower() in SUFFIXES and f.is_file())
        for f in files:
            head = _head(f)
            if f.suffix.lower().startswith(".gst") or any(f' id="{i}"' in head for i in wanted):
                out.add(f)
        if wanted - set(out.ids):        # a catalogue not found by its id: read them all
            return cls.read(folder)
        out.add_linked(folder)
        return out

    def add(self, path: Path) -> None:
        stamp = _stamp(path)
        root = _parsed(str(path), *stamp)
        if root.tag not in ("catalogue", "gameSystem"):
            raise InputError(str(path), "", None, f"the XML is a <{root.tag}>",
                             "a BSData <catalogue> (.cat) or <gameSystem> (.gst)")
        self.files.append(str(path))
        name = root.get("name", path.stem)
        self.names.append(name)
        self.revisions[name] = root.get("revision", "")
        self.ids[root.get("id", "")] = str(path)
        new = {k: el for k, el in _entries(str(path), *stamp).items() if k not in self.by_id}
        self.by_id.update(new)
        self.source.update({k: name for k in new if k not in self.source})
        self.units_of[str(path)] = [el for holder in ("selectionEntries",
                                                      "sharedSelectionEntries", "entryLinks")
                                    for el in _children(root, holder, _TAG[holder])]
        self.links[str(path)] = [c.get("targetId", "")
                                 for c in _children(root, "catalogueLinks", "catalogueLink")]
        self.imports[str(path)] = [c.get("targetId", "")
                                   for c in _children(root, "catalogueLinks", "catalogueLink")
                                   if c.get("importRootEntries") == "true"]

    def entry(self, ids: list[str]) -> Entry | None:
        """The catalogue entry for the first of `ids` (most specific first) that it has."""
        for i in ids:
            el = self.by_id.get(i)
            if el is not None and el.tag in ("selectionEntry", "entryLink"):
                return self.build(el)
        return None

    def add_linked(self, folder: Path) -> None:
        """The catalogues the read ones link to (a faction's library, and what that links to),
        from the same folder."""
        while True:
            wanted = {i for f, ids in self.links.items() if self._follows(f)
                      for i in ids} - set(self.ids)
            if not wanted:
                return
            found = False
            for f in sorted(folder.iterdir()):
                if f.suffix.lower() in SUFFIXES and f.is_file() and str(f) not in self.files:
                    head = _head(f)
                    if any(f' id="{i}"' in head for i in wanted):
                        self.add(f)
                        found = True
            if not found:
                return

    def _follows(self, file: str) -> bool:
        """Whether the links of a catalogue are followed: not those of the shared Lores and
        Path to Glory catalogues, which link every faction's library (for its manifestations)."""
        name = self.names[self.files.index(file)] if file in self.files else ""
        return not any(n in name for n in (*NOT_FIELDED_CATALOGUES, *SHARED_CATALOGUES))

    def fielded(self, el: Element) -> bool:
        """Whether a list can field this entry (or the entry a link points at): not a Path to
        Glory catalogue's, not a build-your-own template."""
        target = (self.by_id.get(el.get("targetId", ""))
                  if el.tag == "entryLink" else el)
        if target is None:
            return True
        where = self.source.get(target.get("id", ""), "")
        if any(n in where for n in NOT_FIELDED_CATALOGUES):
            return False
        name = target.get("name", "")
        return not any(name.startswith(n) for n in NOT_FIELDED_UNITS)

    def has(self, entry_id: str) -> bool:
        """Whether an entryId of a roster (LINK::TARGET) names entries these catalogues have."""
        parts = [p for p in entry_id.split("::") if p]
        return bool(parts) and all(p in self.by_id for p in parts)

    def units(self, file: str | None = None) -> list[Entry]:
        """The units a list of one file can field (its own, those it links to at its top level
        and the root entries of the catalogues it imports them from), or of all files."""
        files = list(self.units_of) if file is None else [file]
        for f in files:                      # catalogues whose root entries `file` imports
            for i in self.imports.get(f, []):
                if i in self.ids and self.ids[i] not in files:
                    files.append(self.ids[i])
        out, seen = [], set()
        for f in files:
            els = self.units_of.get(f, [])
            for el in els:
                target = (self.by_id.get(el.get("targetId", ""))
                          if el.tag == "entryLink" else el)
                if (target is None or target.get("type") != "unit" or id(target) in seen
                        or not self.fielded(el)):
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
                      type=el.get("type", "upgrade"), number=_count(link, el),
                      table=el.tag == "selectionEntryGroup")
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
                if not self.fielded(kid):
                    continue
                if kid.tag == "selectionEntryGroup":
                    for k in _kids(kid):
                        if self.fielded(k):
                            entry.children.append(self.build(k, depth + 1))
                else:
                    entry.children.append(self.build(kid, depth + 1))


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=12)
def _parsed(path: str, mtime: int, size: int) -> Element:
    """A catalogue's XML, parsed once while it is unchanged: every faction links the same
    Lores and Path to Glory catalogues (read, never changed, by Catalogues)."""
    return read_xml(path)


@lru_cache(maxsize=12)
def _entries(path: str, mtime: int, size: int) -> dict[str, Element]:
    """A catalogue's entries by id, the first of each id in document order (walked once while
    the file is unchanged: a faction's library is added to every catalogue that links it)."""
    out: dict[str, Element] = {}
    for el in _parsed(path, mtime, size).iter():
        if el.tag in _ENTRY_TAGS:
            i = el.get("id")
            if i and i not in out:
                out[i] = el
    return out


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


def _head(f: Path) -> str:
    """The first 2,000 bytes of a catalogue, where its id stands (not the whole file read)."""
    with f.open("rb") as fh:
        return fh.read(2000).decode("utf-8", "replace")
