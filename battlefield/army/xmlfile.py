"""Reading roster and catalogue XML safely: defusedxml only (no DTDs, no entities, nothing
external), and a zipped roster (.rosz) checked for size, members and compression before any
byte of it is unpacked. New Recruit's JSON export of a roster (jsonroster.py) is read as the
XML tree it transliterates, under the same size limit."""

from __future__ import annotations

import stat
import zipfile
import zlib
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from battlefield.army.jsonroster import looks_like_json, parse_json_roster
from battlefield.errors import InputError

# A roster of a whole army is well under a megabyte; catalogues of the community data are a few.
MAX_XML_BYTES = 32 * 1024 * 1024
MAX_ZIP_MEMBERS = 8
MAX_ZIP_RATIO = 100            # uncompressed / compressed; XML compresses 5-20 times


def read_xml(path: str | Path) -> Element:
    """The root element of an XML file (.ros, .cat, .gst) or a zipped one (.rosz, .catz,
    .gstz), with the namespaces taken off the tags."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as exc:
        raise InputError(str(path), "", None, f"cannot read the file ({exc.strerror})",
                         "a roster .ros/.rosz or a catalogue .cat/.gst") from None
    if not stat.S_ISREG(st.st_mode):     # /dev/zero has no size to refuse: it is read forever
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device or a pipe)"
        raise InputError(str(path), "", None, f"is {what}",
                         "a roster .ros/.rosz or a catalogue .cat/.gst")
    size = st.st_size
    with path.open("rb") as f:
        zipped = f.read(4) == b"PK\x03\x04"
    if zipped or path.suffix.lower().endswith("z"):   # .rosz, or a zip by another name
        data = _unzip(path)
    else:
        if size > MAX_XML_BYTES:
            raise InputError(str(path), "", None, f"the file is {size} bytes",
                             f"at most {MAX_XML_BYTES} bytes")
        data = path.read_bytes()
    if looks_like_json(data):             # New Recruit's JSON export: the same tree
        return parse_json_roster(str(path), data)
    return parse_xml(str(path), data)


def roster_kind(data: bytes) -> str | None:
    """What an army list's bytes are, by their content, not their name: ".rosz" (a zip),
    ".json" (New Recruit's JSON export), ".ros" (XML), or None (none of them)."""
    if data[:4] == b"PK\x03\x04":
        return ".rosz"
    if looks_like_json(data):
        return ".json"
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
        return ".ros"
    return None


def parse_xml(name: str, data: bytes) -> Element:
    """XML text to elements, refusing DTDs and entities; tags without namespaces."""
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise InputError(name, "", None, f"unsafe XML refused ({type(exc).__name__})",
                         "a roster or catalogue without a DTD or entity declarations") from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        text = str(exc).split(":")[0]
        raise InputError(name, "", line, f"malformed XML: {text}",
                         "a roster or catalogue as New Recruit or BattleScribe writes it") from None
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = el.tag.rsplit("}", 1)[1]
    return root


def _unzip(path: Path) -> bytes:
    name = str(path)
    try:
        with zipfile.ZipFile(path) as z:
            members = [i for i in z.infolist() if not i.is_dir()]
            if len(members) > MAX_ZIP_MEMBERS:
                raise InputError(name, "", None, f"the zip holds {len(members)} files",
                                 f"one roster (at most {MAX_ZIP_MEMBERS} files)")
            xml = [i for i in members if i.filename.lower().endswith((".ros", ".cat", ".gst"))]
            if len(xml) != 1:
                raise InputError(name, "", None,
                                 f"the zip holds {len(xml)} .ros/.cat/.gst files",
                                 "exactly one, as New Recruit and BattleScribe zip a roster")
            info = xml[0]
            if info.file_size > MAX_XML_BYTES:
                raise InputError(name, "", None, f"{info.filename} unpacks to {info.file_size} "
                                 "bytes", f"at most {MAX_XML_BYTES} bytes")
            if info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1) + 4096:
                raise InputError(name, "", None, f"{info.filename} is compressed "
                                 f"{info.file_size / max(info.compress_size, 1):.0f} times",
                                 f"at most {MAX_ZIP_RATIO} times (a zip bomb is refused)")
            with z.open(info) as f:
                data = f.read(MAX_XML_BYTES + 1)      # the header's size is not trusted
            if len(data) > MAX_XML_BYTES:
                raise InputError(name, "", None, f"{info.filename} unpacks to more than "
                                 f"{MAX_XML_BYTES} bytes", f"at most {MAX_XML_BYTES} bytes")
            return data
    except zipfile.BadZipFile as exc:
        raise InputError(name, "", None, f"not a zip file ({exc})",
                         "a .rosz: the .ros XML zipped") from None
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, zlib.error) as exc:
        raise InputError(name, "", None, f"cannot unpack the zip ({exc})",
                         "a .rosz zipped with deflate, without a password") from None
