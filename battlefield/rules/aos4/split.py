"""Which attacks go at which target (aos4: "If a model has more than one attack, you can split
attacks between eligible targets"; "Models attack with all ranged weapons they are armed with";
"Model must attack with all melee weapons").

Every model attacks once with each weapon it carries (weapons.carries) that can reach a target:
Attacks is the total a model makes with that weapon, never once per target. How the attacks are
split is the action's `"split"`: `{TARGET: [ENTRY, ...]}`, an ENTRY being
- a model number (1, 2 .. as in `paths`): all that model's attacks, every weapon, at TARGET;
- `{"model": N, "weapon": NAME}`: all of model N's attacks with that weapon at TARGET;
- `{"model": N, "weapon": NAME, "attacks": K}`: K of them (the weapon may be left out when the
  model has one weapon of the kind). A dice Attacks is rolled first, and K takes at most what
  it rolled.
What `split` leaves out (all of it when there is none) is dealt in turn between the listed
targets each model's weapon can reach - attack 1 at the first, attack 2 at the next .., the turn
carried on from weapon to weapon and model to model - so a list of targets shares the attacks as
evenly as they come; a weapon that reaches one target makes all its attacks at it. A dice
Attacks dealt between several targets is rolled before it is dealt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4.attacks import attacks_outcomes
from battlefield.rules.aos4.weapons import Weapon, weapons_of
from battlefield.rules.chance import Throw, roll
from battlefield.rules.moves import v
from battlefield.rules.state import State
from battlefield.rulings import Referee

KEY = "split"
ENTRY_KEYS = ("model", "weapon", "attacks")


@dataclass
class Order:
    """One model's attacks with one weapon: what `split` gives each target (None: the rest),
    and the targets the rest is dealt between."""

    model: int                      # table index
    weapon: Weapon
    given: list[tuple[int, int | None]] = field(default_factory=list)
    reach: tuple[int, ...] = ()


@dataclass(frozen=True)
class Share:
    """What one weapon does to one target: `models` models make all their attacks with it,
    and `attacks` attacks more (counted out of a model's)."""

    target: int
    weapon: Weapon
    models: tuple[int, ...] = ()
    attacks: int = 0
    by: tuple[int, ...] = ()        # every model that makes some of these attacks


def armed(state: State, u: int, melee: bool, engaged: bool) -> list[Weapon]:
    """The weapons unit u attacks with: melee ones, or ranged ones (only Shoot in Combat ones
    while the unit is in combat)."""
    out = weapons_of(state.scene, u, melee=melee)
    return out if melee or not engaged else [w for w in out if w.shoots_in_combat]


def orders(state: State, ref: Referee, u: int, aimed: list[int], weapons: list[Weapon],
           action: Action) -> tuple[list[Order], list[Violation]]:
    """Each (model, weapon) of unit u that reaches a target, what the action's split gives it,
    and why the split cannot be played (a target not aimed at, a model or weapon that is not
    there or cannot reach, more attacks than the weapon has)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4.odds import able_models

    scene = state.scene
    spec, first = scene.units[u], scene.model_offsets()[u]
    reach: dict[tuple[int, str], list[int]] = {}
    for w in aimed:
        for wp in weapons:
            for m in able_models(ref, u, w, wp):
                reach.setdefault((m, wp.name), []).append(w)
    out = {(m, wp.name): Order(m, wp, reach=tuple(reach[(m, wp.name)]))
           for m in (int(x) for x in state.models_of(u)) for wp in weapons
           if (m, wp.name) in reach}
    raw = action.option(KEY)
    if raw is None:
        return list(out.values()), []
    bad: list[Violation] = []
    ids = {scene.units[w].id: w for w in aimed}
    for tid, entries in _pairs(raw):
        if tid not in ids:
            bad.append(v("split_target", f"split names {tid}, which is not a target of this "
                                         f"{action.type} ({', '.join(ids) or 'none'})"))
            continue
        w = ids[tid]
        for entry in entries if isinstance(entries, (list, tuple)) else (entries,):
            model, name, count, problem = _entry(entry)
            if problem:
                bad.append(v("bad_split", f"split {tid}: {problem}"))
                continue
            m = first + model - 1
            if not 1 <= model <= len(spec.models) or m not in state.models_of(u):
                bad.append(v("split_model", f"split {tid}: {spec.id} has no model {model} "
                                            f"standing"))
                continue
            mine = [o for (k, _), o in out.items() if k == m]
            if name is not None:
                mine = [o for o in mine if o.weapon.name == name]
            elif count is not None and len(mine) > 1:
                bad.append(v("bad_split", f"split {tid}: model {model} attacks with "
                                          f"{', '.join(o.weapon.name for o in mine)}: say "
                                          f"which \"weapon\" the {count} attacks are"))
                continue
            mine = [o for o in mine if w in o.reach]
            if not mine:
                what = f"'s {name}" if name else ""
                bad.append(v("split_out_of_reach",
                             f"split {tid}: {spec.id} model {model}{what} cannot attack "
                             f"{tid} (not armed so, out of range or out of sight)"))
                continue
            for o in mine:
                o.given.append((w, count))
    for o in out.values():
        counted = sum(k for _, k in o.given if k is not None)
        if o.weapon.attacks.isdigit() and counted > int(o.weapon.attacks):
            who = state.scene.model_names[o.model]
            bad.append(v("split_too_many", f"split gives {counted} attacks of {who}'s "
                                           f"{o.weapon.name}, which has Attacks "
                                           f"{o.weapon.attacks}"))
    return list(out.values()), bad


def _pairs(raw: Any) -> list[tuple[str, Any]]:
    if isinstance(raw, Mapping):
        return [(str(k), x) for k, x in raw.items()]
    return [(str(k), x) for k, x in raw]          # frozen in the Action: ((key, value), ..)


def _entry(entry: Any) -> tuple[int, str | None, int | None, str | None]:
    """(model number, weapon, count, why it cannot be read)."""
    if isinstance(entry, int) and not isinstance(entry, bool):
        return entry, None, None, None
    pairs = dict(_pairs(entry)) if isinstance(entry, (Mapping, tuple)) else None
    if pairs is None or "model" not in pairs:
        return 0, None, None, (f"{str(entry)[:60]} is neither a model number nor "
                               f"{{\"model\": N, \"weapon\": NAME, \"attacks\": K}}")
    odd = [k for k in pairs if k not in ENTRY_KEYS]
    if odd:
        return 0, None, None, f"unknown key '{odd[0]}' (valid: {', '.join(ENTRY_KEYS)})"
    model, count = pairs["model"], pairs.get("attacks")
    if not isinstance(model, int) or isinstance(model, bool):
        return 0, None, None, f"\"model\" {str(model)[:20]} is not a model number"
    if count is not None and (not isinstance(count, int) or isinstance(count, bool)
                              or count < 1):
        return 0, None, None, f"\"attacks\" {str(count)[:20]} is not a whole number >= 1"
    name = pairs.get("weapon")
    return model, None if name is None else str(name), count, None


def shares(state: State, u: int, aimed: list[int], plan: list[Order],
           weapons: list[Weapon]) -> list[Share]:
    """The attacks each weapon makes at each target, rolling a dice Attacks that is split
    (logged as the model's attacks) and dealing what the split leaves in turn."""
    def rolled(o: Order) -> int:
        return roll(Throw(o.weapon.attacks, f"attacks ({state.scene.model_names[o.model]} "
                                            f"{o.weapon.name})"), state.dice)

    return deal(aimed, plan, weapons, rolled)


def planned(aimed: list[int], plan: list[Order], weapons: list[Weapon]
            ) -> tuple[list[Share], bool]:
    """The shares as play will deal them, before any dice (the window's preview): a dice
    Attacks that is split is counted at its average, rounded (True: some was)."""
    guessed = False

    def counted(o: Order) -> int:
        nonlocal guessed
        if o.weapon.attacks.isdigit():
            return int(o.weapon.attacks)
        guessed = True
        got = attacks_outcomes(o.weapon)
        return round(float(sum(n * p for n, p in got.items())))

    return deal(aimed, plan, weapons, counted), guessed


def deal(aimed: list[int], plan: list[Order], weapons: list[Weapon],
         attacks: Callable[[Order], int]) -> list[Share]:
    """Each weapon's attacks at each target: a model whose weapon reaches one target (or that
    the split gives whole to one) makes all of them there; any other's `attacks` (rolled in
    play) go as the split counts them, the rest dealt in turn between the targets it reaches,
    the turn carried on from weapon to weapon and model to model."""
    whole: dict[tuple[int, str], list[int]] = {}
    counted: dict[tuple[int, str], int] = {}
    by: dict[tuple[int, str], set[int]] = {}
    turn = 0
    for o in plan:
        plain = [w for w, k in o.given if k is None]
        if not o.given and len(o.reach) == 1:
            whole.setdefault((o.reach[0], o.weapon.name), []).append(o.model)
            continue
        if len(o.given) == 1 and plain:
            whole.setdefault((plain[0], o.weapon.name), []).append(o.model)
            continue
        left = attacks(o)
        for w, k in o.given:
            if k is not None:
                n = min(k, left)
                counted[(w, o.weapon.name)] = counted.get((w, o.weapon.name), 0) + n
                by.setdefault((w, o.weapon.name), set()).add(o.model)
                left -= n
        rest = plain or list(o.reach)
        for _ in range(left):
            while aimed[turn % len(aimed)] not in rest:
                turn += 1
            w = aimed[turn % len(aimed)]
            counted[(w, o.weapon.name)] = counted.get((w, o.weapon.name), 0) + 1
            by.setdefault((w, o.weapon.name), set()).add(o.model)
            turn += 1
    out = []
    for w in aimed:
        for wp in weapons:
            models = tuple(whole.get((w, wp.name), ()))
            extra = counted.get((w, wp.name), 0)
            if models or extra:
                every = tuple(sorted({*models, *by.get((w, wp.name), ())}))
                out.append(Share(w, wp, models, extra, every))
    return out
