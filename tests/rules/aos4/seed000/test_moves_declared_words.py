"""What a run or charge declared before its path says happened (the log every front end shows:
outcome.game_log), and At the Double said as what it is: "Do not make a run roll as part of
that RUN ability. Instead, add 6" to that unit's Move characteristic" - no roll."""

from __future__ import annotations

from battlefield.rules.event_words import line
from battlefield.rules.outcome import game_log

from ._moves import play, scene, unit

RUN = scene(unit("red", "red", (5, 10)) + unit("blue", "blue", (50, 40)))


# Move 5, a run roll of 3: "red declares a run, rolls 3" and red may move 8".
def test_a_run_declared_says_its_roll() -> None:
    state, (r,) = play(RUN, {"type": "run", "unit": "red"}, dice=[3])
    assert game_log(state)[-1].action == "red declares a run, rolls 3"
    assert state.pending[0].get("allowed") == "8"


# At the Double (1 CP): no dice thrown, Move 5 + 6 = 11": the log says 6" added, no roll -
# not "rolled 6".
def test_at_the_double_is_said_as_no_roll() -> None:
    state, (r,) = play(RUN, {"type": "run", "unit": "red", "command": "at-the-double"})
    assert not r["rolls"]
    run = next(e for e in r["events"] if e["type"] == "run")
    assert "roll" not in run and run["added"] == 6 and run["allowed"] == 11
    assert line(run) == 'red runs: 6.00" added, no roll (at-the-double), up to 11.00"'
    assert game_log(state)[-1].action == ('red declares a run, adds 6.00" with no roll '
                                          "(at-the-double)")
    assert state.pending[0].get("allowed") == "11"
