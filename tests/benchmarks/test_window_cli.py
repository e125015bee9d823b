"""benchmarks/window.py's command line: --help says what it measures, a wrong word is one
line and exit status 2 (it was a ValueError traceback)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import window  # noqa: E402


def test_help_names_the_targets(capsys):
    with pytest.raises(SystemExit) as done:
        window.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "window_first_frame_s <= 2" in out and "window_idle_cpu <= 0.02" in out


def test_a_wrong_word_is_one_line(capsys):
    with pytest.raises(SystemExit) as done:
        window.main(["nope"])
    assert done.value.code == 2
    assert "'nope': all, first or a number of seconds" in capsys.readouterr().err
