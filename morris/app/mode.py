"""The game modes: who the person at the board plays, if anyone.

A :class:`Mode` is a :class:`str` whose value is the word of the configuration file, the command
line (``--mode``), the saved game, the status file and the web page's JSON, so it is written and
read as that word everywhere; code compares members, never the words.

>>> Mode("vs-ai") is Mode.VS_AI
True
>>> print(Mode.REMOTE, f"{Mode.REFEREE}", Mode.VS_AI == "vs-ai")
remote referee True
>>> [mode.value for mode in Mode]
['vs-ai', 'referee', 'remote']
"""

from __future__ import annotations

import enum
import logging

logger = logging.getLogger(__name__)


class Mode(enum.StrEnum):
    """What is played at the board. The side the person at the board does not play is *the
    opponent*: the Pi in :attr:`VS_AI`, the remote player in :attr:`REMOTE`; :attr:`REFEREE` has
    none (two people play, the Pi checks the rules)."""

    #: A person plays the Pi (the engine).
    VS_AI = "vs-ai"
    #: Two people play at the board; the Pi referees.
    REFEREE = "referee"
    #: A person plays someone far away: a web page or a linked board (docs/WEB.md).
    REMOTE = "remote"

    @property
    def has_opponent(self) -> bool:
        """Whether the lights ask for the opponent's turns (every mode but :attr:`REFEREE`)."""
        return self is not Mode.REFEREE
