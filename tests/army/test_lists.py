"""Lists as New Recruit exports them (tests/army/data/lists, built by build_lists.py): they carry
no base sizes, so the catalogues come from the cache `army catalogues update` fills. Each list
imports whole with warnings for what battlefield does not play; lists of other games and lists
made with an older catalogue are named for what they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shapely
import yaml

from battlefield.cli.main import main
from battlefield.scene.load import load_scene

from .conftest import DATA

LISTS = DATA / "lists"


@pytest.fixture(scope="session")
def filled(tmp_path_factory, bsdata) -> Path:
    """A cache with the dataset in it, filled once by `army catalogues update --from DIR`."""
    cache = tmp_path_factory.mktemp("cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("BATTLEFIELD_CACHE", str(cache))
    try:
        assert main(["army", "catalogues", "update", "--from", str(bsdata)]) == 0
    finally:
        mp.undo()
    return cache


@pytest.fixture
def cache(filled, monkeypatch) -> Path:
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(filled))
    return filled


def imported(tmp_path, capsys, name: str, *extra: str) -> tuple[dict, str, str]:
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / name), "-o", str(out), "--deploy",
                 *extra]) == 0
    got = capsys.readouterr()
    scene = load_scene(out)
    units = {u.id: u for u in scene.units}
    return {"scene": scene, "units": units}, got.out, got.err


def test_random_move_kept_as_dice_and_faction_terrain_is_a_piece(cache, tmp_path, capsys):
    s, out, err = imported(tmp_path, capsys, "gloomspite-gitz.ros")
    u = s["units"]
    assert u["red-squig-hoppers"].stats["move"] == "D6+8"
    assert u["red-loonsmasha-fanatics"].stats["move"] == "2D6"
    assert u["red-loonboss-on-mangler-squigs"].stats["move"] == "D6+8"
    scene = s["scene"]
    piece = next(p for p in scene.terrain if p.id == "red-bad-moon-loonshrine")
    assert {"ruin-sw", "rock", "hill-n"} <= {p.id for p in scene.terrain}   # the map's kept
    zone = shapely.Polygon(scene.deployment["red"]).buffer(1e-6)
    assert zone.contains(shapely.Polygon(piece.outline))
    for o in scene.objectives:
        assert shapely.Polygon(piece.outline).distance(shapely.Point(o.x, o.y)) > 3
    assert "1 faction terrain piece" in out and "catalogues: BSData age-of-sigmar-4th" in out
    # "Use model": a documented default base, said once for the unit
    assert "unit 'Rippa's Snarlfangs': base 'Use model'" in err
    lines = err.splitlines()
    assert len(lines) == len(set(lines)), "a warning is said once"


def test_each_model_gets_its_own_base(cache, tmp_path, capsys):
    s, out, err = imported(tmp_path, capsys, "skaven.rosz")
    runners = s["units"]["red-gutter-runners"]
    sizes = sorted(round(m.base.a * 2 * 25.4, 1) for m in runners.models)
    assert sizes == [28.5] * 9 + [32.0]            # 1/10 32mm (Champion), 9/10 28.5mm
    cannon = s["units"]["red-warp-lightning-cannon"]
    assert "Warp Lightning Blast" not in [w["name"] for w in cannon.weapons]
    assert "unit 'Warp Lightning Cannon': weapon 'Warp Lightning Blast' is left out" in err
    assert s["units"]["red-doomwheel"].stats["move"] == "2D6+7"


def test_ovals_of_any_size_and_a_choice_of_bases(cache, tmp_path, capsys):
    s, out, err = imported(tmp_path, capsys, "sylvaneth.ros")
    u = s["units"]
    belthanos = u["red-belthanos-first-thorn-of-kurnoth"].models[0].base
    assert belthanos.mm == (150.0, 95.0)
    assert (50.0, 25.0) in {m.base.mm for m in u["red-skaeth-s-wild-hunt"].models}
    assert err.count("base '40mm OR 32mm' is a choice; the first (40mm) is taken") == 1
    twist = sorted(m.base.mm[0] for m in u["red-the-twistweald"].models)
    assert twist[-1] == 40.0 and 28.5 in twist
    text = (tmp_path / "s.yaml").read_text()
    assert "oval:" in text                         # 150x95 is no standard oval


def test_a_weapon_that_points_at_an_ability_is_left_out(cache, tmp_path, capsys):
    s, out, err = imported(tmp_path, capsys, "cities-of-sigmar.rosz")
    mage = s["units"]["red-battlemage-on-luminark-of-hysh"]
    assert mage.weapons and "Searing Beam of Light" not in [w["name"] for w in mage.weapons]
    assert len([x for x in err.splitlines() if "Searing Beam of Light" in x]) == 1


def test_a_190x92_oval_and_a_2d6_move(cache, tmp_path, capsys):
    s, out, err = imported(tmp_path, capsys, "beasts-of-chaos.ros")
    assert s["units"]["red-chimera"].models[0].base.mm == (190.0, 92.0)
    assert s["units"]["red-beasts-of-chaos-chaos-spawn"].stats["move"] == "2D6"


def test_a_list_of_an_older_catalogue_names_both_revisions(cache, tmp_path, capsys):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / "stale.ros"), "-o", str(out)]) == 0
    got = capsys.readouterr()
    line = next(x for x in got.err.splitlines() if "Squig Hoppers" in x)
    assert "revision 45" in line and "revision 48" in line
    assert "1 unit left out" in got.out
    assert main(["army", "import", str(LISTS / "stale.ros"), "-o", str(out), "--strict"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "revision 45" in err and "revision 48" in err


@pytest.mark.parametrize("name, game", [("warhammer-40k.ros", "Warhammer 40,000"),
                                        ("kill-team.ros", "Kill Team")])
def test_a_list_of_another_game_is_refused_naming_it(cache, tmp_path, capsys, name, game):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / name), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and game in err and "Traceback" not in err
    assert "characteristic" not in err and not out.exists()


def test_without_catalogues_the_message_says_how_to_get_them(tmp_path, capsys):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / "skaven.rosz"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "army catalogues update" in err and "Base Size" in err


def test_catalogues_file_reads_its_library(tmp_path, capsys, bsdata):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / "gloomspite-gitz.ros"), "-o", str(out),
                 "--catalogues", str(bsdata / "Gloomspite Gitz.cat")]) == 0
    assert len(load_scene(out).units) == 4


def test_odds_shows_a_dice_move_as_a_distribution(cache, tmp_path, capsys):
    s, _, _ = imported(tmp_path, capsys, "gloomspite-gitz.ros")
    scene = tmp_path / "s.yaml"
    assert main(["odds", str(scene), "--move", "red-squig-hoppers", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["dice"] and d["move"] == "D6+8" and d["mean"] == 11.5
    assert list(d["distribution"]) == ["9", "10", "11", "12", "13", "14"]
    assert d["run_distribution"]["20"] == pytest.approx(1 / 36)
    assert main(["odds", str(scene), "--move", "red-squig-hoppers"]) == 0
    assert "rolled each time it moves" in capsys.readouterr().out


def test_a_battle_rolls_the_dice_moves(cache, tmp_path, capsys):
    """Gitz (dice Moves) against the Stormcast test list: the moves are logged rolls."""
    red = tmp_path / "red.yaml"
    both = tmp_path / "both.yaml"
    assert main(["army", "import", str(LISTS / "gloomspite-gitz.ros"), "-o", str(red),
                 "--deploy"]) == 0
    assert main(["army", "import", str(DATA / "stormcast.ros"), "-o", str(both), "--into",
                 str(red), "--side", "blue", "--deploy"]) == 0
    # the window's caption while a dice-Move unit is dragged 12": the chance to get there
    from battlefield.rules.actions import Action
    from battlefield.rules.battle import play
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game
    from battlefield.rules.window import DragContext

    start = Game(rules_for("aos4"), load_scene(both), 2).new_state()
    u = start.unit_index("red-squig-hoppers")
    notes = []
    for kind in ("normal-move", "run"):
        a = Action(kind, unit="red-squig-hoppers", path=((10.0, 5.0), (10.0, 17.0)))
        ctx = DragContext(start, u, kind, a, start.table, None, False, {})
        notes += start.rules.window.drag_notes(ctx).lines
    assert notes == ['move D6+8 (9-14") reaches 12.0": 50%',
                     'move D6+8 + run D6 reaches 12.0": 92%']
    state = play(Game(rules_for("aos4"), load_scene(both), 2))
    rolled = [r for r in state.dice.log if r.purpose.startswith("move roll red-")]
    assert rolled and {r.dice for r in rolled} <= {"D6+8", "2D6"}
    assert state.over


# --- the cache ----------------------------------------------------------------------------------
def _zip_of(folder: Path, path: Path, top: str = "age-of-sigmar-4th-v1/") -> None:
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.iterdir()):
            z.write(f, top + f.name)


@pytest.fixture
def server(tmp_path):
    """A local HTTP server (127.0.0.1) serving tmp_path/www in a thread."""
    import functools
    import http.server
    import threading

    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(www))

    class Quiet(handler.func):           # type: ignore[misc,name-defined]
        def log_message(self, *a) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(www)))
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield www, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_update_from_a_release_zip_over_http(server, bsdata, tmp_path, capsys):
    www, url = server
    _zip_of(bsdata, www / "release.zip")
    release = {"tag_name": "v4.7.1", "assets": [],
               "zipball_url": f"{url}/release.zip"}
    (www / "latest").write_text(json.dumps(release))
    assert main(["army", "catalogues", "update", "--from", f"{url}/latest"]) == 0
    assert "v4.7.1" in capsys.readouterr().out
    assert main(["army", "catalogues", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["revision"] == "v4.7.1" and "Age of Sigmar 4.0.gst" in got["files"]
    assert Path(got["folder"]).is_relative_to(tmp_path)
    # and import names that revision
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / "skaven.rosz"), "-o", str(out)]) == 0
    assert "catalogues: BSData age-of-sigmar-4th v4.7.1" in capsys.readouterr().out


def test_update_from_a_zip_url_and_a_bad_url(server, bsdata, capsys):
    www, url = server
    _zip_of(bsdata, www / "aos.zip")
    assert main(["army", "catalogues", "update", "--from", f"{url}/aos.zip"]) == 0
    assert "content" in capsys.readouterr().out              # a revision from the content
    assert main(["army", "catalogues", "update", "--from", f"{url}/nothing.zip"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "404" in err
    assert main(["army", "catalogues"]) == 0                 # the old catalogues stay
    assert "133 files" in capsys.readouterr().out


def test_an_empty_cache_says_how_to_fill_it(capsys):
    assert main(["army", "catalogues"]) == 0
    assert "army catalogues update" in capsys.readouterr().out


def test_an_archive_of_other_files_is_refused(server, capsys):
    www, url = server
    import zipfile

    with zipfile.ZipFile(www / "x.zip", "w") as z:
        z.writestr("readme.txt", "hello")
    assert main(["army", "catalogues", "update", "--from", f"{url}/x.zip"]) == 2
    assert "no catalogue files" in capsys.readouterr().err


# --- every catalogue ----------------------------------------------------------------------------
def test_every_catalogue_maps_its_units(bsdata, capsys):
    """`army units` over every catalogue of the dataset: the units a list can field, and how
    many of them map. README gives the figure; what does not map is named there."""
    from battlefield.cli.army import catalogue_units

    names, mapped, problems = set(), set(), {}
    for f in sorted(bsdata.glob("*.cat")):
        for row in catalogue_units(str(f)):
            names.add(row["name"])
            if "problem" in row:
                problems[row["name"]] = row["problem"]
            else:
                mapped.add(row["name"])
    unmapped = names - mapped
    print(f"\n{len(mapped)} of {len(names)} units map; not: {sorted(unmapped)}")
    assert len(names) > 1000
    assert len(unmapped) <= 10, {n: problems.get(n) for n in unmapped}
    assert not any(n.startswith("Anvil of Apotheosis") for n in names)


def test_the_scene_file_says_dice_moves_as_dice(cache, tmp_path, capsys):
    imported(tmp_path, capsys, "gloomspite-gitz.ros")
    data = yaml.safe_load((tmp_path / "s.yaml").read_text())
    hop = next(u for u in data["units"] if u["id"] == "red-squig-hoppers")
    assert hop["stats"]["move"] == "D6+8"


def test_update_from_a_local_release_file(bsdata, tmp_path, capsys):
    """A release archive downloaded by hand (BSData's .bsr is a zip of the catalogues)."""
    _zip_of(bsdata, tmp_path / "age-of-sigmar-4th.bsr")
    assert main(["army", "catalogues", "update", "--from",
                 str(tmp_path / "age-of-sigmar-4th.bsr")]) == 0
    assert "133 files" in capsys.readouterr().out
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(LISTS / "beasts-of-chaos.ros"), "-o", str(out)]) == 0
    assert "catalogues: BSData age-of-sigmar-4th gst revision" in capsys.readouterr().out
