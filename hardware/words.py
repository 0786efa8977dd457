"""The words the device layer says to a person (the self-test, where to look for a pin), in the
language it is handed.

This package imports nothing of ``morris`` (a device layer knows no rules, and no catalog), so a
command that shows these texts hands it the board's catalog with :func:`set_translation`
(``morris selftest`` gives it :func:`morris.i18n._` and :func:`morris.i18n.ngettext`); until then
they are English, the message ids themselves. The texts are marked with :func:`_`,
:func:`ngettext` and :func:`N_` here, so the extraction (``[tool.babel]`` in pyproject.toml) puts
them in the board's catalogs like any other.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["N_", "_", "ngettext", "set_translation"]


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_translate: Callable[[str], str] = _english
_translate_plural: Callable[[str, str, int], str] = _english_plural


def set_translation(
    gettext: Callable[[str], str] | None,
    ngettext: Callable[[str, str, int], str] | None = None,
) -> None:
    """Say the device layer's texts through ``gettext`` and ``ngettext`` (a catalog's lookups,
    as :mod:`gettext` has them), or in English (``None``)."""
    global _translate, _translate_plural
    _translate = gettext or _english
    _translate_plural = ngettext or _english_plural


def _(message: str) -> str:
    """``message`` in the language handed to :func:`set_translation`."""
    return _translate(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in that language."""
    return _translate_plural(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message
