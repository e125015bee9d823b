"""`battlefield play` on bad arguments: one line naming what is wrong, exit status 2."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from battlefield.cli.main import main  # noqa: E402


@pytest.mark.parametrize(("args", "said"), [
    (["--drag", "nosuchunit"], "no such unit"),
    (["--phase", "movement", "--drag", "red-lancers/9"], "has models 1 to 5"),
    (["--drag", "red-lancers"], "cannot be moved now"),
    (["--phase", "nosuch"], "no such phase"),
    (["demo-skirmish", "--phase", "movement"], "has no phases"),
    (["--computer", "green"], "no such side"),
    (["--size", "300x200"], "at least"),
    (["--phase", "movement", "--drag", "red-lancers", "--target", "nobody"], "no such unit"),
    (["--edit", "nope"], "no such terrain piece"),
    (["--ruleset", "nosuch"], "unknown ruleset 'nosuch' (playable: aos4, skirmish"),
    (["--ruleset", "openwg"], "cannot be played yet"),
])
def test_bad_arguments(args, said, tmp_path, capsys) -> None:
    code = main(["play", *args, "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_screenshot_into_a_missing_folder(tmp_path, capsys) -> None:
    assert main(["play", "--screenshot", str(tmp_path / "no" / "x.png")]) == 2
    assert "no such folder" in capsys.readouterr().err
