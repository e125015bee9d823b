"""The test rosters (tests/army/data, built by build_rosters.py from the BSData catalogues) and
the catalogues themselves, read here with the standard library to compare field by field."""

from __future__ import annotations

import os
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

DATA = Path(__file__).resolve().parent / "data"
AOS = Path("bsdata") / "age-of-sigmar-4th"


def _bsdata() -> Path:
    """The BSData catalogues: $BATTLEFIELD_BSDATA, else shared/bsdata beside the checkout or
    beside any folder above it (the project's ../shared, wherever the clone stands)."""
    if os.environ.get("BATTLEFIELD_BSDATA"):
        return Path(os.environ["BATTLEFIELD_BSDATA"])
    root = Path(__file__).resolve().parents[2]
    for folder in (root, *root.parents):
        found = folder.parent / "shared" / AOS
        if (found / "Age of Sigmar 4.0.gst").is_file():
            return found
    return root.parent / "shared" / AOS


BSDATA = _bsdata()
NS = "{http://www.battlescribe.net/schema/catalogueSchema}"


@pytest.fixture(scope="session")
def bsdata() -> Path:
    """The catalogues, or a skip that says why: they are the BSData community's files, kept
    beside the repository (../shared/bsdata), not in it. CI has them and sets
    BATTLEFIELD_REQUIRE_BSDATA=1 (.ci/run), so there a missing folder fails instead."""
    if not (BSDATA / "Age of Sigmar 4.0.gst").is_file():
        why = (f"army import against the real BSData catalogues: they are not shipped with "
               f"battlefield and are not at {BSDATA} (set BATTLEFIELD_BSDATA to a checkout of "
               f"BSData/age-of-sigmar-4th; CI has it and runs these tests)")
        if os.environ.get("BATTLEFIELD_REQUIRE_BSDATA"):
            pytest.fail(why)
        pytest.skip(why)
    return BSDATA


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
