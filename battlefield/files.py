"""Writing files whole or not at all: every command that writes (try --out, simulate --log,
render -o, analyze --out, army import -o, the play window's saves) writes to a temporary file
beside the target, flushes it to the disk and renames it over the target. A missing folder, a
full disk or a read-only one is one line naming the file, and the old file stays whole."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from battlefield.errors import UsageError


class WriteError(UsageError):
    """A file that could not be written (the old one, if any, is untouched)."""


def _why(exc: OSError) -> str:
    return exc.strerror or (str(exc.args[0]) if exc.args else type(exc).__name__)


@contextlib.contextmanager
def replacing(target: str | Path) -> Iterator[Path]:
    """A temporary path beside `target` (same suffix, so writers that go by the name pick the
    same format) to write the new file to; on leaving without an error it is flushed to the
    disk and renamed over `target`; on any error it is removed and `target` is untouched. A
    symbolic link is written through (the file it points to is replaced, the link stays); a
    device, pipe or socket is refused, never replaced by a file."""
    named = Path(target)
    target = Path(os.path.realpath(named)) if named.is_symlink() else named  # written through
    folder = target.parent
    if not folder.is_dir():
        raise WriteError(f"{named}: cannot write: no folder {folder}")
    if target.is_dir():
        raise WriteError(f"{named}: cannot write: it is a folder")
    if target.exists() and not target.is_file():      # renamed over, /dev/full would be a file
        raise WriteError(f"{named}: cannot write: it is not a regular file (a device, pipe or "
                         f"socket); give a file's name")
    try:
        fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.",
                                        suffix=f".tmp{named.suffix}")
    except OSError as exc:
        raise WriteError(f"{target}: cannot write ({_why(exc)})") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        _sync(tmp)
        try:
            mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
            os.chmod(tmp, mode)
        except OSError:
            pass
        os.replace(tmp, target)
        _sync_folder(folder)
    except OSError as exc:
        raise WriteError(f"{target}: cannot write ({_why(exc)}); "
                         f"{'the old file is unchanged' if target.exists() else 'nothing written'}"
                         ) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_bytes(target: str | Path, data: bytes) -> Path:
    """`data` as the whole of `target`, written atomically (see replacing)."""
    with replacing(target) as tmp:
        with open(tmp, "wb") as f:
            _write_all(f.fileno(), data)
    return Path(target)


def write_text(target: str | Path, text: str) -> Path:
    """`text` (UTF-8) as the whole of `target`, written atomically."""
    return write_bytes(target, text.encode("utf-8"))


def write_with(target: str | Path, writer: Callable[[Path], None]) -> Path:
    """What `writer(path)` writes to a temporary path, renamed to `target` once complete.
    Failures of the writer's own kind (pygame.error for an image, say) leave `target` as it
    was and become one line too."""
    with replacing(target) as tmp:
        try:
            writer(tmp)
        except OSError:
            raise
        except Exception as exc:
            raise OSError(f"{type(exc).__name__}: {exc}") from None
        if tmp.stat().st_size == 0:
            raise OSError("nothing was written")
    return Path(target)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """The rename itself on the disk (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
