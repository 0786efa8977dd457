"""The saved game records the companion lists (``GET /api/games``) and serves by id.

An id is a record's file name without ``.txt``; a request's id is only ever looked up among the
listed ones, never turned into a path.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from morris.core import GameRecordError, read_game

logger = logging.getLogger(__name__)

#: The most records listed (the newest).
MAX_GAMES = 500
#: Records larger than this are not served (a game record is a few KiB).
MAX_RECORD_BYTES = 1024 * 1024


class GameList:
    """The game records in ``games_dir`` (``None``: no games are kept, e.g. ``--no-save``)."""

    def __init__(self, games_dir: Path | None) -> None:
        self.games_dir = games_dir

    def _files(self) -> dict[str, Path]:
        """id -> path of every record, newest first."""
        if self.games_dir is None:
            return {}
        try:
            entries = [
                entry
                for entry in os.scandir(self.games_dir)
                if entry.name.endswith(".txt") and entry.is_file(follow_symlinks=False)
            ]
        except OSError:
            return {}
        entries.sort(key=lambda e: e.name, reverse=True)
        return {e.name.removesuffix(".txt"): Path(e.path) for e in entries[:MAX_GAMES]}

    def listing(self) -> list[dict[str, Any]]:
        """Every record: ``id``, ``tags``, ``result``, ``date`` (and ``moves``, their number);
        a record that cannot be read is listed with its ``error``."""
        games = []
        for game_id, path in self._files().items():
            entry: dict[str, Any] = {"id": game_id}
            try:
                record = read_game(self._read(path))
            except (OSError, UnicodeDecodeError, GameRecordError, ValueError) as exc:
                entry.update(tags={}, result="*", date=None, error=str(exc))
            else:
                entry.update(
                    tags=dict(record.tags),
                    result=record.result,
                    date=record.tags.get("Date"),
                    moves=len(record.moves),
                )
            games.append(entry)
        return games

    def text(self, game_id: str) -> str | None:
        """The record with id ``game_id``, or ``None`` if none is listed so."""
        path = self._files().get(game_id)
        if path is None:
            return None
        try:
            return self._read(path)
        except (OSError, UnicodeDecodeError) as exc:
            logger.warning("cannot read the game record %s: %s", path, exc)
            return None

    @staticmethod
    def _read(path: Path) -> str:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise ValueError(f"{path.name} is over {MAX_RECORD_BYTES} bytes")
        return path.read_text(encoding="utf-8")
