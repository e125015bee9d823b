"""What happened, in words: the outcome of an action first (damage dealt, models slain, wounds
left, morale spent or lost, units routed or fled), then its dice. Read from the events each
ruleset's resolve returns - nothing is recomputed - and, for the wounds left, from the state
after the action (the ruleset's `health` hook). No pygame: the window's panel, its game log and
the tests read these lines.

`entry(record, events, state)` words one action of the log (the `action` record State.apply
writes and the events after it); `game_log(state)` every action of the game so far."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from battlefield.rules.state import State

Event = dict[str, Any]


def health(state: State, u: int) -> list[int] | None:
    """Each model's health (the points of damage that slay it) in unit u, as its ruleset counts
    it (Ruleset.health); None when the ruleset does not say."""
    full = state.rules.health(state, u)
    if full is None:
        return None
    return [int(h) for h in full]


def wounds(state: State, u: int) -> tuple[int, int] | None:
    """(health left, health at full) of unit u's models still on the table (the numbers the
    window shows by the unit's id; the models slain are counted apart); None when the ruleset
    does not count health."""
    full = health(state, u)
    if full is None:
        return None
    us = state.units[u]
    standing = [(h, int(d)) for h, d, a in zip(full, us.damage, us.alive, strict=True) if a]
    return sum(max(0, h - d) for h, d in standing), sum(h for h, _ in standing)


def model_wounds(state: State, u: int) -> list[tuple[int, int]] | None:
    """(damage, health) of each of unit u's models, in the unit's order; None as `wounds`."""
    full = health(state, u)
    if full is None:
        return None
    return [(int(d), h) for d, h in zip(state.units[u].damage, full, strict=True)]


def unit_wounds(state: State) -> dict[str, list[tuple[int, int]]]:
    """(damage, health) of every model on the table, by unit id, in the unit's order with the
    slain left out (as the window draws the units); empty when the ruleset counts no health."""
    out: dict[str, list[tuple[int, int]]] = {}
    for u, spec in enumerate(state.scene.units):
        each = model_wounds(state, u)
        if each is None:
            return {}
        alive = state.units[u].alive
        out[spec.id] = [w for w, a in zip(each, alive, strict=True) if a]
    return out


LOST = ("slain", "removed", "fled")


def losses(state: State) -> list[int]:
    """Table indices of the models taken off (slain, removed, fled) since the current phase or
    turn began and still off: where the window marks a loss."""
    index = {n: i for i, n in enumerate(state.scene.model_names)}
    off = state.scene.model_offsets()
    gone: list[int] = []
    for e in reversed(state.events):
        kind = e.get("type")
        if kind in ("turn", "phase", "battle-round"):
            break
        names = []
        for key in LOST:
            v = e.get(key)
            if isinstance(v, list) and v and isinstance(v[0], str):
                names += v
        if kind in ("slain", "removed") and "models" in e:
            names += list(e["models"])
        elif kind in ("slain", "removed") and e.get("unit"):      # a whole fighter, a block
            try:
                u = state.scene.unit_index(str(e["unit"]))
            except KeyError:
                continue
            names += [state.scene.model_names[off[u] + k]
                      for k in range(len(state.scene.units[u].models))]
        gone += [index[n] for n in names if n in index]
    t = state.table
    return sorted({m for m in gone if t.unit[m] < 0})


@dataclass
class Hurt:
    """What the action did to one unit."""

    damage: int = 0
    slain: list[str] = field(default_factory=list)     # model names
    removed: list[str] = field(default_factory=list)   # out of coherency, fled, routed off
    pooled: int = 0                                     # openwg: wounds waiting on the unit
    notes: list[str] = field(default_factory=list)     # destroyed, routs, healed ...
    hit: bool = False                                   # an attack aimed at it
    removed_why: str = ""

    def words(self) -> list[str]:
        bits = []
        if self.damage:
            bits.append(f"{self.damage} damage")
        elif self.hit and not self.pooled:
            bits.append("no damage")
        if self.pooled:
            bits.append(f"{self.pooled} wound{_s(self.pooled)} pooled (taken at the end "
                        f"of the phase)")
        if self.slain:
            bits.append(f"{len(self.slain)} slain ({_models(self.slain)})")
        if self.removed:
            why = f" for {self.removed_why}" if self.removed_why else ""
            bits.append(f"{len(self.removed)} removed{why} ({_models(self.removed)})")
        return bits + self.notes


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _models(names: Sequence[str]) -> str:
    """'blue-blades/1, /4, /5': the unit's id once."""
    unit = names[0].rpartition("/")[0]
    if all(n.rpartition("/")[0] == unit for n in names):
        return names[0] + "".join(", /" + n.rpartition("/")[2] for n in names[1:])
    return ", ".join(names)


def _dice(e: Event) -> str | None:
    """An attack event's dice in a line (after the outcome), with who attacked whom."""
    line = _dice_only(e)
    if line is None:
        return None
    who = e.get("attacker") or e.get("by") or e.get("unit")
    whom = e.get("target") or e.get("defender")
    return f"{who} at {whom}, {line}" if who and whom else line


def _dice_only(e: Event) -> str | None:
    kind = e.get("type")
    if kind == "attack" and "unsaved" in e:                         # aos4
        crit = f" ({e['critical']} critical)" if e.get("critical") else ""
        return (f"{e.get('weapon', 'attack')}: {e['attacks']} attacks, {e['hits']} hit"
                f"{_s(e['hits'])}{crit}, {e['wounds']} wound{_s(e['wounds'])}, "
                f"{e['unsaved']} unsaved")
    if kind in ("attack", "pot-shots") and "hit_on" in e and "saved" in e:   # skirmish
        cover = f", cover +{e['cover_bonus']}" if e.get("cover_bonus") else ""
        support = f" (+{e['support']} support)" if e.get("support") else ""
        what = "pot shots" if kind == "pot-shots" else "attack"
        return (f"{what}: {e['dice']} dice{support} hitting on {e['hit_on']}+: {e['hits']} "
                f"hit{_s(e['hits'])}, {e['saved']} saved{cover}")
    if kind == "attack" and "criticals" in e:                       # warband
        return (f"{e.get('weapon', 'attack')}: {e['attacks']} dice hitting on "
                f"{e['hit_on']}+: {e['hits']} hit{_s(e['hits'])}, {e['criticals']} critical, "
                f"defence {e.get('defense', '-')}")
    if kind == "attack" and "damage_on" in e:                       # blocks
        mods = ", ".join(str(m) for m in e.get("modifiers") or ())
        return (f"{e.get('kind', '')} attack on its {e.get('side', '')}: {e['dice']} dice, "
                f"hit on {e['hit_on']}+, damage on {e['damage_on']}+"
                + (f" ({mods})" if mods else "")).replace("  ", " ")
    if kind in ("shoot", "fight", "charge-attack", "charge-dice"):  # openwg
        n = sum(len(v) for v in (e.get("attackers") or {}).values())
        return f"{e.get('with', kind)}: {n} model{_s(n)} attacking, {e.get('wounds', 0)} wounds"
    if kind == "opportunistic-strike":
        return f"opportunistic strike: rolled {e['roll']}, needed {e['needed']}"
    return None


def effects(events: Iterable[Event]) -> tuple[dict[str, Hurt], list[str], list[str]]:
    """(what happened to each unit, by id in the order first touched; side-wide lines such as
    morale spent; the dice lines)."""
    hurt: dict[str, Hurt] = {}
    sides: list[str] = []
    dice: list[str] = []

    def of(uid: Any) -> Hurt:
        return hurt.setdefault(str(uid), Hurt())

    for e in events:
        kind = e.get("type")
        line = _dice(e)
        if line:
            dice.append(line)
        if kind == "attack" and "unsaved" in e:                     # aos4: slain follow
            h = of(e["target"])
            h.damage += int(e.get("damage", 0))
            h.hit = True
        elif kind in ("attack", "pot-shots") and "saved" in e:      # skirmish
            h = of(e.get("defender") or e.get("target"))
            h.damage += int(e.get("damage", 0))
            h.slain += list(e.get("slain") or ())
            h.hit = True
        elif kind == "attack" and "criticals" in e:                 # warband: damage follows
            of(e["target"]).hit = True
        elif kind == "damage" and "amount" in e:                    # warband
            h = of(e["unit"])
            h.damage += int(e["amount"])
        elif kind == "attack" and "damage_on" in e:                 # blocks: damage follows
            h = of(e["target"])
            h.hit = True
        elif kind == "damage" and "boxes" in e:                     # blocks
            h = of(e["unit"])
            h.damage += int(e["boxes"])
        elif kind in ("shoot", "fight", "charge-attack", "charge-dice"):   # openwg
            h = of(e["target"])
            h.pooled += int(e.get("wounds", 0))
        elif kind == "wounds" and "shrug" in e:                     # openwg, end of phase
            h = of(e["unit"])
            taken = int(e.get("wounds", 0))
            h.damage += taken
            h.slain += list(e.get("slain") or ())
            if e.get("shrug"):
                h.notes.append(f"{e['shrug']} shrugged off")
        elif kind == "morale" and "fled" in e:                      # openwg
            h = of(e["unit"])
            h.removed += list(e.get("fled") or ())
            if e.get("fled"):
                h.notes.append(f"morale: {len(e['fled'])} fled (Bravery {e.get('bravery')})")
        elif kind == "morale" and "commit" in e:                    # skirmish
            spent = ", ".join(f"{s} {n}" for s, n in e["commit"].items())
            adv = e.get("advantage")
            left = ", ".join(f"{s} {n}" for s, n in (e.get("tokens") or {}).items())
            sides.append(f"morale spent: {spent}" + (f" - {adv} has the advantage" if adv
                                                     else " - no advantage")
                         + (f"; morale left: {left}" if left else ""))
        elif kind == "fortify":
            lost = ", ".join(f"{s} {n}" for s, n in (e.get("lost") or {}).items() if n)
            if lost:
                sides.append(f"morale lost: {lost}")
        elif kind == "mortal-damage":
            h = of(e["unit"])
            h.damage += int(e.get("damage", 0))
            h.notes.append(f"mortal damage ({e.get('for')})")
        elif kind == "dangerous-terrain":
            h = of(e["unit"])
            h.damage += int(e.get("damage", 0))
            h.slain += list(e.get("slain") or ())
            h.notes.append("dangerous terrain")
        elif kind == "opportunistic-strike":
            h = of(e["target"])
            h.damage += int(e.get("damage", 0))
            h.hit = True
        elif kind == "slain":
            h = of(e["unit"])
            if e.get("models"):
                h.slain += list(e["models"])
            else:                                                   # a warband fighter
                h.notes.append("slain")
        elif kind == "removed":
            h = of(e["unit"])
            if e.get("models"):
                h.removed += list(e["models"])
                h.removed_why = str(e.get("reason") or "")
            else:
                h.notes.append(f"removed ({e.get('why') or e.get('reason') or ''})"
                               .replace(" ()", ""))
        elif kind == "destroyed":
            of(e["unit"]).notes.append("destroyed")
        elif kind == "routs":
            of(e["unit"]).notes.append("routs")
        elif kind == "courage" and not e.get("passed", True):
            of(e["unit"]).notes.append(f"failed its courage ({e.get('why')})")
        elif kind == "healed":
            of(e["unit"]).notes.append(f"healed {e.get('points', '')}".rstrip())
        elif kind == "rally":
            h = of(e["unit"])
            back = list(e.get("returned") or ())
            h.notes.append(f"rallied: healed {e.get('healed', 0)}"
                           + (f", {len(back)} returned" if back else ""))
        elif kind == "retreat" and (e.get("healed") or e.get("returned")):
            h = of(e["unit"])
            h.notes.append("returned " + str(e["returned"]) if e.get("returned")
                           else "healed " + str(e["healed"]))
    return hurt, sides, dice


def outcome(events: Sequence[Event], state: State | None = None) -> list[str]:
    """The outcome lines: one per unit hurt ('blue-drake: 3 damage, 1 slain (blue-drake/1);
    9 wounds left'), side-wide ones (morale), then the dice. Empty when nothing was hurt and no
    dice were rolled for an attack."""
    hurt, sides, dice = effects(events)
    out = []
    for uid, h in hurt.items():
        bits = h.words()
        if not bits:
            continue
        left = _left(state, uid) if state is not None else None
        out.append(f"{uid}: {', '.join(bits)}" + (f"; {left}" if left else ""))
    return out + sides + dice


def _left(state: State, uid: str) -> str | None:
    try:
        u = state.scene.unit_index(uid)
    except KeyError:
        return None
    n = len(state.models_of(u))
    if not n:
        return "none left"
    w = wounds(state, u)
    size = len(state.scene.units[u].models)
    models = f"{n} of {size} models left, " if 1 < size != n else ""
    if w is None:
        return models.rstrip(", ") or None
    return f"{models}{w[0]}/{w[1]} wounds left"


def failed(e: Event) -> str | None:
    """What one event says failed and why (a charge roll too short, a run shorter than the
    path, a spell failed, miscast or unbound), or None."""
    kind = str(e.get("type", ""))
    if kind.endswith("-failed") or kind.endswith("-short"):
        why = e.get("reason")
        return kind.replace("-", " ") + (f": {why}" if why else "")
    if e.get("result") in ("failed", "miscast"):
        return f"{kind} {e['result']}"
    if e.get("unbound"):
        return f"unbound by {e.get('unit')}"
    return None


def failure(events: Sequence[Event]) -> str | None:
    """What failed and why (as `failed` says, or a charge not made), or None."""
    for e in events:
        why = failed(e)
        if why:
            return why
        if e.get("type") == "no-charge":
            return "no charge" + (f": {e['reason']}" if e.get("reason") else "")
    return None


def action_words(shown: dict[str, Any]) -> str:
    """'red-archers shoot -> blue-drake', 'blue end-phase': the action as a log line starts."""
    who = shown.get("unit") or shown.get("side") or ""
    what = f"{who} {shown.get('type', '?')}".strip()
    if shown.get("secret"):
        return f"{what} (secret)"
    tgt = shown.get("target")
    if tgt:
        what += " -> " + (", ".join(tgt) if isinstance(tgt, list) else str(tgt))
    if shown.get("weapon"):
        what += f" with {shown['weapon']}"
    return what


def headline(events: Sequence[Event], state: State | None = None) -> str:
    """The one line the panel shows first after an action: what failed, else the outcome's
    first line, else 'done'."""
    why = failure(events)
    if why:
        return why
    lines = outcome(events, state)
    return lines[0] if lines else "done"


@dataclass
class Entry:
    """One action of the game log, worded: who did it, what came of it, the rolls."""

    side: str | None
    action: str
    lines: list[str]
    rolls: list[str]
    phase: tuple[Any, ...]            # (round, active side, phase) it was taken in

    @property
    def text(self) -> list[str]:
        return [self.action] + ["  " + x for x in self.lines]


def entry(record: Event, events: Sequence[Event], state: State | None = None,
          side: str | None = None, phase: tuple[Any, ...] = ()) -> Entry:
    """An action record of the state's events (type 'action') and the events it caused."""
    shown = record.get("action") or {}
    lines = []
    why = failure(events)
    if why:
        lines.append(why)
    lines += outcome(events, state)
    rolls = [f"{r.get('for', '')}: {r['total'] if r.get('summed') else r.get('values')}"
             for r in record.get("rolls") or ()]
    return Entry(side, action_words(shown), lines, rolls, phase)


def last_events(state: State) -> list[Event]:
    """The events the last action caused (after its record in state.events)."""
    for i in range(len(state.events) - 1, -1, -1):
        if state.events[i].get("type") == "action":
            return state.events[i + 1:]
    return []


def side_of(state: State, shown: dict[str, Any]) -> str | None:
    if shown.get("side"):
        return str(shown["side"])
    unit = shown.get("unit")
    if unit:
        try:
            return state.side_of(state.scene.unit_index(str(unit)))
        except KeyError:
            return None
    return None


def game_log(state: State) -> list[Entry]:
    """Every action taken so far, worded (the newest with the wounds left now). An action
    with no unit or side (end-phase) is the side that was acting then: the active side of the
    clock events, as far as they tell."""
    out: list[Entry] = []
    clock: dict[str, Any] = {}
    asked: dict[str, str] = {}        # side -> the decision it was asked and has not answered
    events = state.events
    i = 0
    while i < len(events):
        e = events[i]
        kind = e.get("type")
        if kind != "action":
            _tick(clock, e)
            i += 1
            continue
        j = i + 1
        while j < len(events) and events[j].get("type") != "action":
            j += 1
        caused = events[i + 1:j]
        shown = e.get("action") or {}
        side = side_of(state, shown) or _passer(caused) or clock.get("active")
        said = entry(e, caused, state if j == len(events) else None, side,
                     (clock.get("round"), clock.get("active"), clock.get("phase")))
        question = asked.pop(side, None) if side else None
        words = str(shown.get("type", "")).split("-")
        if question and not any(len(w) >= 4 and w in question for w in words):
            said.action += f" ({question})"     # 'blue decline (all-out-defence)', not 'react
        out.append(said)
        for c in caused:
            _tick(clock, c)
            if c.get("type") == "decision" and c.get("side"):
                asked[str(c["side"])] = str(c.get("kind"))
        i = j
    return out


PASSES = ("pass", "stop", "end-phase", "end-turn")


def _passer(events: Sequence[Event]) -> str | None:
    """The side a pass names (aos4's 'pass', openwg's 'stop' ... events say who passed)."""
    for e in events:
        if e.get("type") in PASSES and e.get("side"):
            return str(e["side"])
    return None


def _tick(clock: dict[str, Any], e: Event) -> None:
    """Follow the clock through the events: round, active side, phase."""
    for key in ("round", "active", "phase"):
        if key in e and e.get("type") in ("turn", "phase", "battle-round", "end-turn"):
            clock[key] = e[key]


def phase_actions(state: State, sides: Iterable[str]) -> list[Entry]:
    """The actions `sides` (the computer's) took since the current phase or turn began."""
    sides = set(sides)
    log = game_log(state)
    if not log:
        return []
    now = log[-1].phase
    out = []
    for en in reversed(log):
        if en.phase != now:
            break
        if en.side in sides:
            out.append(en)
    return out[::-1]


__all__ = ["unit_wounds", "losses", "outcome", "headline", "last_events", "failure", "entry",
           "Entry", "game_log", "phase_actions", "wounds", "model_wounds", "health", "effects",
           "Hurt", "action_words"]
