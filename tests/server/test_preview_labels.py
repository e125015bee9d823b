"""A drag's preview places the table's own labels with its tags (depiction.drag.with_table, as
the window does): a label the dropped unit would cover moves aside, the others stay where the
page shows them; the play page hides its label layer while the answer's labels are shown
(`data-labels-moved`)."""

from __future__ import annotations

from battlefield.page.replay import rulings, table_depiction
from battlefield.paths import find_map
from battlefield.rules import registry
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene
from battlefield.server import messages
from battlefield.server.preview import Copy, Previews


def _centre(shape: dict) -> tuple[float, float]:
    return (round(shape["c"][0], 3), round(shape["c"][1], 3))


def test_a_drop_over_a_table_label_moves_it_aside_and_the_rest_stay():
    state = Game(registry.find("skirmish"), load_scene(find_map("demo-skirmish"))).new_state()
    held = {o.id: state.objectives.get(o.id, o.controlled_by) for o in state.scene.objectives}
    page = table_depiction(state, rulings(state), held, {}).placed
    where = {q.item["a"]["data-label-for"]: q for q in page
             if isinstance(q.item, dict) and "data-label-for" in (q.item.get("a") or {})}
    moving = "red-spears"
    other = next(u for u in where if u != moving and u.startswith("red-"))
    cx, cy = where[other].centre
    lead = state.scene.units[state.scene.unit_index(moving)].models[1]
    action = {"type": "move", "unit": moving, "path": [[lead.x, lead.y], [cx, cy]]}
    c = Copy(0, state, False)
    answer = Previews()._rule(c, "red", messages.Preview("p", action), set())
    drawn = answer["overlay"]["layers"]["labels"]
    after = {s["a"]["data-label-for"]: s for s in drawn
             if s.get("k") == "text" and "data-label-for" in (s.get("a") or {})}
    assert moving not in after                      # the unit in the hand: its ghost instead
    assert _centre(after[other]) != (round(cx, 3), round(cy, 3))      # moved aside
    stayed = [u for u in after if u != other
              and _centre(after[u]) == tuple(round(v, 3) for v in where[u].centre)]
    assert len(stayed) >= len(after) - 3           # the rest where the page shows them
