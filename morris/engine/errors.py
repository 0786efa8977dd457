"""The errors of the engine, under one root: :class:`EngineError`, itself a
:class:`~morris.core.MorrisError` (the rules core's root), so a caller can catch everything the
engine raises in one clause, or one family by its own base.

Each error is also the builtin it has always been, so ``except ValueError`` around a protocol
command or a table load, and ``except RuntimeError`` around an external engine, still catch it::

    EngineError (MorrisError)
    ├── ExternalEngineError (RuntimeError)   an external engine misbehaved (morris.engine.client)
    │   ├── EngineCrashed                    its process ended or closed its output
    │   └── EngineTimeout (TimeoutError)     it did not answer in time
    ├── ProtocolError (ValueError)           a protocol command or move list we cannot accept
    ├── TableError (ValueError)              an endgame table file or manifest is unusable
    └── SolutionError (ValueError)           a solved-game sector file is unusable, a build failed
"""

from __future__ import annotations

from morris.core.moves import MorrisError
from morris.i18n import Message, plain

__all__ = [
    "EngineCrashed",
    "EngineError",
    "EngineTimeout",
    "ExternalEngineError",
    "ProtocolError",
    "SolutionError",
    "TableError",
    "reason_of",
]


class EngineError(MorrisError):
    """Root of the errors the engine raises (search, protocol, tables, external engines)."""


class ExternalEngineError(EngineError, RuntimeError):
    """An external engine misbehaved: it crashed, timed out or answered something unusable."""


class EngineCrashed(ExternalEngineError):
    """The engine process ended (or closed its output)."""


class EngineTimeout(ExternalEngineError, TimeoutError):
    """The engine did not answer in time."""


class ProtocolError(EngineError, ValueError):
    """A command or move list the protocol cannot accept; the message says what is wrong."""


class TableError(EngineError, ValueError):
    """A table file or manifest is missing, corrupt or mismatched; the message names the file."""


class SolutionError(EngineError, ValueError):
    """A sector of the solved game is missing, damaged or mismatched, or its build failed; the
    message names the file or the sector."""


def reason_of(exc: BaseException) -> Message:
    """``exc``'s words as a message to put inside another: a :class:`MorrisError`'s own message
    (rendered in the reader's language), anything else's text as it is (an operating system's
    or a library's words are no catalog entry)."""
    return exc.message if isinstance(exc, MorrisError) else plain(str(exc))
