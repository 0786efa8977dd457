"""docs/DESIGN.md's list of what goes wrong on e-boards, one test (or a few) per failure."""

from __future__ import annotations

import random

from morris.core import BLACK, WHITE, Board, Move
from morris.referee import (
    Flagged,
    MillClosed,
    OpponentToMove,
    RefereeConfig,
    SearchCancelled,
    TakenBack,
    TurnAccepted,
)
from morris.referee.lights import compute_lights
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, board_of, mask, position

# -- sliding a piece across points read as moves ---------------------------------------------------


def test_sliding_a_placed_piece_across_points_is_not_read_as_moves() -> None:
    table = Table()
    for name in ("d7", "d6"):  # dragged in from the edge, resting a moment on each point
        table.place(name)
        table.wait(0.35)
        table.lift(name)
        table.wait(0.05)
    table.place("d5")
    table.wait(SETTLE)
    assert table.accepted() == ["d5"]


def test_sliding_a_piece_across_neighbouring_points_is_not_read_as_moves() -> None:
    table = Table(position("a7 d7 g4", MILL_B))  # three white pieces: g4 flies
    table.lift("g4")
    # f4, then over e4 (black's: its sensor reads a piece all along, so it has nothing to
    # show), then e5 and d5.
    for name in ("f4", "e5", "d5"):
        table.wait(0.2)
        table.place(name)
        table.wait(0.3)
        table.lift(name)
    table.wait(0.2)
    table.place("g7")  # closes a7-d7-g7 only now
    table.wait(SETTLE)
    assert table.accepted() == []
    assert table.of(MillClosed) == [MillClosed(Move.parse("g4-g7"), mask("c4", "e4"))]


def test_a_fly_drawn_over_a_mill_point_closes_no_mill_on_the_way() -> None:
    table = Table(position("a7 d7 g4", MILL_B))
    table.lift("g4")
    table.wait(0.2)
    table.place("g7")  # passes over the mill point for less than the accept delay
    table.wait(0.4)
    table.lift("g7")
    table.wait(0.1)
    table.place("f6")
    table.wait(SETTLE)
    assert table.of(MillClosed) == []
    assert all(shown != "slow" for _, lights in table.history for shown in lights.values())
    assert table.accepted() == ["g4-f6"]


# -- a fast reply right after the computer's move missed -------------------------------------------


def test_a_fast_reply_right_after_the_computers_move_is_not_missed() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    table.place("a7")
    table.wait(0.2)  # the Pi's placement is not yet confirmed ...
    table.place("g7")  # ... and the person has already replied
    events = table.wait(SETTLE)
    assert events == [
        TurnAccepted(Move.parse("a7"), BLACK, True),
        TurnAccepted(Move.parse("g7"), WHITE, False),
        OpponentToMove(),
    ]


def test_a_fast_reply_done_before_the_computers_move_is_not_missed() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    table.place("g7")  # the person's own piece first
    table.wait(0.2)
    table.place("a7")
    table.wait(SETTLE)
    assert table.accepted() == ["d6", "a7", "g7"]


def test_a_reply_begun_before_the_computers_move_is_confirmed_commits_the_computers_move() -> None:
    table = Table(position(MILL_W, MILL_B, "b"), opponent_color=BLACK)
    table.expect("c4-c3")
    table.move("c4-c3", gap=0.1)
    table.wait(0.2)
    table.lift("g4")  # the person's next turn begins at once
    table.wait(0.7)
    assert table.accepted() == ["c4-c3"]
    assert table.shown() == {"on": {"g7", "g1", "f4"}}
    table.place("g7")
    table.wait(SETTLE)
    assert table.of(MillClosed) == [MillClosed(Move.parse("g4-g7"), mask("e4", "c3"))]


def test_a_reply_on_the_point_the_computers_removal_just_emptied_is_the_persons_turn() -> None:
    # The person takes their piece from d6 for the Pi and at once puts a new one there: the
    # sensors show d6 as it was, but the board showed the Pi's turn done first.
    table = Table(opponent_color=BLACK)
    for person, pi in (("d6", "a7"), ("b4", "d7")):
        table.play(person)
        table.expect(pi)
        table.play(pi)
    table.play("f2")
    table.expect("g7xd6")
    table.move("g7xd6", gap=0.1)
    table.wait(0.2)  # d6 has settled empty; the Pi's turn is not yet confirmed ...
    table.place("d6")  # ... and the person's reply fills it again
    table.wait(SETTLE)
    assert table.accepted() == ["d6", "a7", "b4", "d7", "f2", "g7xd6", "d6"]
    assert table.of(Flagged) == []


# -- ghost moves and false takebacks when moving quickly -------------------------------------------


def test_no_ghost_move_from_a_neighbour_brushed_while_placing() -> None:
    table = Table(board_of("d6", "a7"))
    table.place("d7")
    table.wait(0.05)
    table.lift("a7")  # knocked off by the hand ...
    table.wait(0.3)
    table.place("a7")  # ... and put straight back
    table.wait(10.0)
    assert table.accepted()[-1:] == ["d7"]
    assert len(table.accepted()) == 1
    assert table.of(Flagged) == []


def test_no_false_takeback_when_a_piece_is_nudged_after_the_turn() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.lift("d6")  # picked up to straighten it: the earlier position, for a moment
    table.wait(1.0)
    table.place("d6")
    table.wait(10.0)
    assert table.of(TakenBack) == []
    assert table.of(SearchCancelled) == []


def test_no_ghost_moves_in_a_quickly_played_game() -> None:
    table = Table()
    turns = ["d6", "a7", "d5", "g7", "d7xa7", "a7", "b6", "f6", "f2", "d2"]
    for text in turns:
        table.move(text, gap=0.15)
        table.wait(0.65)  # just past acceptance: a fast player
    assert table.accepted() == turns
    assert table.of(TakenBack) == []
    assert table.of(Flagged) == []


# -- no feedback when the computer's move is carried out wrongly -----------------------------------


def test_feedback_when_the_computers_move_is_carried_out_wrongly() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    table.place("a4")  # the wrong point
    table.wait(SETTLE)
    assert table.accepted() == ["d6"]
    assert table.shown() == {"on": {"a7"}}  # still asking for a7
    table.wait(5.0)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("a7"), mask("a4"))
    assert table.shown() == {"on": {"a7"}, "fast": {"a4"}}
    assert table.status()["error"] == "fast"
    table.lift("a4")
    table.place("a7")
    table.wait(SETTLE)
    assert table.accepted() == ["d6", "a7"]
    assert table.status()["error"] == "off"


def test_feedback_when_the_computers_move_is_carried_out_partly() -> None:
    table = Table(position(MILL_B, MILL_W, "b"), opponent_color=BLACK)
    table.expect("g4-g7xe4")
    table.lift("g4")
    table.wait(6.0)  # the piece held in the hand, never put down
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("g7"), mask("e4"))
    assert table.shown() == {"on": {"g7"}}


# -- deadlock after a takeback while the engine thinks ---------------------------------------------


def test_no_deadlock_after_a_takeback_while_the_engine_thinks() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    assert table.referee.opponent_to_move
    table.thinking = True
    assert table.status()["thinking"] == "on"
    events = table.takeback()
    assert SearchCancelled() in events
    table.thinking = False  # the daemon dropped the search
    table.lift("d6")
    table.wait(0.2)
    assert table.play("f4")[-1] == OpponentToMove()  # the game goes on: a new search
    table.expect("a7")
    table.play("a7")
    assert table.accepted() == ["d6", "f4", "a7"]


def test_no_deadlock_when_the_board_is_restored_while_the_engine_thinks() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.lift("d6")
    table.wait(2.0)
    assert table.of(SearchCancelled) == [SearchCancelled()]
    assert not table.referee.opponent_to_move
    assert table.play("d6")[-1] == OpponentToMove()


# -- stuck after game end or after setup -----------------------------------------------------------


def test_not_stuck_after_game_end() -> None:
    table = Table(position(MILL_W, "b2 d2 f2"))
    table.play("g4-g7xb2")
    assert table.referee.is_game_over
    for name in ("a7", "d7", "g7", "c5", "d2", "f2"):
        table.lift(name)
        table.wait(0.3)
    table.wait(2.0)
    table.play("d6", "a7")
    assert table.accepted()[-2:] == ["d6", "a7"]


def test_not_stuck_after_setup() -> None:
    table = Table(sensed=mask("a1", "g7"))  # last game's pieces still on the board
    assert table.shown() == {"fast": {"a1", "g7"}}
    table.lift("a1")
    table.lift("g7")
    table.wait(0.2)
    assert table.shown() == {}
    table.play("d6")
    assert table.accepted() == ["d6"]


# -- flicker of weak magnets read as moves ---------------------------------------------------------


def test_flicker_of_weak_magnets_is_not_read_as_moves() -> None:
    rng = random.Random(7)
    table = Table(position(MILL_W, MILL_B))
    before = table.lights()
    occupied = ["a7", "d7", "g4", "c5", "b2", "d2", "f2", "c4", "e4"]
    for _ in range(500):
        name = rng.choice(occupied)
        table.flicker(name, rng.uniform(0.0, 0.09))
        table.wait(rng.uniform(0.0, 0.5))
    assert table.events == []
    assert all(lights == before for _, lights in table.history)


def test_a_flickering_point_does_not_hold_up_the_others() -> None:
    table = Table()
    for i in range(40):  # a7 flickers all the time, never stable for the debounce time
        table.flicker("a7", 0.04)
        table.wait(0.04)
        if i == 5:
            table.place("d6")
    assert table.accepted() == ["d6"]


# -- LEDs flickering on unrelated points -----------------------------------------------------------


def _lights_over_time(
    script: list[tuple[float, str]], noise: list[tuple[float, float, str]], until: float
) -> tuple[list[dict[str, str]], list[str]]:
    """Run ``script`` (time, "+name"/"-name") with sensor ``noise`` (start, length, name) laid
    over it; sample the lights every 50 ms."""
    board = position(MILL_W, MILL_B)
    start = board.occupied

    def raw(t: float) -> int:
        sensed = start
        for when, action in script:
            if when <= t:
                bit = mask(action[1:])
                sensed = sensed | bit if action[0] == "+" else sensed & ~bit
        for begin, length, name in noise:
            if begin <= t < begin + length:
                sensed ^= mask(name)
        return sensed

    edges = {when for when, _ in script}
    edges |= {t for begin, length, _ in noise for t in (begin, begin + length)}
    samples = [i * 0.05 for i in range(1, int(until / 0.05))]
    table = Table(board)
    seen: list[dict[str, str]] = []
    for t, is_sample in sorted([(t, False) for t in edges] + [(t, True) for t in samples]):
        table.wait(t - table.t)
        if is_sample:
            seen.append(table.lights())
        elif raw(t) != table.sensed:
            table.set(raw(t))
    return seen, table.accepted()


def test_leds_do_not_flicker_on_unrelated_points() -> None:
    """Sensor noise below the debounce time never changes a light, at any moment."""
    script = [(0.5, "-g4"), (1.3, "+g7"), (3.0, "-e4")]
    rng = random.Random(3)
    noise = []
    for _ in range(60):
        begin = rng.uniform(0.0, 5.0)
        noise.append((begin, rng.uniform(0.005, 0.09), rng.choice(["a1", "d1", "b4", "d5", "e3"])))
    quiet = _lights_over_time(script, [], 5.0)
    noisy = _lights_over_time(script, noise, 5.0)
    assert noisy == quiet
    assert quiet[1] == ["g4-g7xe4"]
    assert any(lights["g7"] == "on" for lights in quiet[0])  # the run did show something


def test_the_pis_move_lights_hold_while_other_points_change() -> None:
    """A real change elsewhere may be flagged, but the Pi's own points keep their signals."""
    table = Table(position(MILL_B, MILL_W, "b"), opponent_color=BLACK)
    table.expect("g4-g1")
    pi_points = {"g4": "slow", "g1": "on"}
    table.lift("b2")
    for seconds in (0.2, 1.0, 5.0, 1.0):
        table.wait(seconds)
        lights = table.lights()
        assert {p: lights[p] for p in pi_points} == pi_points
    assert table.shown() == {"slow": {"g4"}, "on": {"g1", "b2"}}  # b2 flagged: put it back


def test_a_lifted_pieces_targets_hold_through_noise_elsewhere() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.lift("g4")
    table.wait(0.2)
    shown = table.shown()
    for name in ("a1", "b4", "e5", "c4"):
        table.flicker(name, 0.06)
        assert table.shown() == shown


def test_lights_are_a_pure_function_of_the_state() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.move("g4-g7")
    table.wait(SETTLE)
    first = compute_lights(table.referee, table.t)
    assert all(compute_lights(table.referee, table.t + dt) == first for dt in (0.0, 0.3, 7.0))


# -- the board's serial link lost and not recovered ------------------------------------------------


def test_nothing_is_accepted_while_the_link_is_down() -> None:
    table = Table()
    table.place("d6")
    table.wait(0.3)  # settled, not yet accepted
    table.referee.link_lost(table.t)
    assert table.status()["error"] == "fast"
    table.wait(30.0)
    assert table.accepted() == []
    assert table.referee.update(0, table.t) == []  # a stray reading is ignored


def test_a_turn_completed_while_the_link_was_down_needs_the_usual_stability() -> None:
    table = Table()
    table.referee.link_lost(table.t)
    table.wait(3.0)
    events = table.referee.link_restored(mask("d6"), table.t)
    table.sensed = mask("d6")
    assert events == []
    table.wait(0.55)
    assert table.accepted() == []
    table.wait(0.1)
    assert table.accepted() == ["d6"]
    assert table.status()["error"] == "off"


def test_no_phantom_move_from_what_changed_while_the_link_was_down() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.lift("g4")
    table.wait(0.2)
    table.referee.link_lost(table.t)
    # meanwhile: g4 went to g7 (a mill) and back to g4; the link comes back on the old board
    table.wait(4.0)
    table.referee.link_restored(table.board.occupied, table.t)
    table.sensed = table.board.occupied
    table.wait(30.0)
    assert table.accepted() == []
    assert table.of(MillClosed) == []
    assert table.of(Flagged) == []


def test_a_half_done_turn_across_the_outage_is_no_move() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.referee.link_lost(table.t)
    table.wait(2.0)
    sensed = table.board.occupied & ~mask("g4")
    table.referee.link_restored(sensed, table.t)
    table.sensed = sensed
    table.wait(0.2)
    assert table.shown() == {"on": {"g7", "g1", "f4"}}
    table.place("g1")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g1"]


# -- the game lost after a restart -----------------------------------------------------------------


def test_the_game_is_not_lost_after_a_restart() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    table.play("a7", "g7")
    saved = table.referee.board.position()
    # The daemon restarts: a new referee from the saved position and the board as it stands.
    board = Board(saved)
    table2 = Table(board, opponent_color=BLACK, sensed=table.sensed, start=table.t)
    assert table2.referee.opponent_to_move
    assert table2.shown() == {}
    table2.expect("a1")
    table2.play("a1", "g1")
    assert table2.accepted() == ["a1", "g1"]


def test_a_restart_with_a_disturbed_board_guides_it_back() -> None:
    board = board_of("d6", "a7", "g7")
    table = Table(board, opponent_color=BLACK, sensed=mask("d6", "g7"))
    assert table.shown() == {"on": {"a7"}}
    table.place("a7")
    table.wait(0.2)
    assert table.shown() == {}
    table.expect("a1")
    table.play("a1")
    assert table.accepted() == ["a1"]


def test_default_timings_keep_the_one_second_promise() -> None:
    config = RefereeConfig()
    assert config.debounce + config.accept_delay <= 1.0
    assert config.flag_delay == 5.0
