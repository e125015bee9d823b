"""The test rosters (tests/army/data, built by build_rosters.py from the BSData catalogues) and
the catalogues themselves (the `bsdata` fixture of tests/conftest.py), read here with the
standard library to compare field by field."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

DATA = Path(__file__).resolve().parent / "data"
NS = "{http://www.battlescribe.net/schema/catalogueSchema}"


@pytest.fixture(scope="session")
def library(bsdata):
    """The unit entries of both faction libraries by name."""
    out = {}
    for f in ("Stormcast Eternals - Library.cat", "Fyreslayers - Library.cat"):
        root = ET.parse(bsdata / f).getroot()
        for e in root.find(NS + "sharedSelectionEntries"):
            if e.get("type") == "unit":
                out[e.get("name")] = e
    return out


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Every army test has its own empty cache: none reads or writes the user's ~/.cache."""
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("BATTLEFIELD_CATALOGUES_URL", raising=False)
