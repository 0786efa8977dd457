"""Errors of the app layers (``morris.app``, ``morris.daemon``, ``morris.sim``, ``morris.tui``,
``morris.web``).

One root, :class:`ServiceError`, and one leaf per failure a person sees; each leaf also inherits
the builtin it is (``ValueError`` for bad input, ``RuntimeError`` for a failure), and its message
names the file, key or input at fault. The commands turn them into a message and exit code 2.

An error a person reads is raised with a :class:`~morris.i18n.Message` (``raise
ConfigError(msg("{source}: not valid TOML: {problem}", ...))``): ``str(error)`` is its text in
the board's language, :attr:`ServiceError.message` the message to render in another (a page's
reader's, the journal's English).
"""

from __future__ import annotations

from morris.i18n import Message, plain


class ServiceError(Exception):
    """Root of the errors raised by the app layers."""

    @property
    def message(self) -> Message:
        """The error's words as a message of the catalogs (an error raised with plain text:
        that text, the same in every language).

        >>> from morris.i18n import msg
        >>> error = ServiceError(msg("{source}: not valid TOML: {problem}", source="a.toml",
        ...                          problem="x"))
        >>> str(error), error.message.render("de")
        ('a.toml: not valid TOML: x', 'a.toml: kein gültiges TOML: x')
        """
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return self.args[0]
        return plain(str(self))


class ConfigError(ServiceError, ValueError):
    """A configuration file or flag that cannot be used; the message names the key."""


class StoreError(ServiceError, ValueError):
    """A saved game that cannot be read; the message names the file and the problem."""


class ReviewError(ServiceError, ValueError):
    """A game record that cannot be reviewed (or a review that was stopped); the message says
    why."""


class StatusFileError(ServiceError, ValueError):
    """The daemon's status file is missing, unreadable or not in the expected format."""


class InstallError(ServiceError, RuntimeError):
    """Installing or removing the system service failed, or is not allowed (not root)."""


class HardwareUnavailable(ServiceError, RuntimeError):
    """The configured hardware cannot be opened; the message says what to do instead."""


class DeviceFailed(ServiceError, RuntimeError):
    """The board device stopped working while the daemon ran (its runner failed)."""


class InputError(ServiceError, ValueError):
    """Input a front end cannot carry out (a line typed into the terminal simulator, a point or
    a move sent by the web page); the message says why."""


class NotNowError(InputError):
    """A well-formed command the game cannot take now: a remote turn out of turn, in another mode
    or after the game; the message says why (the web companion answers 409)."""
