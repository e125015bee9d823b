"""The catalogues found by themselves: `army catalogues update` fetches the community dataset
(BSData/age-of-sigmar-4th, the data New Recruit and BattleScribe sync from) - its published
GitHub release by default, or a release archive (zip, tar.gz, .bsr) at any URL, or a folder - into
the user's cache with its revision; `army import` reads it when no --catalogues is given.

The cache is $BATTLEFIELD_CACHE, else $XDG_CACHE_HOME/battlefield, else ~/.cache/battlefield;
the catalogues go to catalogues/age-of-sigmar-4th/ in it with source.json (revision, source,
when). Archives are checked before unpacking: only catalogue files (.cat .gst .catz .gstz) are
taken, by their base name, each within the XML size limit, the whole within MAX_DATA_BYTES."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from battlefield.army.catalogue import SUFFIXES
from battlefield.army.xmlfile import MAX_XML_BYTES, read_xml
from battlefield.errors import InputError, UsageError

DATASET = "age-of-sigmar-4th"
# The dataset's latest published release (GitHub's API); $BATTLEFIELD_CATALOGUES_URL overrides.
DEFAULT_URL = "https://api.github.com/repos/BSData/age-of-sigmar-4th/releases/latest"
MAX_DATA_BYTES = 512 * 1024 * 1024      # the whole dataset is ~40 MB unpacked
MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
MAX_MEMBERS = 2000
TIMEOUT = 60.0
INFO = "source.json"


@dataclass
class Cached:
    folder: Path
    revision: str
    source: str
    fetched: str
    files: int

    def describe(self) -> str:
        return f"BSData {DATASET} {self.revision} ({self.files} files, from {self.source})"


def cache_root() -> Path:
    """battlefield's cache folder: $BATTLEFIELD_CACHE, $XDG_CACHE_HOME/battlefield, or
    ~/.cache/battlefield. BATTLEFIELD_CACHE=off turns off the cache of sight maps only: the
    catalogues, fetched on purpose, then go to the usual place."""
    given = os.environ.get("BATTLEFIELD_CACHE", "").strip()
    if given and given.lower() not in ("off", "0", "no", "none"):
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "battlefield"


def folder() -> Path:
    return cache_root() / "catalogues" / DATASET


def cached() -> Cached | None:
    """What the cache holds, or None when `army catalogues update` has not run."""
    f = folder()
    try:
        info = json.loads((f / INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = [p for p in f.iterdir() if p.suffix.lower() in SUFFIXES]
    if not files or not isinstance(info, dict):
        return None
    return Cached(f, str(info.get("revision", "?")), str(info.get("source", "?")),
                  str(info.get("fetched", "?")), len(files))


def update(source: str | None = None) -> Cached:
    """Fetch the dataset from `source` (a folder, a URL of a release archive or of a GitHub
    release's JSON; default DEFAULT_URL or $BATTLEFIELD_CATALOGUES_URL) into the cache."""
    source = source or os.environ.get("BATTLEFIELD_CATALOGUES_URL") or DEFAULT_URL
    if "://" not in source:
        path = Path(source)
        if path.is_dir():
            files, revision = _from_folder(path)
        elif path.is_file():
            data = path.read_bytes()
            files = _unpack(str(path), data)
            revision = _revision(files, path.name, data)
        else:
            raise InputError(source, "", None, "no such folder or file",
                             "a folder of BSData catalogues, a release archive or a URL")
    else:
        files, revision = _from_url(source)
    return _store(files, revision, source)


def _from_folder(path: Path) -> tuple[dict[str, bytes], str]:
    files: dict[str, bytes] = {}
    total = 0
    for f in sorted(path.rglob("*")):
        if f.is_file() and f.suffix.lower() in SUFFIXES and ".git" not in f.parts:
            size = f.stat().st_size
            total += size
            if size > MAX_XML_BYTES or total > MAX_DATA_BYTES:
                raise InputError(str(f), "", None, "the catalogues are too large",
                                 f"files of at most {MAX_XML_BYTES} bytes")
            files[f.name] = f.read_bytes()
    if not files:
        raise InputError(str(path), "", None, "no catalogue files in the folder",
                         "a folder of BSData .cat/.gst files")
    return files, _revision(files, path.name)


def _from_url(url: str) -> tuple[dict[str, bytes], str]:
    data = _get(url)
    tag = ""
    if data[:1] in (b"{", b"["):                 # a GitHub release, as its API gives it
        try:
            release = json.loads(data)
        except ValueError:
            raise InputError(url, "", None, "the answer is not JSON nor an archive",
                             "a release archive (zip, tar.gz) or GitHub release JSON") from None
        if isinstance(release, list):
            release = release[0] if release else {}
        tag = str(release.get("tag_name") or release.get("name") or "")
        assets = [a.get("browser_download_url", "") for a in release.get("assets") or []]
        archive = next((a for a in assets if a.lower().endswith((".bsr", ".zip"))), None)
        archive = archive or release.get("zipball_url") or release.get("tarball_url")
        if not archive:
            raise InputError(url, "", None, "the release has no archive to download",
                             "a release with a .bsr/.zip asset or a zipball_url")
        url, data = archive, _get(archive)
    files = _unpack(url, data)
    return files, tag or _revision(files, PurePosixPath(url).name, data)


def _get(url: str) -> bytes:
    req = urllib.request.Request(url, headers={"User-Agent": "battlefield (army catalogues)",
                                               "Accept": "application/vnd.github+json, */*"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:   # noqa: S310 (user's URL)
            data = r.read(MAX_DOWNLOAD_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise UsageError(f"{url}: the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(f"{url}: cannot fetch the catalogues ({reason}); give "
                         "--from DIR with a copy of BSData/age-of-sigmar-4th") from None
    if len(data) > MAX_DOWNLOAD_BYTES:
        raise UsageError(f"{url}: more than {MAX_DOWNLOAD_BYTES} bytes; not a catalogue release")
    return data


def _unpack(name: str, data: bytes) -> dict[str, bytes]:
    """The catalogue files of a zip or tar.gz archive by base name, checked before unpacking."""
    files: dict[str, bytes] = {}
    total = 0

    def take(member: str, size: int, read) -> None:
        nonlocal total
        base = PurePosixPath(member.replace("\\", "/")).name
        if not base or PurePosixPath(base).suffix.lower() not in SUFFIXES:
            return
        total += size
        if size > MAX_XML_BYTES or total > MAX_DATA_BYTES:
            raise InputError(name, "", None, f"{member} unpacks to {size} bytes",
                             f"catalogues of at most {MAX_XML_BYTES} bytes each")
        got = read()
        if len(got) > MAX_XML_BYTES:
            raise InputError(name, "", None, f"{member} unpacks to more than {MAX_XML_BYTES} "
                             "bytes", f"at most {MAX_XML_BYTES} bytes")
        files[base] = got

    try:
        if data[:4] == b"PK\x03\x04":
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                infos = [i for i in z.infolist() if not i.is_dir()]
                if len(infos) > MAX_MEMBERS:
                    raise InputError(name, "", None, f"the archive holds {len(infos)} files",
                                     f"at most {MAX_MEMBERS}")
                for i in infos:
                    if i.file_size > 100 * max(i.compress_size, 1) + 4096:
                        raise InputError(name, "", None, f"{i.filename} is compressed "
                                         f"{i.file_size / max(i.compress_size, 1):.0f} times",
                                         "at most 100 times (a zip bomb is refused)")
                    take(i.filename, i.file_size,
                         lambda i=i: z.open(i).read(MAX_XML_BYTES + 1))
        elif data[:2] == b"\x1f\x8b" or data[257:262] == b"ustar":
            with tarfile.open(fileobj=io.BytesIO(data)) as t:
                members = [m for m in t.getmembers() if m.isfile()]
                if len(members) > MAX_MEMBERS:
                    raise InputError(name, "", None, f"the archive holds {len(members)} "
                                     "files", f"at most {MAX_MEMBERS}")
                for m in members:
                    f = t.extractfile(m)
                    if f is not None:
                        take(m.name, m.size, lambda f=f: f.read(MAX_XML_BYTES + 1))
        else:
            raise InputError(name, "", None, "not a zip or tar.gz archive",
                             "a release of BSData/age-of-sigmar-4th (zip, tar.gz, .bsr)")
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(name, "", None, f"cannot unpack the archive ({exc})",
                         "a zip or tar.gz release archive") from None
    if not files:
        raise InputError(name, "", None, "the archive holds no catalogue files",
                         "BSData .cat/.gst files")
    return files


def _revision(files: dict[str, bytes], name: str, data: bytes | None = None) -> str:
    """A revision where the source names none: the game system's revision and a content hash."""
    h = hashlib.sha256()
    for k in sorted(files):
        h.update(k.encode())
        h.update(files[k])
    gst = next((v for k, v in files.items() if k.lower().endswith(".gst")), b"")
    rev = ""
    if gst:
        head = gst[:2000].decode("utf-8", "replace")
        m = re.search(r'\brevision="(\d+)"', head)
        rev = f"gst revision {m.group(1)}, " if m else ""
    return f"{rev}content {h.hexdigest()[:12]}"


def _store(files: dict[str, bytes], revision: str, source: str) -> Cached:
    """Write the files to a new folder beside the cache's, check each reads as a catalogue,
    then swap it in: a failed update leaves the old catalogues as they were."""
    target = folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".new-", dir=target.parent))
    try:
        for base, data in files.items():
            (tmp / base).write_bytes(data)
        if not any(b.lower().endswith((".gst", ".gstz")) for b in files):
            raise InputError(source, "", None, "no game system file (.gst) among the catalogues",
                             f"the {DATASET} dataset (Age of Sigmar 4.0.gst and its .cat files)")
        gst = next(tmp / b for b in files if b.lower().endswith((".gst", ".gstz")))
        root = read_xml(gst)
        if "age of sigmar 4" not in root.get("name", "").lower():
            raise InputError(str(source), "", None, f"the game system is "
                             f"'{root.get('name', '')}'", "the Age of Sigmar 4.0 game system")
        info = {"revision": revision, "source": source,
                "fetched": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
        (tmp / INFO).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
        old = target.with_name(f".old-{os.getpid()}")
        if target.exists():
            target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    got = cached()
    assert got is not None
    return got
