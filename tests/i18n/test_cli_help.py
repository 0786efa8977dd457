"""The command line's help and usage errors in the language chosen before the parser is built:
``--lang`` (global, or the command's own), the configuration's ``[ui] language``, the
environment; argparse's own words from our catalogs."""

from __future__ import annotations

import argparse
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from morris import i18n
from morris.cli import build_parser, main, preread_language
from morris.commands.words import ARGPARSE_MESSAGES, VARIANT_SUMMARIES, argparse_plurals
from tests.i18n.leftovers_kit import english_left_in

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("nl", "fi", "de")

#: A word of each language's help that only a translated help holds: argparse's heading of the
#: options and its own "-h" line, and a word of ours.
KNOWN = {
    "nl": ("opties:", "deze hulp tonen en stoppen"),
    "fi": ("valitsimet:", "näytä tämä ohje ja lopeta"),
    "de": ("Optionen:", "diese Hilfe zeigen und beenden"),
}


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return capsys.readouterr().out


def _prose(text: str) -> str:
    """The help without what is typed as it is: option names (``--flying``), choices
    (``{white,black}``), command names (``install-service``) and names with an underscore (JSON
    fields, ``status_file``)."""
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    commands = sorted(sub.choices, key=len)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\w+_\w+", " ", text)
    text = re.sub(r"(?<![\w/])--?[A-Za-z][\w-]*", " ", text)
    for command in reversed(commands):
        text = re.sub(rf"(?<![\w-]){re.escape(command)}(?![\w-])", " ", text)
    return text


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_help_is_in_the_language_of_the_global_lang(
    code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _help(["--lang", code, "--help"], capsys)
    assert all(word in out for word in KNOWN[code]), out
    assert english_left_in(_prose(out), code) == []
    assert "usage:" not in out and "show this help message" not in out


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("where", ["global", "command"])
def test_the_simulators_help_is_in_the_language_asked(
    code: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = (
        ["--lang", code, "sim", "--help"]
        if where == "global"
        else ["sim", "--lang", code, "--help"]
    )
    out = _help(argv, capsys)
    assert all(word in out for word in KNOWN[code]), out
    assert english_left_in(_prose(out), code) == []
    assert "--no-save" in out and "{vs-ai,referee,remote}" in out  # typed as they are


def test_the_command_line_is_english_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    out = _help(["sim", "--help"], capsys)
    assert out.startswith("usage: morris sim") and "show this help message and exit" in out


def test_a_usage_error_is_said_in_german_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "de", "run", "--nonsense"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: morris ")
    assert "morris: Fehler: unbekannte Argumente: --nonsense" in err


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--lang", "fi", "reload"], "virhe: nämä argumentit puuttuvat: --pid"),
        (["--lang", "nl", "run", "--mode", "chess"], "ongeldige keuze: 'chess' (kies uit"),
        (["--lang", "de", "reload", "--pid", "x"], "ungültiger int-Wert: 'x'"),
        (["--lang", "fi", "sim", "--level"], "argumentti --level: tarvitaan yksi arvo"),
    ],
)
def test_argparse_errors_are_in_the_catalogs(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert expected in capsys.readouterr().err


def test_the_environment_chooses_the_language_of_the_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    out = _help(["status", "--help"], capsys)
    assert out.startswith("käyttö: morris status") and "valitsimet:" in out
    assert english_left_in(_prose(out), "fi") == []
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")  # LC_ALL before LANG, as POSIX has it
    assert _help(["status", "--help"], capsys).startswith("Aufruf: morris status")


@pytest.mark.realtime  # a subprocess: the installed entry point, its environment
def test_a_finnish_locale_gives_finnish_help_in_a_fresh_process() -> None:
    env = {**os.environ, "LANG": "fi_FI.UTF-8"}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    done = subprocess.run(
        [sys.executable, "-m", "morris", "sim", "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert done.stdout.startswith("käyttö: morris sim")
    assert english_left_in(_prose(done.stdout), "fi") == []


def test_the_configurations_language_is_read_before_the_parser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "nl"\n')
    out = _help(["run", "--config", str(config), "--help"], capsys)
    assert out.startswith("gebruik: morris run")
    assert _help(["run", f"--config={config}", "--lang", "de", "--help"], capsys).startswith(
        "Aufruf:"
    )  # --lang before the file


def test_a_broken_configuration_does_not_stop_the_language_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pre-read ignores a file it cannot read; the command then says what is wrong, in the
    environment's language."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    config = tmp_path / "config.toml"
    config.write_text("[ui\nlanguage = 'nl'\n")
    assert preread_language(["sim", "--config", str(config)]) == ("de", None)
    assert preread_language(["sim", "--config", str(tmp_path / "none.toml")]) == ("de", None)
    assert main(["sim", "--config", str(config), "--no-save"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"morris: {config}") and "Traceback" not in err


def test_an_unknown_language_is_warned_about_once_and_english_is_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _help(["--lang", "sv", "status", "--help"], capsys)
    assert out.startswith("usage: morris status")
    with pytest.raises(SystemExit):
        main(["--lang", "sv", "sim", "--help"])
    captured = capsys.readouterr()
    assert captured.err.count("there is no catalog for that language") == 1
    assert "--lang 'sv'" in captured.err and "fi (suomi)" in captured.err
    assert i18n.language() == "en"


def test_the_global_lang_reaches_the_commands_that_take_their_own() -> None:
    args = build_parser().parse_args(["--lang", "fi", "sim"])
    assert args.global_lang == "fi" and args.lang is None  # main() gives the command "fi"
    assert preread_language(["--lang", "fi", "sim", "--lang=de"]) == ("de", None)  # the last
    assert preread_language(["play", "--", "--lang", "fi"])[0] == "en"  # nothing after --


def test_argparses_message_ids_are_python_3_11s_own() -> None:
    """The ids listed for the catalogs are those argparse looks up: a Python that changes one
    fails here (its text would stay English)."""
    source = inspect.getsource(argparse)
    assert "from gettext import gettext as _, ngettext" in source  # what words.py redirects

    def literal(text: str) -> bool:
        quoted = text.replace("\n", "\\n")
        return f"'{quoted}'" in source or f'"{quoted}"' in source

    missing = [message for message in ARGPARSE_MESSAGES if not literal(message)]
    assert not missing, f"not argparse's message ids: {missing}"
    assert "expected %s argument" in source and "expected %s arguments" in source


@pytest.mark.parametrize("code", TRANSLATED)
def test_argparses_words_are_translated(code: str) -> None:
    i18n.set_language(code)
    for message in ARGPARSE_MESSAGES:
        assert i18n._(message) != message, message
    one, two = argparse_plurals(1)[0], argparse_plurals(2)[0]
    assert one != two and "%s" in one and "%s" in two


def test_the_variants_summaries_are_the_cores() -> None:
    from morris.core.variant import BOARD_CLASSES

    summaries = {cls.variant.name: cls.variant.summary for cls in BOARD_CLASSES}
    assert summaries == VARIANT_SUMMARIES
