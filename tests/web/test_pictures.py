"""The board picture as PNG (the same scene as the SVG), ``GET /api/render.png`` and
``morris render``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from morris.cli import main
from morris.core import GameRecord, write_game
from morris.web.picture import COLOURS, point_xy, render_svg, scene_of_position
from morris.web.png import render_png
from tests.web.review_kit import BLUNDERED, board_of, client, companion

# White on a7, black on g1, white to move in the placing phase.
POSITION = "W...B.../......../........ w 8 8 0 2 -"


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def pixel_at(data: bytes, name: str, *, flip: bool = False) -> tuple[int, int, int]:
    """The PNG's colour at the centre of point ``name`` (in the scene's coordinates)."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    scale = image.width / 360
    x, y = point_xy(name, flip=flip)
    # Off the centre, on no line: the dot of the lines is under a piece at the very centre.
    r, g, b = image.getpixel((round((x + 7) * scale), round((y + 7) * scale)))  # type: ignore[misc]
    return r, g, b


def close(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(p - q) <= 12 for p, q in zip(a, b, strict=True))


def test_the_png_draws_the_pieces_where_the_svg_does() -> None:
    scene = scene_of_position(POSITION)
    data = render_png(scene, width=360)
    assert Image.open(io.BytesIO(data)).size == (360, 360)
    assert close(pixel_at(data, "a7"), rgb(COLOURS["white"]))
    assert close(pixel_at(data, "g1"), rgb(COLOURS["black"]))
    assert close(pixel_at(data, "d5"), rgb(COLOURS["board"]))
    flipped = render_png(scene_of_position(POSITION, flip=True), width=360)
    # Seen from black's side a7 is drawn where g1 was.
    assert close(pixel_at(flipped, "a7", flip=True), rgb(COLOURS["white"]))
    assert close(pixel_at(flipped, "a7"), rgb(COLOURS["black"]))


def test_without_freetype_the_png_is_drawn_with_the_bitmap_font_and_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Pillow built from source without FreeType (a 32-bit Pi without libfreetype-dev) has no
    scalable font: the board is drawn all the same, its labels in the bitmap font."""
    from PIL import ImageFont, features

    from morris.web import png

    real = features.check_module
    monkeypatch.setattr(features, "check_module", lambda m: m != "freetype2" and real(m))
    monkeypatch.setattr(png, "_WARNED_NO_FREETYPE", False)
    sized = []
    monkeypatch.setattr(
        ImageFont, "truetype", lambda *a, **k: sized.append(k) or pytest.fail("FreeType used")
    )
    data = render_png(scene_of_position(POSITION), width=360)
    render_png(scene_of_position(POSITION), width=360)
    assert close(pixel_at(data, "a7"), rgb(COLOURS["white"]))
    assert not sized
    warnings = [r for r in caplog.records if "FreeType" in r.getMessage()]
    assert len(warnings) == 1


def test_the_png_width_is_bounded() -> None:
    with pytest.raises(ValueError, match="width must be"):
        render_png(scene_of_position(POSITION), width=10_000)


@pytest.mark.realtime
def test_render_png_route(tmp_path: Path) -> None:
    with client(companion(tmp_path)) as http:
        answer = http.get("/api/render.png", params={"position": POSITION, "width": "200"})
        missing = http.get("/api/render.png")
        bad = http.get("/api/render.png", params={"position": "nonsense"})
        wide = http.get("/api/render.png", params={"position": POSITION, "width": "99999"})
        word = http.get("/api/render.png", params={"position": POSITION, "width": "big"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(answer.content)).size == (200, 200)
    assert close(pixel_at(answer.content, "a7"), rgb(COLOURS["white"]))
    assert missing.status_code == 400 and "position missing" in missing.json()["error"]
    assert bad.status_code == 400 and "nonsense" in bad.json()["error"]
    assert wide.status_code == 400 and "width must be" in wide.json()["error"]
    assert word.status_code == 400 and "'big'" in word.json()["error"]


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(write_game(GameRecord.from_board(board_of(BLUNDERED))), encoding="utf-8")
    return path


def test_render_draws_the_same_svg_as_the_page(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["render", POSITION]) == 0
    assert capsysbinary.readouterr().out.decode() == render_svg(scene_of_position(POSITION))
    assert main(["render", POSITION, "--flip"]) == 0
    assert capsysbinary.readouterr().out.decode() == render_svg(
        scene_of_position(POSITION, flip=True)
    )


def test_render_a_turn_of_a_record(
    record_file: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    board = board_of(BLUNDERED)
    while len(board.move_stack) > 15:
        board.pop()
    assert main(["render", str(record_file), "--turn", "15"]) == 0
    svg = capsysbinary.readouterr().out.decode()
    assert svg == render_svg(scene_of_position(board.position(), last_move="g4xd1"))
    assert 'data-point="d1" data-signal="off" data-mark="taken"' in svg


def test_render_startpos_draws_the_variants_empty_board(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    from morris.core.variant import TwelveMensMorris

    assert main(["render", "startpos", "--variant", "twelve"]) == 0
    svg = capsysbinary.readouterr().out.decode()
    assert svg == render_svg(scene_of_position(TwelveMensMorris().position(), variant="twelve"))


def test_render_png_to_a_file(record_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "end.png"
    assert main(["render", str(record_file), "-o", str(out), "--width", "240"]) == 0
    image = Image.open(out)
    assert image.format == "PNG" and image.size == (240, 240)
    svg_out = tmp_path / "start.svg"
    assert main(["render", str(record_file), "--turn", "0", "-o", str(svg_out)]) == 0
    assert svg_out.read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{record}", "--turn", "21"], "--turn 21: {record} has 20 turns (0..20)"),
        (["{record}", "--turn", "-1"], "--turn -1"),
        ([POSITION, "--turn", "3"], "--turn is for a game record"),
        (["......../......../........ x 9 9 0 1 -"], "side to move"),
        (["nothing.txt"], "neither startpos, a game record file nor a position text"),
        ([POSITION, "--variant", "chess"], "--variant"),
        ([POSITION, "--format", "png", "--width", "5", "-o", "{tmp}/x.png"], "width must be"),
    ],
)
def test_render_refuses_bad_input_with_exit_2(
    record_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    def fill(text: str) -> str:
        return text.format(record=record_file, tmp=tmp_path)

    assert main(["render", *(fill(a) for a in args)]) == 2
    err = capsys.readouterr().err
    assert fill(message) in err and "Traceback" not in err


def test_render_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1. d6 d6 *\n", encoding="utf-8")
    assert main(["render", str(path)]) == 2
    assert "move 2 ('d6') is illegal" in capsys.readouterr().err
