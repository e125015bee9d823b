"""Rosters that cannot be imported: each is one line naming the file (and the unit, where one is
at fault) and what was expected, exit status 2, no traceback and no scene written."""

from __future__ import annotations

import io
import zipfile

import pytest

from battlefield.army.xmlfile import MAX_XML_BYTES, MAX_ZIP_MEMBERS
from battlefield.cli.main import main

from .conftest import DATA

SCE = (DATA / "stormcast.ros").read_text(encoding="utf-8")

LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE roster [
 <!ENTITY a "lollollollollollollollollollol">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<roster name="&c;"><forces/></roster>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<roster name="&x;"><forces/></roster>
"""


def _zip(path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def _bomb(path) -> None:
    """A member that unpacks to more than the limit from a few tens of kilobytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, \
            z.open("list.ros", "w", force_zip64=True) as f:
        chunk = b" " * (1 << 20)
        for _ in range(MAX_XML_BYTES // len(chunk) + 1):
            f.write(chunk)


CASES = {
    "malformed": ("x.ros", lambda p: p.write_text(SCE[:5000]), "malformed XML", None),
    "not-a-roster": ("x.ros", lambda p: p.write_text("<catalogue/>"), "not a <roster>", None),
    "entity-expansion": ("x.ros", lambda p: p.write_text(LAUGHS), "unsafe XML refused", None),
    "external-entity": ("x.ros", lambda p: p.write_text(EXTERNAL), "unsafe XML refused", None),
    "zip-bomb": ("x.rosz", _bomb, "unpacks to", None),
    "zip-ratio": ("x.rosz", lambda p: _zip(p, {"list.ros": b"<roster>" + b" " * (4 << 20)
                                                + b"</roster>"}), "compressed", None),
    "zip-members": ("x.rosz", lambda p: _zip(p, {f"{k}.ros": b"<roster/>"
                                                 for k in range(MAX_ZIP_MEMBERS + 1)}),
                    "the zip holds", None),
    "not-a-zip": ("x.rosz", lambda p: p.write_bytes(b"PK\x03\x04 not really"), "not a zip",
                  None),
    "unknown-characteristic": ("x.ros", lambda p: p.write_text(
        SCE.replace('name="Control"', 'name="Bravery"', 1)),
        "unknown characteristic 'Bravery' in its Unit profile", "Liberators"),
    "unknown-weapon-characteristic": ("x.ros", lambda p: p.write_text(
        SCE.replace('name="Wnd"', 'name="Strength"', 1)),
        "unknown characteristic 'Strength' in weapon 'Warhammer'", "Liberators"),
    "missing-base-size": ("x.rosz", lambda p: p.write_bytes((DATA / "fyreslayers.rosz")
                                                            .read_bytes()),
                          "no 'Base Size' rule for its model 'Auric Runefather'",
                          "Auric Runefather"),
    "unknown-base-size": ("x.ros", lambda p: p.write_text(
        SCE.replace("<description>40mm</description>", "<description>large</description>",
                    1)), "base size 'large' is not a size in mm", "Liberators"),
    "bad-save": ("x.ros", lambda p: p.write_text(SCE.replace(">3+</characteristic>", ">-<"
                                                             "/characteristic>", 1)),
                 "Save '-' is not a roll", "Liberators"),
}


# A unit that cannot be mapped stops the import only with --strict; without it the unit is left
# out with a warning and the rest imported (test_left_out_unit_by_unit).
UNIT_CASES = ("unknown-characteristic", "unknown-weapon-characteristic", "unknown-base-size",
              "bad-save")


@pytest.mark.parametrize("case", list(CASES))
def test_one_clear_line_and_exit_2(tmp_path, capsys, case):
    name, make, message, unit = CASES[case]
    path = tmp_path / name
    make(path)
    out = tmp_path / "out.yaml"
    strict = ["--strict"] if case in UNIT_CASES else []
    assert main(["army", "import", str(path), "-o", str(out), *strict]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(path) in err and message in err, err
    if unit:
        assert f"unit '{unit}'" in err
    assert "expected" in err
    assert not out.exists()


@pytest.mark.parametrize("case", UNIT_CASES)
def test_left_out_unit_by_unit(tmp_path, capsys, case):
    """Without --strict the unit at fault is left out with one warning naming it and why; the
    other units are written, the exit status is 0 and the summary counts what was left out."""
    name, make, message, unit = CASES[case]
    path = tmp_path / name
    make(path)
    out = tmp_path / "out.yaml"
    assert main(["army", "import", str(path), "-o", str(out)]) == 0
    got = capsys.readouterr()
    left = [w for w in got.err.splitlines() if "is left out" in w and f"unit '{unit}'" in w]
    assert len(left) == 1 and message in left[0], got.err
    assert "3 units" in got.out and "1 unit left out" in got.out, got.out
    assert unit.lower() not in out.read_text().lower()


def test_the_zip_bomb_is_refused_before_unpacking(tmp_path, monkeypatch):
    """The member's declared size is checked first; nothing is read from it."""
    from battlefield.army.xmlfile import read_xml
    from battlefield.errors import InputError

    path = tmp_path / "b.rosz"
    _bomb(path)
    assert path.stat().st_size < MAX_XML_BYTES // 100
    opened = []
    real = zipfile.ZipFile.open

    def spy(self, *a, **k):
        opened.append(a)
        return real(self, *a, **k)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    with pytest.raises(InputError, match="unpacks to"):
        read_xml(path)
    assert opened == []


def test_a_side_without_territory_cannot_deploy(tmp_path, capsys):
    out = tmp_path / "o.yaml"
    assert main(["army", "import", str(DATA / "stormcast.ros"), "-o", str(out), "--side",
                 "green", "--deploy"]) == 2
    assert "no territory for side 'green' (its territories: red, blue)" in capsys.readouterr().err


def test_a_zip_is_read_by_its_content_not_its_name(tmp_path):
    """A .rosz is the .ros zipped: both give the same units, whatever the zip is called."""
    from battlefield.army.roster import read_roster

    z = tmp_path / "s.ros"
    buf = io.BytesIO()
    _zip(buf, {"s.ros": SCE.encode()})
    z.write_bytes(buf.getvalue())
    a, b = read_roster(DATA / "stormcast.ros"), read_roster(z)
    assert [u.name for u in a.units] == [u.name for u in b.units]
    assert [u.profiles for u in a.units] == [u.profiles for u in b.units]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_roster_that_is_no_regular_file_is_refused_before_reading(tmp_path, capsys, kind):
    """`army import /dev/zero` read forever (23 GB before the kernel killed it): what is not a
    regular file is refused by its kind (a FIFO here: it would block a read the same way)."""
    import os

    roster = tmp_path / "list.ros"
    os.mkfifo(roster) if kind == "fifo" else roster.mkdir()
    assert main(["army", "import", str(roster), "-o", str(tmp_path / "out.yaml")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert ("not a regular file" if kind == "fifo" else "is a folder") in err
