"""``morris tables``, ``analyse``, ``review`` and ``render`` in the board's language: their help,
what they print and their errors, in Dutch, Finnish and German. Option names, command names,
point names, paths and numbers stay as they are; no English text of the catalog is left."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.review import REVIEW_DEPTH
from morris.app.store import GameStore
from morris.cli import main
from morris.commands.analyse import removal_in
from morris.core import Board
from morris.i18n import ngettext, set_language
from tests.core.games import strong_games
from tests.i18n.leftovers_kit import english_left_in
from tests.solution.conftest import solved3

__all__ = ["solved3"]  # the session's solved 3 men's morris (tests/solution/conftest.py)


def _leftovers(text: str, code: str, *paths: Path) -> list[str]:
    """:func:`english_left_in` of ``text`` without what is never translated: the paths given
    (a test's directory is named after the test) and the commands' names, "morris review"
    (which the web page's title "morris: review" makes look like English left in)."""
    for path in paths:
        text = text.replace(str(path), "DIR")
    for command in ("morris review", "morris render"):
        text = text.replace(command, "morris")
    return english_left_in(text, code)


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("code", "argv", "words"),
    [
        ("fi", ["tables", "--help"], ["Loppupelitaulukot", "taaksepäin etenevällä analyysillä"]),
        ("nl", ["tables", "build", "--help"], ["--max-pieces N", "Dask-workers", "zetfase"]),
        ("de", ["tables", "verify", "--help"], ["Stichprobe", "Mühle mit K - 1 Steinen"]),
        (
            "de",
            ["review", "--help"],
            ["Partienotation", "Urteil der Engine", f"(Standard {REVIEW_DEPTH})"],
        ),
        ("fi", ["review", "--help"], ["heitti tuloksen hukkaan", "älä käytä ratkaistua peliä"]),
        (
            "nl",
            ["render", "--help"],
            ["bordplaatje van de webapp", "gezien vanaf de kant van zwart"],
        ),
        ("nl", ["analyse", "--help"], ["het opgeloste molenspel met K stenen"]),
        ("fi", ["match", "--help"], ["älä käytä loppupelitaulukoita"]),  # add_tables_options
    ],
)
def test_help_is_in_the_language(
    code: str, argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = _help(["--lang", code, *argv], capsys)
    assert _leftovers(out, code) == []
    flat = " ".join(out.split())  # argparse wraps the help at the terminal's width
    for word in words:
        assert word in flat


def test_analyse_prints_a_position_and_a_game_in_dutch(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = "WWW....B/..BB..../........ w 0 0 0 1 -"  # white wins in 5 of its turns
    assert main(["--lang", "nl", "analyse", position, "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert _leftovers(out, "nl") == []
    lines = out.splitlines()
    assert lines[0] == f"Molenspel met 3 stenen: {position}"
    assert lines[1] == "wit aan zet: winst in 5 zetten  slaan over 9 halve zetten"
    assert any(line.startswith("  d7-f2 ") for line in lines)  # the moves as they are written
    assert lines[-1].startswith("winst/verlies in N: de N zetten van de winnaar")

    from morris.engine.solution import Solution
    from morris.engine.solution.analyse import new_board, turn_values

    solution = Solution.load(solved3, 3)
    board = new_board(3)
    moves = []
    # White keeps the win for a turn, black defends; then white plays its worst turn.
    for ply in range(3):
        scored = turn_values(solution, board)
        move = scored[-1][0] if ply == 2 else scored[0][0]
        board.push(move)
        moves.append(str(move))
    record = tmp_path / "game.txt"
    record.write_text(f'[Result "*"]\n\n1. {moves[0]} {moves[1]} 2. {moves[2]} *\n')
    assert main(["--lang", "nl", "analyse", str(record), "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert _leftovers(out, "nl", tmp_path) == []
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["1.", "wit", moves[0], "ervoor"]
    assert lines[1].split()[:3] == ["2.", "zwart", moves[1]]
    assert lines[2].endswith("  <- gaf een uitslag weg")
    assert f"Eerste zet die een uitslag weggaf: 3. wit {moves[2]} (winst in " in out


def test_tables_info_of_the_solved_game_in_finnish(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "fi", "tables", "info", "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert _leftovers(out, "fi", solved3) == []
    flat = " ".join(out.split())
    assert "Alkuasema: voitto valkoiselle 12 valkoisen siirrolla (23 puolisiirtoa)" in flat
    assert "(poistottomien siirtojen säännöllä: voitto)." in flat
    rows = [line.split() for line in out.splitlines()]
    assert ["3", "3", "0", "0", "valkoinen", "2,691,920"] in [r[:6] for r in rows]
    heading = next(r for r in rows if r[:2] == ["valkoinen", "musta"])
    assert heading[-1] == "tavua"


def test_tables_verify_of_the_solved_game_in_german(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", "de", "tables", "verify", "--men", "3", "--dir", str(solved3), "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert _leftovers(out, "de", solved3) == []
    # Each sector and its removal file; 0v0 h3/3 has one entry.
    assert out.count(" geprüft (alle)  in Ordnung") == 7 + 7
    assert " 1 Eintrag geprüft" in out


def test_tables_errors_in_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fi", "tables", "info", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"kansiossa {tmp_path} ei ole taulukoita" in " ".join(out.split())
    assert _leftovers(out, "fi", tmp_path) == []
    assert main(["--lang", "de", "tables", "build", "--dir", str(tmp_path), "--workers", "2"]) == 2
    out = capsys.readouterr().out
    assert _leftovers(out, "de", tmp_path) == []
    assert "--threads und --no-removal-limit brauchen --men K" in out
    assert main(["--lang", "nl", "tables", "info", "--variant", "chess"]) == 2
    out = capsys.readouterr().out
    assert "onbekende variant 'chess' (bekend: standard," in out
    assert main(["--lang", "nl", "analyse", "nope.txt", "--dir", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "nope.txt: bestand bestaat niet" in out and _leftovers(out, "nl", tmp_path) == []


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    """Strong game 3 (tests/data/strong-games.txt): white lets a mill through on 8. g4xd1."""
    board = Board()
    for text in strong_games()[2].turns:
        board.push_notation(text)
    return GameStore(tmp_path).finish(board, white="Ann", black="morris level 5")


def test_review_prints_its_table_in_german(
    saved_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", "de", "review", str(saved_game), "--no-tables", "--no-solution"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert _leftovers(out, "de") == []
    lines = out.splitlines()
    # The columns' names: the turn's number is no "am Zug" (the status light's word).
    assert lines[0].split()[:5] == ["Nr.", "Zug", "bester", "Bewertung", "danach"]
    marked = [line for line in lines if "<< erster (Engine)" in line]
    assert len(marked) == 1 and marked[0].split()[:2] == ["8.", "g4xd1"]
    assert "Erstes verschenktes Ergebnis: 8. g4xd1 (Weiß):" in out
    assert "nach dem Urteil der Engine" in out and "keine Endspieltabellen" in out


def test_review_errors_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "game.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["--lang", "de", "review", str(binary)]) == 2
    err = capsys.readouterr().err
    assert err == f"morris review: {binary}: keine Partienotation (kein UTF-8-Text)\n"
    assert main(["--lang", "de", "review", str(binary), "--depth", "0"]) == 2
    assert (
        capsys.readouterr().err == "morris review: --depth und --nodes müssen mindestens 1 sein\n"
    )
    with pytest.raises(SystemExit) as done:  # argparse's usage error, in the board's language
        main(["--lang", "de", "review"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert _leftovers(err, "de") == [] and "RECORD" in err


def test_render_errors_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.jpg"
    assert main(["--lang", "de", "render", "startpos", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"morris render: {out}: kann kein .jpg schreiben; gib eine Datei mit der Endung .svg "
        "oder .png an\n"
    )
    assert main(["--lang", "de", "render", "startpos", "--turn", "3"]) == 2
    err = capsys.readouterr().err
    assert "--turn ist für eine Partienotation" in err and _leftovers(err, "de") == []
    assert main(["--lang", "fi", "render", "startpos", "--variant", "chess"]) == 2
    assert "--variant: tuntematon muunnelma 'chess'" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("code", "one", "nine"),
    [
        ("de", "Schlagen in 1 Halbzug", "Schlagen in 9 Halbzügen"),
        ("nl", "slaan over 1 halve zet", "slaan over 9 halve zetten"),
        ("fi", "poisto 1 puolisiirron päästä", "poisto 9 puolisiirron päästä"),
    ],
)
def test_plural_forms(code: str, one: str, nine: str) -> None:
    set_language(code)
    assert (removal_in(1), removal_in(9)) == (one, nine)
    errors = [ngettext("{n} error", "{n} errors", n).format(n=n) for n in (0, 1, 2)]
    expected = {
        "de": ["0 Fehler", "1 Fehler", "2 Fehler"],
        "nl": ["0 fouten", "1 fout", "2 fouten"],
        "fi": ["0 virhettä", "1 virhe", "2 virhettä"],
    }
    assert errors == expected[code]
