"""Army lists for the server tests: a .ros of tests/army/data as New Recruit's JSON export
writes the same list (tests/army/test_json_roster.py types its numbers and flags too)."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET


def element(el: ET.Element) -> dict:
    """An element as New Recruit's JSON writes it: attributes as keys, child lists under their
    container's name, text as "$text", a rule's description as a key."""
    out: dict = dict(el.attrib)
    if (el.text or "").strip() and not len(el):
        out["$text"] = el.text
    for kid in el:
        tag = kid.tag.rsplit("}", 1)[-1]
        out[tag] = kid.text or "" if tag == "description" else [element(x) for x in kid]
    return out


def as_json(ros: bytes) -> bytes:
    return json.dumps({"roster": element(ET.fromstring(ros))}, indent=2,
                      ensure_ascii=False).encode()
