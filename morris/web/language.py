"""The page's language: chosen per request, and the page's own texts from the catalogs.

A page reads the language of its reader, not the board's: each request's language is
:func:`request_language` (the page's ``?lang=``, else the ``morris_lang`` cookie the page's selector
sets, else the browser's ``Accept-Language`` with its q-values, else English). Everything the server
renders for that request (the state's event line, the announcements said aloud) is rendered in it.

The page's own texts are the table in ``static/strings.js``: each English text marked ``N_("...")``
or, with a number, ``NP_("{n} hint", "{n} hints")`` for Babel's javascript extractor
(``[tool.babel]`` in ``pyproject.toml``), so they are message ids of the same catalogs.
:class:`PageCatalogs` extracts them once from the page's scripts with that same extractor and
hands a page its language's translations (:meth:`PageCatalogs.catalog`) as JSON: each message id
with its text, each plural message with its forms, and the catalog's plural rule as a table of
form numbers (the page's scripts may not evaluate an expression: the Content-Security-Policy
allows no ``eval``).
"""

from __future__ import annotations

import functools
import io
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any

from morris import i18n

logger = logging.getLogger(__name__)

#: The cookie the page's language selector sets (``nl``, ``fi``, ...).
COOKIE = "morris_lang"
#: A BCP-47 tag for each language, for the browser's speech synthesis (``utterance.lang``).
SPEECH_TAGS: Mapping[str, str] = {"en": "en-GB", "nl": "nl-NL", "fi": "fi-FI", "de": "de-DE"}
#: The page's scripts the texts are extracted from (``static/``).
SCRIPTS = ("strings.js",)
#: The extractor's keywords for the page's scripts (as ``[tool.babel]`` gives them).
KEYWORDS: Mapping[str, Any] = {"N_": None, "NP_": (1, 2)}
#: How many numbers the plural table covers; a larger number takes the form of its last two
#: digits above 100 (every gettext plural rule in use repeats so).
PLURAL_TABLE = 200
#: The longest ``Accept-Language`` header read (a longer one is cut, never an error).
MAX_HEADER = 4096

_RANGE = re.compile(r"^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
_QUALITY = re.compile(r"^[qQ]\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


def parse_accept_language(header: str | None) -> list[tuple[str, float]]:
    """The language ranges of an ``Accept-Language`` header with their weights, the most wanted
    first (equal weights in the header's order); a malformed entry is left out, never an error.

    >>> parse_accept_language("de-CH, fi;q=0.9, en;q=0.8, *;q=0.1")
    [('de-ch', 1.0), ('fi', 0.9), ('en', 0.8), ('*', 0.1)]
    >>> parse_accept_language("nl;q=0.5, fi;q=zero, ;;, de;q=0.7")
    [('de', 0.7), ('nl', 0.5)]
    """
    ranges: list[tuple[str, float, int]] = []
    for index, entry in enumerate((header or "")[:MAX_HEADER].split(",")):
        name, *params = (part.strip() for part in entry.split(";"))
        if not name or not _RANGE.match(name):
            continue
        weight = 1.0
        for param in params:
            quality = _QUALITY.match(param)
            if quality is None:
                weight = -1.0  # a parameter that is no valid q: the entry is malformed
                break
            weight = float(quality.group(1))
        if weight > 0:
            ranges.append((name.lower(), weight, index))
    ranges.sort(key=lambda item: (-item[1], item[2]))
    return [(name, weight) for name, weight, _ in ranges]


def accepted_language(header: str | None) -> str:
    """The catalog's language a browser's ``Accept-Language`` asks for most: the first range
    with a catalog (``de-AT`` is ``de``); ``*`` or nothing known is English.

    >>> accepted_language("fr-FR, fi;q=0.8, de;q=0.9"), accepted_language("xx, *")
    ('de', 'en')
    >>> accepted_language("q=1;;;"), accepted_language(None)
    ('en', 'en')
    """
    for name, _weight in parse_accept_language(header):
        if name == "*":
            break
        code = i18n.normalize(name)
        if code is not None:
            return code
    return i18n.DEFAULT_LANGUAGE


def known(code: str | None) -> str | None:
    """``code`` if the page has that language (exactly one of :data:`morris.i18n.LANGUAGES`)."""
    return code if code in i18n.LANGUAGES else None


def request_language(
    query: Mapping[str, str], cookies: Mapping[str, str], headers: Mapping[str, str]
) -> str:
    """A request's language: ``?lang=``, else the selector's cookie, else ``Accept-Language``.

    An unknown ``?lang=`` or cookie is passed over (the next one decides), never an error.

    >>> request_language({"lang": "nl"}, {COOKIE: "de"}, {"accept-language": "fi"})
    'nl'
    >>> request_language({"lang": "klingon"}, {}, {"accept-language": "fi-FI"})
    'fi'
    """
    return (
        known(query.get("lang"))
        or known(cookies.get(COOKIE))
        or accepted_language(headers.get("accept-language"))
    )


def page_messages(sources: Iterable[str]) -> list[str | tuple[str, str]]:
    """The message ids of the page's scripts (their text), as Babel's javascript extractor
    finds them: a text, or a ``(singular, plural)`` pair."""
    from babel.messages.extract import extract

    found: dict[str | tuple[str, str], None] = {}
    for source in sources:
        for _line, message, _comments, _context in extract(
            "javascript", io.BytesIO(source.encode("utf-8")), keywords=KEYWORDS
        ):
            found[message if isinstance(message, str) else (message[0], message[1])] = None
    return list(found)


def plural_table(code: str) -> list[int]:
    """The form number of the catalog of ``code`` for each number below :data:`PLURAL_TABLE`."""
    translations = i18n.translations(code)
    plural = getattr(translations, "plural", None)
    if plural is None:  # no catalog: English's rule
        return [0 if n == 1 else 1 for n in range(PLURAL_TABLE)]
    return [int(plural(n)) for n in range(PLURAL_TABLE)]


class PageCatalogs:
    """The page's texts in each language, made once (:meth:`catalog`) from the scripts'
    sources."""

    def __init__(self, sources: Iterable[str]) -> None:
        self.messages = page_messages(sources)

    @functools.cache  # noqa: B019 - one companion per process, four languages
    def catalog(self, code: str) -> dict[str, Any]:
        """What a page in ``code`` is handed: ``lang``, ``speech`` (its BCP-47 tag),
        ``languages`` (code -> name in itself), ``messages`` (message id -> text; a plural's
        singular id -> its forms) and ``plural`` (the form of each number, :func:`plural_table`).
        """
        translations = i18n.translations(code)
        texts: dict[str, str | list[str]] = {}
        forms = max(plural_table(code)) + 1
        for message in self.messages:
            if isinstance(message, str):
                texts[message] = translations.gettext(message)
            else:
                singular, plural = message
                texts[singular] = [
                    translations.ngettext(singular, plural, self._example(code, i))
                    for i in range(forms)
                ]
        return {
            "lang": code,
            "speech": SPEECH_TAGS.get(code, code),
            "languages": dict(i18n.LANGUAGE_NAMES),
            "messages": texts,
            "plural": plural_table(code),
        }

    @staticmethod
    def _example(code: str, form: int) -> int:
        """A number the catalog of ``code`` gives form ``form`` for."""
        return plural_table(code).index(form)
