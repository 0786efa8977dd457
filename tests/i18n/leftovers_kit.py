"""What of the English catalog is left in a text shown in another language.

Every screen, page and message rendered in Dutch, Finnish or German is checked with
:func:`english_left_in`: the English catalog's texts are cut at their placeholders into pieces,
and a piece of two words or more found in the text (word for word, case as written) is English
left in. A message of one word (a button's "Cancel", a panel's "Moves") counts too when it is
four letters or more and no translation of the language has that word (so a name such as
"Morabaraba", or "Pi", is no leftover).
"""

from __future__ import annotations

import functools
import re

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from tests.i18n.test_catalogs import LOCALE

WORD = re.compile(r"[A-Za-z']+")


@functools.cache
def _catalog(code: str) -> Catalog:
    with (LOCALE / code / "LC_MESSAGES" / "morris.po").open("rb") as po:
        return read_po(po, locale=code)


def _forms(string: object) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, tuple) else (str(string),)  # type: ignore[arg-type]


@functools.cache
def english_pieces() -> frozenset[str]:
    """The English catalog's texts cut at their placeholders: each piece of two words or more,
    its words joined by one space."""
    pieces = set()
    for message in _catalog("en"):
        if not message.id:
            continue
        for form in _forms(message.string):
            for piece in re.split(r"\{[^}]*\}", form):
                words = WORD.findall(piece)
                if len(words) >= 2:
                    pieces.add(" ".join(words))
    return frozenset(pieces)


@functools.cache
def english_words(code: str) -> frozenset[str]:
    """The English catalog's one-word messages (four letters or more) that no translation of
    ``code`` holds as a word."""
    theirs = set()
    for message in _catalog(code):
        for form in _forms(message.string):
            theirs.update(WORD.findall(form))
    words = set()
    for message in _catalog("en"):
        for form in _forms(message.string):
            found = WORD.findall(re.sub(r"\{[^}]*\}", " ", form))
            if len(found) == 1 and len(found[0]) >= 4 and found[0] not in theirs:
                words.add(found[0])
    return frozenset(words)


def english_left_in(text: str, code: str, *, also: frozenset[str] = frozenset()) -> list[str]:
    """The English catalog's pieces and words (and ``also``'s) found in ``text``, which is
    shown in ``code``; empty when none is."""
    words = " ".join(WORD.findall(text))
    found = [
        piece
        for piece in sorted(english_pieces() | english_words(code) | also)
        if re.search(rf"(?<![A-Za-z']){re.escape(piece)}(?![A-Za-z'])", words)
    ]
    return found
