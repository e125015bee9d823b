"""A ruleset's coverage table: for each ability and rule section of its seed, whether battlefield
plays it, refuses it (with the one line a player gets) or decided it, where, and the test that
pins the ruling. Rows are data: every file of rulesets/NAME/coverage/*.yaml (one per part of the
work, read in name order), each a list of

    - id: fight                   # the seed's id, exactly as the seed writes it
      section: abilities          # the seed's list it is in: abilities | rules
      status: played              # played | refused | decided
      note: one line a player reads
      module: battlefield/rules/aos4/fighting.py
      test: tests/rules/aos4/seed000/test_attacks.py::test_fight_splits_attacks

`Ruleset.coverage` reads them (the ruleset object owns its data); `battlefield rulesets NAME
--json` carries them under "coverage", `--coverage` prints `markdown(rows)`, the table a
ruleset's README holds between `<!-- coverage -->` and `<!-- /coverage -->`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from battlefield.rules.datafile import item, value_of
from battlefield.yamlsource import Reader

SECTIONS = ("abilities", "rules")
STATUSES = ("played", "refused", "decided")
BEGIN, END = "<!-- coverage -->", "<!-- /coverage -->"


@dataclass(frozen=True)
class Row:
    """One ability or rule section of the seed and what battlefield makes of it."""

    id: str
    section: str = item(choices=SECTIONS)
    status: str = item(choices=STATUSES)
    note: str = item()
    module: str = item()
    test: str = item()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_rows(folder: Path) -> tuple[Row, ...]:
    """Every row of folder/*.yaml, files in name order; a row whose id is in a section twice
    (in one file or two) is an error naming the file, the row and the line."""
    out: list[Row] = []
    seen: dict[tuple[str, str], str] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        r = Reader.open(path)
        for k, raw in enumerate([] if r.data is None else r.sequence((), r.data)):
            row = value_of(r, (k,), raw, Row)
            key = (row.section, row.id)
            if key in seen:
                raise r.error((k, "id"), f"{row.section} '{row.id}' has a row already "
                                         f"(in {seen[key]})", "one row per seed id")
            seen[key] = path.name
            out.append(row)
    return tuple(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(rows: tuple[Row, ...]) -> str:
    """The coverage table as markdown: abilities first, then the rule sections, each in the
    order its files give them."""
    lines = ["| id | seed list | status | note | module | test |",
             "| --- | --- | --- | --- | --- | --- |"]
    for section in SECTIONS:
        for row in rows:
            if row.section == section:
                lines.append("| " + " | ".join(_cell(x) for x in (
                    f"`{row.id}`", row.section, row.status, row.note, f"`{row.module}`",
                    f"`{row.test}`")) + " |")
    return "\n".join(lines)


def in_readme(text: str) -> str | None:
    """The table a README holds between the coverage markers (None: it holds none)."""
    if BEGIN not in text or END not in text:
        return None
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
