"""The sight map's cost told before it starts: the figures of a grid, the refusal beyond the
budget (one line, exit status 2, a grid that fits), --force, and one line instead of a traceback
when memory runs out anyway. No timing: the estimates are arithmetic on the grid."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from battlefield.analysis import budget
from battlefield.analysis.budget import Estimate, estimate, fitting_grid
from battlefield.analysis.progress import ProgressBar, clock_text, count
from battlefield.cli.main import main

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

HUGE = """\
ruleset: aos4
board: {width: 2000, depth: 2000}
terrain:
  - {id: ruin, outline: [[200, 100], [260, 100], [260, 140], [200, 140]], height: 4}
objectives:
  - {id: centre, at: [1000, 900]}
deployment:
  red: [[0, 0], [2000, 0], [2000, 120], [0, 120]]
  blue: [[0, 1880], [2000, 1880], [2000, 2000], [0, 2000]]
"""


@pytest.fixture
def huge(tmp_path: Path) -> Path:
    path = tmp_path / "huge.yaml"
    path.write_text(HUGE, encoding="utf-8")
    return path


def test_the_figures_of_a_grid():
    e = estimate(120, 88, 0.5, workers=2)
    assert e.cells == 240 * 176 == 42_240
    assert e.lines == 42_240 * 42_239                     # 1.78 billion sight lines
    assert e.seconds == pytest.approx(42_240 * 42_239 / 2 / (budget.PAIRS_PER_SECOND * 2))
    assert e.megabytes == pytest.approx(budget.BASE_MB + 42_240 * budget.BYTES_PER_CELL / 2**20)
    # Memory grows with the cells, time with their pairs.
    finer = estimate(120, 88, 0.25, workers=2)
    assert finer.cells == 4 * e.cells
    assert finer.megabytes - budget.BASE_MB == pytest.approx(4 * (e.megabytes - budget.BASE_MB))
    assert finer.seconds == pytest.approx(16 * e.seconds, rel=1e-3)
    two = estimate(120, 88, 0.5, boards=2, workers=2)
    assert two.seconds == pytest.approx(2 * e.seconds) and two.megabytes == e.megabytes


@pytest.mark.parametrize(("width", "depth", "spacing"), [
    (60, 44, 0.01), (60, 44, 0.5), (2000, 2000, 0.5), (2000, 2000, 1), (1e6, 1e6, 0.5)])
def test_the_grid_offered_fits_and_is_the_finest_nice_one_that_does(width, depth, spacing):
    fits = fitting_grid(width, depth, spacing, workers=2)
    assert fits >= spacing
    assert estimate(width, depth, fits, workers=2).within()
    finer = [s for s in budget.NICE if spacing <= s < fits]
    assert not any(estimate(width, depth, s, workers=2).within() for s in finer)


def test_the_default_grid_of_a_usual_board_is_within_the_budget():
    assert estimate(60, 44, 0.5, workers=2).within()
    assert estimate(120, 88, 0.5, workers=2).within()


@pytest.mark.parametrize("argv", [["aos4", "--grid", "0.01"], ["HUGE"],
                                  ["HUGE", "--grid", "1"], ["aos4", "HUGE"]])
def test_beyond_the_budget_one_line_and_status_2(argv, huge, tmp_path, capsys):
    argv = [str(huge) if a == "HUGE" else a for a in argv]
    assert main(["analyze", *argv, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cells and" in err and "sight lines" in err and "about" in err
    assert "MB" in err or "GB" in err
    assert "over the budget of 10 min and 2.0 GB" in err
    assert "--grid " in err and "--force" in err
    assert not (tmp_path / "out").exists()


def test_the_refusal_names_the_figures_and_a_grid_that_fits(capsys, tmp_path):
    assert main(["analyze", "aos4", "--grid", "0.01", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    e = estimate(60, 44, 0.01)
    fits = fitting_grid(60, 44, 0.01)
    assert err.strip() == f"battlefield analyze: {budget.refusal(e, fits)}"
    assert "26,400,000 cells and 696,959,973,600,000 sight lines" in err


@pytest.mark.parametrize("grid", ["1e-300", "0.001"])
def test_a_grid_finer_than_a_quarter_millimetre_is_refused(capsys, tmp_path, grid):
    """1e-300 was an OverflowError in the estimate (its cells do not fit in a float)."""
    assert main(["analyze", "aos4", "--grid", grid, "--force", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "finer than analyze measures (at least 0.01\")" in err


def test_force_runs_beyond_the_budget(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(budget, "BUDGET_SECONDS", 1e-9)
    argv = ["analyze", "skirmish", "--grid", "4", "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    assert "over the budget" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
    assert (tmp_path / "o" / "report.md").exists()


def test_running_out_of_memory_anyway_is_one_line(monkeypatch, tmp_path, capsys):
    from battlefield.analysis import survey

    def no_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(survey, "survey", no_memory)
    assert main(["analyze", "aos4", "--grid", "0.1", "--force", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("battlefield analyze: ran out of memory on a 0.1\" grid (264,000 "
                          "cells") and err.count("\n") == 1 and "--grid" in err


def test_a_huge_board_on_a_coarse_grid_is_analysed_with_pictures_of_sensible_size(huge,
                                                                                  tmp_path):
    import pygame

    out = tmp_path / "o"
    assert main(["analyze", str(huge), "--grid", "50", "--out", str(out)]) == 0
    pic = pygame.image.load(str(out / "sight.png"))
    assert max(pic.get_size()) < 3000


def test_no_traceback_from_the_command_line(huge, tmp_path):
    """The installed command, as a person runs it: one line on stderr, status 2."""
    out = subprocess.run([sys.executable, "-c", "import sys; from battlefield.cli.main import "
                          "main; sys.exit(main(sys.argv[1:]))", "analyze", str(huge), "--grid",
                          "0.01", "--out", str(tmp_path / "o")],
                         capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "40,000,000,000 cells" in out.stderr


def test_the_progress_bar_tells_the_rate_and_the_time_left():
    lines: list[str] = []

    class Stream:
        def write(self, s: str) -> None:
            lines.append(s)

        def flush(self) -> None:
            pass

    now = [0.0]
    bar = ProgressBar("battles", "games", Stream(), clock=lambda: now[0], every=0.0)
    now[0] = 10.0
    bar(4, 40)
    assert "battles [###" in lines[-1] and "4/40" in lines[-1]
    assert "0.4 games/s" in lines[-1] and "1:30 left" in lines[-1]
    now[0] = 100.0
    bar(40, 40)
    assert "40/40" in lines[-2] and "in 1:40" in lines[-2] and lines[-1] == "\n"
    bar(40, 40)                                           # once ended, silent
    assert len(lines) == 3
    assert count(1_784_195_360) == "1.78G" and count(12_345) == "12,345"
    assert clock_text(3725) == "1:02:05"


def test_estimate_text_is_one_line():
    e = Estimate(60, 44, 0.5, 10_560, 111_503_040, 5.0, 356.0)
    assert e.text() == "10,560 cells and 111,503,040 sight lines: about 5 s and 356 MB"
    assert np.isfinite(estimate(1e9, 1e9, 0.01).seconds)
