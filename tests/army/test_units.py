"""`battlefield army units`: a catalogue's units with profiles and base sizes, from the library
the faction catalogue links to."""

from __future__ import annotations

import json
import re

from battlefield.cli.main import main

from .conftest import NS


def test_lists_the_fyreslayers_with_their_profiles_and_bases(bsdata, library, capsys):
    assert main(["army", "units", str(bsdata / "Fyreslayers.cat"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = {r["name"] for r in rows}
    assert {"Auric Runefather", "Vulkite Berzerkers with Fyresteel Weapons",
            "Auric Runesmiter on Magmadroth"} <= names
    for row in rows:
        entry = library[row["name"]]
        if "problem" in row:
            assert row["problem"]
            continue
        unit = next(p for p in entry.iter(NS + "profile") if p.get("typeName") == "Unit")
        chars = {c.get("name"): c.text for c in unit.iter(NS + "characteristic")}
        assert row["stats"]["health"] == int(chars["Health"])
        assert f'{row["stats"]["save"]}+' == chars["Save"]
        size = next(r for r in entry.iter(NS + "rule") if r.get("name") == "Base Size")
        want = [int(x) for x in re.findall(r"\d+", "".join(size.itertext()))]
        assert (row["base"] if isinstance(row["base"], list) else [row["base"]]) == want
    vulkites = next(r for r in rows if r["name"] == "Vulkite Berzerkers with Fyresteel Weapons")
    assert vulkites["models"] == 10
    # a base the data gives as a fraction of the unit is named, not guessed
    flame = next(r for r in rows if r["name"] == "Vulkyn Flameseekers")
    assert "2/9 32mm" in flame["problem"]


def test_the_table_lists_stormcast_units(bsdata, capsys):
    assert main(["army", "units", str(bsdata / "Stormcast Eternals.cat")]) == 0
    out = capsys.readouterr().out
    line = next(s for s in out.splitlines() if s.strip().startswith("Lord-Aquilor "))
    assert re.search(r'14"\s+8\s+3\+\s+3\s+1\s+90x52', line), line
