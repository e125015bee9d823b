"""New Recruit's JSON export (the `.json` of its three formats): the same tree as the .ros, with
numbers and true/false typed, element text as "$text" and a rule's description as a key. A
roster written so from a .ros of tests/army/data imports to the very scene the .ros does; a JSON
that is not a roster is one line, exit 2."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from battlefield.cli.main import main

from .conftest import DATA

NUMBERS = ("number", "value", "battleScribeVersion", "gameSystemRevision", "catalogueRevision")
FLAGS = ("hidden", "primary")


def as_new_recruit_json(el: ET.Element) -> dict:
    """An element as New Recruit's JSON writes it (its transliteration of the XML)."""
    out: dict = {}
    for k, v in el.attrib.items():
        if k in FLAGS:
            out[k] = v == "true"
        elif k in NUMBERS and v.replace(".", "", 1).isdigit():
            out[k] = float(v) if "." in v else int(v)
        else:
            out[k] = v
    text = (el.text or "").strip()
    kids = list(el)
    if text and not kids:
        out["$text"] = el.text
    for kid in kids:
        tag = kid.tag.rsplit("}", 1)[-1]
        if tag == "description":
            out[tag] = kid.text or ""
        else:
            out[tag] = [as_new_recruit_json(x) for x in kid]
    return out


def test_a_json_export_imports_as_its_ros(tmp_path, bsdata, capsys):
    ros = DATA / "lists" / "gloomspite-gitz.ros"
    root = ET.parse(ros).getroot()
    doc = {"roster": as_new_recruit_json(root)}
    path = tmp_path / "gloomspite-gitz.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    cats = ["--catalogues", str(bsdata)]
    assert main(["army", "import", str(ros), "-o", str(a), *cats]) == 0
    assert main(["army", "import", str(path), "-o", str(b), *cats]) == 0, capsys.readouterr()
    body = [x.split("\n", 1)[1] for x in (a.read_text(), b.read_text())]   # past the header
    assert body[0] == body[1]


def test_a_json_that_is_no_roster_is_one_line(tmp_path, capsys):
    for text, said in (('{"roster": [1, 2]}', "not one roster"), ('{"roster": {', "malformed JSON"),
                       ('{"catalogue": {"name": "x"}}', "not a <roster>")):
        path = tmp_path / "x.json"
        path.write_text(text)
        assert main(["army", "import", str(path), "-o", str(tmp_path / "o.yaml")]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and said in err and "Traceback" not in err, err
