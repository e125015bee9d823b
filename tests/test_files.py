"""battlefield/files.py: every command that writes leaves the old file whole when it cannot
write the new one (a missing folder, a full disk), and says so in one line, exit status 2."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from battlefield.cli.main import main
from battlefield.files import WriteError, write_text

OLD = "the old file, whole\n" * 20
END = '{"type": "end-phase"}'
NAMES = {"try --out": "x.yaml", "simulate --log": "x.jsonl", "render -o": "x.png"}


def commands(out: Path) -> dict[str, list[str]]:
    """Each command that writes a file, writing to `out`."""
    return {
        "try --out": ["try", "demo", "--action", END, "--out", str(out)],
        "simulate --log": ["simulate", "--ruleset", "warband", "--seed", "1", "--log", str(out)],
        "render -o": ["render", "demo", "-o", str(out)],
    }


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("name", ["try --out", "simulate --log", "render -o"])
def test_a_missing_folder_is_one_line(tmp_path, capsys, name):
    argv = commands(tmp_path / "nodir" / NAMES[name])[name]
    assert main(argv) == 2
    assert "nodir" in one_line_error(capsys)


@pytest.mark.parametrize("name", ["try --out", "simulate --log", "render -o"])
def test_a_full_disk_leaves_the_old_file_whole(tmp_path, capsys, monkeypatch, name):
    """ENOSPC injected in the middle of the write: the disk takes a part of the new file, then
    is full. The old file keeps every byte and no temporary file is left beside it."""
    out = tmp_path / NAMES[name]
    out.write_text(OLD, encoding="utf-8")
    real_write = os.write

    def full(fd: int, data) -> int:
        if len(data) > 16:
            real_write(fd, bytes(data[:16]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    assert main(commands(out)[name]) == 2
    err = one_line_error(capsys)
    assert "No space left on device" in err and str(out) in err
    assert out.read_text(encoding="utf-8") == OLD
    assert [p.name for p in tmp_path.iterdir()] == [NAMES[name]]


def test_written_files_keep_the_old_permissions(tmp_path):
    out = tmp_path / "x.txt"
    out.write_text("old")
    out.chmod(0o640)
    write_text(out, "new")
    assert out.read_text() == "new" and out.stat().st_mode & 0o777 == 0o640


def test_a_folder_is_not_overwritten(tmp_path):
    with pytest.raises(WriteError, match="folder"):
        write_text(tmp_path, "x")


def test_a_pipe_is_refused_not_replaced_by_a_file(tmp_path):
    """`render -o /dev/full` (as root) renamed a PNG over the device; any file that is not a
    regular one is refused (a FIFO here: a test must not touch /dev)."""
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(WriteError, match="not a regular file"):
        write_text(fifo, "x")
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe.png"]


def test_a_symbolic_link_is_written_through(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old")
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.yaml", "real.yaml"]


@pytest.mark.parametrize("name", ["x.txt", "x", "x.out"])
def test_render_refuses_a_name_that_is_no_picture(tmp_path, capsys, name):
    """Not a TGA written under any other name (pygame's choice for a suffix it does not know)."""
    assert main(["render", "demo", "-o", str(tmp_path / name)]) == 2
    assert "expected a picture's or page's name" in one_line_error(capsys)
    assert not list(tmp_path.iterdir())


@contextlib.contextmanager
def small_disk(tmp_path: Path, size: str = "48k"):
    """A real tmpfs of `size` mounted for the test (needs root and mount)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root: the full disk is tested by injecting "
                    "ENOSPC above")
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


@pytest.mark.parametrize("name", ["try --out", "render -o"])
def test_a_really_full_disk_leaves_the_old_file_whole(tmp_path, capsys, name):
    with small_disk(tmp_path) as disk:
        out = disk / NAMES[name]
        out.write_text(OLD, encoding="utf-8")
        filler = disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as f:
            while True:                     # fill the disk to its last block
                f.write(b"x" * 1024)
                f.flush()
        assert main(commands(out)[name]) == 2
        err = one_line_error(capsys)
        assert "No space left on device" in err
        assert out.read_text(encoding="utf-8") == OLD
        assert sorted(p.name for p in disk.iterdir()) == ["filler", NAMES[name]]
