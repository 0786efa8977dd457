"""The words a person reads or hears, in the board's language: gettext catalogs, language choice.

Every text a person reads (the event line, the narration, what is said aloud) is an English
message id looked up in the catalog of the board's language (``morris/locale/<lang>/LC_MESSAGES/
morris.po``, compiled to ``morris.mo`` by the install; docs/TRANSLATING.md). The journal's logs
stay English.

Two ways to use it:

- :func:`_` and :func:`ngettext` translate at once into the board's language (:func:`language`,
  set at start by :func:`set_language` from :func:`choose_language`). For text made and shown in
  one place.
- :func:`msg` and :func:`nmsg` make a :class:`Message`: the message id and its parameters,
  rendered late, in any language (:meth:`Message.render`). The controller's event line is one, so
  the board speaks its own language while a page beside it renders the same event in its reader's
  (``Accept-Language``); ``str(message)`` is the board's language, ``render("en")`` the journal's.

The module uses only the standard library's :mod:`gettext` at run time, so any layer may use it
(the referee is pure: it imports no thread, clock or I/O module here). A source tree that was
never installed has no compiled catalogs: they are then compiled in memory from the ``.po`` files
through Babel (the build's own tool), or, without Babel, the text stays English with one warning.

>>> move = msg("Pi plays {move}", move="b4")
>>> move.render("en"), move.render("de")
('Pi plays b4', 'Pi spielt b4')
>>> nmsg("{n} hint", "{n} hints", 2).render("fi")
'2 vihjettä'
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Union

logger = logging.getLogger(__name__)

#: The gettext domain: the catalogs are ``<LOCALE_DIR>/<lang>/LC_MESSAGES/morris.mo``.
DOMAIN = "morris"
#: Where the catalogs are (inside the package, so an installed wheel carries them).
LOCALE_DIR = Path(__file__).parent / "locale"
#: The languages there are catalogs for; the first is the message ids' own language.
LANGUAGES: tuple[str, ...] = ("en", "nl", "fi", "de")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself (for a selector, and the warning for an unknown one).
LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "fi": "suomi",
    "de": "Deutsch",
}
#: The environment variables the language is read from, first found first (POSIX's order).
ENVIRONMENT_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_language = DEFAULT_LANGUAGE


class UnknownLanguageError(ValueError):
    """A language asked for that there is no catalog for."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (a table of words rendered
    later with :func:`_`)."""
    return message


def normalize(name: str) -> str | None:
    """The catalog's language of a language or locale name (``de_AT.UTF-8`` -> ``de``, ``FI``
    -> ``fi``), ``"en"`` for the C/POSIX locale, or ``None`` where there is no catalog for it.

    >>> normalize("de_AT.UTF-8"), normalize("nl-BE"), normalize("C.UTF-8"), normalize("fr")
    ('de', 'nl', 'en', None)
    """
    text = name.strip()
    base = text.split(".", 1)[0].split("@", 1)[0]
    if base in ("C", "POSIX", ""):
        return DEFAULT_LANGUAGE if text else None
    code = base.replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


def available() -> str:
    """The languages there are, for a message: ``en (English), nl (Nederlands), ...``."""
    return ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)


def choose_language(
    option: str | None = None,
    configured: str = "",
    environ: Mapping[str, str] = os.environ,
) -> tuple[str, str | None]:
    """The board's language and a warning (or ``None``): the command line's ``--lang``
    (``option``), else the configuration's ``[ui] language`` (``configured``, empty: not set),
    else the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set.

    A language there is no catalog for gives English and a warning naming the ones there are.

    >>> choose_language("nl", "de", {"LANG": "fi_FI.UTF-8"})
    ('nl', None)
    >>> choose_language(None, "", {"LC_ALL": "", "LANG": "fi_FI.UTF-8"})
    ('fi', None)
    >>> choose_language("klingon")[0]
    'en'
    """
    asked: list[tuple[str, str]] = []
    if option:
        asked.append(("--lang", option))
    if configured:
        asked.append(("[ui] language", configured))
    for variable in ENVIRONMENT_VARIABLES:
        value = environ.get(variable, "")
        if value:
            asked.append((variable, value))
            break  # POSIX: the first one set decides, even one without a catalog
    if not asked:
        return DEFAULT_LANGUAGE, None
    where, name = asked[0]
    code = normalize(name)
    if code is not None:
        return code, None
    return DEFAULT_LANGUAGE, (
        f"{where} {name!r}: there is no catalog for that language (there are: {available()}); "
        "the board uses English"
    )


def set_language(code: str) -> str:
    """Make ``code`` (a language or locale name) the board's language; return its catalog's
    name. Raises :class:`UnknownLanguageError` naming the languages there are."""
    global _language
    normal = normalize(code)
    if normal is None:
        raise UnknownLanguageError(f"no catalog for {code!r}: there are {available()}")
    _language = normal
    logger.info("language: %s", normal)
    return normal


def language() -> str:
    """The board's language (:func:`set_language`; English until one is set)."""
    return _language


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalog of language ``code`` (one of :data:`LANGUAGES`), loaded once.

    The installed ``.mo``; in a source tree never built (or whose ``.po`` was edited since), the
    ``.po`` compiled in memory through Babel; without Babel, the message ids themselves
    (English) and a warning.
    """
    if code not in LANGUAGES:
        raise UnknownLanguageError(f"no catalog for {code!r}: there are {available()}")
    source = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    compiled_file = source.with_suffix(".mo")
    # An installed package has the .mo only (or both, built together); a source tree where a
    # translator just edited the .po reads the .po, newer than its compiled catalog.
    if compiled_file.exists() and not _newer(source, compiled_file):
        return gettext.translation(DOMAIN, LOCALE_DIR, [code])
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        if compiled_file.exists():  # older than the .po, and nothing here to read that
            return gettext.translation(DOMAIN, LOCALE_DIR, [code])
        logger.warning(
            "no compiled catalog for %s (install the package, or Babel to read %s): English",
            code,
            source,
        )
        return gettext.NullTranslations()
    try:
        with source.open("rb") as po:
            catalog = read_po(po, locale=code, domain=DOMAIN)
    except OSError as exc:
        logger.warning("no catalog for %s (%s): English", code, exc)
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    logger.debug("catalog %s compiled in memory from %s", code, source)
    return gettext.GNUTranslations(compiled)


def _newer(path: Path, than: Path) -> bool:
    try:
        return path.stat().st_mtime > than.stat().st_mtime
    except FileNotFoundError:
        return False


def _(message: str) -> str:
    """``message`` in the board's language."""
    return translations(_language).gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the board's language, where the same English word means another thing
    elsewhere (``pgettext("review column", "turn")`` is a turn's number, where the status light's
    "turn" is whose turn it is): the catalog keeps the two apart by ``context`` (``msgctxt``)."""
    return translations(_language).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the board's language (its
    catalog's plural rule: Finnish and Dutch count otherwise than English in places)."""
    return translations(_language).ngettext(singular, plural, n)


#: What a message's parameter may be: text taken as it is (a point name, a move), a number, or
#: another message rendered in the same language.
Param = Union[str, int, "Message"]


@dataclass(frozen=True)
class Message:
    """A text rendered late: the message id (and plural id with its count ``n``) and named
    parameters for ``str.format``. Frozen and comparable, so it can stand in a snapshot.

    ``translate=False`` marks text that is no catalog entry (an exception's words, a note made
    elsewhere): it is shown as it is in every language.
    """

    msgid: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    n: int | None = None
    translate: bool = True

    def render(self, code: str | None = None) -> str:
        """The text in language ``code`` (default: the board's)."""
        lang = _language if code is None else code
        if not self.translate:
            template = self.msgid
        elif self.plural is not None:
            assert self.n is not None
            template = translations(lang).ngettext(self.msgid, self.plural, self.n)
        else:
            template = translations(lang).gettext(self.msgid)
        values: dict[str, object] = {
            key: value.render(lang) if isinstance(value, Message) else value
            for key, value in self.params
        }
        if self.n is not None:
            values.setdefault("n", self.n)
        if not values:
            return template
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # A broken translation must not take the board down: the English text then.
            logger.error("the %s catalog's text for %r does not format", lang, self.msgid)
            return self.msgid.format(**values) if self.translate else self.msgid

    def __str__(self) -> str:
        return self.render()

    def as_json(self) -> dict[str, object]:
        """The message as plain JSON: ``msgid``, ``plural``, ``n``, ``params`` (nested
        messages as the same), for a consumer that renders it in its own language."""
        return {
            "msgid": self.msgid,
            "plural": self.plural,
            "n": self.n,
            "params": {
                key: value.as_json() if isinstance(value, Message) else value
                for key, value in self.params
            },
            "translate": self.translate,
        }


def _param(value: object) -> Param:
    if isinstance(value, Message | int | str) and not isinstance(value, bool):
        return value
    return str(value)  # a move, a path: its text, the same in every language


def msg(message: str, /, **params: object) -> Message:
    """A :class:`Message` of ``message`` with ``params`` (anything else than a number, text
    or message is taken as its ``str``)."""
    return Message(message, tuple((key, _param(value)) for key, value in params.items()))


def nmsg(singular: str, plural: str, n: int, /, **params: object) -> Message:
    """A :class:`Message` whose form depends on the number ``n`` (``{n}`` in the text)."""
    return Message(
        singular,
        tuple((key, _param(value)) for key, value in params.items()),
        plural=plural,
        n=n,
    )


def plain(text: str) -> Message:
    """``text`` as a :class:`Message` shown as it is in every language (not a catalog entry)."""
    return Message(text, translate=False)


def joined(parts: list[Message], separator: str = "; ") -> Message:
    """The messages ``parts`` as one, rendered each in the same language, ``separator`` between.

    >>> joined([msg("new game"), plain("x")]).render("de")
    'neues Spiel; x'
    """
    if not parts:
        return plain("")
    if len(parts) == 1:
        return parts[0]
    keys = [f"p{i}" for i in range(len(parts))]
    template = separator.join("{" + key + "}" for key in keys)
    return Message(template, tuple(zip(keys, parts, strict=True)), translate=False)
