"""New Recruit's JSON export of a roster read as the XML it transliterates: the same tree, with
`{"roster": {...}}` at the top, each element's attributes as keys (numbers and true/false typed
as JSON), each list of child elements under its container's name (`"forces": [{...}]` for
<forces><force/>...</forces>), an element's text as `"$text"`, and a rule's description as the
key `"description"`. The importer then reads it as it reads a .ros."""

from __future__ import annotations

import json
from typing import Any
from xml.etree.ElementTree import Element, SubElement

from battlefield.errors import InputError

TEXT = "$text"
TEXT_CHILDREN = ("description", "comment")     # string keys that are child elements in XML
SINGULAR = {"categories": "category", "entries": "entry"}


def looks_like_json(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


def parse_json_roster(name: str, data: bytes) -> Element:
    """The roster element of a New Recruit JSON export."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise InputError(name, "", None, f"malformed JSON: {str(exc).split(':')[0]}",
                         "a roster as New Recruit exports it (.json, .ros or .rosz)") from None
    if not isinstance(doc, dict) or len(doc) != 1 or not isinstance(next(iter(doc.values())),
                                                                     dict):
        raise InputError(name, "", None, "the JSON is not one roster",
                         "{\"roster\": {...}} as New Recruit exports a list")
    (tag, body), = doc.items()
    try:
        return _element(tag, body)
    except RecursionError:
        raise InputError(name, "", None, "the JSON is nested too deeply",
                         "a roster as New Recruit exports it") from None


def _element(tag: str, body: dict[str, Any], parent: Element | None = None) -> Element:
    el = Element(tag) if parent is None else SubElement(parent, tag)
    for key, value in body.items():
        if key == TEXT:
            el.text = _plain(value)
        elif isinstance(value, list):
            box = SubElement(el, key)
            for item in value:
                if isinstance(item, dict):
                    _element(_singular(key), item, box)
        elif isinstance(value, dict):
            _element(key, value, el)
        elif key in TEXT_CHILDREN and isinstance(value, str):
            SubElement(el, key).text = value
        elif value is not None:
            el.set(key, _plain(value))
    return el


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _singular(key: str) -> str:
    if key in SINGULAR:
        return SINGULAR[key]
    return key[:-1] if key.endswith("s") else key
