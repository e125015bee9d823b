"""The server tests' fixture: a real `battlefield serve` on loopback for each test module."""

from __future__ import annotations

import pytest

from ._serve import Served


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = Served(tmp_path_factory.mktemp("serve") / "games.sqlite")
    yield served
    served.stop()
