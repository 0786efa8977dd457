"""What the board tells its players, as messages of the catalogs (:mod:`morris.i18n`).

The controller's event line is a :class:`~morris.i18n.Message` rendered in the board's language
(and by a page in its reader's); the words of the game that several texts share are here: the
colours, why a game ended, the variants' names. What is said aloud is an :class:`Announcement`:
a message made to be heard (``"Pi plays d6, take a1"`` rather than the notation ``d6xa1``) and
its :class:`Kind`, whose rank decides which announcement may cut another
(:mod:`morris.app.speech`).

:func:`narrate` words what the referee reports: the events say who moved (the person at the
board, or the opponent), and the mode says who the opponent is: "Pi played d6" against the Pi,
"remote played d6" against a remote player.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from morris.app.mode import Mode
from morris.core import (
    BLACK,
    POINT_NAMES,
    VARIANT_NAMES,
    WHITE,
    Board,
    Color,
    Move,
    Outcome,
    Termination,
)
from morris.i18n import N_, Message, joined, msg, nmsg
from morris.referee import (
    Event,
    Flagged,
    GameOver,
    IllegalRemoval,
    MillClosed,
    NewGame,
    Resolved,
    SetUp,
    SetUpDone,
    TakenBack,
    TurnAccepted,
)

#: The colours as the texts name them (a noun: "white to move", "Weiß ist am Zug").
COLOUR_WORDS: dict[Color, str] = {WHITE: N_("white"), BLACK: N_("black")}

#: Why a game ended, in words (the termination's value is the snapshot's machine field).
TERMINATION_WORDS: dict[Termination, str] = {
    Termination.BLOCKED: N_("no move left"),
    Termination.TOO_FEW_PIECES: N_("too few pieces"),
    Termination.THREEFOLD_REPETITION: N_("threefold repetition"),
    Termination.NO_REMOVAL: N_("too long without a mill"),
    Termination.FULL_BOARD: N_("the board is full"),
}

#: The variants' names (:attr:`morris.core.variant.Variant.title`, the same English words:
#: tests/i18n checks them against the core's).
VARIANT_TITLES: dict[str, str] = {
    "standard": N_("Nine men's morris"),
    "twelve": N_("Twelve men's morris"),
    "morabaraba": N_("Morabaraba"),
    "lasker": N_("Lasker morris"),
    "six": N_("Six men's morris"),
}
assert set(VARIANT_TITLES) == set(VARIANT_NAMES), "a variant without its name in the catalogs"

#: What each variant is, in a few words (:attr:`morris.core.rules.Rules.summary`, the same
#: English words: tests/i18n checks them against the core's), for the simulator's new-game
#: dialog and the help of ``--variant``.
VARIANT_SUMMARIES: dict[str, str] = {
    "standard": N_("nine men's morris"),
    "twelve": N_("twelve men's morris, diagonal lines"),
    "morabaraba": N_("12 pieces, diagonal lines, no straight return into a mill"),
    "lasker": N_("10 pieces, may move instead of placing"),
    "six": N_("6 pieces on the middle and inner squares"),
}
assert set(VARIANT_SUMMARIES) == set(VARIANT_NAMES), "a variant without its summary here"


def colour(color: Color) -> Message:
    """The colour's word."""
    return msg(COLOUR_WORDS[color])


def termination(why: Termination) -> Message:
    """Why the game ended, in words."""
    return msg(TERMINATION_WORDS[why])


def variant_title(name: str) -> Message:
    """The variant's name."""
    return msg(VARIANT_TITLES[name])


def points(names: list[str] | tuple[str, ...]) -> str:
    """Point names as the texts list them: ``"a1 d7"`` (the same in every language)."""
    return " ".join(names)


class Kind(enum.Enum):
    """What an announcement is about, with its rank: a newer announcement cuts one being said
    (or waiting) of a lower rank; one of the same or a higher rank is said first
    (:class:`morris.app.speech.SpeechQueue`)."""

    #: The board matches the game again, a position is set up, the board link is back.
    FIXED = ("fixed", 1)
    #: A hint's suggestion.
    HINT = ("hint", 2)
    #: Turns taken back.
    TAKEBACK = ("takeback", 2)
    #: A mill in referee mode and what may be taken.
    MILL = ("mill", 3)
    #: The Pi's turn, or the remote player's: what to carry out on the board.
    TURN = ("turn", 3)
    #: A puzzle's task, and how it went.
    PUZZLE = ("puzzle", 3)
    #: The board does not match the game (a mistake to fix), a piece that may not be taken.
    MISTAKE = ("mistake", 4)
    #: The end of the game and its result.
    GAME_OVER = ("game over", 5)

    def __init__(self, label: str, rank: int) -> None:
        self.label = label
        self.rank = rank


@dataclass(frozen=True)
class Announcement:
    """A thing to say aloud: its kind (and so its rank) and the message, in the game's
    language when it is said."""

    kind: Kind
    message: Message

    @property
    def rank(self) -> int:
        """The rank of its :class:`Kind`."""
        return self.kind.rank


def spoken_turn(move: Move) -> Message:
    """A turn as it is said: ``"b4"``, ``"a1 to a4"``, and what it takes (``"b4, take a1"``)."""
    to = POINT_NAMES[move.to_point]
    if move.from_point is None:
        action = Message(to, translate=False)  # a placement: the point's name
    else:
        action = msg("{origin} to {to}", origin=POINT_NAMES[move.from_point], to=to)
    removals = [POINT_NAMES[p] for p in move.removals]
    if not removals:
        return action
    if len(removals) == 1:
        return msg("{action}, take {point}", action=action, point=removals[0])
    return msg(
        "{action}, take {first} and {second}", action=action, first=removals[0], second=removals[1]
    )


def who_plays(mode: Mode, human: str, level: int) -> Message:
    """Who plays at the board: "two players", "person plays white against level 3" ..."""
    if mode is Mode.REFEREE:
        return msg("two players")
    person = colour(WHITE if human == "white" else BLACK)
    if mode is Mode.REMOTE:
        return msg("person plays {colour} against a remote player", colour=person)
    return msg("person plays {colour} against level {level}", colour=person, level=level)


def opponent_plays(move: Move, mode: Mode) -> Message:
    """The event line of the opponent's chosen turn, shown on the board to carry out."""
    if mode is Mode.REMOTE:
        return msg("remote plays {move}", move=move)
    return msg("Pi plays {move}", move=move)


def opponent_turn(move: Move, mode: Mode) -> Announcement:
    """The opponent's chosen turn as it is said, to carry out on the board."""
    if mode is Mode.REMOTE:
        return Announcement(
            Kind.TURN, msg("the remote player plays {turn}", turn=spoken_turn(move))
        )
    return Announcement(Kind.TURN, msg("Pi plays {turn}", turn=spoken_turn(move)))


def turn_played(event: TurnAccepted, mode: Mode) -> Message:
    """The event line of a turn that is now part of the game: the opponent's (the Pi's or the
    remote player's), or by colour."""
    if event.by_opponent:
        if mode is Mode.REMOTE:
            return msg("remote played {move}", move=event.move)
        return msg("Pi played {move}", move=event.move)
    if event.color == WHITE:
        return msg("white played {move}", move=event.move)
    return msg("black played {move}", move=event.move)


def hint_announcement(move: Move) -> Announcement:
    """A hint's suggestion."""
    return Announcement(Kind.HINT, msg("hint: {turn}", turn=spoken_turn(move)))


def _spoken_points(mask: int) -> str:
    return ", ".join(POINT_NAMES[p] for p in range(len(POINT_NAMES)) if mask >> p & 1)


def mill_announcement(event: MillClosed) -> Announcement:
    """A mill in referee mode, and what it may take (the points, when there are few)."""
    count = event.removable.bit_count()
    if event.removals == 2:
        message = msg("double mill: take two pieces")
    elif count <= 3:
        message = nmsg(
            "mill: take the piece on {points}",
            "mill: take a piece from {points}",
            count,
            points=_spoken_points(event.removable),
        )
    else:
        message = msg("mill: take a piece")
    return Announcement(Kind.MILL, message)


def mismatch_announcement(event: Flagged) -> Announcement:
    """The board does not match: which pieces are missing, which are too many."""
    parts = []
    missing, unexpected = event.missing.bit_count(), event.unexpected.bit_count()
    if missing:
        parts.append(
            nmsg(
                "a piece is missing on {points}",
                "pieces are missing on {points}",
                missing,
                points=_spoken_points(event.missing),
            )
        )
    if unexpected:
        parts.append(
            nmsg(
                "take away the piece on {points}",
                "take away the pieces on {points}",
                unexpected,
                points=_spoken_points(event.unexpected),
            )
        )
    if not parts:
        return Announcement(Kind.MISTAKE, msg("the board does not match the game"))
    return Announcement(Kind.MISTAKE, joined(parts, ", "))


def outcome_announcement(outcome: Outcome) -> Announcement:
    """The end of the game and its result."""
    why = termination(outcome.termination)
    if outcome.winner is None:
        message = msg("game over: a draw, {why}", why=why)
    elif outcome.winner == WHITE:
        message = msg("game over: white wins, {why}", why=why)
    else:
        message = msg("game over: black wins, {why}", why=why)
    return Announcement(Kind.GAME_OVER, message)


def narrate(event: Event, mode: Mode, board: Board) -> tuple[Message | None, Announcement | None]:
    """What the event line says of ``event`` (``None``: it says nothing new) and what is said
    aloud (``None``: nothing), in ``mode``, with ``board`` the game after the event."""
    if isinstance(event, TurnAccepted):
        return turn_played(event, mode), None
    if isinstance(event, SetUp):
        line = msg(
            "set up a position: put a piece where a light is on, take away the pieces blinking fast"
        )
        return line, None
    if isinstance(event, SetUpDone):
        line = msg("position set up: {side} to move", side=colour(board.turn))
        return line, Announcement(Kind.FIXED, line)
    if isinstance(event, TakenBack):
        taken = [str(m) for m in event.moves]
        said = nmsg("{n} turn taken back", "{n} turns taken back", len(taken))
        return msg("took back {moves}", moves=points(taken)), Announcement(Kind.TAKEBACK, said)
    if isinstance(event, NewGame):
        return msg("new game"), None
    if isinstance(event, GameOver):
        outcome = event.outcome
        line = msg(
            "game over: {result} ({why})",
            result=outcome.result(),
            why=termination(outcome.termination),
        )
        return line, outcome_announcement(outcome)
    if isinstance(event, MillClosed):
        if event.removals == 2:
            line = msg("double mill with {move}: remove two pieces", move=event.action)
        else:
            line = msg("mill with {move}: remove a piece", move=event.action)
        return line, mill_announcement(event) if mode is Mode.REFEREE else None
    if isinstance(event, Flagged):
        return msg("board does not match: {reason}", reason=event.reason), mismatch_announcement(
            event
        )
    if isinstance(event, IllegalRemoval):
        line = msg("{point} may not be removed", point=POINT_NAMES[event.point])
        return line, Announcement(Kind.MISTAKE, line)
    if isinstance(event, Resolved):
        line = msg("board matches again")
        return line, Announcement(Kind.FIXED, line)
    return None, None
