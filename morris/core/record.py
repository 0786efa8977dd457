"""Game records: tag lines and a numbered move list, in the manner of PGN.

::

    [Event "Casual game"]
    [Date "2026.11.29"]
    [White "Ann"]
    [Black "morris level 3"]
    [Result "1-0"]
    [Variant "standard"]
    [Flying "true"]
    [ThreefoldRepetition "true"]
    [NoRemovalLimit "100"]
    [Termination "blocked"]

    1. d6 f4 2. d5 b4 3. d7xf4 ... 1-0

A ``[Position "..."]`` tag (see :meth:`morris.core.board.Board.position`) gives a start other than
the empty board. Reading also accepts a removal written as its own token after the move that
formed the mill (``d7 xf4``), comments in braces and ``;`` to the end of a line. Errors name the
line, the move number and the token. In a tag value a backslash escapes ``"`` and ``\\``, and a
line break is written ``\\n`` (``\\r``, ``\\t``, ``\\uXXXX`` for the rarer ones), so every tag
stays on its own line.

>>> record = read_game('[Result "*"]\\n\\n1. d6 f4 2. d2 *')
>>> [str(m) for m in record.moves]
['d6', 'f4', 'd2']
>>> read_game(write_game(record)) == record
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from morris.core.board import STARTING_POSITION, Board
from morris.core.moves import GameRecordError, IllegalMoveError, InvalidMoveError, Move
from morris.core.variant import find_variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: Tags written first, in this order; others follow in the order they were given.
TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "Flying",
    "ThreefoldRepetition",
    "NoRemovalLimit",
    "RemoveFromMills",
    "DoubleMillRemovesTwo",
    "Position",
    "Termination",
)

#: The tags of the on/off settings and the board keyword each sets.
_BOOL_TAGS = (
    ("Flying", "flying"),
    ("ThreefoldRepetition", "threefold_repetition"),
    ("RemoveFromMills", "remove_from_mills"),
    ("DoubleMillRemovesTwo", "double_mill_removes_two"),
)

_TAG_RE = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_MOVE_NUMBER_RE = re.compile(r"^\d+\.(\.\.)?$")
_NUMBERED_MOVE_RE = re.compile(r"^(\d+)\.(?:\.\.)?(.+)$")


@dataclass
class GameRecord:
    """One recorded game: its tags and its turns, from the position of its tags."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)

    @property
    def result(self) -> str:
        """The ``Result`` tag, ``"*"`` when unknown."""
        return self.tags.get("Result", "*")

    def settings(self) -> dict[str, bool | int | None]:
        """The board settings the tags name (absent tags give the defaults)."""
        settings: dict[str, bool | int | None] = {}
        for tag, key in _BOOL_TAGS:
            if tag in self.tags:
                settings[key] = _parse_bool(tag, self.tags[tag])
        if "NoRemovalLimit" in self.tags:
            value = self.tags["NoRemovalLimit"].strip().lower()
            if value in ("off", "none", "0", "-"):
                settings["no_removal_limit"] = None
            elif value.isdigit():
                settings["no_removal_limit"] = int(value)
            else:
                raise GameRecordError(f"tag NoRemovalLimit: {value!r} is not a number or 'off'")
        return settings

    def start_board(self) -> Board:
        """The board at the start of the game, with the variant and settings of the tags."""
        try:
            cls = find_variant(self.tags.get("Variant", "standard"))
        except ValueError as exc:
            raise GameRecordError(f"tag Variant: {exc}") from None
        position = self.tags.get("Position")
        try:
            return cls(position, **self.settings())  # type: ignore[arg-type]
        except ValueError as exc:
            raise GameRecordError(f"tag Position: {exc}") from None

    def board(self) -> Board:
        """The board after every turn of the record (turns are pushed unchecked)."""
        board = self.start_board()
        for move in self.moves:
            board.push(move)
        return board

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> GameRecord:
        """A record of the turns played on ``board``, with its variant, settings and result."""
        root = board.copy()
        while root.move_stack:
            root.pop()
        record_tags: dict[str, str] = {}
        record_tags.update(tags)
        record_tags.setdefault("Result", board.result())
        record_tags["Variant"] = board.variant_name
        record_tags["Flying"] = "true" if board.flying else "false"
        record_tags["ThreefoldRepetition"] = "true" if board.threefold_repetition else "false"
        limit = board.no_removal_limit
        record_tags["NoRemovalLimit"] = "off" if limit is None else str(limit)
        for tag, key in _BOOL_TAGS[2:]:
            # The removal switches are written only when on, so older records stay as they were.
            if getattr(board, key):
                record_tags[tag] = "true"
        start = root.position()
        if start != type(root)().position():
            record_tags["Position"] = start
        outcome = board.outcome()
        if outcome is not None:
            record_tags.setdefault("Termination", outcome.termination.value)
        return cls(record_tags, list(board.move_stack))


def _parse_bool(tag: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise GameRecordError(f"tag {tag}: {value!r} is not true or false")


#: What ends a line for :meth:`str.splitlines`: a tag value escapes these to stay on one line.
_LINE_BREAKS = "\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_LETTERS = {"\n": "n", "\r": "r", "\t": "t"}
_FROM_LETTER = {v: k for k, v in _LETTERS.items()}


def _escape(value: str) -> str:
    """A tag value on one line: backslash and quote escaped, line breaks as ``\\n``, ``\\uXXXX``."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    for char in _LINE_BREAKS:
        if char in out:
            out = out.replace(char, "\\" + _LETTERS.get(char, f"u{ord(char):04x}"))
    return out


def _unescape_one(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) == 5:
        return chr(int(code[1:], 16))
    return _FROM_LETTER.get(code, code)


def _unescape(value: str) -> str:
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _unescape_one, value)


def write_game(record: GameRecord, *, width: int = 80) -> str:
    """The record as text: tag lines, a blank line, the numbered turns and the result."""
    lines = []
    ordered = [t for t in TAG_ORDER if t in record.tags]
    ordered += [t for t in record.tags if t not in TAG_ORDER]
    for tag in ordered:
        lines.append(f'[{tag} "{_escape(record.tags[tag])}"]')
    lines.append("")
    board = record.start_board()
    tokens: list[str] = []
    for i, move in enumerate(record.moves):
        # A move number and its move are one token, so a line never breaks between them.
        if board.turn:
            tokens.append(f"{board.fullmove_number}. {move}")
        elif i == 0:
            tokens.append(f"{board.fullmove_number}... {move}")
        else:
            tokens.append(str(move))
        board.push(move)
    tokens.append(record.result)
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n"


def _tokens(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    in_comment = False
    for lineno, line in lines:
        kept: list[str] = []
        for ch in line:
            if in_comment:
                in_comment = ch != "}"
            elif ch == "{":
                in_comment = True
                kept.append(" ")
            elif ch == ";":
                break
            else:
                kept.append(ch)
        for token in "".join(kept).split():
            yield lineno, token


def _read_one(lines: list[tuple[int, str]]) -> GameRecord:
    tags: dict[str, str] = {}
    body: list[tuple[int, str]] = []
    for lineno, line in lines:
        stripped = line.strip()
        if not body and stripped.startswith("["):
            match = _TAG_RE.match(stripped)
            if not match:
                raise GameRecordError(f"line {lineno}: malformed tag line {stripped!r}")
            tags[match.group(1)] = _unescape(match.group(2))
        elif stripped:
            body.append((lineno, line))
    record = GameRecord(tags, [])
    board = record.start_board()
    result_token: str | None = None
    pending: tuple[int, str, Move] | None = None  # an action waiting for its ``x..`` token

    def push(lineno: int, text: str, move: Move) -> None:
        reason = board.illegal_reason(move)
        if reason is not None:
            raise GameRecordError(
                f"line {lineno}: move {len(record.moves) + 1} ({text!r}) is illegal: {reason}"
            )
        board.push(move)
        record.moves.append(move)

    for lineno, token in _tokens(body):
        if result_token is not None:
            raise GameRecordError(f"line {lineno}: {token!r} after the result {result_token!r}")
        if _MOVE_NUMBER_RE.match(token):
            continue
        numbered = _NUMBERED_MOVE_RE.match(token)
        if numbered and not token[0].isalpha():
            token = numbered.group(2)
        if token in RESULTS:
            result_token = token
            continue
        if token.lower().startswith("x"):
            if pending is None:
                raise GameRecordError(
                    f"line {lineno}: removal {token!r} follows no move that closed a mill"
                )
            p_line, p_text, p_move = pending
            try:
                removed = Move.parse(f"{p_text}{token}")
            except InvalidMoveError as exc:
                raise GameRecordError(
                    f"line {lineno}: move {len(record.moves) + 1}: {exc}"
                ) from None
            pending = None
            push(p_line, f"{p_text} {token}", removed)
            continue
        if pending is not None:
            p_line, p_text, p_move = pending
            pending = None
            push(p_line, p_text, p_move)
        try:
            move = Move.parse(token)
        except InvalidMoveError as exc:
            raise GameRecordError(f"line {lineno}: move {len(record.moves) + 1}: {exc}") from None
        if move.remove is None and board.closes_mill(move):
            pending = (lineno, token, move)  # its removal may follow as its own token
            continue
        push(lineno, token, move)
    if pending is not None:
        p_line, p_text, p_move = pending
        push(p_line, p_text, p_move)
    if result_token is not None:
        declared = tags.get("Result")
        if declared is not None and declared != result_token:
            raise GameRecordError(
                f"the Result tag {declared!r} and the result {result_token!r} "
                "after the moves differ"
            )
        tags["Result"] = result_token
    tags.setdefault("Result", "*")
    return record


def _split_games(text: str) -> list[list[tuple[int, str]]]:
    games: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    seen_moves = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and seen_moves:
            games.append(current)
            current, seen_moves = [], False
        if stripped and not stripped.startswith("["):
            seen_moves = True
        current.append((lineno, line))
    if any(line.strip() for _, line in current):
        games.append(current)
    return games


def read_games(text: str) -> list[GameRecord]:
    """Every game in ``text``. Raises :class:`GameRecordError` naming the line and the move."""
    return [_read_one(lines) for lines in _split_games(text)]


def read_game(text: str) -> GameRecord:
    """The one game in ``text``. Raises :class:`GameRecordError` if there is not exactly one."""
    games = read_games(text)
    if len(games) != 1:
        raise GameRecordError(f"expected one game, found {len(games)}")
    return games[0]


__all__ = [
    "STARTING_POSITION",
    "GameRecord",
    "GameRecordError",
    "IllegalMoveError",
    "read_game",
    "read_games",
    "write_game",
]
