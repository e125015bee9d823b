"""What happened, in words: the outcome of an action first (damage dealt, models slain, wounds
left, morale spent or lost, units routed or fled), then its dice. Read from the events each
ruleset's resolve returns - nothing is recomputed - and, for the wounds left, from the state
after the action (the ruleset's `health` hook). No pygame: the window's panel, its game log and
the tests read these lines.

`entry(record, events, state)` words one action of the log (the `action` record State.apply
writes and the events after it); `game_log(state)` every action of the game so far.

Each event is worded by its ruleset (Ruleset.effect: aos4's attacks, openwg's pooled wounds
...), else in the words common to every ruleset (`common`): {"type": "damage", "unit": ID,
"amount": N}; {"type": "slain" | "removed", "unit": ID, "models": [UNIT/N ...], "reason": ...}
(the models taken off, which the window marks as losses); {"type": "destroyed" | "healed",
"unit": ID}; a type ending in "-failed" or "-short" with a "reason" (the headline: what failed);
and the clock the log follows, {"type": "turn" | "phase" | "battle-round", "round": N, "active":
SIDE, "phase": NAME} (the keys that changed)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from battlefield.rules import event_words
from battlefield.rules.ruleset import Effect, Ruleset
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


def _dice(e: Event, line: str) -> str:
    """An attack's dice in a line (after the outcome), with who attacked whom."""
    who = e.get("attacker") or e.get("by") or e.get("unit")
    whom = e.get("target") or e.get("defender")
    return f"{who} at {whom}, {line}" if who and whom else line


def common(e: Event) -> Effect | None:
    """What the events any ruleset may return did (Ruleset.effect's default; ruleset.py lists
    them), or None."""
    kind = e.get("type")
    if kind == "damage" and "amount" in e:
        return Effect(str(e["unit"]), damage=int(e["amount"]))
    if kind == "slain":
        if e.get("models"):
            return Effect(str(e["unit"]), slain=list(e["models"]))
        return Effect(str(e["unit"]), notes=["slain"])                  # a warband fighter
    if kind == "removed":
        if e.get("models"):
            return Effect(str(e["unit"]), removed=list(e["models"]),
                          removed_why=str(e.get("reason") or ""))
        return Effect(str(e["unit"]), notes=[f"removed ({e.get('why') or e.get('reason') or ''})"
                                             .replace(" ()", "")])
    if kind == "destroyed":
        return Effect(str(e["unit"]), notes=["destroyed"])
    if kind == "healed":
        return Effect(str(e["unit"]), notes=[f"healed {e.get('points', '')}".rstrip()])
    return None


def effects(events: Iterable[Event], ruleset: Ruleset | None = None
            ) -> tuple[dict[str, Hurt], list[str], list[str]]:
    """(what happened to each unit, by id in the order first touched; side-wide lines such as
    morale spent; the dice lines): each event as its ruleset words it (Ruleset.effect), else
    in the common words; no ruleset: the common words only."""
    hurt: dict[str, Hurt] = {}
    sides: list[str] = []
    dice: list[str] = []
    for e in events:
        done = (ruleset.effect(e) if ruleset is not None else None) or common(e)
        if done is None:
            continue
        if done.dice:
            dice.append(_dice(e, done.dice))
        if done.unit is not None:
            h = hurt.setdefault(str(done.unit), Hurt())
            h.damage += done.damage
            h.slain += done.slain
            h.removed += done.removed
            if done.removed_why is not None:
                h.removed_why = done.removed_why
            h.pooled += done.pooled
            h.notes += done.notes
            h.hit = h.hit or done.hit
        if done.sides:
            sides.append(done.sides)
    return hurt, sides, dice


def outcome(events: Sequence[Event], state: State | None = None,
            ruleset: Ruleset | None = None) -> list[str]:
    """The outcome lines: one per unit hurt ('blue-drake: 3 damage, 1 slain (blue-drake/1);
    9 wounds left'), side-wide ones (morale), then the dice. Empty when nothing was hurt and no
    dice were rolled for an attack. The events are worded by `ruleset` (the state's when not
    given; neither: the common words only)."""
    hurt, sides, dice = effects(events, ruleset or (state.rules if state is not None else None))
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
    """What one event says failed and why, in its own words (its `failed` field: a charge
    roll too short, a run shorter than the path, a spell miscast or unbound ...), or None."""
    why = e.get("failed")
    return str(why) if why else None


def failure(events: Sequence[Event]) -> str | None:
    """What failed and why: the first event that says so (`failed`), or None."""
    return next((why for e in events if (why := failed(e))), None)


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
    """One action of the game log, worded: who did it, what came of it, the rolls. `side`
    took the action; `credit` is the side whose action the outcome belongs to (an answer to
    a decision about an attack - All-out Defence declined, a reaction, the last morale card
    of a skirmish - resolves the attacker's action: the damage is the attacker's doing, and
    `action` says so, 'red-archers shoot -> blue-drake (blue answered all-out-defence:
    decline)'); `own` is what `side` itself did ('blue answered all-out-defence: decline').
    `events`: every other event of the action in words (rules/event_words.py); `shown` and
    `caused`: the action and its events as they came (page/words.action_title reads the
    distance a move went from them, for the window's log and the replay page alike)."""

    side: str | None
    action: str
    lines: list[str]
    rolls: list[str]
    phase: tuple[Any, ...]            # (round, active side, phase) it was taken in
    credit: str | None = None
    own: str = ""
    events: list[str] = field(default_factory=list)
    cause: int | None = None          # the entry (index in the log) credited with the outcome
    shown: dict[str, Any] = field(default_factory=dict)      # the action as sent
    caused: list[Event] = field(default_factory=list)        # the events it caused, raw

    def __post_init__(self) -> None:
        self.credit = self.credit or self.side
        self.own = self.own or self.action

    @property
    def text(self) -> list[str]:
        return [self.action] + ["  " + x for x in self.lines]

    @property
    def news(self) -> str:
        """The entry as one line: what was done and what came of it."""
        return f"{self.action}: {self.lines[0]}" if self.lines else f"{self.action}: done"


def entry(record: Event, events: Sequence[Event], state: State | None = None,
          side: str | None = None, phase: tuple[Any, ...] = (),
          ruleset: Ruleset | None = None) -> Entry:
    """An action record of the state's events (type 'action') and the events it caused,
    worded by `ruleset` (the state's when not given); `state`: the wounds left now."""
    shown = record.get("action") or {}
    lines = []
    why = failure(events)
    if why:
        who = next((str(e["unit"]) for e in events if e.get("unit") and (
            failed(e) or e.get("type") == "no-charge")), "")
        # credited to the unit that failed when the action does not name it ('blue-ballista:
        # no charge: ...' after red's answer, not as if red's answer failed)
        lines.append(f"{who}: {why}" if who and who not in action_words(shown) else why)
    lines += outcome(events, state, ruleset)
    rules = ruleset or (state.rules if state is not None else None)
    said = event_lines([_unsaid(e, shown) for e in events], rules)
    if not lines:        # nothing hurt, nothing failed: a decision it asked, a reveal, the end
        lines = event_lines([_unsaid(e, shown) for e in events if e.get("type") in NOTABLE],
                            rules)
    lines += by_itself(events, shown, rules)
    rolls = [f"{r.get('for', '')}: {r['total'] if r.get('summed') else r.get('values')}"
             for r in record.get("rolls") or ()]
    words = event_words.declaration(shown, events) or action_words(shown)
    if side and not shown.get("unit") and not shown.get("side") and \
            shown.get("type") not in PASSES:
        words = f"{side} {words}"       # 'red fortify', not a bare 'fortify' (who did it)
    return Entry(side, words, lines, rolls, phase, events=said, shown=dict(shown),
                 caused=list(events))


def event_lines(events: Sequence[Event], ruleset: Ruleset | None = None) -> list[str]:
    """The events an action caused that the outcome does not word (the clock, decisions and
    answers, moves, spells, orders), each in words (rules/event_words.py); the ones its
    ruleset or the common words turn into the outcome (damage, slain, attacks) left out."""
    out = []
    revealed = any(e.get("type") == "revealed" for e in events)
    for e in events:
        if (ruleset.effect(e) if ruleset is not None else None) or common(e):
            continue
        if revealed and e.get("type") == "decided" and "answer" not in e:
            continue                     # a secret answer the reveal below says
        if failed(e) or e.get("type") == "no-charge":
            continue                     # the headline says what failed
        text = event_words.line(e)
        if text:
            out.append(text)
    return out


def _unsaid(e: Event, shown: dict[str, Any]) -> Event:
    """A decision about the very action it follows, without saying the action again ('blue
    decides all-out-defence (choices: ...)' under 'red-blades fight -> blue-drake')."""
    about = e.get("about")
    if e.get("type") != "decision" or not isinstance(about, dict):
        return e
    who = about.get("attacker") or about.get("unit")
    whom = about.get("target") or about.get("defender")
    if who == shown.get("unit") and whom is not None and whom == shown.get("target"):
        return {k: v for k, v in e.items() if k != "about"}
    return e


# What the engine does to units by itself, as the consequence of an action that does not name
# them (blocks' standing orders and routs at the end of the command phase, a courage test, a
# unit that disengages in answer): always worded in the log, the table alone does not say why.
BY_ITSELF = ("moved", "move", "charge", "charged", "courage", "routs", "rout", "routed",
             "rallied", "disengaged")


def by_itself(events: Sequence[Event], shown: dict[str, Any],
              ruleset: Ruleset | None = None) -> list[str]:
    """The events of BY_ITSELF's kinds on another unit than the action's own, in words (the
    ones the outcome already words left out)."""
    own = shown.get("unit")
    return event_lines([e for e in events if e.get("type") in BY_ITSELF
                        and e.get("unit") and e.get("unit") != own], ruleset)


# The events an action that hurt nothing is worded by in the log: what it asked of the other
# side, what it revealed, the battle's end (its moves and the clock are said elsewhere: the
# table, the phase bar, rules.guide).
NOTABLE = ("decision", "revealed", "battle-over", "cast", "chant", "unbind", "rallied", "charged",
           "charged-onto-terrain", "left-terrain-combat")


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
    return GameLog().feed(state)


class GameLog:
    """The game log kept up to date as a game goes on (a replay's or a live page's versions):
    `feed(state)` words the actions added to `state.events` since the last call, each with
    the wounds left as they were just after it."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.clock: dict[str, Any] = {}
        # side -> (the decision it was asked and has not answered, the entry that asked it)
        self.asked: dict[str, tuple[str, int]] = {}
        self.read = 0                  # state.events read so far

    def feed(self, state: State) -> list[Entry]:
        events = state.events
        i = self.read
        while i < len(events):
            e = events[i]
            if e.get("type") != "action":
                _tick(self.clock, e)
                i += 1
                continue
            j = i + 1
            while j < len(events) and events[j].get("type") != "action":
                j += 1
            self._add(state, e, events[i + 1:j], j == len(events))
            i = j
        self.read = i
        return self.entries

    def _add(self, state: State, record: Event, caused: Sequence[Event], newest: bool
             ) -> None:
        clock, out = self.clock, self.entries
        shown = record.get("action") or {}
        side = (side_of(state, shown) or _answerer(caused) or _passer(caused)
                or clock.get("active"))
        said = entry(record, caused, state if newest else None, side,
                     (clock.get("round"), clock.get("active"), clock.get("phase")),
                     state.rules)
        passed = next((c["phase"] for c in caused if c.get("type") in PASSES
                       and c.get("phase")), None)
        if passed and said.phase[2] is not None:
            # the phase the pass ended, as its event says: a turn's first phase has no event
            # of its own, so the clock still says the last turn's last phase
            said.phase = (*said.phase[:2], passed)
        if shown.get("type") in PASSES and (failure(caused)
                                             or outcome(caused, ruleset=state.rules)
                                             or by_itself(caused, shown, state.rules)):
            # what a pass brought is the rules' doing at the end of the phase or turn (openwg's
            # pooled wounds, routs), not the passing side's: said so, credited to neither
            phase = passed or said.phase[2]
            said.action = f"{said.action} - then the end of the " + (
                f"{phase} phase" if phase else "turn")
            said.credit = None
        question = self.asked.pop(side, None) if side else None
        if question:
            _answered(said, question, out, caused, record)
        out.append(said)
        for c in caused:
            _tick(clock, c)
            if c.get("type") == "decision" and c.get("side"):
                self.asked[str(c["side"])] = (str(c.get("kind")), len(out) - 1)


def _answered(said: Entry, question: tuple[str, int], log: list[Entry],
              caused: Sequence[Event], record: Event) -> None:
    """An answer to a decision, worded: what was decided ('blue decline (all-out-defence)');
    when the decision was about an action at another side's unit that the answer lets
    resolve (a shot, a fight, a skirmish declared), the outcome is credited to that action."""
    kind, asker = question
    shown = record.get("action") or {}
    side = said.side
    answer = _answer(caused, side, shown)
    words = str(shown.get("type", "")).split("-")
    if not any(len(w) >= 4 and w in kind for w in words):
        said.action += f" ({kind})"     # 'blue decline (all-out-defence)', not 'react (reaction)'
    if answer.get("type") == kind:      # 'red used all-out-defence on red-blades'
        rest = {k: v for k, v in answer.items() if k not in ("type", "side", "unit")}
        if len(rest) == 1 and not answer.get("unit"):        # 'blue commit 1'
            said.own = f"{side} {kind} {event_words.plain(next(iter(rest.values())))}"
        else:
            said.own = (f"{side} used {kind}" + (f" on {answer['unit']}" if answer.get("unit")
                                                 else "")
                        + (f" ({event_words.plain(rest)})" if rest else ""))
    else:                               # 'blue answered all-out-defence: decline'
        said.own = f"{side} answered {kind}" + (
            f": {event_words.answer_words(answer)}" if answer else "")
    cause = log[asker] if 0 <= asker < len(log) else None
    if cause is None or cause.side in (None, side) or " -> " not in cause.own:
        return                  # not an action at another side's unit (an answer of its own)
    said.credit = cause.side
    said.cause = asker
    said.action = f"{cause.own} ({said.own})"


def _answer(caused: Sequence[Event], side: str | None, shown: dict[str, Any]
            ) -> dict[str, Any]:
    """The side's answer, from the events (a secret one once revealed); {} when unknown."""
    for e in caused:
        if e.get("type") == "decided" and e.get("side") == side and "answer" in e:
            return dict(e["answer"])
        if e.get("type") == "revealed":
            for a in e.get("answers") or ():
                if isinstance(a, dict) and a.get("side") == side and "answer" in a:
                    return dict(a["answer"])
    return {} if shown.get("secret") else dict(shown)


def news(state: State) -> str:
    """The newest action of the game in one line, credited (Entry.news); '' before any."""
    log = game_log(state)
    return log[-1].news if log else ""


PASSES = ("pass", "stop", "end-phase", "end-turn")


def _passer(events: Sequence[Event]) -> str | None:
    """The side a pass names (aos4's 'pass', openwg's 'stop' ... events say who passed)."""
    for e in events:
        if e.get("type") in PASSES and e.get("side"):
            return str(e["side"])
    return None


def _answerer(events: Sequence[Event]) -> str | None:
    """The side an answer came from, as its events say ('decided': a `decline` written
    without a side is the side that was asked, not the side whose turn it is)."""
    for e in events:
        if e.get("type") == "decided" and e.get("side"):
            return str(e["side"])
    return None


def _tick(clock: dict[str, Any], e: Event) -> None:
    """Follow the clock through the events: round, active side, phase."""
    for key in ("round", "active", "phase"):
        if key in e and e.get("type") in ("turn", "phase", "battle-round", "end-turn"):
            clock[key] = e[key]


def phase_actions(state: State, sides: Iterable[str]) -> list[Entry]:
    """The actions `sides` (the computer's) took since the current phase or turn began (none
    once it has passed: the pass that ended the last phase is not this one's)."""
    sides = set(sides)
    log = game_log(state)
    if not log:
        return []
    c = state.clock
    now = (c.get("round"), c.get("active"), c.get("phase"))     # the phase as it is now
    out = []
    for en in reversed(log):
        if en.phase != now:
            break
        if en.side in sides:
            out.append(en)
    return out[::-1]


__all__ = ["unit_wounds", "losses", "outcome", "headline", "last_events", "failure", "entry",
           "Entry", "game_log", "phase_actions", "wounds", "model_wounds", "health", "effects",
           "Hurt", "action_words", "event_lines", "news", "GameLog"]
