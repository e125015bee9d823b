"""What a seat may do now, for the play page: the units it may drag and for what, and every
action it can give by a button - a decision's answers, a pass, an ability given by its name, an
ability of one of its units (at one enemy, with one of its weapons) that the engine's check
accepts as it stands - each as the action JSON the button sends. An attack whose attacks the
ruleset splits between targets (Window.volley: aos4's shoot and fight) with more than one enemy
it may attack also has a button at all of them (the engine's default split) and one per weapon
sent all at one of them (its "split"), each with its targets' attacks and odds as its tooltip;
a choice button of the ruleset (Window.choice_buttons: aos4's magical-intervention) a button per
whole action it stands for.
Asked of the engine (State.check, State.available, the ruleset's vocabulary); the server holds
no rules of its own. An action whose fields the page cannot list (a spell, an order, a point) is
offered as a form with the vocabulary's example, checked live by a preview before it is sent."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.depiction import live
from battlefield.rules.actions import Action
from battlefield.rules.choices import passes, spends
from battlefield.rules.guide import decision_line
from battlefield.rules.moves import leader
from battlefield.rules.state import State
from battlefield.server.reserve_offers import reserve_offers

MOST_BUTTONS = 60            # an ability's buttons past this many: the form instead
WEAPON_CODES = frozenset({"no_weapon", "unknown_weapon"})   # a weapon still to name


def offers(state: State, seat: str | None, version: int) -> dict[str, Any]:
    """{"type": "offers", "version", "seat", "acting", "over", "phase", "deciding",
    "drag": {UNIT: {"abilities": [...], "ref": "UNIT/N"}}, "buttons": [{"label", "action",
    "kind", "tip", "spends"?, "why"?}], "forms": [{"type", "fields", "does", "example"}],
    "reserve"?: [...]} for `seat` (None: a spectator, who gets no drags and no buttons);
    "reserve" in the deployment phase: what it may set up and the shape to drag
    (server/reserve_offers.py). The server adds "retract"
    ({"version", "what"}) when the seat may take its last action back (server/app.py)."""
    over = state.over
    acting = None if over else state.acting_side
    out: dict[str, Any] = {"type": "offers", "version": version, "seat": seat, "acting": acting,
                           "over": over, "round": state.round, "phase": state.phase,
                           "active": state.active, "drag": {}, "buttons": [], "forms": []}
    if state.pending and not over:
        d = state.pending[0]
        out["deciding"] = {"side": d.side, "kind": d.kind, "secret": d.secret,
                           "about": [list(a) for a in d.about],
                           # who must answer what, in words (the turn line says it)
                           "line": decision_line(state)}
    if seat is None or over or acting != seat:
        return out
    if state.pending:
        d = state.pending[0]
        out["buttons"] = [_button(d.label(c), c, "decision", state) for c in d.choices]
        # an answer no button can give - a move (aos4's charge after its roll) - is a drag of
        # the unit the decision is about
        unit = d.get("unit")
        moves = [t for t in d.open if t in live.drag_abilities(state)]
        if unit is not None and moves:
            u = state.unit_index(unit)
            out["drag"][unit] = {"abilities": moves,
                                 "ref": state.scene.model_names[int(leader(state, u))]}
        return out
    reserve = reserve_offers(state, seat)
    if reserve:
        out["reserve"] = reserve
    mine = [u for u in range(len(state.scene.units)) if state.side_of(u) == seat
            and len(state.models_of(u))]
    drags = set(live.drag_abilities(state))
    available = state.available()
    for u in mine:
        can = [a for a in live.drag_abilities(state) if a in available
               and live.drag_ability(state, u, a) == a]
        if can:
            ref = leader(state, u)
            out["drag"][state.scene.units[u].id] = {
                "abilities": can, "ref": state.scene.model_names[int(ref)]}
            out["buttons"] += _in_place(state, u, can)
    passing = passes(state)
    docs = {a.id: a for a in state.scene.ruleset.actions}
    for kind in available:
        if kind in drags:
            continue
        doc = docs.get(kind)
        fields = [f.rstrip("?") for f in doc.fields] if doc is not None else ["unit", "target?"]
        if live.needs_nothing(state, kind) or kind in passing:
            if [f for f in fields if f == "side"] and doc is not None and len(fields) == 1:
                for side in state.sides:            # warband's first: who goes first
                    out["buttons"].append(_button(f"{kind} {side}", Action(kind, side=side),
                                                  "act", state))
            else:
                # a pass the engine refuses now (aos4: units in combat must fight first) is
                # shown, not pressable, with why
                out["buttons"].append(_button(kind, Action(kind),
                                              "pass" if kind in passing else "act", state,
                                              checked=True))
            continue
        found = _by_unit(state, kind, mine, doc)
        if found is None:
            out["forms"].append({"type": kind, "fields": list(doc.fields) if doc else [],
                                 "does": doc.tip if doc else "", "example":
                                 doc.example if doc else {"type": kind}})
        else:
            out["buttons"] += found
    # the ruleset's choice buttons (aos4's magical-intervention in the enemy hero phase): a
    # button per whole action each stands for
    for name, got in state.rules.window.choice_buttons(state).items():
        out["buttons"] += [_button(f"{name}: {label}", action, "act", state)
                           for label, action in got]
    return out


def _by_unit(state: State, kind: str, mine: list[int], doc: Any) -> list[dict] | None:
    """The buttons of an ability a unit takes (at a target, with a weapon): every one the
    engine accepts now; None when it needs a field no button can give (a form)."""
    names = [u.id for u in state.scene.units]
    enemies = [k for k in range(len(names)) if len(state.models_of(k))]
    out: list[dict] = []
    open_fields = False
    for u in mine:
        uid = names[u]
        bad = state.check(Action(kind, uid))
        if not bad:
            if not state.rules.futile(state, Action(kind, uid)):
                out.append(_button(f"{kind} {uid}", Action(kind, uid), "act", state))
            continue
        choose = {v.choose for v in bad}
        if None in choose:
            continue                              # this unit cannot: something else is wrong
        if choose - {"target"}:
            open_fields = True                    # a spell, an order, a card to choose
            continue
        legal = []
        for t in enemies:
            action = Action(kind, uid, target=names[t])
            got = state.check(action)
            if not got:
                legal.append(names[t])
                out.append(_button(f"{kind} {uid} at {names[t]}", action, "act", state))
            elif all(v.choose is not None or v.code in WEAPON_CODES for v in got):
                for w in _weapons(state, u):
                    armed = Action(kind, uid, target=names[t], weapon=w)
                    if not state.check(armed):
                        out.append(_button(f"{kind} {uid} at {names[t]} ({w})", armed, "act",
                                           state))
        out += _several(state, Action(kind, uid), legal, f"{kind} {uid}")
        if len(out) > MOST_BUTTONS:
            return None
    if open_fields and not out:
        return None
    return out


def _in_place(state: State, u: int, abilities: list[str]) -> list[dict]:
    """What a click on the unit stands for, with each enemy (Ruleset.drop_in_place: aos4's
    fight where it stands), where the engine takes it: a drag that need not move."""
    out = []
    uid = state.scene.units[u].id
    for ability in abilities:
        legal: list[Action] = []
        for t in state.enemies(u):
            clicked = state.rules.window.drop_in_place(state, u, ability, t)
            if isinstance(clicked, Action) and clicked not in legal and not state.check(clicked):
                legal.append(clicked)
                out.append(_button(state.rules.window.in_place_words(state, clicked), clicked,
                                   "act", state))
        if len(legal) > 1:
            out += _several(state, legal[0], [t for a in legal for t in a.targets],
                            f"{ability} {uid}", " where it stands")
    return out


def _several(state: State, base: Action, targets: list[str], words: str, after: str = ""
             ) -> list[dict]:
    """An attack at every one of `targets` (each legal alone), when the ruleset splits its
    attacks between targets: at all of them as the engine deals them, and each weapon that
    reaches more than one sent all at one; the tooltip says each target's attacks and odds."""
    if len(targets) < 2:
        return []
    window = state.rules.window
    at_all = replace(base, target=tuple(targets))
    v = window.volley(state, at_all, {})
    if v is None or state.check(v.action):
        return []
    out = [_button(f"{words} at {' + '.join(targets)}{after}", v.action, "act", state,
                   tip="; ".join(v.lines))]
    for name, reach in v.weapons:
        for t in reach:
            aimed = window.volley(state, at_all, {name: t})
            if aimed is not None and not state.check(aimed.action):
                out.append(_button(f"{words} at {' + '.join(targets)}{after} ({name} all at "
                                   f"{t})", aimed.action, "act", state,
                                   tip="; ".join(aimed.lines)))
    return out


def _weapons(state: State, u: int) -> list[str]:
    spec = state.scene.units[u]
    names = [str(w.get("name")) for w in spec.weapons if isinstance(w, dict) and w.get("name")]
    return list(dict.fromkeys(names))


def _button(label: str, action: Action, kind: str, state: State, checked: bool = False,
            tip: str | None = None) -> dict[str, Any]:
    """A button: its words, the action it sends, its kind, its tooltip; `checked`: asked of
    the engine here, and "why" (it cannot be pressed) when refused; "spends": true for a
    choice that spends something of the side's (rules.choices.spends: the page asks first);
    `tip`: its own tooltip (else the ability's)."""
    doc = next((a for a in state.scene.ruleset.actions if a.id == action.type), None)
    out = {"label": label, "action": action.to_dict(), "kind": kind,
           "tip": tip if tip is not None else doc.tip if doc is not None else ""}
    if spends(state, action):
        out["spends"] = True
    if checked:
        refused = state.check(action)
        if refused:
            out["why"] = "; ".join(live.reasons(refused))
    return out


__all__ = ["offers"]
