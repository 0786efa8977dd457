"""``morris render POSITION|RECORD``: the board picture of the page, as SVG or PNG.

The picture is the web companion's (:mod:`morris.web.picture`: one scene, drawn as SVG or, with
Pillow, as PNG by :mod:`morris.web.png`), so the command line, ``/api/render.svg``,
``/api/render.png`` and the page show the same board.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from morris.app.errors import ServiceError
from morris.commands.words import either, error
from morris.i18n import _, ngettext

__all__ = ["Picture", "RenderError", "picture_of", "register", "run"]


#: The prefix of the command's errors on stderr.
COMMAND = "morris render"


class RenderError(ServiceError, ValueError):
    """What ``morris render`` was given cannot be drawn; the message names it."""


def register(subparsers: Any) -> None:
    """Add ``morris render``."""
    parser = subparsers.add_parser(
        "render",
        help=_("draw a position or a turn of a game record as SVG or PNG"),
        # TRANSLATORS: {example} is a position text, typed as it is.
        description=_(
            "Draw the board picture of the web companion: a position text (quote it: "
            "{example}) or a game record file, at its end or after --turn N turns, the last "
            "turn marked. Exit code 2 for a position, record, turn or option that cannot be "
            "drawn, and for an -o file that is no .svg or .png."
        ).format(example="'......../......../........ w 9 9 0 1 -'"),
    )
    parser.add_argument(
        "source",
        metavar="POSITION|startpos|RECORD",
        # TRANSLATORS: startpos is typed as it is.
        help=_("a position text, startpos (the variant's empty board), or a game record file"),
    )
    parser.add_argument(
        "--turn",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "with a record: the position after its first N turns (0: the start; default: the end)"
        ),
    )
    parser.add_argument(
        "--format",
        choices=("svg", "png"),
        default=None,
        help=_("picture format (default: from the -o file's suffix, else svg)"),
    )
    parser.add_argument("--flip", action="store_true", help=_("seen from black's side"))
    parser.add_argument(
        "--variant",
        default="standard",
        help=_("with a position: its variant (a record names its own; default standard)"),
    )
    parser.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="PX",
        help=_("PNG width and height in pixels (default {width})").format(width=720),
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=None, metavar="FILE", help=_("write here, not stdout")
    )
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class Picture:
    """What to draw: a position of a variant, and the turn that led to it (marked)."""

    position: str
    variant: str
    last_move: str | None


def picture_of(source: str, *, turn: int | None = None, variant: str = "standard") -> Picture:
    """The position ``source`` names: a position text, or a record file (its end, or the
    position after ``turn`` turns). Raises :class:`RenderError` naming the problem."""
    from morris.core import GameRecordError, find_variant, read_game

    if source == "-" or Path(source).is_file():
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            record = read_game(text)
            board = record.start_board()
        except UnicodeDecodeError:
            raise RenderError(not_utf8(source)) from None
        except OSError as exc:
            raise RenderError(cannot_read(source, exc)) from None
        except GameRecordError as exc:
            # TRANSLATORS: {problem} is the record reader's reason (English).
            raise RenderError(
                _("{path}: not a valid game record: {problem}").format(path=source, problem=exc)
            ) from None
        count = len(record.moves) if turn is None else turn
        if not 0 <= count <= len(record.moves):
            n = len(record.moves)
            raise RenderError(
                ngettext(
                    "{option}: {path} has {n} turn ({range})",
                    "{option}: {path} has {n} turns ({range})",
                    n,
                ).format(option=f"--turn {turn}", path=source, n=n, range=f"0..{n}")
            )
        for move in record.moves[:count]:
            board.push(move)
        last = str(record.moves[count - 1]) if count else None
        return Picture(board.position(), record.tags.get("Variant", "standard"), last)
    if turn is not None:
        raise RenderError(_("--turn is for a game record; a position is drawn as it is"))
    try:
        cls = find_variant(variant)
    except (KeyError, ValueError):
        from morris.commands.tables import unknown_variant

        raise RenderError(f"--variant: {unknown_variant(variant)}") from None
    if source.strip() == "startpos":  # as in `morris analyse` and the engine protocol
        return Picture(cls().position(), variant, None)
    if len(source.split()) < 6:
        # TRANSLATORS: startpos is typed as it is.
        raise RenderError(
            _("{text} is neither startpos, a game record file nor a position text").format(
                text=repr(source)
            )
        )
    try:
        board = cls.from_position(source)
    except ValueError as exc:
        # TRANSLATORS: {problem} is the position reader's reason (English).
        raise RenderError(_("not a position: {problem}").format(problem=exc)) from None
    return Picture(board.position(), variant, None)


#: The pictures ``morris render`` draws, by the suffix of the file they go to.
FORMATS = {".svg": "svg", ".png": "png"}


def output_format(given: str | None, output: Path | None) -> tuple[str, str | None]:
    """The format to write (``--format``, else the ``-o`` file's suffix, else SVG) and why the
    two cannot be written, if so: a suffix that is no picture this command draws (``x.jpg``),
    or one that says another format than ``--format``. A file without a suffix takes
    ``--format``.

    >>> output_format(None, Path("x.png")), output_format("svg", Path("board"))
    (('png', None), ('svg', None))
    >>> output_format(None, Path("x.jpg"))[1]
    'x.jpg: cannot write .jpg; give a file ending .svg or .png'
    """
    suffix = "" if output is None else output.suffix.lower()
    if suffix and suffix not in FORMATS:
        return given or "svg", _(
            "{path}: cannot write {suffix}; give a file ending {formats}"
        ).format(path=output, suffix=suffix, formats=either([".svg", ".png"]))
    implied = FORMATS.get(suffix)
    if given is not None and implied is not None and given != implied:
        # TRANSLATORS: {format} is a picture format's name ("PNG").
        return given, _("{option}, but {path} is named for {format}: give one").format(
            option=f"--format {given}", path=output, format=implied.upper()
        )
    return given or implied or "svg", None


def run(args: argparse.Namespace) -> int:
    """Draw the picture; write it to ``-o FILE`` or standard output. Exit code 2 for bad input."""
    from morris.web.picture import render_svg, scene_of_position
    from morris.web.png import DEFAULT_WIDTH, render_png

    fmt, problem = output_format(args.format, args.output)
    if problem is not None:
        error(problem, command=COMMAND)
        return 2
    try:
        picture = picture_of(args.source, turn=args.turn, variant=args.variant)
        scene = scene_of_position(
            picture.position, picture.variant, last_move=picture.last_move, flip=args.flip
        )
        data = (
            render_png(scene, width=DEFAULT_WIDTH if args.width is None else args.width)
            if fmt == "png"
            else render_svg(scene).encode()
        )
    except (RenderError, ValueError) as exc:
        error(str(exc), command=COMMAND)
        return 2
    if args.output is None:
        if fmt == "png" and sys.stdout.isatty():
            error(_("a PNG is not for the terminal: use -o FILE"), command=COMMAND)
            return 2
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    try:
        args.output.write_bytes(data)
    except OSError as exc:
        error(cannot_write(args.output, exc), command=COMMAND)
        return 2
    return 0


def not_utf8(name: object) -> str:
    """Why the file ``name`` is no game record: it is not UTF-8 text."""
    return _("{path}: not a game record (not UTF-8 text)").format(path=name)


def cannot_read(name: object, exc: OSError) -> str:
    """Why the file ``name`` cannot be read (``exc``'s reason, the system's words)."""
    return _("cannot read {path}: {reason}").format(path=name, reason=exc.strerror or exc)


def cannot_write(name: object, exc: OSError) -> str:
    """Why the file ``name`` cannot be written (``exc``'s reason, the system's words)."""
    return _("cannot write {path}: {reason}").format(path=name, reason=exc.strerror or exc)
