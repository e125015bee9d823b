"""Mutation testing of the core modules against their own tests: `python benchmarks/mutation.py`.

mutmut (the `mutation` extra: `pip install -e ".[mutation]"`) copies battlefield/ into
mutants/, makes every small change it knows to each function of the modules named in
pyproject.toml's [tool.mutmut] (a flipped operator or comparison, a changed constant, a
dropped argument, a value replaced by None, ...) and runs those modules' tests against each
mutant. A mutant is caught when a test fails (or the tests time out); one that passes every
test points at behaviour no test pins. This prints, per module, how many mutants were caught.

Too slow for every run of the suite (a few minutes on 2 cores), so CI does not run it; the
scores measured are in README's Development section. `--json` prints the figures as JSON,
`--keep` reuses mutants/ from the last run (mutmut then re-tests only what changed), and
`--survivors` lists the mutants no test caught (`mutmut show NAME` shows one as a diff).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAUGHT = {"killed", "timeout"}


def _mutmut() -> list[str]:
    exe = Path(sys.executable).with_name("mutmut")
    if not exe.exists():
        sys.exit("benchmarks/mutation.py: mutmut is not installed: pip install -e \".[mutation]\"")
    return [str(exe)]


def run(children: int, keep: bool) -> None:
    """`mutmut run` in the repository (its progress goes to mutants/run.log)."""
    if not keep:
        shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    (ROOT / "mutants").mkdir(exist_ok=True)
    with open(ROOT / "mutants" / "run.log", "w", encoding="utf-8") as log:
        done = subprocess.run([*_mutmut(), "run", "--max-children", str(children)], cwd=ROOT,
                              stdout=log, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.exit(f"benchmarks/mutation.py: mutmut run failed (status {done.returncode}); "
                 f"see mutants/run.log")


def results() -> dict[str, str]:
    """Every mutant's name and status, from `mutmut results --all true`."""
    out = subprocess.run([*_mutmut(), "results", "--all", "true"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = status.strip()
    return found


def module_of(mutant: str) -> str:
    """battlefield.geometry.bases.x_grown_outline__mutmut_3 -> battlefield/geometry/bases.py
    (a method's mutants are named x<sep>Class<sep>method__mutmut_N)."""
    dotted = mutant.split("__mutmut_")[0]
    parts = dotted.split(".")
    while parts and not parts[-1].startswith("x"):
        parts.pop()
    return "/".join(parts[:-1]) + ".py"


def scores(found: dict[str, str]) -> dict[str, dict]:
    per: dict[str, Counter] = defaultdict(Counter)
    for name, status in found.items():
        per[module_of(name)][status] += 1
    table = {}
    for module, counts in sorted(per.items()):
        total = sum(counts.values())
        caught = sum(n for s, n in counts.items() if s in CAUGHT)
        table[module] = {"mutants": total, "caught": caught,
                         "survived": counts.get("survived", 0),
                         "no_tests": counts.get("no tests", 0),
                         "score_percent": round(100 * caught / total, 1) if total else 0.0}
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    ap.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    ap.add_argument("--children", type=int, default=2, help="mutants tested at once (2)")
    ap.add_argument("--survivors", action="store_true", help="list the mutants no test caught")
    args = ap.parse_args(argv)
    run(args.children, args.keep)
    found = results()
    table = scores(found)
    if args.json:
        print(json.dumps(table, indent=2))
    else:
        print(f"{'module':34} {'mutants':>7} {'caught':>6} {'survived':>8} {'no tests':>8} "
              f"{'score':>6}")
        for module, row in table.items():
            print(f"{module:34} {row['mutants']:7} {row['caught']:6} {row['survived']:8} "
                  f"{row['no_tests']:8} {row['score_percent']:5.1f}%")
    if args.survivors:
        for name, status in sorted(found.items()):
            if status not in CAUGHT:
                print(f"{status}: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
