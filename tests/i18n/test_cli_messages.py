"""What the commands print in the board's language: ``morris status``, ``morris play``, the
service commands' lines, the commands' errors on stderr. Option names, paths, JSON and the
values the status file holds as data stay as they are."""

from __future__ import annotations

import io
import json
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from morris import i18n
from morris.cli import main
from morris.core import find_variant
from morris.daemon.status_file import ServiceStatus, write_status
from tests.i18n.leftovers_kit import english_left_in


@pytest.fixture
def no_systemctl(monkeypatch: pytest.MonkeyPatch) -> None:
    """``morris status`` on a machine without systemd: only the status file speaks."""
    monkeypatch.setattr("shutil.which", lambda name: None)


def _status(**changes: object) -> ServiceStatus:
    now = datetime.now(UTC)
    fields: dict[str, object] = {
        "pid": os.getpid(),
        "started": now - timedelta(hours=3),
        "updated": now - timedelta(seconds=1),
        "mode": "remote",
        "backend": "gpio",
        "link": "up",
        "board": "does not match the game",
        "position": "W:d6 B:a7",
        "move_count": 1,
        "side_to_move": "black",
        "remote": "up (page)",
    }
    fields.update(changes)
    return ServiceStatus(**fields)  # type: ignore[arg-type]


def test_morris_status_in_dutch(
    tmp_path: Path, no_systemctl: None, capsys: pytest.CaptureFixture[str]
) -> None:
    write_status(tmp_path / "status.json", _status())
    assert main(["--lang", "nl", "status", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    lines = dict(line.split(":", 1) for line in out.splitlines())
    assert lines["achtergrondproces"].strip() == f"pid {os.getpid()} draait"
    assert lines["partij"].strip() == "1 zet, zwart aan zet"
    assert lines["bord"].strip() == "klopt niet met de partij"
    assert lines["op afstand"].strip() == "verbonden (op een webpagina)"
    assert lines["verbinding"].strip() == "verbonden"
    assert lines["bijgewerkt"].endswith("(1 s geleden)")
    assert "(3 uur geleden)" in out
    assert lines["stelling"].strip() == "W:d6 B:a7"  # data, the same in every language
    assert english_left_in(out, "nl") == []


def test_morris_status_counts_in_each_language(
    tmp_path: Path, no_systemctl: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finnish puts the noun after a number other than one in the partitive."""
    expected = {"fi": ("1 siirto", "7 siirtoa"), "de": ("1 Zug", "7 Züge")}
    for code, (one, seven) in expected.items():
        for count, text in ((1, one), (7, seven)):
            write_status(tmp_path / "status.json", _status(move_count=count, outcome="1-0"))
            main(["--lang", code, "status", "--state-dir", str(tmp_path)])
            out = capsys.readouterr().out
            assert f"{text}, " in out and "1-0" in out, out
            assert english_left_in(out, code) == []


def test_morris_status_without_a_status_file_in_finnish(
    tmp_path: Path, no_systemctl: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "fi", "status", "--state-dir", str(tmp_path)]) == 4
    out = capsys.readouterr().out
    assert out.startswith(f"ei pelin tilaa: tiedostoa {tmp_path / 'status.json'} ei voi lukea")


def test_a_status_file_that_is_no_json_is_said_in_german(
    tmp_path: Path, no_systemctl: None, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "status.json").write_text(json.dumps([1, 2]))
    assert main(["--lang", "de", "status", "--state-dir", str(tmp_path)]) == 4
    assert "enthält list, kein Objekt" in capsys.readouterr().out


def test_a_game_at_the_terminal_in_finnish() -> None:
    i18n.set_language("fi")
    from morris.commands.play import play_game

    out = io.StringIO()
    turns = "d6\na7\nundo\nundo\nundo\nd6\nd6\nzz\na1-a4\nquit\n"
    assert play_game(find_variant("standard")(), io.StringIO(turns), out) == 0
    text = out.getvalue()
    # The rules' reasons in Finnish too, not only the sentence around them.
    assert "Sääntöjen vastainen: kohta d6 on varattu." in text
    assert "Ei siirto: virheellinen siirto 'zz'" in text
    assert "joten sen on asetettava yksi." in text
    assert "Siirto 1: valkoinen asettaa nappulan." in text
    assert "Edellinen siirto: d6. Siirto 1: musta asettaa nappulan." in text
    assert "Siirto a7 peruttiin." in text and "Peruttavaa siirtoa ei ole." in text
    assert "musta> " in text and text.rstrip().endswith("Peli lopetettiin.")
    assert english_left_in(text, "fi") == []


def test_a_mill_at_the_terminal_asks_in_dutch_and_the_ending_is_dutch() -> None:
    """White closes a mill without naming the piece; the question names black's pieces."""
    i18n.set_language("nl")
    from morris.commands.play import play_game

    out = io.StringIO()
    turns = "a7\nb6\nd7\nd6\ng7\nd6\n"  # a7 d7 g7: a mill; then take d6; then input ends
    assert play_game(find_variant("standard")(), io.StringIO(turns), out) == 1
    text = out.getvalue()
    assert "g7 sluit een molen. Welke zwarte steen sla je? " in text
    assert "De invoer hield op voordat de partij voorbij was." in text
    assert english_left_in(text, "nl") == []


def test_the_service_commands_speak_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", "de", "install-service", "--dry-run", "--root", str(tmp_path)]
    assert main([*argv, "--venv", str(tmp_path / "venv")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Plan zur Installation des morris-Dienstes:")
    assert out.rstrip().endswith("Nichts wurde geändert (--dry-run).")
    assert "  würde die Unit installieren: /etc/systemd/system/morris.service (Modus 644)" in out
    # The commands shown are run as they are (useradd, systemctl daemon-reload).
    words = re.sub(r": (groupadd|useradd|systemctl) .*$", "", out, flags=re.MULTILINE)
    assert english_left_in(words, "de") == []


def test_reload_of_no_process_is_said_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fi", "reload", "--pid", "0"]) == 1
    assert capsys.readouterr().err == "morris reload: ei prosessitunniste: 0\n"


def test_config_check_in_dutch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[game]\nmode = "referee"\n')
    assert main(["--lang", "nl", "config", "check", str(config)]) == 0
    assert capsys.readouterr().out == f"{config}: in orde (mode referee, backend gpio)\n"


def test_a_commands_error_keeps_its_prefix_and_exit_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--lang", "de", "puzzle", "--wins-in", "0"]) == 2
    assert capsys.readouterr().err == "morris: --wins-in muss 1 oder mehr sein, nicht 0\n"
    assert main(["--lang", "fi", "sim", "--puzzle", "0", "--no-save"]) == 2
    assert capsys.readouterr().err.startswith("morris: --puzzle: arvon on oltava vähintään 1")


def test_a_warning_says_warning_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from morris.commands import engine

    monkeypatch.setattr("morris.engine.search.native_warning", lambda: "no C search")
    i18n.set_language("nl")
    engine.warn_if_slow_engine()
    assert capsys.readouterr().err == "morris: waarschuwing: no C search\n"


def test_the_puzzles_json_stays_english_and_the_text_follows_the_language(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["puzzle", "--men", "3", "--wins-in", "1", "--solution", str(solved3), "--answers"]
    assert main(["--lang", "de", *argv]) == 0
    text = capsys.readouterr().out
    assert "Weiß am Zug gewinnt in 1" in text and "(Lösung: " in text
    assert main(["--lang", "de", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "white to move wins in 1" and "solutions" in data


def test_the_selftest_reports_its_faults_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    """The device layer is handed the catalog: its questions, faults and pins in Finnish."""
    assert main(["--lang", "fi", "selftest", "--sim", "--miswired", "--no-leds"]) == 1
    out = capsys.readouterr().out
    assert "Anturien testi: ota kaikki nappulat pois laudalta." in out
    assert "4 vikaa löytyi:" in out
    assert "  - anturi ei toimi (kohta g1): ei havaitse mitään; tarkista rivi outer (GPIO17)" in out
    words = [line for line in out.splitlines() if not re.fullmatch(r"[a-g1-7#|\- ]*", line)]
    assert english_left_in("\n".join(words), "fi") == []  # the board's drawing aside


def test_morris_status_json_is_the_same_in_every_language(
    tmp_path: Path, no_systemctl: None, capsys: pytest.CaptureFixture[str]
) -> None:
    write_status(tmp_path / "status.json", _status())
    assert main(["--lang", "fi", "status", "--state-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["running"] is True and data["service"] is None
    assert data["status_file"] == str(tmp_path / "status.json")
    assert data["status"]["board"] == "does not match the game"
    assert data["status"]["remote"] == "up (page)" and data["status"]["move_count"] == 1
    missing = tmp_path / "none"
    assert main(["--lang", "de", "status", "--state-dir", str(missing), "--json"]) == 4
    data = json.loads(capsys.readouterr().out)
    assert data["status_file"] is None and data["error"].startswith("cannot read ")
