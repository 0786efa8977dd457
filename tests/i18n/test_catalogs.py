"""The catalogs (morris/locale): complete, current with the sources, plural forms right.

A translator's slip a user would notice fails here: a message left untranslated or fuzzy (the
board then shows English in the middle of Dutch), a text in the code that no catalog has (the
extraction finds a new message id), a translation whose ``{placeholders}`` differ from the
message id's (the text would not format), a wrong plural rule.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from morris import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "morris" / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != "en"]


def _catalog(code: str) -> Catalog:
    with (LOCALE / code / "LC_MESSAGES" / "morris.po").open("rb") as po:
        return read_po(po, locale=code)


def _ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def _extracted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[object]:
    """What ``pybabel extract -F pyproject.toml`` (docs/TRANSLATING.md) finds in the sources."""
    pot = tmp_path / "extracted.pot"
    monkeypatch.chdir(ROOT)
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", "pyproject.toml", "-o", str(pot), "."]
    )
    return _ids(_catalog_of(pot))


def _names(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_the_template_holds_exactly_what_the_sources_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = _catalog_of(LOCALE / "morris.pot")
    extracted = _extracted(tmp_path, monkeypatch)
    new = extracted - _ids(template)
    gone = _ids(template) - extracted
    assert not new, f"texts in the code that the catalogs lack (docs/TRANSLATING.md): {new}"
    assert not gone, f"catalog entries no code uses any more: {gone}"


def _catalog_of(path: Path) -> Catalog:
    with path.open("rb") as po:
        return read_po(po)


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_every_message_has_a_translation_in_every_catalog(code: str) -> None:
    template = _ids(_catalog_of(LOCALE / "morris.pot"))
    catalog = _catalog(code)
    assert _ids(catalog) == template, f"{code}: run pybabel update (docs/TRANSLATING.md)"
    problems = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        elif not all(forms):
            problems.append(f"untranslated: {message.id!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(_names(i) for i in ids))
        for form in forms:
            if _names(form) - wanted:
                problems.append(f"{form!r} uses a placeholder {message.id!r} has not")
            if "n" not in wanted and _names(form) != wanted:
                problems.append(f"{form!r} drops a placeholder of {message.id!r}")
    assert not problems, f"{code}: " + "; ".join(problems)


def _has_words(msgid: object) -> bool:
    """Whether a message has words beside its placeholders (not ``"W"``, ``"{a} ({b})"``)."""
    text = msgid if isinstance(msgid, str) else " ".join(msgid)  # type: ignore[arg-type]
    return re.search(r"[A-Za-z]{2}", re.sub(r"\{[^}]*\}", "", text)) is not None


def test_no_translation_is_the_english_text_left_in() -> None:
    """A message copied untranslated into nl, fi or de is English on the board; only words that
    are the same in the language (a name, a point) may equal the English."""
    same_everywhere = {"Morabaraba", "Pi plays {move}", "Pi plays {turn}"}
    english = {m.id: m.string for m in _catalog("en") if m.id}
    for code in TRANSLATED:
        copied = [
            m.id
            for m in _catalog(code)
            if m.id
            and m.string == english[m.id]
            and m.id not in same_everywhere
            and _has_words(m.id)
        ]
        # German "Pi spielt", Dutch "Pi speelt", Finnish "Pi pelaa": only the names stay.
        assert not copied, f"{code}: left in English: {copied}"


@pytest.mark.parametrize(
    ("code", "one", "two"),
    [
        ("en", "1 hint", "2 hints"),
        ("nl", "1 tip", "2 tips"),
        ("fi", "1 vihje", "2 vihjettä"),
        ("de", "1 Tipp", "2 Tipps"),
    ],
)
def test_plural_forms_follow_each_language(code: str, one: str, two: str) -> None:
    header = _catalog(code).plural_forms
    assert re.fullmatch(r"nplurals=2; plural=\(n != 1\);", header), header
    assert i18n.nmsg("{n} hint", "{n} hints", 1).render(code) == one
    assert i18n.nmsg("{n} hint", "{n} hints", 2).render(code) == two
    # Zero takes the plural in all four (Finnish "0 vihjettä", not the singular).
    assert i18n.nmsg("{n} hint", "{n} hints", 0).render(code) == two.replace("2", "0")


def test_the_installed_catalogs_are_compiled() -> None:
    """The install built the .mo files (setup.py's build_py): the board reads those, not the
    .po through Babel."""
    for code in i18n.LANGUAGES:
        mo = LOCALE / code / "LC_MESSAGES" / "morris.mo"
        assert mo.exists(), f"{mo} missing: reinstall (pip install -e .)"
