"""Shared test set-up: headless pygame, the repository's paths, and the numba kernels compiled
once before the test workers start (tests/warm.py)."""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# The sight-map cache goes to a folder of this run, never the user's ~/.cache/battlefield (the
# test workers inherit it from the controller, which imports this file first).
if "BATTLEFIELD_CACHE" not in os.environ:
    os.environ["BATTLEFIELD_CACHE"] = tempfile.mkdtemp(prefix="battlefield-test-cache-")
    atexit.register(shutil.rmtree, os.environ["BATTLEFIELD_CACHE"], ignore_errors=True)

# The sixth ruleset, tests/rules/homebrew (written from battlefield/rules/README.md alone), is
# installed the way a player's own ruleset is: a distribution whose entry point in the group
# `battlefield.rulesets` names it. Its metadata is written to a folder of this run, which the
# test workers and every `battlefield` the tests start find on their path: every suite that
# runs over registry.playable() plays it too.
HOMEBREW = Path(__file__).resolve().parent / "rules" / "homebrew"
HOMEBREW_SITE = "BATTLEFIELD_TEST_HOMEBREW_SITE"


def _install_homebrew() -> None:
    site = os.environ.get(HOMEBREW_SITE)
    if site is None:
        site = os.environ[HOMEBREW_SITE] = tempfile.mkdtemp(prefix="battlefield-homebrew-")
        atexit.register(shutil.rmtree, site, ignore_errors=True)
        info = Path(site) / "homebrew_ruleset-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: homebrew-ruleset\n"
                                       "Version: 0.1\n", encoding="utf-8")
        (info / "entry_points.txt").write_text("[battlefield.rulesets]\n"
                                               "homebrew = homebrew_ruleset:RULESET\n",
                                               encoding="utf-8")
    paths = [site, str(HOMEBREW)]
    for p in reversed(paths):
        if p not in sys.path:
            sys.path.insert(0, p)
    given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join([*paths, *[p for p in given if p not in paths]])


_install_homebrew()



def _hypothesis_draws_the_same_examples_everywhere() -> None:
    """Hypothesis mixes into its draws constants it reads from the source of every local
    module imported so far, so which examples a derandomized test draws depended on which other
    tests the same worker had run: tests/server/test_frame_properties.py passed alone and
    failed in the full run. Without them a property draws the same examples alone, in the full
    suite and on any worker; the hostile values it needs are in its own strategies."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:          # hypothesis not installed: its tests will say so
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        none = providers.Constants()
        providers._get_local_constants = lambda: none


_hypothesis_draws_the_same_examples_everywhere()
ROOT = Path(__file__).resolve().parent.parent
WARM = Path(__file__).resolve().parent / "warm.py"
# Each half of tests/warm.py and a kernel (module of battlefield.geometry.sight, function) whose
# cached copy shows that half has run.
HALVES = {"grid": ("grid", "grid_sight_rows"), "lines": ("units", "groups_see")}


def _cached(module: str, kernel: str) -> bool:
    """numba has a cached copy of battlefield.geometry.sight.MODULE.KERNEL (in the package's
    __pycache__, or under $NUMBA_CACHE_DIR)."""
    import battlefield.geometry  # not .sight: that would import numba here

    name = f"{module}.{kernel}-*.nbi"
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:
        # numba keeps them there in a folder named after the package: sight_<hash of its path>
        return any(p.parent.name.startswith("sight_") for p in Path(where).rglob(name))
    sight = Path(battlefield.geometry.__file__).parent / "sight"
    return any((sight / "__pycache__").glob(name))


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput"):
        return                                  # a worker: the controller has warmed up
    todo = [half for half, (module, kernel) in HALVES.items() if not _cached(module, kernel)]
    if not todo:
        return
    sys.stderr.write("compiling the numba kernels once, side by side (about a minute)...\n")
    runs = [subprocess.Popen([sys.executable, str(WARM), half], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True) for half in todo]
    for half, run in zip(todo, runs, strict=True):
        _, err = run.communicate()
        if run.returncode:                      # the tests themselves will show what is wrong
            sys.stderr.write(f"tests/warm.py {half} failed:\n{err[-2000:]}\n")


# --- the BSData catalogues (army import, the effect reader's texts) ---------------------------
AOS = Path("bsdata") / "age-of-sigmar-4th"


def _bsdata() -> Path:
    """The BSData catalogues: $BATTLEFIELD_BSDATA, else shared/bsdata beside the checkout or
    beside any folder above it (the project's ../shared, wherever the clone stands)."""
    if os.environ.get("BATTLEFIELD_BSDATA"):
        return Path(os.environ["BATTLEFIELD_BSDATA"])
    root = Path(__file__).resolve().parents[1]
    for folder in (root, *root.parents):
        found = folder.parent / "shared" / AOS
        if (found / "Age of Sigmar 4.0.gst").is_file():
            return found
    return root.parent / "shared" / AOS


BSDATA = _bsdata()


@pytest.fixture(scope="session")
def bsdata() -> Path:
    """The catalogues, or a skip that says why: they are the BSData community's files, kept
    beside the repository (../shared/bsdata), not in it. CI has them and sets
    BATTLEFIELD_REQUIRE_BSDATA=1 (.ci/run), so there a missing folder fails instead."""
    if not (BSDATA / "Age of Sigmar 4.0.gst").is_file():
        why = (f"army import against the real BSData catalogues: they are not shipped with "
               f"battlefield and are not at {BSDATA} (set BATTLEFIELD_BSDATA to a checkout of "
               f"BSData/age-of-sigmar-4th; CI has it and runs these tests)")
        if os.environ.get("BATTLEFIELD_REQUIRE_BSDATA"):
            pytest.fail(why)
        pytest.skip(why)
    return BSDATA
