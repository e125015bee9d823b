"""Bad input to `layout` is one line on stderr and exit status 2."""

import pytest

from battlefield.cli.main import main


@pytest.mark.parametrize("extra, words", [
    (["--target", "sight=0.5"], "KEY=VALUE with KEY one of visible, hidden, objective, reach"),
    (["--target", "visible=2"], "a share from 0 to 1"),
    (["--target", "reach=1e308"], "expected 0 to 100 turns"),
    (["--symmetry", "diagonal"], "expected half-turn, mirror or none"),
    (["--iterations", "0"], "--iterations 0: at least 1"),
    (["--time", "-3"], "a positive number of seconds"),
    (["--workers", "2"], "--workers and --cluster go with --battles N"),
    (["--battles", "0"], "play at least one battle"),
    (["--pieces", "no-such.yaml"], "no such piece catalogue"),
])
def test_generate_bad_input(small, tmp_path, capsys, extra, words):
    base, pieces = small
    argv = ["layout", "generate", str(base), "-o", str(tmp_path / "t.yaml")]
    if "--pieces" not in extra:
        argv += ["--pieces", str(pieces)]
    assert main([*argv, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_bad_catalogue_names_file_key_and_line(small, tmp_path, capsys):
    base, _ = small
    bad = tmp_path / "bad.yaml"
    bad.write_text("pieces:\n  - {id: a, height: 2, outline: [[0, 0], [1, 0], [1, 1]], "
                   "colour: red}\n")
    assert main(["layout", "generate", str(base), "--pieces", str(bad), "-o",
                 str(tmp_path / "t.yaml")]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad.yaml:2" in err and "pieces[0].colour" in err and "unknown key" in err


def test_score_of_a_missing_map(capsys):
    assert main(["layout", "score", "no-such-map.yaml"]) == 2
    assert "no such map file" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["layout", "score"], ["analyze"]])
def test_a_map_that_is_a_device_or_a_folder_is_said_so(command, tmp_path, capsys):
    """open_map: what is there but no file is refused by what it is, not as missing."""
    assert main([*command, "/dev/zero"]) == 2
    assert "is not a regular file (a device or a pipe)" in capsys.readouterr().err
    assert main([*command, str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a folder, not a file" in err and len(err.strip().splitlines()) == 1


def test_generate_needs_a_ruleset_or_a_base(tmp_path, capsys):
    assert main(["layout", "generate", "-o", str(tmp_path / "t.yaml")]) == 2
    assert "--ruleset" in capsys.readouterr().err


def test_a_piece_that_cannot_come_in_twins(small, tmp_path, capsys):
    base, _ = small
    odd = tmp_path / "odd.yaml"
    odd.write_text("pieces:\n  - {id: a, height: 2, min: 3, max: 3, "
                   "outline: [[0, 0], [1, 0], [1, 1]]}\n")
    assert main(["layout", "generate", str(base), "--pieces", str(odd), "-o",
                 str(tmp_path / "t.yaml")]) == 2
    assert "cannot come in twins" in capsys.readouterr().err
