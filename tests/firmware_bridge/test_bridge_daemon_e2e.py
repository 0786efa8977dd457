"""End to end over a real pseudo-terminal pair: the firmware logic on CPython on one end, the host
bridge on the other, and whole games played through the real daemon on top.

The person's hands are on the simulated board under the firmware (``dev.board.place/lift``); what
the person sees is what the firmware really drives on its LED chain (recorded frame by frame);
the game is the one the daemon's referee accepted, read from a journal of every turn it saved
(written on the daemon's own thread, so reading it needs no locking of the controller).

Faults at the game level: the cable pulled and put back (with pieces left alone, touched and put
back, half a turn done or a whole turn done meanwhile), a device gone silent, garbage on the line
both ways. None may crash the daemon, invent a move or change the game, and the link is back
within 2 s of the device returning.

The daemon runs in real time (``time.monotonic``) with short but valid referee timings; every
wait here is an upper bound on a condition, never a sleep the outcome depends on.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from firmware_bridge import SerialBoard
from firmware_bridge.emulator import Color, EmulatedPico
from firmware_bridge.firmware.config import CONFIG
from firmware_bridge.ptydevice import PtyDevice
from morris.app.config import Config
from morris.app.store import GameStore, SavedGame
from morris.core import WHITE, Board, Move, point_name
from morris.daemon import Daemon, open_hardware
from morris.daemon.notify import Notifier
from morris.daemon.status_file import ServiceStatus, read_status
from morris_device import POINT_INDEX, POINT_NAMES
from tests.core.games import StrongGame, strong_games

#: Needs real time: the daemon and a device on a real pseudo-terminal.
pytestmark = pytest.mark.realtime

#: Upper bound for anything that should take well under a second (real seconds, loaded machine).
TIMEOUT = 20.0
#: The issue's promise: the link is back within this long of the device returning.
LINK_BACK = 2.0
#: Short referee timings (valid for morris.app.config) so a whole game takes seconds.
TIMINGS = {"referee_debounce": 0.02, "referee_accept_delay": 0.1}

# The firmware's LED chain: the 24 points in POINT_NAMES order, then the status LEDs.
TURN, THINKING, ERROR, GAME_OVER = 24, 25, 26, 27
_SIGNAL_NAMES = {1: "on", 2: "slow", 3: "fast"}
_COLOR_SIGNALS: dict[Color, str] = {
    color: _SIGNAL_NAMES[code] for code, color in cast(dict[int, Color], CONFIG["colors"]).items()
}

Frame = tuple[Color, ...]


def signal_at(frame: Frame, index: int) -> str:
    """What LED ``index`` shows in ``frame``: off, on, slow or fast (by its colour)."""
    if index >= len(frame) or frame[index] == (0, 0, 0):
        return "off"
    return _COLOR_SIGNALS[frame[index]]


def points_showing(frame: Frame, signal: str) -> set[str]:
    """The points whose LED shows ``signal`` in ``frame``."""
    return {name for i, name in enumerate(POINT_NAMES) if signal_at(frame, i) == signal}


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> float:
    """Poll ``predicate`` until it is true; return the real seconds it took. Fails after
    ``timeout``."""
    start = time.monotonic()
    pause = threading.Event()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        pause.wait(0.005)
    return time.monotonic() - start


class WatchedBoard(EmulatedPico):
    """The simulated board, keeping every frame the firmware writes to its LED chain."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[Frame] = []
        self._frames_cond = threading.Condition()

    def _show(self, pixels: list[Color]) -> None:
        super()._show(pixels)
        self._record(tuple(pixels))

    def power_cycle(self) -> None:
        super().power_cycle()
        self._record(())

    def _record(self, frame: Frame) -> None:
        with self._frames_cond:
            self.frames.append(frame)
            self._frames_cond.notify_all()

    def mark(self) -> int:
        """The number of frames so far: pass it as ``since`` to look only at later frames."""
        with self._frames_cond:
            return len(self.frames)

    def wait_frames(self, find: Callable[[list[Frame]], Any], what: str, *, since: int = 0) -> Any:
        """Wait until ``find(frames written since since)`` is not None/False; return it."""
        found: list[Any] = []

        def check() -> bool:
            result = find(self.frames[since:])
            if result is None or result is False:
                return False
            found.append(result)
            return True

        with self._frames_cond:
            if not self._frames_cond.wait_for(check, TIMEOUT):
                last = self.frames[-1] if self.frames else ()
                shown = {i: signal_at(last, i) for i in range(28) if signal_at(last, i) != "off"}
                raise AssertionError(f"the LEDs never showed {what}; last frame: {shown}")
        return found[0]

    def wait_showing(self, predicate: Callable[[Frame], bool], what: str, since: int = 0) -> Frame:
        """Wait until the LEDs (the latest frame) satisfy ``predicate``; return that frame."""
        frame: Frame = self.wait_frames(
            lambda frames: frames[-1] if frames and predicate(frames[-1]) else None,
            what,
            since=since,
        )
        return frame


class Journal(GameStore):
    """The game store, also noting every game the daemon saves (on the daemon's thread)."""

    def __init__(self, state_dir: Path) -> None:
        super().__init__(state_dir)
        self.saved: list[list[str]] = []
        self.finished: list[tuple[list[str], str, str]] = []
        self._cond = threading.Condition()

    def save(self, saved: SavedGame) -> None:
        moves = [str(m) for m in saved.board.move_stack]
        super().save(saved)
        with self._cond:
            self.saved.append(moves)
            self._cond.notify_all()

    def finish(self, board: Board, **kwargs: Any) -> Path:
        path = super().finish(board, **kwargs)
        outcome = board.outcome()
        assert outcome is not None
        with self._cond:
            moves = [str(m) for m in board.move_stack]
            self.saved.append(moves)
            self.finished.append((moves, outcome.result(), outcome.termination.value))
            self._cond.notify_all()
        return path

    def moves(self) -> list[str]:
        """The last game the daemon accepted."""
        with self._cond:
            return list(self.saved[-1]) if self.saved else []

    def wait_moves(self, expected: Sequence[str]) -> None:
        """Wait until the daemon has accepted exactly ``expected``; fail at once on any accepted
        game that is not a prefix of it (a phantom or wrong move)."""
        expected = list(expected)

        def check() -> bool:
            for moves in self.saved:
                assert moves == expected[: len(moves)], (
                    f"the daemon accepted {moves}, which is not a prefix of {expected}"
                )
            return bool(self.saved) and self.saved[-1] == expected

        with self._cond:
            assert self._cond.wait_for(check, TIMEOUT), (
                f"the daemon accepted {self.saved[-1:]}, not {expected}"
            )


class ReadyNotifier(Notifier):
    """No systemd: only notes when the daemon is ready (its callbacks are wired)."""

    def __init__(self) -> None:
        super().__init__(None)
        self.is_ready = threading.Event()

    def ready(self, status: str | None = None) -> bool:
        self.is_ready.set()
        return False


@dataclass
class Rig:
    """The daemon on a SerialBoard, linked over a pty to the firmware under a simulated board."""

    dev: PtyDevice
    sim: WatchedBoard
    daemon: Daemon
    journal: Journal
    thread: threading.Thread
    exit_codes: list[int]

    @property
    def serial(self) -> SerialBoard:
        device = self.daemon.board.device
        assert isinstance(device, SerialBoard)
        return device

    def status(self) -> ServiceStatus:
        """What the daemon's status file says now (it is replaced atomically)."""
        assert self.daemon.status_path is not None
        return read_status(self.daemon.status_path)

    def wait_status_link(self, link: str) -> None:
        """Wait until the status file (what ``morris status`` shows) gives the link as ``link``."""
        wait_until(lambda: self.status().link == link, f"the status file to say link {link}")

    @property
    def link_up(self) -> bool:
        """Whether the daemon's referee counts the board's link as up."""
        controller = self.daemon.controller
        assert controller is not None
        return controller.referee.link_up

    # -- the person's hands ----------------------------------------------------------------

    def place(self, name: str, *, linked: bool = True) -> None:
        """Put a piece on ``name``; with ``linked``, wait until the host has sensed it."""
        self.sim.place(POINT_INDEX[name])
        if linked:
            wait_until(lambda: name in self.serial.sensors(), f"{name} sensed")

    def lift(self, name: str, *, linked: bool = True) -> None:
        """Take the piece off ``name``; with ``linked``, wait until the host has sensed it."""
        self.sim.lift(POINT_INDEX[name])
        if linked:
            wait_until(lambda: name not in self.serial.sensors(), f"{name} sensed empty")

    def carry_out(self, move: Move, *, linked: bool = True) -> None:
        """Make ``move`` by hand: lift the origin, put the piece down, take the removed piece."""
        if move.from_point is not None:
            self.lift(point_name(move.from_point), linked=linked)
        self.place(point_name(move.to_point), linked=linked)
        if move.remove is not None:
            self.lift(point_name(move.remove), linked=linked)

    # -- the lights ------------------------------------------------------------------------

    def wait_quiet_board(self, white_to_move: bool, since: int = 0) -> Frame:
        """A refereed game between turns: no point lit, the turn LED lit while white is to move,
        no error."""

        def quiet(frame: Frame) -> bool:
            return (
                not any(signal_at(frame, i) != "off" for i in range(len(POINT_NAMES)))
                and signal_at(frame, TURN) == ("on" if white_to_move else "off")
                and signal_at(frame, ERROR) == "off"
                and signal_at(frame, GAME_OVER) == "off"
            )

        return self.sim.wait_showing(quiet, f"a quiet board, white to move: {white_to_move}", since)


@pytest.fixture
def start_daemon(tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    """Start the daemon on a fresh simulated device; stopped and closed after the test."""
    rigs: list[Rig] = []

    def start(**overrides: Any) -> Rig:
        sim = WatchedBoard()
        dev = PtyDevice(sim)
        state_dir = tmp_path / f"state{len(rigs)}"
        state_dir.mkdir()
        config = Config().with_overrides(
            hardware_backend="serial",
            hardware_serial_url=dev.url,
            paths_state_dir=str(state_dir),
            **{**TIMINGS, **overrides},
        )
        try:
            opened = open_hardware(config)
        except BaseException:
            dev.close()
            raise
        assert opened.backend == "serial"
        journal = Journal(state_dir)
        notifier = ReadyNotifier()
        daemon = Daemon(
            config,
            opened,
            notifier=notifier,
            store=journal,
            status_path=state_dir / "status.json",
        )
        exit_codes: list[int] = []
        thread = threading.Thread(
            target=lambda: exit_codes.append(daemon.run(install_signals=False)),
            name="morris-daemon",
            daemon=True,
        )
        rig = Rig(dev, sim, daemon, journal, thread, exit_codes)
        rigs.append(rig)
        thread.start()
        assert notifier.is_ready.wait(TIMEOUT), "the daemon never got ready"
        return rig

    yield start
    for rig in rigs:
        rig.daemon.request_stop()
        rig.thread.join(TIMEOUT)
        rig.dev.close()


def stop(rig: Rig) -> None:
    """Stop the daemon cleanly: exit code 0, every LED the firmware drives switched off."""
    rig.daemon.request_stop()
    rig.thread.join(TIMEOUT)
    assert not rig.thread.is_alive(), "the daemon did not stop"
    assert rig.exit_codes == [0]
    rig.sim.wait_showing(lambda frame: all(signal_at(frame, i) == "off" for i in range(28)), "dark")
    assert rig.status().last_event == "stopped"


def game(lineno: int) -> StrongGame:
    """The strong game on line ``lineno`` of tests/data/strong-games.txt."""
    (found,) = [g for g in strong_games() if g.lineno == lineno]
    return found


def play_turns(rig: Rig, strong: StrongGame, start: int, stop_at: int) -> None:
    """Play turns ``start`` .. ``stop_at - 1`` of ``strong`` by hand, each accepted before the
    next, the firmware's LEDs showing a quiet board with the right turn LED after each."""
    board = Board()
    for text in strong.turns[:start]:
        board.push_notation(text)
    for k in range(start, stop_at):
        move = board.push_notation(strong.turns[k])
        rig.carry_out(move)
        rig.journal.wait_moves(strong.turns[: k + 1])
        if board.outcome() is None:
            rig.wait_quiet_board(white_to_move=board.turn == WHITE)


def finish_game(rig: Rig, strong: StrongGame, start: int) -> None:
    """Play ``strong`` from turn ``start`` to its end; check the daemon's result and the LEDs."""
    turns = list(strong.turns)
    play_turns(rig, strong, start, len(turns))
    assert rig.journal.finished == [(turns, strong.result, strong.termination.value)]
    rig.sim.wait_showing(
        lambda frame: (
            signal_at(frame, GAME_OVER) == "on"
            and signal_at(frame, TURN) == "off"
            and not any(signal_at(frame, i) != "off" for i in range(len(POINT_NAMES)))
        ),
        "game over",
    )
    assert rig.journal.saved == [turns[: k + 1] for k in range(len(turns))]
    assert list(rig.journal.games_dir.glob("*.txt")), "the finished game was not saved"


def unplug(rig: Rig) -> None:
    """Pull the cable; wait until the daemon knows."""
    rig.dev.unplug()
    link_lost(rig)


def link_lost(rig: Rig) -> None:
    """Wait until the daemon has taken the link as lost (its status file is written last)."""
    rig.wait_status_link("down")
    assert rig.status().last_event == "board link lost"
    assert not rig.link_up
    assert rig.daemon.controller is not None
    assert rig.daemon.controller.state.last_event == "board link lost"


def replug(rig: Rig) -> int:
    """Put the cable back; the link must be back (at the daemon) within LINK_BACK seconds.

    Returns the LED frame count at the replug (the firmware booted anew, its LEDs dark).
    """
    mark = rig.sim.mark()
    rig.dev.replug()
    took = wait_until(lambda: rig.link_up, "the link to come back")
    assert took <= LINK_BACK, f"the link took {took:.2f} s to come back"
    assert rig.serial.is_link_up
    rig.wait_status_link("up")
    return mark


# --- whole games --------------------------------------------------------------------------------


def test_a_strong_game_refereed_through_the_daemon_to_its_result(
    start_daemon: Callable[..., Rig],
) -> None:
    strong = game(28)  # 35 turns, ten removals: 1-0 by too few pieces
    rig = start_daemon(game_mode="referee")
    rig.wait_quiet_board(white_to_move=True)
    finish_game(rig, strong, 0)
    stop(rig)
    assert not rig.journal.current_path.exists()  # a finished game leaves no unfinished one


def test_a_whole_game_against_the_pi_its_turns_done_from_the_leds(
    start_daemon: Callable[..., Rig],
) -> None:
    rig = start_daemon(game_mode="vs-ai", game_human="white", game_level=1, engine_seed=2)
    rng = random.Random(7)  # with engine seed 2: about 32 turns, the Pi sliding and removing
    board = Board()
    pi_turns = 0
    for _ in range(300):
        if board.outcome() is not None:
            break
        mark = rig.sim.mark()
        if board.turn == WHITE:  # the person: any legal turn
            move = rng.choice(sorted(board.legal_moves, key=str))
            rig.carry_out(move)
        else:  # the Pi: do what the LEDs ask
            move = carry_out_pi_request(rig, board, since=mark)
            pi_turns += 1
        board.push(move)
        rig.journal.wait_moves([str(m) for m in board.move_stack])
    outcome = board.outcome()
    assert outcome is not None, "no result after 300 turns"
    assert pi_turns >= 9
    moves, result, termination = rig.journal.finished[0]
    assert moves == [str(m) for m in board.move_stack]
    assert (result, termination) == (outcome.result(), outcome.termination.value)
    rig.sim.wait_showing(lambda frame: signal_at(frame, GAME_OVER) == "on", "game over")
    stop(rig)


def carry_out_pi_request(rig: Rig, board: Board, since: int) -> Move:
    """Read the Pi's turn off the LEDs (frames since ``since``), carry it out, return it.

    The Pi's target is lit steadily (green), its origin blinks slowly (amber, dark half the
    time), and its removal blinks slowly once the rest is done. The person knows whether the Pi
    still has pieces to place (they lie beside the board), so whether to look for an origin.
    """
    pi = board.turn
    placing = board.pieces_in_hand(pi) > 0

    def own(name: str, color: int | None) -> bool:
        return board.piece_at(name) == color

    def request(frames: list[Frame]) -> Move | None:
        waiting = [
            f for f in frames if signal_at(f, TURN) == "off" and signal_at(f, THINKING) == "off"
        ]
        if not waiting:
            return None
        targets = points_showing(waiting[-1], "on")
        if len(targets) != 1 or not own(next(iter(targets)), None):
            return None
        (target,) = targets
        if placing:
            return Move.parse(target)
        origins = {p for f in waiting for p in points_showing(f, "slow") if own(p, pi)}
        if len(origins) != 1:
            return None
        (origin,) = origins
        return Move.parse(f"{origin}-{target}")

    move: Move = rig.sim.wait_frames(request, "the Pi's request", since=since)
    done = rig.sim.mark()
    rig.carry_out(move)
    before = len(rig.journal.moves())

    def removal(frames: list[Frame]) -> str | bool | None:
        if len(rig.journal.moves()) > before:
            return True  # accepted: no removal
        for frame in frames:
            asked = {p for p in points_showing(frame, "slow") if own(p, 1 - pi)}
            if signal_at(frame, TURN) == "off" and len(asked) == 1:
                return asked.pop()
        return None

    removed = rig.sim.wait_frames(removal, "the Pi's removal or its turn accepted", since=done)
    if isinstance(removed, str):
        rig.lift(removed)
        move = Move.parse(f"{move}x{removed}")
    return move


# --- faults mid-game ----------------------------------------------------------------------------


def test_unplugged_mid_game_and_back_the_game_goes_on_unchanged(
    start_daemon: Callable[..., Rig],
) -> None:
    strong = game(6)  # 20 turns, four removals: 0-1 blocked
    rig = start_daemon(game_mode="referee")
    rig.wait_quiet_board(white_to_move=True)
    play_turns(rig, strong, 0, 6)
    before = rig.journal.moves()

    # Pieces left alone.
    unplug(rig)
    assert rig.serial.sensors() == {POINT_NAMES[i] for i in rig.sim.on_wood}
    mark = replug(rig)
    rig.wait_quiet_board(white_to_move=True, since=mark)  # the lights came back by themselves
    assert rig.journal.moves() == before

    # A piece lifted and put back while unplugged: the fresh snapshot is no news.
    unplug(rig)
    name = strong.turns[0]
    rig.lift(name, linked=False)
    rig.place(name, linked=False)
    mark = replug(rig)
    rig.wait_quiet_board(white_to_move=True, since=mark)
    assert rig.journal.moves() == before

    finish_game(rig, strong, 6)
    stop(rig)


def test_half_a_turn_made_while_unplugged_is_no_move_a_whole_one_is_accepted(
    start_daemon: Callable[..., Rig],
) -> None:
    strong = game(6)
    rig = start_daemon(game_mode="referee")
    rig.wait_quiet_board(white_to_move=True)
    play_turns(rig, strong, 0, 18)  # into the moving phase
    board = Board()
    for text in strong.turns[:18]:
        board.push_notation(text)
    move = Move.parse(strong.turns[18])
    assert move.from_point is not None and move.remove is None
    origin, target = point_name(move.from_point), point_name(move.to_point)

    # Half a turn: the piece lifted while unplugged. Back on line it is a lifted piece, whose
    # targets light up, never a move.
    unplug(rig)
    rig.lift(origin, linked=False)
    mark = replug(rig)
    targets = {point_name(m.to_point) for m in board.legal_moves if m.from_point == move.from_point}
    rig.sim.wait_showing(
        lambda frame: points_showing(frame, "on") == targets, f"the targets {targets}", since=mark
    )
    assert rig.journal.moves() == list(strong.turns[:18])
    rig.place(target)  # the turn completed on line: accepted as usual
    rig.journal.wait_moves(strong.turns[:19])
    rig.wait_quiet_board(white_to_move=False)

    # A whole turn made while unplugged: settled like any other once the link is back.
    unplug(rig)
    rig.carry_out(Move.parse(strong.turns[19]), linked=False)
    replug(rig)
    rig.journal.wait_moves(strong.turns[:20])
    assert rig.journal.finished == [(list(strong.turns), strong.result, strong.termination.value)]
    assert rig.journal.saved == [list(strong.turns[: k + 1]) for k in range(20)]
    stop(rig)


def test_a_silent_device_and_garbage_on_the_line_change_nothing(
    start_daemon: Callable[..., Rig],
) -> None:
    strong = game(6)
    rig = start_daemon(game_mode="referee")
    rig.wait_quiet_board(white_to_move=True)
    play_turns(rig, strong, 0, 7)
    before = rig.journal.moves()
    assert rig.daemon.controller is not None
    last_event = rig.daemon.controller.state.last_event

    # Garbage from the device, then to it: dropped, counted, nothing else.
    rng = random.Random(11)
    stats = rig.serial.stats
    bad_before = stats.bad_frames + stats.crc_errors
    errors_before = stats.device_errors
    noise = bytes(rng.randrange(256) for _ in range(600)) + b"\x00"
    rig.dev.write_raw(noise)
    wait_until(lambda: stats.bad_frames + stats.crc_errors > bad_before, "garbage counted")
    fd = os.open(rig.dev.url, os.O_WRONLY | os.O_NOCTTY)
    try:
        os.write(fd, b"\x00" + bytes(rng.randrange(256) for _ in range(200)) + b"\x00")
    finally:
        os.close(fd)
    wait_until(lambda: stats.device_errors > errors_before, "the device's ERROR about garbage")
    assert rig.link_up and rig.serial.is_link_up
    assert stats.link_losses == 0
    assert rig.status().link == "up"
    assert rig.daemon.controller.state.last_event == last_event
    assert rig.journal.moves() == before
    rig.wait_quiet_board(white_to_move=False)
    play_turns(rig, strong, 7, 9)  # the game goes on
    before = rig.journal.moves()

    # A hung device: the link is lost after the heartbeat timeout, back when it answers again.
    rig.dev.silent = True
    link_lost(rig)
    assert rig.journal.moves() == before
    rig.dev.silent = False
    took = wait_until(lambda: rig.link_up, "the link to come back")
    assert took <= LINK_BACK, f"the link took {took:.2f} s to come back"
    rig.wait_status_link("up")
    rig.wait_quiet_board(white_to_move=False)
    assert rig.journal.moves() == before

    finish_game(rig, strong, 9)
    stop(rig)
