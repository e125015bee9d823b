"""Warscroll abilities in the window (dummy video driver, synthetic events): the acting side's
abilities at this phase as cards beside the panel, the whole text on hover, passive ones on the
unit under the cursor; a right click on a unit opens its menu, which declares an ability and
proposes an adjustment the other side then accepts or refuses with the panel's buttons."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_text  # noqa: E402

SIZE = (1200, 760)
SCENE = (Path(__file__).parents[1] / "rules" / "aos4" / "stampede.yaml").read_text(
    encoding="utf-8")


def at_charge() -> PlayScene:
    """Red's charge phase, red acting (Unstoppable Stampede's timing: Any Charge Phase)."""
    scene = PlayScene(open_text("aos4", SCENE, "alpha"), SIZE)
    st = scene.state
    while not (st.clock["phase"] == "charge" and st.acting_side == "red"):
        st.apply(Action("end-phase"))
    return scene


def at_unit(scene: PlayScene, uid: str) -> tuple[int, int]:
    st = scene.state
    lead = st.scene.leader_model(st.scene.unit_index(uid), st.table)
    return tuple(round(c) for c in scene.table.view.px(st.table.x[lead], st.table.y[lead]))


def event(kind: int, **fields) -> pygame.event.Event:
    return pygame.event.Event(kind, **fields)


def test_the_abilities_now_are_cards_with_their_whole_text_on_hover(display) -> None:
    scene = at_charge()
    surf = pygame.Surface(SIZE)
    scene.draw(surf)
    (rect, card), = scene.cards.cards
    assert (card.unit, card.name, card.kind) == ("red", "Unstoppable Stampede", "activated")
    assert "Declare: If this unit charged this phase" in card.text
    assert "must end that move in combat" in card.text
    scene.handle_event(event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0),
                             buttons=(0, 0, 0)))
    scene.draw(surf)                                  # the tooltip draws without error
    # The passive ability shows on the unit under the cursor.
    scene.handle_event(event(pygame.MOUSEMOTION, pos=at_unit(scene, "red"), rel=(0, 0),
                             buttons=(0, 0, 0)))
    scene.draw(surf)
    assert [c.name for _, c in scene.cards.cards] == ["Unstoppable Stampede", "Stubborn"]
    # A click on the card declares it: logged with its text.
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    assert scene.state.events[-1]["type"] == "ability-declared"


def test_no_card_outside_the_abilitys_timing(display) -> None:
    scene = PlayScene(open_text("aos4", SCENE, "alpha"), SIZE)
    scene.draw(pygame.Surface(SIZE))
    assert scene.state.clock["phase"] != "charge" and scene.cards.cards == []


def test_the_unit_menu_proposes_an_adjustment_and_the_other_side_answers(display) -> None:
    scene = at_charge()
    surf = pygame.Surface(SIZE)
    scene.draw(surf)
    pos = at_unit(scene, "blue")
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=3, pos=pos))
    scene.handle_event(event(pygame.MOUSEBUTTONUP, button=3, pos=pos))
    assert scene.cards.menu is not None
    _, rows = scene.cards.menu
    labels = [label for _, label, _ in rows]
    assert "mortal 1" in labels and "heal 1" not in labels     # nothing to heal
    rect = next(r for r, label, _ in rows if label == "mortal 1")
    scene.draw(surf)
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    st = scene.state
    assert st.pending and st.pending[0].kind == "adjust" and st.pending[0].side == "blue"
    scene.draw(surf)
    assert {"accept", "refuse"} <= {label for _, label in scene.panel.buttons}
    before = st.units[1].damage.sum()
    button = next(r for r, label in scene.panel.buttons if label == "refuse")
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.center))
    assert not st.pending and st.units[1].damage.sum() == before
    assert st.events[-1]["type"] == "adjust-refused"


def test_a_right_drag_pans_and_opens_no_menu(display) -> None:
    scene = at_charge()
    scene.draw(pygame.Surface(SIZE))
    x, y = at_unit(scene, "blue")
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=3, pos=(x, y)))
    scene.handle_event(event(pygame.MOUSEBUTTONUP, button=3, pos=(x + 40, y)))
    assert scene.cards.menu is None


def test_the_right_click_that_opens_the_menu_leaves_the_table_where_it_was(display) -> None:
    scene = at_charge()
    scene.draw(pygame.Surface(SIZE))
    before = scene.table.view
    pos = at_unit(scene, "blue")
    scene.handle_event(event(pygame.MOUSEBUTTONDOWN, button=3, pos=pos))
    scene.handle_event(event(pygame.MOUSEBUTTONUP, button=3, pos=pos))
    assert scene.cards.menu is not None
    _, rows = scene.cards.menu
    far = rows[0][0].center
    scene.handle_event(event(pygame.MOUSEMOTION, pos=far, rel=(far[0] - pos[0], 0),
                             buttons=(0, 0, 0)))
    assert scene.table.view == before
