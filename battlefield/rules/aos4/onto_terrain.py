"""Charging Units on Terrain (seed 000, the charge rule): "If impossible to reach enemy unit
wholly on terrain feature due to space constraints, charging unit can end within 1/2" of
terrain feature instead. This results in being in combat with enemy units wholly on that
terrain feature."

As played (rulesets/aos4/README.md): an enemy unit is *wholly on* a piece when every one of
its models' bases is within the piece's outline; reaching it is *impossible due to space*
when no model of the charging unit has room to stand within 1/2" of a model of it that it sees
from there (charge.room_beside), however far away that is - a roll too short is not space. A
charge move that ends within 1/2" of no visible enemy unit is still a charge when a model of
the unit ends within 1/2" of such a piece: the unit has charged, and from then on it is in
combat with every enemy unit wholly on that piece (rulings.TerrainCombat, counted by every
"in combat" ruling through Ruleset.combat_links) while a model of it stays within 1/2" of the
piece; the link is dropped once the unit is further (after any action: settle) or charges again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from battlefield.geometry.table import Table
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import movement
from battlefield.rules.aos4.charge import room_beside, shortest_onto
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.movement import v
from battlefield.rules.moves import MoveCheck
from battlefield.rules.ranges import Arrive, arrived
from battlefield.rules.standing import referee
from battlefield.rules.state import State, start_error
from battlefield.rulings import Referee, TerrainCombat

ONTO = "charged_onto"      # state.extra's key: {charging unit id: terrain piece id}


def links(state: State) -> tuple[TerrainCombat, ...]:
    """The combats through terrain the game's charges have made (Aos4.combat_links)."""
    onto = state.extra.get(ONTO)
    if not onto:
        return ()
    reach = book(state).core.charge.reach
    layout = state.table.layout
    return tuple(TerrainCombat(state.unit_index(uid), layout.index(pid), reach)
                 for uid, pid in sorted(onto.items()))


def check_position(state: State) -> None:
    """A whole position's `extra.charged_onto`: each key a unit of the scene, each value a
    terrain piece of it (a bad one is refused at its key path, with its line)."""
    onto = state.extra.get(ONTO)
    if onto is None:
        return
    at = ("extra", ONTO)
    if not isinstance(onto, dict):
        raise start_error(state, at, f"{onto!r} is not a mapping",
                          "{UNIT: PIECE}: the unit that charged onto each terrain piece")
    units = {u.id for u in state.scene.units}
    pieces = [p.id for p in state.table.layout.pieces]
    for uid, pid in onto.items():
        if uid not in units:
            raise start_error(state, (*at, uid), f"no unit '{uid}'",
                              f"one of {', '.join(sorted(units))}")
        if pid not in pieces:
            raise start_error(state, (*at, uid), f"no terrain piece '{pid}'",
                              f"one of {', '.join(pieces) or '(none)'}")


def unreachable(state: State, u: int, w: int, ref: Referee | None = None) -> bool:
    """No model of unit u has room to end a charge within 1/2" of a model of enemy unit w
    that it sees from there (charge.room_beside; asked once per table)."""
    _, none = state.table.memo(("aos4-unreachable", id(state.scene), u, w), lambda: (
        state.scene, not room_beside(book(state), ref or Referee(state.scene, state.table),
                                     u, w)))
    return bool(none)


def blocked(state: State, u: int, ref: Referee | None = None) -> dict[int, list[int]]:
    """The terrain pieces unit u may charge onto where it stands: each piece with an enemy
    unit wholly on it that no model of u has room to reach (unreachable), with the enemy
    units wholly on it."""
    ref = ref or Referee(state.scene, state.table)
    layout = state.table.layout
    out: dict[int, list[int]] = {}
    for k, p in enumerate(layout.pieces):
        if p.kind == "impassable":
            continue
        on = [w for w in state.enemies(u) if ref.wholly_on(w, k)]
        if on and any(unreachable(state, u, w, ref) for w in on):
            out[k] = on
    return out


def piece_reached(state: State, u: int, after: Table, pieces: Sequence[int]) -> int | None:
    """The first of `pieces` a model of unit u is within 1/2" of where `after` has it."""
    reach = book(state).core.charge.reach
    ref = Referee(state.scene, after)
    return next((k for k in pieces if ref.near_piece(u, k, reach)), None)


def charge_end(state: State, u: int, action: Action) -> int | None:
    """The piece a (checked) charge move of unit u ends onto: None when it ends within 1/2"
    of a visible enemy unit (a charge as any other), else the piece it reached (blocked)."""
    after = movement.planned(state, u, action).placed(state.table)
    rules = book(state)
    if not arrived(state, u, after, Arrive(tuple(state.enemies(u)), rules.core.charge.reach,
                                           sight=True)):
        return None
    return piece_reached(state, u, after, list(blocked(state, u)))


def allowed(state: State, u: int, checked: MoveCheck) -> list[Violation]:
    """A charge move's problems once a charge onto terrain is counted: one that only failed to
    end within 1/2" of a visible enemy unit is legal when it ends within 1/2" of a piece the
    unit may charge onto (and is refused naming the nearest such piece when it does not)."""
    problems = checked.problems
    if not problems or any(p.code != "charge_not_reached" for p in problems):
        return problems
    pieces = blocked(state, u)
    if not pieces or piece_reached(state, u, checked.after, list(pieces)) is not None:
        return [] if pieces else problems
    t = checked.after
    gap, k = min((min(t.piece_distance(int(m), k) for m in t.unit_models[u]), k)
                 for k in pieces)
    names = state.scene.units
    foes = ", ".join(names[w].id for w in pieces[k])
    p = problems[0]
    return [replace(p, message=f"{p.message}, nor within {book(state).core.charge.reach:g}\" "
                               f"of {t.layout.pieces[k].id} ({foes} wholly on it, out "
                               f"of any charge's reach for want of space): {gap:.2f}\" from it")]


def ends_through(state: State, u: int, checked: MoveCheck) -> list[Violation]:
    """A move that must end out of combat (a retreat) ending still in combat through a piece:
    the charging unit still within 1/2" of it, or the unit still wholly on it, with its
    enemy across."""
    if checked.problems or not any(u == link.unit or state.side_of(u) != state.side_of(
            link.unit) for link in links(state)):
        return []
    ref = referee(state, checked.after)
    names = state.scene.units
    for w in state.enemies(u):
        k = ref.through(u, w)
        if k is not None:
            return [v("ends_in_combat", f"{names[u].id} would end still in combat with "
                                        f"{names[w].id} through {ref.table.layout.pieces[k].id}"
                                        f" (a charge onto it: within 1/2\" of it, the other "
                                        f"wholly on it)", units=(names[u].id, names[w].id))]
    return []


def shortest(state: State, u: int, within: float | None = None,
             ref: Referee | None = None) -> float | None:
    """The shortest charge of unit u onto a piece it may charge onto, or None."""
    ref = ref or Referee(state.scene, state.table)
    best = None
    for k in blocked(state, u, ref):
        got = shortest_onto(book(state), ref, u, k, within)
        if got is not None and (best is None or got.needed < best):
            best = got.needed
    return best


def record(state: State, u: int, piece: int | None) -> list[dict]:
    """After a charge of unit u: the combat through `piece` it made (None: a charge at an
    enemy unit, which ends any link it had) - the event that says so."""
    uid = state.scene.units[u].id
    onto = {k: p for k, p in (state.extra.get(ONTO) or {}).items() if k != uid}
    if piece is not None:
        pid = state.table.layout.pieces[piece].id
        onto[uid] = pid
    if onto:
        state.extra[ONTO] = onto
    else:
        state.extra.pop(ONTO, None)
    if piece is None:
        return []
    foes = [state.scene.units[w].id for w in referee(state).combat[u]]
    return [{"type": "charged-onto-terrain", "unit": uid, "terrain": pid, "in_combat": foes}]


def settle(state: State) -> list[dict]:
    """After any action: a combat through a piece ends once no model of its charging unit is
    within 1/2" of the piece (a move took it off, or the unit is destroyed)."""
    onto = state.extra.get(ONTO) or {}
    if not onto:
        return []
    ref = Referee(state.scene, state.table)
    reach = book(state).core.charge.reach
    events = []
    for uid, pid in sorted(onto.items()):
        u = state.unit_index(uid)
        if not ref.near_piece(u, state.table.layout.index(pid), reach):
            record(state, u, None)
            events.append({"type": "left-terrain-combat", "unit": uid, "terrain": pid})
    return events
