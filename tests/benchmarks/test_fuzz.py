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


def test_the_server_frames_family_answers_every_frame(capsys):
    assert fuzz.main_fuzz(["--cases", "30", "--seed", "2", "--only", "server-frames"]) == 0
    assert "| server frames to the message handler | 30 | 0 |" in capsys.readouterr().out


def test_an_error_for_a_well_formed_act_is_a_failure_of_the_server_family(monkeypatch,
                                                                          tmp_path):
    from battlefield.server import app, messages

    async def only_errors(self, game, client, data, address="?"):
        client.send(messages.error("no"))

    monkeypatch.setattr(app.Server, "frame", only_errors)
    t = fuzz.fuzz_frames(__import__("random").Random(1), 40, tmp_path)
    assert t.failed and any("well-formed act answered with an error" in e
                            for e in t.examples)
