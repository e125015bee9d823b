"""`battlefield check`: every ruling of a scene, as tables or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from battlefield.cli.common import emit_json, open_scene
from battlefield.paths import shown_file
from battlefield.rules.deploy import DEFAULT_SCENE
from battlefield.rules.registry import with_ruleset_check
from battlefield.rules.standing import scene_referee
from battlefield.text import inches, plural, table


def register(sub: argparse._SubParsersAction) -> None:
    """Add `check` to the subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "check", formatter_class=fmt,
        help="every ruling of a scene: coherency, combat, objectives, sight and distance",
        description="Rulings for a whole scene: every unit's coherency (and the models that "
                    "break it), who is in combat with whom, who controls each objective, and "
                    "for every ordered pair of opposing units (a, b) the distance and how much "
                    "of b a can see. The first check after installing also compiles the "
                    "geometry kernels the play window uses into numba's cache, once (about "
                    "half a minute), so that the first `battlefield play` is ready in seconds.",
        epilog="JSON keys: units.ID.{coherent, coherency_breaks, coherency_reasons, "
               "in_combat_with}, "
               "objectives.ID.{controlled_by, totals, contested_by}, "
               "combat.{range, distance, means} (what in_combat means), pairs[].{a, b, distance, "
               "distance_3d, visible, in_combat, through (the terrain piece a combat is "
               "through, when it is), closest_models, blocked_by}.\n\n"
               "examples:\n  battlefield check\n  battlefield check demo --json")
    p.add_argument("scene", nargs="?", default=DEFAULT_SCENE,
                   help="scene file, or a bundled scene/map name (default: demo)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    scene = open_scene(args.scene)
    report = with_ruleset_check(scene, scene_referee(scene).check_report())
    if args.json:
        emit_json(report)
    else:
        print(check_text(scene, report))
    sys.stdout.flush()
    prepare_play()
    return 0


def prepare_play() -> None:
    """The first check after installing (the README's first command) also compiles what the
    play window asks first into numba's cache (view.warm), so the first game is playable at
    once; said on stderr, and later runs skip it."""
    # here, not at the top: start-up time of the CLI
    from battlefield.view.warm import warm_play

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    warm_play(say)


def check_text(scene, report: dict[str, Any]) -> str:
    rs = scene.ruleset
    out = [f"{scene.name or Path(scene.file).stem}  ({shown_file(scene.file)}; {rs.id}, "
           f"{scene.width:g}\" x {scene.depth:g}\" board, "
           f"{plural(len(scene.terrain), 'terrain piece')})",
           ""]
    c = rs.coherency
    if c.neighbours or c.one_group:
        out.append(f"Units (coherency: within {c.distance:g}\" of {c.neighbours} other model"
                   + (f", {c.large_neighbours} in units of {c.large_unit}+" if c.large_unit
                      else "") + (", one group" if c.one_group else "") + ")")
    else:
        out.append(f"Units (no coherency in {rs.id}: one model or one block a unit)")
    rows = []
    for uid, u in report["units"].items():
        rows.append([uid, u["side"], u["models"], "yes" if u["coherent"] else "NO",
                     u["in_combat_with"]])
    out.append(table(["unit", "side", "models", "coherent", "in combat with"], rows))
    breaks = [(m, why) for u in report["units"].values()
              for m, why in u["coherency_reasons"].items()]
    if breaks:
        out.append("")
        out.append("  Coherency breaks:")
        out.extend(f"    {m}: {why}" for m, why in breaks)
    out.append("")
    o = rs.objectives
    zone = {"control-sum": f"{o.range:g}\" of the {o.marker_mm:g} mm marker, sum of Control",
            "model-count": f"a model within {o.range:g}\" of the centre; all models of the unit"
                           " count",
            "fighters-within": f"models within {o.range:g}\" of the centre"}[o.rule]
    out.append(f"Objectives ({zone}{', sticky' if o.sticky else ''})")
    rows = []
    for oid, ob in report["objectives"].items():
        totals = ", ".join(f"{s} {v:g}" for s, v in ob["totals"].items())
        rows.append([oid + (f" (home {ob['home']})" if ob.get("home") else ""),
                     ob["controlled_by"] or "nobody", totals or "-", ob["contested_by"]])
    out.append(table(["objective", "controlled by", "totals", "units on it"], rows)
               if rows else "  (none)")
    out.append("")
    what = "leader to leader" if rs.distance == "leader" else "closest models"
    out.append(f"Distance and sight (a looking at b; {what}; "
               f"{'distance in 3-D; ' if rs.distance == '3d' else ''}"
               f"combat = {report['combat']['means']})")
    rows = []
    for p in report["pairs"]:
        rows.append([p["a"], p["b"], inches(p["distance"]), inches(p["distance_3d"]),
                     p["visible"], _combat_cell(p), p["blocked_by"][:3]])
    out.append(table(["a", "b", "distance", "3-D", "visible", "combat", "blocked by"], rows)
               if rows else "  (no opposing units)")
    out.extend(_ruleset_rulings(rs.id, report))
    return "\n".join(out)


_UNIT_KEYS = {"side", "models", "coherent", "coherency_breaks", "coherency_reasons",
              "in_combat_with"}
_PAIR_KEYS = {"a", "b", "distance", "distance_3d", "visible", "in_combat", "closest_models",
              "blocked_by"}


def _ruling_text(v: Any) -> str:
    """A ruleset's ruling in a table cell: numbers in inches, mappings by their short values."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return inches(v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_ruling_text(x)}" for k, x in v.items()
                         if not isinstance(x, (list, dict)))
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "-"
    return "-" if v is None else str(v)


def _ruleset_rulings(ruleset: str, report: dict[str, Any]) -> list[str]:
    """What the ruleset added to the report (its check_additions), as two tables."""
    out: list[str] = []
    ukeys = list(dict.fromkeys(k for u in report["units"].values() for k in u
                               if k not in _UNIT_KEYS))
    if ukeys:
        rows = [[uid, *(_ruling_text(u.get(k)) for k in ukeys)]
                for uid, u in report["units"].items()]
        out += ["", f"Units ({ruleset})", table(["unit", *ukeys], rows)]
    pkeys = list(dict.fromkeys(k for p in report["pairs"] for k in p if k not in _PAIR_KEYS))
    if pkeys:
        rows = [[p["a"], p["b"], *(_ruling_text(p.get(k)) for k in pkeys)]
                for p in report["pairs"]]
        out += ["", f"Pairs ({ruleset}: a looking at b)", table(["a", "b", *pkeys], rows)]
    return out


def _combat_cell(pair: dict) -> str:
    """A pair's combat column: yes, and the terrain piece it is through when it is."""
    if not pair["in_combat"]:
        return ""
    return f"yes (through {pair['through']})" if pair.get("through") else "yes"
