"""The engine's errors a person reads, in the board's language: a damaged or missing endgame
table or sector file of the solved game, read by the real command (``morris tables verify``,
``morris analyse``, ``morris puzzle``), is named in Dutch, Finnish or German with no English text
of the catalog left, and the command exits with its documented code (docs/TABLES.md); the
error's ``str`` stays English for the journal and the engine protocol."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.cli import main
from morris.engine.errors import SolutionError, TableError
from morris.engine.solution import Solution
from morris.engine.tables import EndgameTables
from morris.solver.tables import build_tables
from tests.i18n.leftovers_kit import english_left_in
from tests.solution.conftest import solved3

__all__ = ["solved3"]  # the session's solved 3 men's morris (tests/solution/conftest.py)

SECTOR = "sector-3-3-0-0.msol"  # the placing phase's last sector of 3 men's morris: both on


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Real endgame tables of 3 v 3 pieces, flying on (the smallest set there is)."""
    directory = tmp_path_factory.mktemp("tables3v3")
    build_tables(directory, max_pieces=6, flying=(True,))
    yield directory


def _copy(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(source, target)
    return target


def _flip_byte(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


def _out(capsys: pytest.CaptureFixture[str], *paths: Path) -> str:
    """What the command printed (out and err), in one line (rich wraps long ones), the paths as
    ``DIR`` (a test's directory is named after the test: English words, no text of the
    catalog)."""
    printed = capsys.readouterr()
    text = " ".join((printed.out + printed.err).split())
    for path in paths:
        text = text.replace(str(path), "DIR")
    return text


def test_a_corrupt_table_is_named_in_finnish(
    tables_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _copy(tables_dir, tmp_path)
    table = directory / "morris-3v3-fly.npy"
    _flip_byte(table, table.stat().st_size // 2)  # same size: only the SHA-256 tells
    assert main(["--lang", "fi", "tables", "verify", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert "DIR/morris-3v3-fly.npy: tarkistussumma ei täsmää, tiedosto on vioittunut" in out
    assert "rakenna loppupelitaulukot uudelleen" in out
    assert english_left_in(out, "fi") == []
    with pytest.raises(TableError) as raised:
        EndgameTables.load(directory)
    assert str(raised.value) == (
        f"{table}: checksum mismatch, the file is corrupt; rebuild the tables"
    )


def test_a_missing_table_and_a_foreign_manifest_in_dutch(
    tables_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _copy(tables_dir, tmp_path)
    (directory / "morris-3v3-fly.npy").unlink()
    assert main(["--lang", "nl", "tables", "verify", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert "DIR/morris-3v3-fly.npy: tabelbestand ontbreekt (vermeld in manifest.json)" in out
    assert english_left_in(out, "nl") == []
    (directory / "manifest.json").write_text('{"format": 99, "tables": []}\n')
    assert main(["--lang", "nl", "tables", "info", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert "DIR/manifest.json: geen tabelmanifest van formaat 1" in out
    assert english_left_in(out, "nl") == []


def test_a_damaged_sector_file_in_german(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _copy(solved3, tmp_path)
    sector = directory / SECTOR
    _flip_byte(sector, sector.stat().st_size - 1)  # the last block's data: its CRC-32 refuses it
    assert main(["--lang", "de", "tables", "verify", "--men", "3", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert f"DIR/{SECTOR}: Prüfsumme stimmt nicht, die Datei ist beschädigt; neu erstellen" in out
    assert english_left_in(out, "de") == []
    with pytest.raises(SolutionError) as raised:
        Solution.load(directory, 3)
    assert str(raised.value) == f"{sector}: checksum mismatch, the file is damaged; rebuild it"


def test_a_file_that_is_no_sector_file_in_german_and_finnish(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _copy(solved3, tmp_path)
    (directory / SECTOR).write_bytes(b"not a sector file at all\n" * 200)
    assert main(["--lang", "de", "analyse", "startpos", "--men", "3", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert f"DIR/{SECTOR}: keine Sektordatei des gelösten Spiels" in out
    assert english_left_in(out, "de") == []
    assert main(["--lang", "fi", "puzzle", "--wins-in", "2", "--dir", str(directory)]) == 1
    out = _out(capsys, directory)
    assert "ei ole oikeaa tyyppiä (ratkaistun pelin sektoritiedosto)" in out
    assert english_left_in(out, "fi") == []
    with pytest.raises(SolutionError) as raised:
        Solution.load(directory, 3, check=False)
    assert str(raised.value) == f"{directory / SECTOR}: not a solution sector file"


def test_a_puzzle_asked_wrong_in_dutch(solved3: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "nl", "puzzle", "--wins-in", "99", "--dir", str(solved3)]) == 2
    out = _out(capsys, solved3)
    assert "geen winst in 99 in de geladen sectoren (" in out
    assert english_left_in(out, "nl") == []


def test_an_engine_that_cannot_start_is_named_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-engine"
    argv = ["--lang", "de", "match", "level:1", f"cmd:{missing}", "--games", "1", "--quiet"]
    assert main(argv) == 2
    out = capsys.readouterr().out
    assert "lässt sich nicht starten" in out and "no-such-engine" in out
    assert english_left_in(out, "de") == []
