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
        if "problem" in row or row.get("terrain"):
            continue
        unit = next(p for p in entry.iter(NS + "profile") if p.get("typeName") == "Unit")
        chars = {c.get("name"): c.text for c in unit.iter(NS + "characteristic")}
        assert row["stats"]["health"] == int(chars["Health"])
        assert f'{row["stats"]["save"]}+' == chars["Save"]
        size = next(r for r in entry.iter(NS + "rule") if r.get("name") == "Base Size")
        text = "".join(size.itertext())
        if "bases" in row:       # every model's rule counts
            text = "\n".join("".join(r.itertext()) for r in entry.iter(NS + "rule")
                              if r.get("name") == "Base Size")
            sizes = {float(x) for x in re.findall(r"(\d+(?:\.\d+)?)mm", text)}
            assert {float(b) for b in row["bases"]} == sizes
            assert len(row["bases"]) == row["models"]
            continue
        want = [int(x) for x in re.findall(r"\d+", text)]
        assert (row["base"] if isinstance(row["base"], list) else [row["base"]]) == want
    vulkites = next(r for r in rows if r["name"] == "Vulkite Berzerkers with Fyresteel Weapons")
    assert vulkites["models"] == 10
    # a base the data gives as a share of the unit ("2/9 32mm"): each model gets its own
    flame = next(r for r in rows if r["name"] == "Vulkyn Flameseekers")
    assert "problem" not in flame and set(flame["bases"]) == {32, 28.5}
    # faction terrain is a terrain piece, not a unit that cannot be mapped
    forge = next(r for r in rows if r["name"] == "Magmic Battleforge")
    assert forge.get("terrain") is True and "problem" not in forge
    # Path to Glory's scars and paths are no unit's weapons or prayers
    assert not any("problem" in r for r in rows), [r for r in rows if "problem" in r]


def test_the_table_lists_stormcast_units(bsdata, capsys):
    assert main(["army", "units", str(bsdata / "Stormcast Eternals.cat")]) == 0
    out = capsys.readouterr().out
    line = next(s for s in out.splitlines() if s.strip().startswith("Lord-Aquilor "))
    assert re.search(r'14"\s+8\s+3\+\s+3\s+1\s+90x52', line), line
