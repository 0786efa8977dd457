"""Choosing the board's language, and messages rendered late in any language."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris import i18n


@pytest.fixture
def board_language() -> Iterator[None]:
    """Put the board's language back after a test that sets it."""
    before = i18n.language()
    yield
    i18n.set_language(before)


def test_the_command_line_wins_then_the_config_then_the_environment() -> None:
    env = {"LC_ALL": "", "LC_MESSAGES": "nl_NL.UTF-8", "LANG": "de_DE.UTF-8"}
    assert i18n.choose_language("fi", "de", env) == ("fi", None)
    assert i18n.choose_language(None, "de", env) == ("de", None)
    assert i18n.choose_language(None, "", env) == ("nl", None)
    assert i18n.choose_language(None, "", {"LANG": "de_AT.UTF-8"}) == ("de", None)
    assert i18n.choose_language(None, "", {"LC_ALL": "C.UTF-8", "LANG": "fi_FI"}) == ("en", None)
    assert i18n.choose_language(None, "", {}) == ("en", None)


@pytest.mark.parametrize(
    ("option", "configured", "where"),
    [("sv", "", "--lang 'sv'"), (None, "klingon", "[ui] language 'klingon'")],
)
def test_an_unknown_language_warns_naming_the_ones_there_are(
    option: str | None, configured: str, where: str
) -> None:
    code, warning = i18n.choose_language(option, configured, {"LANG": "nl_NL.UTF-8"})
    assert code == "en"
    assert warning is not None and warning.startswith(where)
    for name in ("en (English)", "nl (Nederlands)", "fi (suomi)", "de (Deutsch)"):
        assert name in warning


def test_a_message_renders_in_each_language_and_the_board_language_by_default(
    board_language: None,
) -> None:
    message = i18n.msg("game over: {result} ({why})", result="1-0", why=i18n.msg("too few pieces"))
    assert message.render("en") == "game over: 1-0 (too few pieces)"
    assert message.render("de") == "Partie zu Ende: 1-0 (zu wenige Steine)"
    assert message.render("nl") == "einde van het spel: 1-0 (te weinig stenen)"
    assert message.render("fi") == "peli päättyi: 1-0 (liian vähän nappuloita)"
    i18n.set_language("fi_FI.UTF-8")
    assert str(message) == message.render("fi")
    assert i18n._("new game") == "uusi peli"
    assert i18n.ngettext("{n} hint", "{n} hints", 3).format(n=3) == "3 vihjettä"


def test_set_language_refuses_a_language_without_a_catalog(board_language: None) -> None:
    with pytest.raises(i18n.UnknownLanguageError, match=r"there are en \(English\)"):
        i18n.set_language("sv")
    assert i18n.language() == "en"


def test_plain_text_is_the_same_in_every_language() -> None:
    note = i18n.plain("connection refused to http://10.0.0.2:8700 {not a field}")
    assert note.render("de") == note.render("en") == note.msgid


def test_a_source_tree_never_built_reads_the_po_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the compiled .mo (a fresh checkout run in place), the .po is compiled in memory;
    the text is the same as the installed catalog's."""
    source = Path(i18n.__file__).parent / "locale"
    for po in source.glob("*/LC_MESSAGES/morris.po"):
        target = tmp_path / po.relative_to(source)
        target.parent.mkdir(parents=True)
        shutil.copy(po, target)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.msg("board matches again").render("nl") == "het bord klopt weer"
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


def test_a_broken_translation_shows_the_english_text(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog entry that does not format (a translator's typo in a placeholder) logs an
    error and shows the English; the board goes on."""

    class Broken(i18n.gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "{zug} gespielt"

    monkeypatch.setattr(i18n, "translations", lambda code: Broken())
    with caplog.at_level(logging.ERROR, logger="morris.i18n"):
        assert i18n.msg("Pi plays {move}", move="d6").render("de") == "Pi plays d6"
    assert "does not format" in caplog.text


@pytest.mark.parametrize("command", ["run", "sim"])
def test_run_and_sim_take_lang_and_speak(command: str) -> None:
    from morris.cli import build_parser
    from morris.commands.options import voice_overrides

    args = build_parser().parse_args([command, "--lang", "fi", "--speak"])
    assert args.lang == "fi"
    assert voice_overrides(args) == {"speech_enabled": True}
    quiet = build_parser().parse_args([command])
    assert quiet.lang is None and voice_overrides(quiet) == {"speech_enabled": None}


def test_the_commands_warn_of_a_language_without_a_catalog_and_use_english(
    board_language: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from morris.app.config import parse_config
    from morris.commands.options import use_language

    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    config = parse_config('[ui]\nlanguage = "sv"\n')
    assert use_language(None, config) == "en" and i18n.language() == "en"
    err = capsys.readouterr().err
    assert err.startswith("morris: [ui] language 'sv': there is no catalog") and "fi (suomi)" in err
    assert use_language("de", config) == "de"  # --lang wins over the file
    assert use_language(None, parse_config("")) == "fi"  # then the environment
    assert capsys.readouterr().err == ""


def test_a_po_edited_since_the_install_is_read_instead_of_its_stale_mo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A translator's edit shows at once in a source tree; the installed catalog otherwise."""
    import os

    source = Path(i18n.__file__).parent / "locale" / "nl" / "LC_MESSAGES"
    target = tmp_path / "nl" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(source / "morris.mo", target / "morris.mo")
    po = target / "morris.po"
    po.write_text(
        (source / "morris.po")
        .read_text(encoding="utf-8")
        .replace('msgstr "het bord klopt weer"', 'msgstr "het bord klopt weer, goed zo"'),
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        mo_time = (target / "morris.mo").stat().st_mtime
        os.utime(po, (mo_time - 60, mo_time - 60))  # older: the compiled catalog is read
        assert i18n.msg("board matches again").render("nl") == "het bord klopt weer"
        i18n.translations.cache_clear()
        os.utime(po, (mo_time + 60, mo_time + 60))  # edited since: the .po is read
        assert i18n.msg("board matches again").render("nl") == "het bord klopt weer, goed zo"
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()
