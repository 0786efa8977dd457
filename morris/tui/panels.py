"""The side panel's texts: the game (who plays, whose turn, the pieces, the moves), the status
LEDs, the legend of the light language and the solved game's value of the position; and the
app's subtitle (:func:`mode_text`). Each is drawn from the controller's snapshot alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rich.style import Style
from rich.text import Text

from morris.app.mode import Mode
from morris.app.snapshot import Snapshot
from morris.app.values import ValueJson, describe_value
from morris.core import COLOR_NAMES, Rules
from morris.i18n import N_, _
from morris.tui import colours
from morris.tui.dialogs import colour_word, variant_title
from morris_device import Signal, StatusLight, signal_level


def _swatch(lit: bool) -> Text:
    return Text("■", Style(color=colours.LIT if lit else "#4a3a2a"))


#: The lights' signals as the legend names them (the wiring's names, ``on``, ``slow``,
#: ``fast``, are :class:`morris_device.Signal`'s values, the same in every language).
_SIGNAL_WORDS = {
    # TRANSLATORS: a point's light in the legend: lit steadily.
    Signal.ON: N_("on"),
    # TRANSLATORS: a point's light in the legend: blinking slowly (1 Hz).
    Signal.SLOW: N_("slow"),
    # TRANSLATORS: a point's light in the legend: blinking fast (4 Hz).
    Signal.FAST: N_("fast"),
}


def legend(now: float) -> Text:
    """The light language and the piece symbols, each swatch blinking at its rate."""
    text = Text()
    text.append(_("Lights") + "\n", Style(bold=True))
    signals = [
        (signal, _(_SIGNAL_WORDS[signal]), meaning)
        for signal, meaning in (
            (Signal.ON, _("put a piece here")),
            (Signal.SLOW, _("take this piece off")),
            (Signal.FAST, _("wrong: put back / take off")),
        )
    ]
    width = max(5, *(len(word) for _signal, word, _meaning in signals))
    for signal, word, meaning in signals:
        text.append(" ")
        text.append_text(_swatch(signal_level(signal, now, since=0.0)))  # a sample
        text.append(f" {word:<{width}} {meaning}\n")
    text.append(_("Pieces") + "\n", Style(bold=True))
    for pieces, meaning in (
        ((("white", "W"), ("black", "B")), _("white, black")),
        ((("unknown", "?"),), _("on the wood, not read as a turn yet")),
        ((("white", "w"), ("black", "b")), _("lifted: the game's piece is off")),
    ):
        text.append(" ")
        for colour, glyph in pieces:
            text.append(
                glyph, Style(color=colours.PIECE_COLOURS[colour], bgcolor=colours.PAD, bold=True)
            )
            text.append(" ")
        text.append(f"{meaning}\n" if len(pieces) == 2 else f"   {meaning}\n")
    text.rstrip()
    return text


#: The status LEDs' names (their words in the catalogs).
_LED_WORDS = {
    StatusLight.TURN: N_("turn"),
    StatusLight.THINKING: N_("thinking"),
    StatusLight.ERROR: N_("error"),
    StatusLight.GAME_OVER: N_("game over"),
}


def status_text(
    status: Mapping[StatusLight, Signal], since: Mapping[StatusLight, float], now: float
) -> Text:
    """The four status LEDs, each lit or dark at ``now`` (blinking from its ``since``)."""
    text = Text()
    names = {light: _(word) for light, word in _LED_WORDS.items()}
    heading = _("LEDs")
    indent = max(7, len(heading) + 1)
    text.append(heading.ljust(indent), Style(bold=True))
    for i, (light, label) in enumerate(names.items()):
        signal = status.get(light, Signal.OFF)
        lit = signal_level(signal, now, since.get(light, now))
        if i == 2:
            text.append("\n" + " " * indent)
        text.append(
            "● ",
            Style(color="#ff4040" if light is StatusLight.ERROR else colours.LIT)
            if lit
            else Style(color="#555555"),
        )
        text.append(f"{label:<10}", Style(dim=not lit))
    return text


def solution_text(value: ValueJson | None) -> Text:
    """The solved game's value of the position as a line of the game panel ("Solved white wins
    in 12"), or nothing where no solution covers the position."""
    text = Text()
    if value is not None:
        text.append(_("Solved") + " ", Style(bold=True))
        text.append(describe_value(value) + "\n", Style(color="#87d7ff"))
    return text


#: The remote player's connection (the snapshot's ``connection``), in words.
_CONNECTION_WORDS = {"up": N_("connected"), "waiting": N_("waiting"), "none": N_("no link")}


def _connection_word(connection: str) -> str:
    return _(_CONNECTION_WORDS[connection]) if connection in _CONNECTION_WORDS else connection


def describe_game_rules(rules: Rules) -> str:
    """The variant and its settings in a line, in the board's language ("Nine men's morris,
    flying on"; :func:`morris.core.describe_rules`'s words)."""
    parts = [variant_title(rules.name), _("flying on") if rules.flying else _("flying off")]
    if rules.remove_from_mills:
        parts.append(_("removal from mills"))
    if rules.double_mill_removes_two:
        parts.append(_("a double mill removes two"))
    return ", ".join(parts)


def mode_text(snap: Snapshot, rules: Rules) -> str:
    """Who plays, as the snapshot has it, and the game's rules (the app's subtitle)."""
    you = colour_word(snap.human)
    if snap.mode is Mode.REFEREE:
        who = _("referee: two players")
    elif snap.mode is Mode.REMOTE:
        who = _("you ({colour}) vs a remote player ({link})").format(
            colour=you, link=_connection_word(snap.connection)
        )
    else:
        who = _("you ({colour}) vs the Pi, level {level}").format(colour=you, level=snap.level)
    return f"{who} · {describe_game_rules(rules)}"


def turn_text(snap: Snapshot) -> str:
    """Whose turn it is, in a few words."""
    if snap.termination is not None:
        from morris.app.endings import describe_ending

        return describe_ending(snap.winner, snap.termination)
    side = colour_word(snap.turn)
    if snap.board_setup is not None:
        if snap.board_setup == "black":
            return _("setting up: black's pieces")
        return _("setting up: white's pieces")
    if snap.remote_color is not None:
        if snap.turn != snap.remote_color:
            return _("your move ({colour})").format(colour=side)
        if snap.connection == "up":
            return _("the remote player ({colour})").format(colour=side)
        waiting = _("the remote player ({colour}): waiting").format(colour=side)
        return waiting + (f" ({snap.connection_reason})" if snap.connection_reason else "")
    if snap.pi_color is None:
        return _("black to move") if snap.turn == "black" else _("white to move")
    if snap.turn != snap.pi_color:
        return _("your move ({colour})").format(colour=side)
    if snap.thinking:
        return _("the Pi ({colour}) thinks…").format(colour=side)
    return _("the Pi ({colour}): do its move").format(colour=side)


def game_text(snap: Snapshot) -> Text:
    """The game panel: mode, turn, the solved game's value, pieces and moves."""
    over = snap.termination is not None
    you = colour_word(snap.human)
    labels = {"mode": _("Mode"), "over": _("Over"), "turn": _("Turn"), "moves": _("Moves")}
    width = max(7, *(len(label) + 1 for label in labels.values()))
    bold = Style(bold=True)
    text = Text()
    text.append(labels["mode"].ljust(width), bold)
    if snap.mode is Mode.REFEREE:
        text.append(_("referee: two players") + "\n")
    elif snap.mode is Mode.REMOTE:
        line = _("you ({colour}) · remote player ({link})")
        text.append(line.format(colour=you, link=_connection_word(snap.connection)) + "\n")
    else:
        line = _("you ({colour}) · Pi level {level}")
        text.append(line.format(colour=you, level=snap.level) + "\n")
    if over:
        text.append(labels["over"].ljust(width), bold)
        text.append(turn_text(snap) + "\n", Style(color="#ffd75f", bold=True))
    else:
        text.append(f"{labels['turn']} {snap.fullmove:<3}".ljust(width), bold)
        text.append(turn_text(snap) + "\n")
    text.append_text(solution_text(snap.solution))
    if snap.flagged:
        text.append(
            " " * width + _("the board does not match!") + "\n",
            Style(color="#ff5f5f", bold=True),
        )
    names = {name: colour_word(name) for name in COLOR_NAMES.values()}
    players = {name: _player(snap, name) for name in names}
    name_w = max(6, *(len(word) + 1 for word in names.values()))
    player_w = max(6, *(len(word) + 1 for word in players.values()))
    pieces, in_hand, there = _("Pieces"), _("in hand"), _("on board")
    hand_w, board_w = max(3, len(in_hand)), max(3, len(there))
    heading = f"{pieces:<{3 + name_w + player_w}}{in_hand:>{hand_w}} {there:>{board_w}}"
    text.append(heading + "\n", bold)
    on_board = Counter(snap.pieces.values())
    for name in COLOR_NAMES.values():
        mark = "◀" if snap.turn == name and not over else " "
        text.append(" ")
        text.append(
            colours.PIECE_GLYPHS[name],
            Style(color=colours.PIECE_COLOURS[name], bgcolor=colours.PAD, bold=True),
        )
        text.append(
            f" {names[name]:<{name_w}}{players[name]:<{player_w}}"
            f"{snap.in_hand[name]:>{hand_w}} {on_board[name]:>{board_w}} {mark}\n"
        )
    text.append(labels["moves"].ljust(width), bold)
    text.append(moves_text(snap) or _("none yet"))
    return text


def _player(snap: Snapshot, colour: str) -> str:
    if snap.remote_color is not None:
        return _("(far)") if colour == snap.remote_color else _("(you)")
    pi = snap.pi_color
    if pi is None:
        return ""
    return "(Pi)" if colour == pi else _("(you)")


def moves_text(snap: Snapshot, width: int = 30) -> str:
    """The turns so far, numbered as the game record numbers them (a game set up or resumed at
    turn 20 starts at ``20.``; ``20...`` when black played first), the latest kept when they do
    not fit in ``width``."""
    number, white = snap.first_fullmove, snap.first_turn == "white"
    tokens = []
    for index, move in enumerate(snap.moves):
        if white:
            tokens.append(f"{number}.{move}")
        else:
            tokens.append(f"{number}...{move}" if index == 0 else move)
            number += 1
        white = not white
    line = " ".join(tokens)
    return line if len(line) <= width else "…" + line[-(width - 1) :]
