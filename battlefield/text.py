"""Plain-text tables and distances for people (the CLI and rulesets' odds texts): aligned
columns, a header rule, no colours."""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], indent: str = "  ") -> str:
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                     .rstrip())
        if n == 0:
            lines.append(indent + "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def plural(n: int, noun: str, many: str | None = None) -> str:
    """"1 objective", "2 objectives" (`many` where adding s is wrong)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def _cell(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.2f}\""
    if v is None:
        return "-"
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v) if v else "-"
    return str(v)


def inches(v: float) -> str:
    return f"{v:.2f}\""


def distribution(d: dict) -> list[str]:
    """An odds answer's expected damage and its distribution as a table with bars (every
    ruleset's `odds --attack` text ends with these lines)."""
    rows = [[k, f"{p:.1%}", "#" * round(p * 40)] for k, p in d["distribution"].items()]
    return [f"  expected damage {d['expected_damage']:.2f}",
            table(["damage", "chance", ""], rows)]
