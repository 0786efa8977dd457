"""A wooden board in virtual time: pieces placed and lifted by name, a referee reading them.

Tests are written as a person's physical actions::

    table = Table()
    table.place("d6")
    table.wait(1.0)
    assert table.accepted() == ["d6"]
"""

from __future__ import annotations

from morris.core import POINT_NAMES, Board, Color, Move, parse_point
from morris.referee import Event, Referee, RefereeConfig, TurnAccepted
from morris.referee.lights import compute_lights, status_lights
from morris_device import Signal

#: Pause after a finished turn that is safely past acceptance (0.1 + 0.5 s) and short of a flag.
SETTLE = 1.0


def mask(*names: str) -> int:
    """The bitmask of the named points."""
    out = 0
    for name in names:
        out |= 1 << parse_point(name)
    return out


def board_of(*moves: str, **settings: bool | int | None) -> Board:
    """A standard board with ``moves`` played."""
    board = Board(**settings)  # type: ignore[arg-type]
    for text in moves:
        board.push_notation(text)
    return board


class Table:
    """The sensed board, a virtual clock and the referee; every event and every light is kept."""

    def __init__(
        self,
        board: Board | None = None,
        *,
        opponent_color: Color | None = None,
        config: RefereeConfig | None = None,
        sensed: int | None = None,
        start: float = 0.0,
    ) -> None:
        self.board = Board() if board is None else board
        self.t = start
        self.sensed = self.board.occupied if sensed is None else sensed
        self.referee = Referee(
            self.board,
            opponent_color=opponent_color,
            config=RefereeConfig() if config is None else config,
            now=start,
            sensed=sensed,
        )
        self.events: list[Event] = []
        self.thinking = False
        #: (time, lights by point name) after every call, for tests of what a person saw.
        self.history: list[tuple[float, dict[str, str]]] = []
        self._record([])

    # -- actions ------------------------------------------------------------------------------

    def _record(self, events: list[Event]) -> list[Event]:
        self.events += events
        self.history.append((self.t, self.lights()))
        return events

    def set(self, sensed: int) -> list[Event]:
        """The sensors now read ``sensed`` (a raw snapshot, bounce and all)."""
        self.sensed = sensed
        return self._record(self.referee.update(sensed, self.t))

    def place(self, name: str) -> list[Event]:
        """Put a piece on ``name``."""
        bit = mask(name)
        assert not self.sensed & bit, f"{name} is occupied"
        return self.set(self.sensed | bit)

    def lift(self, name: str) -> list[Event]:
        """Take the piece from ``name``."""
        bit = mask(name)
        assert self.sensed & bit, f"{name} is empty"
        return self.set(self.sensed & ~bit)

    def wait(self, seconds: float) -> list[Event]:
        """Let ``seconds`` pass, polling the referee at each deadline on the way."""
        end = self.t + seconds
        events: list[Event] = []
        for _ in range(10_000):
            due = self.referee.next_deadline()
            if due is None or due > end:
                break
            self.t = max(self.t, due)
            events += self._record(self.referee.poll(self.t))
        else:
            raise AssertionError("the referee keeps asking to be polled")
        self.t = end
        events += self._record(self.referee.poll(end))
        return events

    def flicker(self, name: str, length: float = 0.03) -> list[Event]:
        """A sensor reading that flips for ``length`` seconds and back (bounce, weak magnet)."""
        before = self.sensed
        events = self.set(before ^ mask(name))
        events += self.wait(length)
        events += self.set(before)
        return events

    def move(self, text: str, gap: float = 0.3, *, removal_first: bool = False) -> list[Event]:
        """Carry out a turn by hand: lift the origin, put it down, lift the removed piece.

        ``gap`` seconds pass between the actions; the turn is not waited out (see :meth:`play`).
        """
        move = Move.parse(text)
        steps: list[tuple[str, str]] = []
        if move.from_point is not None:
            steps.append(("lift", _name(move.from_point)))
        steps.append(("place", _name(move.to_point)))
        removals = [("lift", _name(point)) for point in move.removals]
        steps = [*removals, *steps] if removal_first else [*steps, *removals]
        events: list[Event] = []
        for i, (action, name) in enumerate(steps):
            if i:
                events += self.wait(gap)
            events += self.lift(name) if action == "lift" else self.place(name)
        return events

    def play(self, *texts: str, gap: float = 0.3) -> list[Event]:
        """Carry out each turn and wait until it is accepted."""
        events: list[Event] = []
        for text in texts:
            events += self.move(text, gap)
            events += self.wait(SETTLE)
        return events

    def takeback(self) -> list[Event]:
        """Press the takeback button."""
        return self._record(self.referee.takeback(self.t))

    def new_game(self, board: Board | None = None) -> list[Event]:
        """Press the new-game button."""
        return self._record(self.referee.new_game(self.t, board))

    def expect(self, text: str) -> list[Event]:
        """The Pi's search finished with ``text``."""
        self.thinking = False
        return self._record(self.referee.expect(Move.parse(text), self.t))

    def hint(self, text: str, duration: float = 4.0) -> list[Event]:
        """Press the hint button; the engine suggests ``text``."""
        return self._record(self.referee.hint(Move.parse(text), self.t, duration))

    # -- what a person sees ---------------------------------------------------------------------

    def lights(self) -> dict[str, str]:
        """The signal on each point, by name."""
        return {_name(p): light.value for p, light in compute_lights(self.referee, self.t).items()}

    def lit(self, signal: str | Signal) -> set[str]:
        """The points showing ``signal``."""
        value = signal.value if isinstance(signal, Signal) else signal
        return {name for name, shown in self.lights().items() if shown == value}

    def shown(self) -> dict[str, set[str]]:
        """Every signal but ``off``, with its points: ``{"on": {"d6"}, ...}``."""
        out: dict[str, set[str]] = {}
        for name, shown in self.lights().items():
            if shown != "off":
                out.setdefault(shown, set()).add(name)
        return out

    def status(self) -> dict[str, str]:
        """The status LEDs."""
        return {k.value: v.value for k, v in status_lights(self.referee, self.thinking).items()}

    # -- what happened --------------------------------------------------------------------------

    def accepted(self) -> list[str]:
        """Every accepted turn so far, in notation."""
        return [str(e.move) for e in self.events if isinstance(e, TurnAccepted)]

    def of(self, kind: type[Event]) -> list[Event]:
        """The events of one kind so far."""
        return [e for e in self.events if isinstance(e, kind)]

    def take(self) -> list[Event]:
        """The events so far, forgetting them."""
        events, self.events = self.events, []
        return events


def _name(point: int) -> str:
    return POINT_NAMES[point]


def position(white: str, black: str, turn: str = "w", hands: tuple[int, int] = (0, 0)) -> Board:
    """A board with pieces on the named points (space-separated), ``turn`` to move."""
    cells = ["."] * 24
    for p in _points_named(white):
        cells[p] = "W"
    for p in _points_named(black):
        cells[p] = "B"
    rings = "/".join("".join(cells[i : i + 8]) for i in (0, 8, 16))
    return Board(f"{rings} {turn} {hands[0]} {hands[1]} 0 20 -")


def _points_named(text: str) -> list[int]:
    return [parse_point(name) for name in text.split()]


#: White to move in the moving phase: g4-g7 closes a7-d7-g7; black's b2 d2 f2 stand in a mill,
#: so only c4 and e4 may be removed.
MILL_W = "a7 d7 g4 c5"
MILL_B = "b2 d2 f2 c4 e4"
