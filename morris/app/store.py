"""Keeping games across restarts: the unfinished game and the records of finished ones.

After every accepted turn the daemon saves the game to ``<state_dir>/game.json`` atomically (a
temporary file in the same directory, fsync, rename, fsync of the directory), so a power cut
leaves either the old or the new file, never half of one. A finished game is written as a game
record (see :mod:`morris.core.record`) to the games directory.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from morris.app.errors import StoreError
from morris.app.mode import Mode
from morris.core import Board, GameRecord, Move, find_variant, write_game
from morris.engine.levels import MAX_LEVEL, MIN_LEVEL

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1

#: Seconds after which a save's temporary file is taken as left by a save that was killed: a save
#: (write, fsync, rename) takes milliseconds, even on an SD card, so an older one is nobody's.
STALE_TEMPORARY = 10.0


@dataclass
class SavedGame:
    """An unfinished game and how it was being played."""

    board: Board
    mode: Mode = Mode.VS_AI
    human: str = "white"
    level: int = 5


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _root(board: Board) -> Board:
    root = board.copy()
    while root.move_stack:
        root.pop()
    return root


def encode_game(saved: SavedGame) -> str:
    """The saved game as JSON text."""
    board = saved.board
    data: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "variant": board.variant_name,
        "settings": board.settings(),
        "start": _root(board).position(),
        "moves": [str(m) for m in board.move_stack],
        "position": board.position(),
        "mode": saved.mode,
        "human": saved.human,
        "level": saved.level,
    }
    return json.dumps(data, indent=1) + "\n"


def decode_game(text: str, *, source: str = "<text>") -> SavedGame:
    """A saved game from JSON text. Raises :class:`StoreError` naming what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(f"{source}: not a saved game (bad JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        raise StoreError(f"{source}: not a saved game of format {FORMAT_VERSION}")
    try:
        cls = find_variant(str(data["variant"]))
        settings = data["settings"]
        if not isinstance(settings, dict):
            raise StoreError(f"{source}: settings must be a table")
        board = cls(
            str(data["start"]),
            flying=bool(settings.get("flying", cls.variant.flying)),
            threefold_repetition=bool(settings.get("threefold_repetition", True)),
            no_removal_limit=settings.get("no_removal_limit", 100),
            remove_from_mills=bool(settings.get("remove_from_mills", False)),
            double_mill_removes_two=bool(settings.get("double_mill_removes_two", False)),
        )
        for index, text_move in enumerate(data["moves"], start=1):
            move = Move.parse(str(text_move))
            reason = board.illegal_reason(move)
            if reason is not None:
                raise StoreError(f"{source}: move {index} ({text_move}) is illegal: {reason}")
            board.push(move)
        if "position" in data and board.position() != data["position"]:
            raise StoreError(f"{source}: the moves do not lead to the saved position")
        return SavedGame(
            board=board,
            mode=Mode(str(data.get("mode", Mode.VS_AI))),
            human=str(data.get("human", "white")),
            level=_known_level(int(data.get("level", 5)), source),
        )
    except KeyError as exc:
        raise StoreError(f"{source}: missing field {exc}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"{source}: {exc}") from None


def _known_level(level: int, source: str) -> int:
    """A saved level within today's levels: one saved above the top (levels were once 1-10)
    resumes at the top; the game is worth more than the number."""
    if MIN_LEVEL <= level <= MAX_LEVEL:
        return level
    known = min(max(level, MIN_LEVEL), MAX_LEVEL)
    logger.warning("%s: level %d does not exist, the game goes on at %d", source, level, known)
    return known


class GameStore:
    """The state directory (unfinished game) and the games directory (finished games)."""

    def __init__(self, state_dir: Path, games_dir: Path | None = None) -> None:
        self.state_dir = Path(state_dir)
        self.games_dir = Path(games_dir) if games_dir is not None else self.state_dir / "games"

    @property
    def current_path(self) -> Path:
        """The file of the unfinished game."""
        return self.state_dir / "game.json"

    def save(self, saved: SavedGame) -> None:
        """Save the unfinished game atomically."""
        atomic_write(self.current_path, encode_game(saved))
        # A restart soon after a kill finds the killed save's temporary still young; the next
        # save sweeps it.
        self.clean_temporaries()

    def load(self) -> SavedGame | None:
        """The unfinished game, or ``None`` if there is none.

        A file that cannot be read or decoded is moved aside (``game.json.bad``, then
        ``game.json.bad.2`` and so on: every one is kept) with a warning, so that a damaged file
        never stops the board from starting and the next save never overwrites the evidence.
        Temporaries left by a save that was killed are removed first.
        """
        self.clean_temporaries()
        path = self.current_path
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            problem = "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc
            self._move_aside(f"cannot read the saved game {path}: {problem}")
            return None
        try:
            return decode_game(text, source=str(path))
        except StoreError as exc:
            self._move_aside(str(exc))
            return None

    def _move_aside(self, problem: str) -> None:
        """Keep the unreadable game file under the first free ``.bad`` name, saying so."""
        path = self.current_path
        aside = first_free(
            path.with_name(path.name + ".bad"), lambda n: path.with_name(f"{path.name}.bad.{n}")
        )
        try:
            os.replace(path, aside)
        except OSError as exc:
            logger.error(
                "%s; cannot move it aside to %s (%s): the next save replaces it",
                problem,
                aside,
                exc,
            )
            return
        logger.warning("%s; moved it to %s and starting a new game", problem, aside)

    def clean_temporaries(self, *, now: float | None = None) -> list[Path]:
        """Remove what saves killed halfway left behind; return the paths removed.

        Only :func:`atomic_write`'s own temporaries of ``game.json`` in the state directory, and
        only those older than :data:`STALE_TEMPORARY` seconds (a save in progress is younger).
        """
        moment = time.time() if now is None else now
        pattern = re.compile(rf"\.{re.escape(self.current_path.name)}\.[A-Za-z0-9_]+\.tmp")
        removed: list[Path] = []
        try:
            entries = list(os.scandir(self.state_dir))
        except OSError:
            return removed
        for entry in entries:
            if not pattern.fullmatch(entry.name) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                if moment - entry.stat(follow_symlinks=False).st_mtime < STALE_TEMPORARY:
                    continue
                os.unlink(entry.path)
            except OSError as exc:
                logger.warning("cannot remove the stale temporary %s: %s", entry.path, exc)
                continue
            logger.info("removed %s, left by a save that was interrupted", entry.path)
            removed.append(Path(entry.path))
        return removed

    def clear(self) -> None:
        """Forget the unfinished game."""
        self.current_path.unlink(missing_ok=True)

    def finish(
        self,
        board: Board,
        *,
        white: str,
        black: str,
        now: datetime | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> Path:
        """Save a finished (or abandoned: result ``*``) game as a game record; return its path.

        ``tags`` are added to the record's (a puzzle's ``Event`` and ``Puzzle``, say).
        """
        when = now or datetime.now()
        record = GameRecord.from_board(
            board,
            **{
                "Event": "Game on the board",
                "Date": when.strftime("%Y.%m.%d"),
                "White": white,
                "Black": black,
                **(tags or {}),
            },
        )
        stem = f"{when:%Y%m%d-%H%M%S}-{_slug(white)}-vs-{_slug(black)}"
        path = first_free(
            self.games_dir / f"{stem}.txt", lambda n: self.games_dir / f"{stem}-{n}.txt"
        )
        atomic_write(path, write_game(record))
        logger.info("game saved as %s", path)
        return path


def first_free(first: Path, numbered: Callable[[int], Path]) -> Path:
    """``first`` if no file (nor link) has that name, else the first free of ``numbered(2)``,
    ``numbered(3)`` ...: so nothing kept is ever overwritten."""
    path, number = first, 1
    while path.exists() or path.is_symlink():
        number += 1
        path = numbered(number)
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "player"
