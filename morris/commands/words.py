"""The command line's own words: argparse's texts in the board's language, and how a command
says an error or a warning.

``morris`` chooses its language before it builds its parser (:func:`morris.cli.main`), so every
``help=`` and ``description=`` (marked with :func:`morris.i18n._` in the command modules) is
translated as the parser is made. What argparse writes itself ("usage:", "options", "show this
help message and exit", "the following arguments are required: %s", ...) it looks up at call time
through the ``_`` and ``ngettext`` it imported from :mod:`gettext` into its own module;
:func:`translate_argparse` points those two names at the board's catalogs. The message ids are
argparse's own (Python 3.11's ``Lib/argparse.py``): :data:`ARGPARSE_MESSAGES` lists them, so the
extraction puts them into our catalogs, where they are translated like any other text. A message
of a later Python that no catalog has stays English (gettext returns the id); the ones left out
here are argparse's errors for a program's own mistakes (a conflicting option string, a ``dest=``
missing), which a user never meets.

A command's error goes to stderr as ``morris: <text>`` (:func:`error`), its warning as
``morris: warning: <text>`` (:func:`warning`); ``<text>`` is already translated by the caller
(``_("cannot create the state directory {path}: {reason}").format(...)``). Exit codes are the
commands' own (2 for usage, as argparse's).
"""

from __future__ import annotations

import argparse
import sys

from morris.app.narration import VARIANT_SUMMARIES
from morris.core import VARIANT_NAMES, Rules
from morris.i18n import N_, _, ngettext

__all__ = [
    "ARGPARSE_MESSAGES",
    "argparse_plurals",
    "either",
    "error",
    "notice_once",
    "rules_text",
    "translate_argparse",
    "variants_help",
    "warning",
]

#: argparse's own message ids (Python 3.11), as it looks them up with ``gettext``; listed here
#: so that the extraction finds them. Their ``%s``/``%(name)s`` placeholders are argparse's.
ARGPARSE_MESSAGES: tuple[str, ...] = (
    # TRANSLATORS: argparse's heading of the usage line; keep the space at the end.
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    # TRANSLATORS: argparse's error line: the program's name, then the error. Keep the "\n".
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    # TRANSLATORS: %(type)s is the name of a Python type or function ("int", "float").
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def argparse_plurals(n: int) -> tuple[str, ...]:
    """argparse's messages with a number (``nargs=N``: "expected %s arguments"), in the board's
    language for ``n``; the ``ngettext`` calls are here so that the extraction finds them."""
    return (ngettext("expected %s argument", "expected %s arguments", n),)


def _argparse_gettext(message: str | None) -> str | None:
    # argparse passes None for a subparsers group's missing description.
    return None if message is None else _(message)


def translate_argparse() -> None:
    """Make argparse write its own texts in the board's language (:func:`morris.i18n.language`,
    looked up each time argparse writes one). argparse keeps ``gettext``'s ``_`` and
    ``ngettext`` as names of its module, read when a text is written; this sets the two to the
    board's catalogs (idempotent). Other programs in the process use argparse in the board's
    language too, which is English unless ``morris`` chose another."""
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def error(text: str, command: str = "morris") -> None:
    """Say ``text`` (translated) on stderr as ``morris: <text>``, or ``<command>: <text>``
    (``morris reload``)."""
    print(f"{command}: {text}", file=sys.stderr, flush=True)


def warning(text: str) -> None:
    """Say ``text`` (translated) on stderr as ``morris: warning: <text>``, in the board's
    language."""
    # TRANSLATORS: a warning on the command line, after "morris: ".
    print("morris: " + _("warning: {warning}").format(warning=text), file=sys.stderr, flush=True)


_said: set[str] = set()


def notice_once(text: str) -> None:
    """Say ``text`` on stderr as ``morris: <text>`` once in a run of ``morris``: the language's
    warning, which the command line says as it chooses the language before parsing and a
    command may find again when it loads its configuration."""
    if text not in _said:
        _said.add(text)
        error(text)


def forget_notices() -> None:
    """Start a new run of ``morris`` (:func:`morris.cli.main`): :func:`notice_once` says
    everything again."""
    _said.clear()


def variants_help() -> str:
    """The variants' names (what ``--variant`` takes, the same in every language) with their
    summaries in the board's language, for help texts: ``"standard" (Mühle), ...``."""
    return either([f'"{name}" ({_(VARIANT_SUMMARIES[name])})' for name in VARIANT_NAMES])


def either(items: list[str]) -> str:
    """``items`` as alternatives in the board's language: ``a``, ``a or b``, ``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: alternatives: "{choices}" is the first ones joined by ", ", then the last.
    return _("{choices} or {last}").format(choices=", ".join(items[:-1]), last=items[-1])


def rules_text(rules: Rules) -> str:
    """The variant and its settings in a line, in the board's language: the translation of
    :func:`morris.core.describe_rules` ("Nine men's morris, flying on")."""
    from morris.app.narration import variant_title

    parts = [
        variant_title(rules.name).render(),
        _("flying on") if rules.flying else _("flying off"),
    ]
    if rules.remove_from_mills:
        parts.append(_("removal from mills"))
    if rules.double_mill_removes_two:
        parts.append(_("a double mill removes two"))
    return ", ".join(parts)
