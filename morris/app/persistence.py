"""The controller's games on disk: the unfinished game after every turn, the finished record
once, a game left for a new one kept as a record, and the saved game taken up again on start.

:class:`GameKeeper` does the writing for the controller (a failed write is logged, never
raised: the game on the board goes on); :func:`resume` decides whether a saved game is taken up
or kept aside because the settings asked for contradict it. The files themselves are
:mod:`morris.app.store`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from morris.app.config import Config, board_from_config
from morris.app.mode import Mode
from morris.app.narration import who_plays
from morris.app.store import GameStore, SavedGame
from morris.core import Board
from morris.i18n import Message, msg

logger = logging.getLogger(__name__)


def asked_settings(overrides: Mapping[str, object]) -> frozenset[str]:
    """The ``[game]`` settings a command line gave (the ``game_*`` arguments of
    :meth:`Config.with_overrides` that are not ``None``): what a resumed game must not contradict.

    >>> sorted(asked_settings({"game_mode": "vs-ai", "game_level": None, "engine_seed": 3}))
    ['mode']
    """
    return frozenset(
        key.removeprefix("game_")
        for key, value in overrides.items()
        if key.startswith("game_") and value is not None
    )


def player_names(mode: Mode, human: str, level: int) -> tuple[str, str]:
    """The White and Black tags of a game record of a game played so.

    >>> player_names(Mode.VS_AI, "black", 3)
    ('morris level 3', 'Player')
    """
    if mode is Mode.REFEREE:
        return "White", "Black"
    if mode is Mode.REMOTE:
        return ("Player", "Remote") if human == "white" else ("Remote", "Player")
    pi = f"morris level {level}"
    return ("Player", pi) if human == "white" else (pi, "Player")


def _flag(name: str, value: object) -> str:
    """A setting as a person types it on the command line (``--mode vs-ai``, ``--no-flying``)."""
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    return f"--{flag} {value}"


class GameKeeper:
    """Writes the controller's games to ``store`` (``None``: nothing is kept, and that is no
    failure)."""

    def __init__(self, store: GameStore | None) -> None:
        self.store = store
        self._finished_saved = False

    def save(self, board: Board, mode: Mode, human: str, level: int) -> bool:
        """Save the unfinished game; ``False`` if it could not be (logged)."""
        if self.store is None or board.outcome() is not None:
            return True
        try:
            self.store.save(SavedGame(board, mode, human, level))
        except OSError as exc:
            logger.error("could not save the game in %s: %s", self.store.state_dir, exc)
            return False
        return True

    def save_finished(
        self, board: Board, mode: Mode, human: str, level: int, tags: Mapping[str, str]
    ) -> None:
        """Keep the game that just ended among the finished ones, once, and forget it as the
        unfinished one."""
        if self.store is None or self._finished_saved:
            return
        self._finished_saved = True
        white, black = player_names(mode, human, level)
        try:
            self.store.finish(board, white=white, black=black, tags=dict(tags))
            self.store.clear()
        except OSError as exc:
            logger.error("could not save the finished game: %s", exc)

    def restart(self, *, clear: bool) -> None:
        """Another game starts (a new one, or a position set up): its end is saved once again;
        ``clear`` forgets the unfinished game on disk."""
        self._finished_saved = False
        if clear and self.store is not None:
            self.store.clear()

    def keep_abandoned(
        self, board: Board, mode: Mode, human: str, level: int, tags: Mapping[str, str]
    ) -> Path | None:
        """Keep the game in progress (turns played, not over) among the finished games, result
        ``*``, and forget it as the unfinished one: before a new game replaces it. Returns the
        record's path, or ``None`` (nothing to keep, no store, or the record could not be
        written: logged)."""
        if self.store is None or not board.move_stack or board.outcome() is not None:
            return None
        white, black = player_names(mode, human, level)
        try:
            path = self.store.finish(board, white=white, black=black, tags=dict(tags))
            self.store.clear()
        except OSError as exc:
            logger.error("could not keep the game left for a new one: %s", exc)
            return None
        logger.info("the game left at turn %d is kept as %s", board.fullmove_number, path)
        return path

    def keep_saved(self, saved: SavedGame) -> Path | None:
        """Keep ``saved`` as a record (a saved game the settings contradict); ``None`` when it
        could not be (logged)."""
        assert self.store is not None
        white, black = player_names(saved.mode, saved.human, saved.level)
        try:
            path = self.store.finish(saved.board, white=white, black=black)
            self.store.clear()
        except OSError as exc:
            logger.error("could not keep the saved game as a record: %s", exc)
            return None
        return path


@dataclass(frozen=True)
class Resumption:
    """What :func:`resume` decided: the game to play (``board`` ``None``: a new one, from the
    configuration), how it is played, and the event line that says so."""

    board: Board | None
    mode: Mode
    human: str
    level: int
    event: Message


def resume(
    saved: SavedGame, config: Config, insist: frozenset[str], keeper: GameKeeper
) -> Resumption:
    """Resume ``saved``, or keep it as a record when the settings asked for (``insist``: the
    names of ``config.game`` settings given on the command line) contradict it.

    A different level is taken into the resumed game (the mode button changes it mid-game
    too); a different mode, colour, variant or flying rule needs another game: the saved one
    is kept among the finished games (result ``*``) and a new one starts. Either way the
    event line and the log say which happened and why.
    """
    game = config.game
    board = saved.board
    fresh = board_from_config(config)
    asked = {
        "mode": (saved.mode, game.mode),
        "human": (saved.human, game.human) if Mode.VS_AI in (saved.mode, game.mode) else None,
        "variant": (board.variant_name, fresh.variant_name),
        "flying": (board.flying, fresh.flying),
        "remove_from_mills": (board.remove_from_mills, fresh.remove_from_mills),
        "double_mill_removes_two": (
            board.double_mill_removes_two,
            fresh.double_mill_removes_two,
        ),
    }
    clash = []
    for name, pair in asked.items():
        if name in insist and pair is not None and pair[0] != pair[1]:
            old, new = pair
            clash.append(f"{_flag(name, new)} (saved: {_flag(name, old)})")
    turn = board.fullmove_number
    if clash:
        kept = keeper.keep_saved(saved)
        settings = ", ".join(clash)
        event = (
            msg(
                "new game: {settings}; the saved game at turn {turn} is kept as {name}",
                settings=settings,
                turn=turn,
                name=kept.name,
            )
            if kept is not None
            else msg(
                "new game: {settings}; the saved game at turn {turn} is kept",
                settings=settings,
                turn=turn,
            )
        )
        logger.warning("%s", event.render("en"))
        return Resumption(None, game.mode, game.human, game.level, event)
    mode, human, level = saved.mode, saved.human, saved.level
    who = who_plays(mode, human, level)
    event = msg("resumed the saved game at turn {turn}: {who}", turn=turn, who=who)
    if "level" in insist and game.level != saved.level and mode is Mode.VS_AI:
        level = game.level
        event = msg(
            "resumed the saved game at turn {turn}: {who} (level {level} as asked; it was "
            "saved at level {saved})",
            turn=turn,
            who=who_plays(mode, human, level),
            level=game.level,
            saved=saved.level,
        )
    logger.warning("%s; position %s", event.render("en"), board.position())
    return Resumption(board, mode, human, level, event)
