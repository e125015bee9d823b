"""benchmarks/fuzz.py at its smallest: the families run, nothing fails, the table is printed
(the thousands of cases are the script's own run, figures in README's Reliability)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import fuzz  # noqa: E402


def test_a_few_cases_of_the_quick_families_fail_nothing(capsys):
    assert fuzz.main_fuzz(["--cases", "6", "--seed", "3", "--only", "actions",
                           "hostile-files"]) == 0
    out = capsys.readouterr().out
    assert "| try --action JSON | 6 | 0 |" in out
    assert "| hostile files" in out


def test_a_traceback_is_counted_as_a_failure(monkeypatch):
    def broken(argv):
        raise ZeroDivisionError

    monkeypatch.setattr(fuzz, "main", broken)
    run = fuzz.call(["check", "demo"])
    assert run.failed and "ZeroDivisionError" in run.failed
