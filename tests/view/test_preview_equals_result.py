"""What the drag shows is what the engine does. For every ruleset, units of its demo battle are
dragged (through the window's own DragTool, pixel by pixel) to many seeded random places, often
beside an enemy put within reach, and what the overlay shows at rest - the caption's legality
and reasons, the fault tags, the ruler's colour, the units it rings as triggered, the units it
says the dropped unit will be in combat with - is compared with State.check and with what
State.apply does on a copy of the game."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules import registry  # noqa: E402
from battlefield.rules.actions import Action, IllegalAction  # noqa: E402
from battlefield.rules.moves import leader  # noqa: E402
from battlefield.rules.state import State  # noqa: E402
from battlefield.rulings import Referee  # noqa: E402
from battlefield.view import drag as dragview  # noqa: E402
from battlefield.view import live  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402

CASES = 50          # seeded places per ruleset (each one a drag, a check and an apply)


def ready(state: State) -> None:
    """Pass (the vocabulary's actions that need nothing) until a drag ability is offered."""
    for _ in range(12):
        offered = state.available()
        if any(a in offered for a in live.drag_abilities(state)):
            return
        passing = next(a.id for a in state.scene.ruleset.actions
                       if a.id in offered and live.needs_nothing(state, a.id))
        state.apply(Action(passing))
    raise AssertionError(f"{state.rules.id}: no drag ability offered")


def triggered(before: State, after: State, u: int, events: list[dict]) -> set[str]:
    """The units the applied action set off against or engaged (by the ruleset's own words):
    skirmish's pot shots, warband's and blocks' engaged enemies."""
    rid = before.rules.id
    if rid == "skirmish":
        return {str(e["by"]) for e in events if e.get("type") == "pot-shots"}
    if rid == "warband":
        from battlefield.rules.warband import attacks

        return {after.scene.units[w].id for w, _ in attacks.engaged_with(after, u)}
    return set()


def promised(state: State, r: live.Ruling) -> set[str]:
    """The units the drag rings as triggered (pot shots) or engaged."""
    return {state.scene.units[g.unit].id for g in r.notes.rings
            if g.reason.startswith(("pot shots", "engaged"))}


def place_enemy_near(state: State, u: int, w: int, rng: random.Random, allowed: float
                     ) -> bool:
    """Put enemy unit w (kept in formation) within reach of unit u, in a random direction;
    False when it would leave the board."""
    t = state.table
    i, j = leader(state, u), leader(state, w)
    a = rng.uniform(0, 2 * np.pi)
    d = (allowed * rng.uniform(0.4, 1.1) + float(t.reach[i] + t.reach[j])
         + state.scene.ruleset.combat_range)
    ms = state.models_of(w)
    nx = t.x[ms] + float(t.x[i]) + d * np.cos(a) - float(t.x[j])
    ny = t.y[ms] + float(t.y[i]) + d * np.sin(a) - float(t.y[j])
    if (nx < 1).any() or (ny < 1).any() or (nx > t.width - 1).any() or (ny > t.depth - 1).any():
        return False
    state.table = t.moved(ms, nx, ny)
    return True


@pytest.mark.parametrize("ruleset, phase", [*((r, None) for r in registry.playable()),
                                            ("aos4", "charge")])
def test_the_drag_shows_what_check_and_apply_do(ruleset: str, phase: str | None) -> None:
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None, ruleset)
    if phase is not None:
        to_phase(opened.state, phase)
    ready(opened.state)
    start = opened.state.snapshot()
    play = PlayScene(opened, (1200, 760))
    tool = play.drag
    rng = random.Random(f"preview-{ruleset}-{phase}")
    seen = {"legal": 0, "illegal": 0, "triggers": 0}
    for _ in range(CASES):
        play.table.state.restore(start.snapshot())
        st = play.state
        mine = [u for u in range(len(st.scene.units))
                if st.side_of(u) == st.acting_side and len(st.models_of(u))]
        u = rng.choice(mine)
        offered = [a for a in live.drag_abilities(st) if a in st.available()]
        # mostly what a plain drag stands for, else one chosen with the phase bar's button
        wanted = rng.choice(offered) if rng.random() < 0.3 else None
        ability = live.drag_ability(st, u, wanted) or offered[0]
        allowed = st.rules.move_allowance(st, u, ability) or 6.0
        w = rng.choice([w for w in st.enemies(u) if len(st.models_of(w))])
        if not place_enemy_near(st, u, w, rng, allowed):
            continue
        if "direct" in st.available() and not st.check(Action("direct", st.scene.units[u].id)):
            st.apply(Action("direct", st.scene.units[u].id))     # blocks: under direct control
        play.table.changed()
        t = st.table
        tool.wanted = wanted
        ref = leader(st, u)
        grab = play.table.view.px(float(t.x[ref]), float(t.y[ref]))
        if not tool.press((round(grab[0]), round(grab[1]))) or tool.pickup is None:
            continue
        p = tool.pickup
        if rng.random() < 0.6:       # beside a model of the enemy, touching or nearly
            f = int(rng.choice(list(st.models_of(w))))
            a = rng.uniform(0, 2 * np.pi)
            d = float(t.reach[f] + t.reach[p.ref]) + rng.uniform(-0.1, 3.0)
            to = (float(t.x[f]) + d * np.cos(a), float(t.y[f]) + d * np.sin(a))
        else:
            a, d = rng.uniform(0, 2 * np.pi), allowed * rng.uniform(0.1, 1.1)
            to = (float(t.x[p.ref]) + d * np.cos(a), float(t.y[p.ref]) + d * np.sin(a))
        cursor = play.table.view.px(to[0] + float(tool.grab[0]), to[1] + float(tool.grab[1]))
        tool.move((round(cursor[0]), round(cursor[1])))
        tool.update_ruling(engine=True, detail=True)        # the cursor rests
        r = tool.ruling
        shown = tool.shown()
        bad = st.check(r.action)
        why = {v.message for v in bad}
        # Legality: the caption, the ruler's colour, and the drop itself.
        assert r.legal == (not bad), (r.action, why)
        tagged = {w_ for ws in r.faults.values() for w_ in ws} | set(r.general)
        if bad:
            seen["illegal"] += 1
            said = shown.caption[1 if r.allowed else 0]
            assert said == "illegal: " + "; ".join(live.reasons(bad))
            for v in bad:       # every reason, its model named (listed once per reason)
                rest = v.message[len(v.models[0]):] if v.models and v.message.startswith(
                    v.models[0] + " ") else v.message
                assert rest in said and (not v.models or v.models[0].rpartition("/")[2]
                                         in said), (v.message, said)
            assert why <= tagged, (r.action, why - tagged)
            assert shown.ruler == dragview.RULER_OVER, (r.action, why)
            after = st.snapshot()
            with pytest.raises(IllegalAction):
                after.apply(r.action)
            continue
        seen["legal"] += 1
        assert "legal" in shown.caption
        assert not r.faults, (r.action, r.faults)     # nothing marked at fault on a legal drop
        assert shown.ruler in (dragview.RULER_OK, dragview.RULER_NEAR)
        after = st.snapshot()
        events = after.apply(r.action)
        # Triggers: the units the drag rings are the ones the move set off.
        fired = triggered(st, after, u, events)
        seen["triggers"] += bool(fired)
        assert promised(st, r) == fired, (r.action, promised(st, r), fired)
        # "In combat with": whom the engine counts in combat with the unit where it stands -
        # unless the dice took models off as it moved (pot shots), which no preview can know.
        engine = {after.scene.units[v].id
                  for v in Referee(after.scene, after.table).combat.get(u, [])}
        same = all(len(after.models_of(v)) == len(st.models_of(v))
                   for v in range(len(st.scene.units)))
        if r.action.type != "charge" and same:      # a charge's dice may stop it short
            assert set(shown.in_combat) == engine, (r.action, shown.in_combat, engine)
        tool.cancel("")
    pygame.display.quit()
    assert seen["legal"] >= 3 and seen["illegal"] >= 3, seen
    if ruleset in ("skirmish", "warband"):
        assert seen["triggers"], seen        # some drops set off pot shots / engage
