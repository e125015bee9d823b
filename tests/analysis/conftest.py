"""Analysis tests keep the sight cache in a temporary folder (never the user's ~/.cache)."""

import pytest


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path_factory.getbasetemp() / "sight-cache"))
