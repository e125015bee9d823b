"""The property tests draw the same examples alone and in the full suite: which modules happen
to be imported (tests/conftest.py stops Hypothesis mixing in their constants) changes nothing."""

from __future__ import annotations

import importlib
import sys

from hypothesis import given, settings
from hypothesis import strategies as st


def _draws() -> list[object]:
    seen: list[object] = []

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)
    @given(st.one_of(st.floats(allow_nan=False), st.integers(), st.text(max_size=20)))
    def probe(x: object) -> None:
        seen.append(x)

    probe()
    return seen


def test_a_derandomized_property_draws_the_same_examples_whatever_is_imported(tmp_path,
                                                                            monkeypatch):
    before = _draws()
    (tmp_path / "probe_constants.py").write_text(
        "A = 123456789.25\nB = 'zanzibar-constant'\nC = 987654321987\nD = -31337\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "probe_constants", raising=False)
    importlib.import_module("probe_constants")
    try:
        assert _draws() == before
    finally:
        sys.modules.pop("probe_constants", None)
