"""`battlefield army`: armies from New Recruit and BattleScribe - `import` a roster (.ros/.rosz)
into an aos4 scene, `units` lists what a BSData catalogue says about its units, `coverage` what
battlefield makes of every catalogue, `catalogues` shows (and `catalogues update` fetches) the
community catalogues in the user's cache."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from battlefield.cli.common import emit_json
from battlefield.text import plural, table


def register(sub: argparse._SubParsersAction) -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "army", formatter_class=fmt,
        help="armies from New Recruit / BattleScribe lists: import a roster, list a catalogue, "
             "fetch the catalogues",
        description="Armies from the list builders: `import` turns a roster exported by New "
                    "Recruit or BattleScribe into aos4 units of a scene; `units` lists a BSData "
                    "catalogue's units with their profiles and base sizes; `catalogues update` "
                    "fetches the community catalogues `import` reads into the cache.")
    army = p.add_subparsers(dest="army_command", metavar="ARMY_COMMAND")
    p.set_defaults(run=lambda a: (p.print_help(), 0)[1])

    q = army.add_parser(
        "import", formatter_class=fmt,
        help="a roster (.ros, .rosz or New Recruit's .json) as aos4 units of a new scene",
        description="Read a roster exported by New Recruit or BattleScribe (.ros XML, .rosz: "
                    "the same zipped, or New Recruit's .json: the same tree) and write a "
                    "scene with its units: the Unit profile (Move, "
                    "Health, Save, Control), the models and their base (the Base Size rule), "
                    "every weapon profile with its weapon abilities (Crit (Mortal), Crit (2 "
                    "Hits), Crit (Auto-wound), Anti-X (+N Rend), Companion, Shoot in Combat, "
                    "Charge (+1 Damage)), each model with the weapons the list gives it and its "
                    "unit-command role (Champion, Musician, Standard Bearer) with its rule, "
                    "keywords from the categories (WARD (5+) is the ward, WIZARD (1) and PRIEST "
                    "(1) the power level), the spells and prayers that inflict mortal damage or "
                    "heal, and every ability of the unit's warscroll as `abilities:`. The scene "
                    "is checked as `battlefield validate` checks it before it is written. A "
                    "Move in dice (2D6\") is kept as dice and rolled "
                    "when the unit moves; faction terrain becomes a terrain piece of the side; "
                    "each model gets its own base. What the roster leaves out (New Recruit "
                    "never exports base sizes) comes from --catalogues, else from the "
                    "catalogues `army catalogues update` put in the cache, by the selection's "
                    "entryId. A unit that cannot be mapped is left out with a warning naming it "
                    "and why (--strict: it stops the import); what is left out or defaulted is "
                    "a warning. The army composition rules (each regiment led by a HERO with "
                    "at most 3 other units, 4 in the general's; one general, a HERO leading a "
                    "regiment, a WARMASTER if the army has one; a UNIQUE unit once and not "
                    "reinforced; the list's points limit) are checked: a breach is a warning "
                    "(--strict: it stops the import). A list for another game is refused.",
        epilog="Without --into the scene is the bundled aos4 map with these units. Without "
               "--deploy the units stand side by side from the back of the side's territory in "
               "the roster's order; with --deploy they are set up by the aos4 deployment rule "
               "(wholly within the territory, more than 9\" from enemy territory, clear of "
               "terrain and other models, in coherency), front line first; with --reserve none is "
               "set up: every unit waits in reserve and the battle begins with the deployment "
               "phase, where the players (or the computer) set them up in turn by the same "
               "rules. Either way a unit that finds no room is written in reserve, and faction "
               "terrain waits for Deploy Faction Terrain unless --deploy places it.\n\n"
               "examples:\n"
               "  battlefield army import my-list.rosz -o battle.yaml --deploy\n"
               "  battlefield army import theirs.ros -o battle.yaml --into battle.yaml "
               "--side blue --deploy\n"
               "  battlefield army import my-list.json -o battle.yaml --reserve   "
               "# deploy by hand\n"
               "  battlefield army import my-list.ros -o battle.yaml --catalogues "
               "age-of-sigmar-4th/")
    q.add_argument("roster", help="a roster file: .ros (XML), .rosz (zipped) or New Recruit's "
                                  ".json export")
    q.add_argument("-o", "--out", required=True, help="the scene file to write")
    q.add_argument("--into", metavar="SCENE",
                   help="add the units to this aos4 scene or map (default: the aos4 map)")
    q.add_argument("--side", default="red", help="the side the units fight for (default: red)")
    q.add_argument("--catalogues", metavar="DIR", action="append",
                   help="a folder of BSData .cat/.gst files (or one .cat, read with the library "
                        "files it links to from its folder) that supplies what the roster "
                        "leaves out; may be given more than once (default: the cached "
                        "catalogues of `army catalogues update`)")
    q.add_argument("--strict", action="store_true",
                   help="stop at the first unit that cannot be mapped or army composition "
                        "rule the list breaks (default: leave the unit out with a warning, "
                        "warn of the breach, and import the rest)")
    placing = q.add_mutually_exclusive_group()
    placing.add_argument("--deploy", action="store_true",
                         help="set the units up by the aos4 deployment rules")
    placing.add_argument("--reserve", action="store_true",
                         help="set no unit up: all wait in reserve for the deployment phase, "
                              "played by hand in the window, the server or `try`")
    q.set_defaults(run=run_import)

    q = army.add_parser(
        "units", formatter_class=fmt,
        help="a catalogue's units with their profiles and base sizes",
        description="The units of a BSData catalogue (.cat; a faction's catalogue reads the "
                    "library it links to from the same folder): Move, Health, Save, Control, "
                    "how many models, the base size and the weapons, as `army import` would "
                    "map them.",
        epilog="JSON: [{\"name\", \"entry_id\", \"stats\", \"models\", \"base\", \"bases\" (each "
               "model's, when they differ), \"weapons\", \"keywords\", \"terrain\", "
               "\"problem\"}]\n\nexample:\n"
               "  battlefield army units 'age-of-sigmar-4th/Fyreslayers.cat'")
    q.add_argument("catalogue", help="a .cat (or .gst) file")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(run=run_units)

    q = army.add_parser(
        "coverage", formatter_class=fmt,
        help="what battlefield makes of every catalogue: units, weapons, weapon abilities, "
             "abilities",
        description="Over every catalogue of the dataset (the cached one by default, or "
                    "--catalogues DIR): the units a list can field that map, their weapon "
                    "profiles imported, the weapon abilities the engine plays (by name, the "
                    "unplayed ones listed), the units whose models carry their own weapons, and "
                    "the units' distinct abilities - kept in the scene, shown, read by the "
                    "effect reader, played by the engine, by kind - with the commonest shapes "
                    "of those not played and not read. Each figure is asked of the importer, "
                    "the ruleset and the effect reader.",
        epilog="JSON: {\"units\": {\"mapped\", \"total\"}, \"weapons\": {\"imported\", "
               "\"total\"}, \"weapon_abilities\": {\"played\", \"total\", \"unplayed\": "
               "{NAME: COUNT}}, \"abilities\": {\"played\", \"shown\", \"total\", "
               "\"by_kind\", \"played_by_kind\", \"shown_by_kind\", \"kept\", \"readable\", "
               "\"readable_by_kind\", "
               "\"unplayed_shapes\", \"unread_shapes\"}, \"own_weapons\": {\"units\", "
               "\"models\"}, \"catalogues\": {\"folder\", \"files\"}}\n\n"
               "examples:\n  battlefield army coverage\n"
               "  battlefield army coverage --catalogues age-of-sigmar-4th/ --json")
    q.add_argument("--catalogues", metavar="DIR",
                   help="a folder of BSData .cat/.gst files (default: the cached catalogues of "
                        "`army catalogues update`)")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(run=run_coverage)

    c = army.add_parser(
        "catalogues", formatter_class=fmt,
        help="the community catalogues in the cache; `update` fetches them",
        description="The BSData catalogues `army import` reads when no --catalogues is given: "
                    "`army catalogues` says which revision the cache holds and its files; "
                    "`army catalogues update` fetches the community dataset "
                    "(BSData/age-of-sigmar-4th, the data New Recruit and BattleScribe sync "
                    "from) into the cache.",
        epilog="The cache is $BATTLEFIELD_CACHE, else $XDG_CACHE_HOME/battlefield, else "
               "~/.cache/battlefield.\n\nexamples:\n  battlefield army catalogues update\n"
               "  battlefield army catalogues update --from ~/git/age-of-sigmar-4th\n"
               "  battlefield army catalogues")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(run=run_catalogues)
    cs = c.add_subparsers(dest="catalogues_command", metavar="update")
    u = cs.add_parser(
        "update", formatter_class=fmt, help="fetch the community catalogues into the cache",
        description="Fetch BSData/age-of-sigmar-4th into the cache: by default its latest "
                    "published GitHub release ($BATTLEFIELD_CATALOGUES_URL overrides); --from "
                    "a URL of a release archive (zip, tar.gz, .bsr) or of a GitHub release's "
                    "JSON, a local archive, or a folder (a clone of the repository).")
    u.add_argument("--from", dest="source", metavar="URL|DIR",
                   help="where to fetch from (default: the dataset's latest release)")
    u.set_defaults(run=run_catalogues_update)


def run_import(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.army.coverage import unit_plays
    from battlefield.army.writer import import_army, write_scene

    got = import_army(args.roster, args.out, args.side, args.into, args.catalogues,
                      args.deploy, args.strict, args.reserve)
    said = write_scene(got, args.out, args.side, args.deploy)
    for w in [*got.skipped, *got.warnings, *said]:
        print(f"warning: {w}", file=sys.stderr)
    models = sum(len(u["models"]) for u in got.units)
    if got.catalogues:
        print(f"catalogues: {got.catalogues}")
    terrain = (f", {len(got.terrain)} faction terrain piece"
               f"{'s' if len(got.terrain) != 1 else ''}" if got.terrain else "")
    print(f"wrote {args.out}: {plural(len(got.units), 'unit')} ({plural(models, 'model')}) "
          f"of {args.side}"
          + terrain + (", deployed" if args.deploy else "")
          + ("; all in reserve (set up in the deployment phase)" if args.reserve else
             f"; {len(got.reserve)} in reserve (no room in {args.side}'s territory: set up "
             f"in the deployment phase)" if got.reserve else "")
          + (f"; {len(got.skipped)} unit{'s' if len(got.skipped) != 1 else ''} left out "
             "(see the warnings)" if got.skipped else ""))
    kept = sum(len(u.get("abilities", ())) for u in got.units)
    if kept:
        plays = sum(len(unit_plays(u)) for u in got.units)
        print(f"note: {plural(kept, 'ability', 'abilities')} of the roster's units kept in the "
              f"scene (`abilities:`): {plays} played by the engine, the rest shown at their "
              "timing in the window and the pages and applied by hand (adjustments, with the "
              "opponent's consent)")
    if got.left_out:
        print(f"note: {plural(got.left_out, 'other profile')} of the roster's units not "
              "imported")
    return 0


def run_coverage(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.army import store
    from battlefield.army.coverage import coverage
    from battlefield.errors import InputError

    folder = args.catalogues
    if folder is None:
        got = store.cached()
        if got is None:
            raise InputError("--catalogues", "", None, f"no catalogues given, and none cached "
                             f"in {store.folder()}", "--catalogues DIR, or `battlefield army "
                             "catalogues update` once")
        folder = str(got.folder)
    elif not Path(folder).is_dir():
        raise InputError(folder, "", None, "no such folder", "a folder of BSData .cat files")
    d = coverage(folder)
    if args.json:
        emit_json(d)
        return 0
    u, w, wa, a, own = (d["units"], d["weapons"], d["weapon_abilities"], d["abilities"],
                        d["own_weapons"])
    print(f"catalogues: {d['catalogues']['folder']} ({d['catalogues']['files']} files)")
    rows = [["units mapped", f"{u['mapped']} of {u['total']}", _share(u["mapped"], u["total"])],
            ["weapons imported", f"{w['imported']} of {w['total']}",
             _share(w["imported"], w["total"])],
            ["weapon abilities played", f"{wa['played']} of {wa['total']}",
             _share(wa["played"], wa["total"])],
            ["units whose models carry their own weapons", f"{own['units']} ({own['models']} "
             "models)", ""],
            ["abilities kept in the scene", f"{a['kept']} of {a['total']}",
             _share(a["kept"], a["total"])],
            ["abilities read by the effect reader", f"{a['readable']} of {a['total']}",
             _share(a["readable"], a["total"])],
            ["abilities played by the engine", f"{a['played']} of {a['total']}",
             _share(a["played"], a["total"])],
            ["abilities shown at their timing", f"{a['shown']} of {a['total']}",
             _share(a["shown"], a["total"])]]
    print(table(["", "count", "share"], rows))
    print("weapon abilities not played: " + ", ".join(f"{k} {n}" for k, n in
                                                       wa["unplayed"].items()))
    print("abilities by kind: " + ", ".join(
        f"{k} {n} (read {a['readable_by_kind'].get(k, 0)}, played "
        f"{a['played_by_kind'].get(k, 0)})" for k, n in a["by_kind"].items()))
    for title, key in (("commonest shapes the engine does not play", "unplayed_shapes"),
                       ("commonest shapes the effect reader does not read", "unread_shapes")):
        print(title + ":")
        for shape, n in a[key].items():
            print(f"  {n:4d}  {shape if len(shape) <= 110 else shape[:107] + '...'}")
    return 0


def _share(n: int, total: int) -> str:
    return f"{n / total:.1%}" if total else "-"


def run_catalogues(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.army import store

    got = store.cached()
    if args.json:
        emit_json(None if got is None else {
            "folder": str(got.folder), "revision": got.revision, "source": got.source,
            "fetched": got.fetched, "files": sorted(p.name for p in got.folder.iterdir()
                                                    if p.name != store.INFO)})
        return 0
    if got is None:
        print(f"no catalogues cached in {store.folder()}; run `battlefield army catalogues "
              "update` (or give `army import` --catalogues DIR)")
        return 0
    print(f"{got.describe()}\nfetched {got.fetched} into {got.folder}")
    for p in sorted(got.folder.iterdir()):
        if p.name != store.INFO:
            print(f"  {p.name}")
    return 0


def run_catalogues_update(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    from battlefield.army import store

    got = store.update(args.source)
    print(f"cached {got.describe()} in {got.folder}")
    return 0


def catalogue_units(path: str) -> list[dict[str, Any]]:
    # here, not at the top: start-up time of the CLI
    from battlefield.army.catalogue import Catalogues
    from battlefield.army.convert import ImportProblem, convert

    cats = Catalogues.read(path)
    cats.add_linked(Path(path).parent)
    out = []
    for e in cats.units(str(Path(path))):
        row: dict[str, Any] = {"name": e.name, "entry_id": e.entry_id}
        try:
            c = convert(e, True, all_weapons=True)
        except ImportProblem as p:
            row["problem"] = p.message
        else:
            if c.terrain:
                row["terrain"] = True
                row["base"] = c.bases[0] if c.bases else None
                out.append(row)
                continue
            row.update({k: c.unit[k] for k in ("stats", "models", "weapons", "keywords")})
            counts: dict[str, int] = {}
            for b in c.bases:
                counts[str(b)] = counts.get(str(b), 0) + 1
            row["base"] = next(b for b in c.bases if counts[str(b)] == max(counts.values()))
            if len(counts) > 1:
                row["bases"] = c.bases          # each model's, when they differ
            for k in ("spells", "prayers"):
                if k in c.unit:
                    row[k] = [m["name"] for m in c.unit[k]]
        out.append(row)
    return out


def _mm(b: Any) -> str:
    return f"{b[0]:g}x{b[1]:g}" if isinstance(b, list) else f"{b:g}"


def run_units(args: argparse.Namespace) -> int:
    rows = catalogue_units(args.catalogue)
    if args.json:
        emit_json(rows)
        return 0
    body = []
    for r in rows:
        if "problem" in r:
            body.append([r["name"], "", "", "", "", "", "", r["problem"]])
            continue
        if r.get("terrain"):
            body.append([r["name"], "-", "", "", "-", "", _mm(r["base"]) if r["base"] else
                         "", "faction terrain: a terrain piece"])
            continue
        s = r["stats"]
        base = (" ".join(dict.fromkeys(_mm(x) for x in r["bases"])) if "bases" in r
                else _mm(r["base"]))
        move = f'{s["move"]:g}"' if isinstance(s["move"], (int, float)) else str(s["move"])
        body.append([r["name"], move, str(s["health"]), f'{s["save"]}+',
                     str(s["control"]), str(r["models"]), base,
                     ", ".join(w["name"] + (f' ({w["range"]:g}")' if w.get("range") else "")
                               for w in r["weapons"])])
    print(table(["unit", "move", "health", "save", "control", "models", "base mm",
                 "weapons"], body))
    print(f"{len(rows)} units")
    return 0
