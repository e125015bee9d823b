"""A shoot or a fight aimed at several targets, as the window shows it before it is sent
(Window.volley): the weapons the player may send at one target, the `split` those choices make
(split.py's entries `{"model": N, "weapon": NAME}` for every model whose weapon reaches that
target), and each target's attacks and odds as play will deal them (split.planned, the odds of
odds.attack_odds for those very attacks). A weapon the player leaves alone is dealt as play
deals it: in turn between the targets it reaches."""

from __future__ import annotations

from typing import Any

from battlefield.errors import BattlefieldError
from battlefield.rules.actions import Action
from battlefield.rules.aos4 import split
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rules.window import Volley
from battlefield.rulings import Referee
from battlefield.text import plural

SPLIT = ("shoot", "fight")          # the abilities whose attacks a split shares out


def volley(state: State, action: Action, aims: dict[str, str]) -> Volley | None:
    if action.type not in SPLIT or action.unit is None:
        return None
    try:
        u = state.unit_index(action.unit)
        aimed = [state.unit_index(t) for t in action.targets]
    except KeyError:
        return None
    if not aimed or not len(state.models_of(u)):
        return None
    melee = action.type == "fight"
    ref = _where(state, u, action, aimed) if melee else referee(state)
    weapons = split.armed(state, u, melee, bool(ref.combat[u]))
    bare = Action.from_dict({k: x for k, x in action.to_dict().items() if k != split.KEY})
    plan, _ = split.orders(state, ref, u, aimed, weapons, bare)
    first = state.scene.model_offsets()[u]
    reach: dict[str, set[int]] = {}
    for o in plan:
        reach.setdefault(o.weapon.name, set()).update(o.reach)
    ids = [state.scene.units[w].id for w in aimed]
    offered = [(name, tuple(ids[k] for k, w in enumerate(aimed) if w in got))
               for name, got in reach.items() if len(got) > 1]
    given: dict[str, list[dict[str, Any]]] = {}
    for name, tid in aims.items():
        if tid not in ids:
            continue
        w = aimed[ids.index(tid)]
        given.setdefault(tid, []).extend(
            {"model": o.model - first + 1, "weapon": name} for o in plan
            if o.weapon.name == name and w in o.reach)
    sent = bare if not given else Action.from_dict({**bare.to_dict(), split.KEY: given})
    plan, _ = split.orders(state, ref, u, aimed, weapons, sent)
    shares, guessed = split.planned(aimed, plan, weapons)
    return Volley(sent, offered, _lines(state, ref, u, aimed, shares, guessed, melee))


def _lines(state: State, ref: Referee, u: int, aimed: list[int], shares: list[split.Share],
           guessed: bool, melee: bool) -> list[str]:
    """A line per target: the attacks of each weapon at it, and the expected damage."""
    out = []
    charging = "charged" in state.units[u].flags
    for w in aimed:
        mine = [s for s in shares if s.target == w]
        counts: dict[str, tuple[int, int]] = {}
        said = []
        for s in mine:
            fixed = s.weapon.attacks.isdigit()
            total = s.attacks + (len(s.models) * int(s.weapon.attacks) if fixed else 0)
            bits = [plural(total, "attack")] if total else []
            if s.models and not fixed:
                bits.insert(0, f"{plural(len(s.models), 'model')} x {s.weapon.attacks}")
            said.append(f"{s.weapon.name} " + " + ".join(bits))
            counts[s.weapon.name] = (len(s.models), s.attacks)
        tid = state.scene.units[w].id
        if not mine:
            out.append(f"{tid}: no attacks")
            continue
        try:
            odds = attack_odds(ref, u, w, shooting=not melee, charging=charging,
                               charged="charged" in state.units[w].flags, counts=counts)
            exp = f"expected damage {'about ' if guessed else ''}{odds.expected_damage:.2f}"
        except (BattlefieldError, KeyError, ValueError):
            exp = ""
        out.append(f"{tid}: " + ", ".join(said) + (f"; {exp}" if exp else ""))
    return out


def _where(state: State, u: int, action: Action, aimed: list[int]) -> Referee:
    """Where the fighting unit attacks from: after its pile-in when the action gives one (and
    it is legal), else where it stands."""
    # here, not at the top: fighting imports this module's neighbours
    from battlefield.rules.aos4.fighting import check_pile_in, pile_in_target

    now = referee(state)
    if action.path is None and action.paths is None:
        return now
    target, problem = pile_in_target(state, u, action, aimed)
    if problem:
        return now
    bad, after = check_pile_in(state, u, action, target)
    return now if bad or after is None else after
