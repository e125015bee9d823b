"""`battlefield army`: armies from New Recruit and BattleScribe - `import` a roster (.ros/.rosz)
into an aos4 scene, `units` lists what a BSData catalogue says about its units."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from battlefield.text import table


def register(sub: argparse._SubParsersAction) -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "army", formatter_class=fmt,
        help="armies from New Recruit / BattleScribe lists: import a roster, list a catalogue",
        description="Armies from the list builders: `import` turns a roster exported by New "
                    "Recruit or BattleScribe into aos4 units of a scene; `units` lists a BSData "
                    "catalogue's units with their profiles and base sizes.")
    army = p.add_subparsers(dest="army_command", metavar="ARMY_COMMAND")
    p.set_defaults(run=lambda a: (p.print_help(), 0)[1])

    q = army.add_parser(
        "import", formatter_class=fmt,
        help="a roster (.ros or .rosz) as aos4 units of a new scene",
        description="Read a roster exported by New Recruit or BattleScribe (.ros XML, or .rosz: "
                    "the same zipped) and write a scene with its units: the Unit profile (Move, "
                    "Health, Save, Control), the models and their base (the Base Size rule), "
                    "every weapon profile with the abilities battlefield plays (Crit (Mortal), "
                    "Crit (2 Hits), Crit (Auto-wound), Companion, Shoot in Combat, Charge (+1 "
                    "Damage)), keywords from the categories (WARD (5+) is the ward, WIZARD (1) "
                    "and PRIEST (1) the power level) and the spells and prayers that inflict "
                    "mortal damage or heal. What the roster leaves out comes from --catalogues "
                    "by the selection's entryId. A unit that cannot be mapped stops the import "
                    "with a message naming it; what is left out or defaulted is a warning.",
        epilog="Without --into the scene is the bundled aos4 map with these units. Without "
               "--deploy the units stand side by side from the back of the side's territory in "
               "the roster's order; with --deploy they are set up by the aos4 deployment rule "
               "(wholly within the territory, more than 9\" from enemy territory, clear of "
               "terrain and other models, in coherency), front line first.\n\n"
               "examples:\n"
               "  battlefield army import my-list.rosz -o battle.yaml --deploy\n"
               "  battlefield army import theirs.ros -o battle.yaml --into battle.yaml "
               "--side blue --deploy\n"
               "  battlefield army import my-list.ros -o battle.yaml --catalogues "
               "age-of-sigmar-4th/")
    q.add_argument("roster", help="a roster file: .ros (XML) or .rosz (zipped)")
    q.add_argument("-o", "--out", required=True, help="the scene file to write")
    q.add_argument("--into", metavar="SCENE",
                   help="add the units to this aos4 scene or map (default: the aos4 map)")
    q.add_argument("--side", default="red", help="the side the units fight for (default: red)")
    q.add_argument("--catalogues", metavar="DIR", action="append",
                   help="a folder of BSData .cat/.gst files (or one file) that supplies what "
                        "the roster leaves out; may be given more than once")
    q.add_argument("--deploy", action="store_true",
                   help="set the units up by the aos4 deployment rules")
    q.set_defaults(run=run_import)

    q = army.add_parser(
        "units", formatter_class=fmt,
        help="a catalogue's units with their profiles and base sizes",
        description="The units of a BSData catalogue (.cat; a faction's catalogue reads the "
                    "library it links to from the same folder): Move, Health, Save, Control, "
                    "how many models, the base size and the weapons, as `army import` would "
                    "map them.",
        epilog="JSON: [{\"name\", \"entry_id\", \"stats\", \"models\", \"base\", \"weapons\", "
               "\"keywords\", \"problem\"}]\n\nexample:\n"
               "  battlefield army units 'age-of-sigmar-4th/Fyreslayers.cat'")
    q.add_argument("catalogue", help="a .cat (or .gst) file")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(run=run_units)


def run_import(args: argparse.Namespace) -> int:
    from battlefield.army.writer import import_army, write_scene

    got = import_army(args.roster, args.out, args.side, args.into, args.catalogues,
                      args.deploy)
    for w in got.warnings:
        print(f"warning: {w}", file=sys.stderr)
    write_scene(got, args.out, args.side, args.deploy)
    models = sum(len(u["models"]) for u in got.units)
    print(f"wrote {args.out}: {len(got.units)} units ({models} models) of {args.side}"
          + (", deployed" if args.deploy else ""))
    if got.left_out:
        print(f"note: {got.left_out} abilities of the roster's units are not imported "
              "(battlefield plays the core abilities, the weapons, spells and prayers)")
    return 0


def catalogue_units(path: str) -> list[dict[str, Any]]:
    from battlefield.army.catalogue import Catalogues
    from battlefield.army.convert import ImportProblem, convert

    cats = Catalogues.read(path)
    cats.add_linked(Path(path).parent)
    out = []
    for e in cats.units(str(Path(path))) or cats.units():
        row: dict[str, Any] = {"name": e.name, "entry_id": e.entry_id}
        try:
            c = convert(e, True, all_weapons=True)
        except ImportProblem as p:
            row["problem"] = p.message
        else:
            row.update({k: c.unit[k] for k in ("stats", "models", "base", "weapons",
                                               "keywords")})
            for k in ("spells", "prayers"):
                if k in c.unit:
                    row[k] = [m["name"] for m in c.unit[k]]
        out.append(row)
    return out


def run_units(args: argparse.Namespace) -> int:
    from battlefield.cli.common import emit_json

    rows = catalogue_units(args.catalogue)
    if args.json:
        emit_json(rows)
        return 0
    body = []
    for r in rows:
        if "problem" in r:
            body.append([r["name"], "", "", "", "", "", "", r["problem"]])
            continue
        s, b = r["stats"], r["base"]
        base = f"{b[0]:g}x{b[1]:g}" if isinstance(b, list) else f"{b:g}"
        body.append([r["name"], f'{s["move"]:g}"', str(s["health"]), f'{s["save"]}+',
                     str(s["control"]), str(r["models"]), base,
                     ", ".join(w["name"] + (f' ({w["range"]:g}")' if w.get("range") else "")
                               for w in r["weapons"])])
    print(table(["unit", "move", "health", "save", "control", "models", "base mm",
                 "weapons"], body))
    print(f"{len(rows)} units")
    return 0
