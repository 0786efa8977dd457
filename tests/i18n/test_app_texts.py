"""The application layer's own texts in Dutch, Finnish and German: the solved game's values
("white wins in 12", in the winner's turns, with each language's plural forms), why a game ended,
the review's verdicts, the remote player's refused turns, the board link's reasons, a bad
configuration file's error, the engine's description, the reasons a move is illegal, the
hardware's and the installer's errors. Each is rendered in every language: no English text of
the catalog is left in it, and it says what it says in English (a positive check of the words)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from morris import i18n
from morris.app.config import Config, load_config
from morris.app.endings import ending_words, outcome_words
from morris.app.errors import ConfigError, InputError, ServiceError
from morris.app.jobs import engine_words_of
from morris.app.mode import Mode
from morris.app.remote import check_remote_move
from morris.app.review import result_words, score_words
from morris.app.values import describe_value, value_json, value_words
from morris.core import BLACK, WHITE, Board, Move, Termination
from morris.engine.result import Result, Value
from morris.engine.search import MATE
from morris.i18n import Message
from tests.app.scenario_kit import position
from tests.i18n.leftovers_kit import english_left_in

TRANSLATED = ("nl", "fi", "de")


@pytest.fixture
def board_language() -> Iterator[None]:
    """Give the test back the board's language it found (the conftest's English)."""
    before = i18n.language()
    yield
    i18n.set_language(before)


#: A word between texts checked at once, so that no English piece is found across two of them.
_APART = " Qzqxj "


def assert_all_translated(messages: list[Message], code: str) -> list[str]:
    """:func:`assert_translated` of each of ``messages``, with one search for English (the
    search is slow: once for all of them, and one by one only to name the one at fault)."""
    texts = [m.render(code) for m in messages]
    for message, text in zip(messages, texts, strict=True):
        assert text != message.render("en"), f"{code}: {text!r} is not translated"
    if english_left_in(_APART.join(texts), code):
        for message in messages:
            assert_translated(message, code)
    return texts


def assert_translated(message: Message, code: str, *, expected: str | None = None) -> str:
    """``message`` in ``code``: no English of the catalog left in it, not its English text, and
    holding ``expected`` where given. Returns the text."""
    text = message.render(code)
    english = message.render("en")
    left = english_left_in(text, code)
    assert not left, f"{code}: {text!r} (English {english!r}) holds English {left}"
    assert text != english, f"{code}: {english!r} is not translated"
    if expected is not None:
        assert expected in text, f"{code}: {text!r} does not say {expected!r}"
    return text


# -- the solved game's values ----------------------------------------------------------------------

#: "white wins in 1" / "in 2" in each language: the plural forms of the winner's turns.
WINS_IN = {
    "en": ("white wins in 1", "white wins in 2", "black wins in 1", "black wins in 2"),
    "nl": (
        "wit wint in 1 zet",
        "wit wint in 2 zetten",
        "zwart wint in 1 zet",
        "zwart wint in 2 zetten",
    ),
    "fi": (
        "valkoinen voittaa 1 siirrolla",
        "valkoinen voittaa 2 siirrolla",
        "musta voittaa 1 siirrolla",
        "musta voittaa 2 siirrolla",
    ),
    "de": (
        "Weiß gewinnt in 1 Zug",
        "Weiß gewinnt in 2 Zügen",
        "Schwarz gewinnt in 1 Zug",
        "Schwarz gewinnt in 2 Zügen",
    ),
}  # fmt: skip


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_wins_in_n_counts_the_winners_turns_with_each_languages_plural(code: str) -> None:
    # A win in 1 ply is the winner's one turn, in 3 plies its two; a loss for the side to move
    # is the other side's win, counted the same way.
    values = [
        {"value": "win", "distance": 1, "for": "white"},
        {"value": "win", "distance": 3, "for": "white"},
        {"value": "loss", "distance": 2, "for": "white"},
        {"value": "loss", "distance": 4, "for": "white"},
    ]
    shown = tuple(value_words(value).render(code) for value in values)
    assert shown == WINS_IN[code]
    if code != "en":
        assert_all_translated([value_words(value) for value in values], code)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_kind_of_value_is_said_in_each_language(code: str) -> None:
    draw = {"value": "draw", "distance": 0, "for": "black"}
    hurried = {"value": "win", "distance": None, "for": "black"}  # the no-removal limit's win
    won = {"value": "loss", "distance": 0, "for": "black"}  # the game is won already
    words = {"nl": ("remise", "zwart wint", "wit heeft gewonnen"),
             "fi": ("tasapeli", "musta voittaa", "valkoinen on voittanut"),
             "de": ("Remis", "Schwarz gewinnt", "Weiß hat gewonnen")}[code]  # fmt: skip
    for value, expected in zip((draw, hurried, won), words, strict=True):
        assert assert_translated(value_words(value), code) == expected
    assert value_words(None).render(code) == "-"


def test_describe_value_is_in_the_boards_language(board_language: None) -> None:
    value = {"value": "win", "distance": 23, "for": "white"}
    assert describe_value(value) == "white wins in 12"
    i18n.set_language("de")
    assert describe_value(value) == "Weiß gewinnt in 12 Zügen"


# -- why a game ended, and the review's verdicts ---------------------------------------------------

ENDINGS = [
    ("white", Termination.BLOCKED.value),
    ("black", Termination.BLOCKED.value),
    ("white", Termination.TOO_FEW_PIECES.value),
    ("black", Termination.TOO_FEW_PIECES.value),
    (None, Termination.THREEFOLD_REPETITION.value),
    (None, Termination.NO_REMOVAL.value),
    (None, Termination.FULL_BOARD.value),
    ("white", Termination.FULL_BOARD.value),  # a variant's full board another way: its own words
    (None, "resigned"),  # a termination these words do not know
]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_ending_is_said_in_each_language(code: str) -> None:
    winners = {"nl": ("wit wint", "zwart wint", "remise"),
               "fi": ("valkoinen voittaa", "musta voittaa", "tasapeli"),
               "de": ("Weiß gewinnt", "Schwarz gewinnt", "Remis")}[code]  # fmt: skip
    known = [(w, t) for w, t in ENDINGS if t != "resigned"]
    texts = assert_all_translated([ending_words(w, t) for w, t in known], code)
    for (winner, _), text in zip(known, texts, strict=True):
        assert text.startswith(winners[{"white": 0, "black": 1, None: 2}[winner]]), text
    # A termination the words do not know: the field's own word, after the result's.
    assert ending_words(None, "resigned").render(code) == f"{winners[2]}: resigned"


def test_the_outcome_of_a_game_is_said_in_the_language_asked() -> None:
    board = Board(position(white="a7 d7 g4", black="b4 d2", turn="w"))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == WHITE
    assert outcome_words(outcome).render("en") == "white wins: black has only two pieces"
    assert (
        outcome_words(outcome).render("fi") == "valkoinen voittaa: mustalla on enää kaksi nappulaa"
    )


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_reviews_verdicts_and_scores_are_said_in_each_language(code: str) -> None:
    win = {"nl": "winst 4", "fi": "voitto 4", "de": "Gewinn 4"}[code]
    loss = {"nl": "verlies 2", "fi": "tappio 2", "de": "Verlust 2"}[code]
    draw = {"nl": "remise", "fi": "tasapeli", "de": "Remis"}[code]
    shown = assert_all_translated(
        [
            result_words(Result(Value.WIN, 7)),
            result_words(Result(Value.LOSS, 3)),
            result_words(Result(Value.DRAW, 0)),
            score_words(MATE - 7),
        ],
        code,
    )
    assert shown == [win, loss, draw, win]
    assert score_words(125).render(code) == "+1.25"  # a score in pieces is a number
    assert result_words(Result(Value.WIN, 7)).render() == "win 4"  # the board's: English here


# -- the remote player's turns ---------------------------------------------------------------------


def _refusal(text: object, **kwargs: object) -> ServiceError:
    options: dict[str, object] = {"mode": Mode.REMOTE, "board": Board(), "remote": BLACK,
                                  "waiting": None}  # fmt: skip
    options.update(kwargs)
    with pytest.raises(InputError) as raised:
        check_remote_move(text, **options)  # type: ignore[arg-type]
    return raised.value


def _remote_refusals() -> list[ServiceError]:
    after_d6 = Board()
    after_d6.push(Move.parse("d6"))
    over = Board(position(white="a7 d7 g4", black="b4 d2", turn="b"))
    return [
        _refusal(7),
        _refusal("zz9"),
        _refusal("d6", mode=Mode.REFEREE),
        _refusal("d6", board=over),
        _refusal("d6", is_setting_up=True),
        _refusal("d6"),  # white's turn at the board, the remote player plays black
        _refusal("d6", board=after_d6, remote=WHITE),  # black's turn
        _refusal("b4", board=after_d6, waiting=Move.parse("d7")),
        _refusal("d6", board=after_d6),  # occupied: an illegal move, in the core's words
    ]


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_refused_remote_turn_is_said_in_each_language(code: str) -> None:
    refusals = _remote_refusals()
    texts = [error.message for error in refusals]
    assert (
        texts[5].render("en").endswith("it is white's turn at the board, not the remote player's")
    )
    assert "d6 is occupied" in texts[8].render("en")
    assert_all_translated(texts, code)
    occupied = {"nl": "d6 is bezet", "fi": "kohta d6 on varattu", "de": "d6 ist besetzt"}[code]
    assert occupied in texts[8].render(code)


def test_str_of_a_refusal_is_the_boards_language(board_language: None) -> None:
    error = _refusal("d6", mode=Mode.REFEREE)
    assert str(error) == "remote move d6: the mode is referee, not remote"
    i18n.set_language("nl")
    assert str(error) == "zet op afstand d6: de modus is referee, niet remote"


# -- why a move is illegal (the core's words) ------------------------------------------------------

MOVING = position(white="a1 d1 g4 f2", black="a7 d7 g7 b6", turn="w")


def _illegal() -> list[Message]:
    start = Board()
    after_d6 = Board()
    after_d6.push(Move.parse("d6"))
    moving = Board(MOVING)
    over = Board(position(white="a7 d7 g4", black="b4 d2", turn="b"))
    cases = [
        (start, "a1-a4"),  # white still has pieces in hand
        (after_d6, "a1-a4"),  # black still has pieces in hand
        (after_d6, "d6"),  # occupied
        (moving, "d3"),  # no piece in hand
        (moving, "a4-b4"),  # no white piece there
        (moving, "a1-b2"),  # not adjacent
        (moving, "f2-f4xb6"),  # closes no mill
        (moving, "g4-g1"),  # closes a mill, no removal given
        (moving, "g4-g1xd2"),  # no black piece to remove there
        (moving, "g4-g1xd7"),  # in a mill while black has pieces outside mills
        (over, "a1"),  # the game is over
    ]
    messages = []
    for board, text in cases:
        message = board.illegal_message(Move.parse(text))
        assert message is not None, text
        assert board.illegal_reason(Move.parse(text)) is not None
        messages.append(message)
    return messages


def test_the_core_keeps_its_english_reasons_for_the_journal() -> None:
    english = [m.render("en") for m in _illegal()]
    assert english[0] == "white still has pieces in hand and must place one"
    assert english[7] == "g4-g1 closes a mill: a removal must be given (e.g. g4-g1x..)"
    over = Board(position(white="a7 d7 g4", black="b4 d2", turn="b"))
    assert over.illegal_reason(Move.parse("a1")) == "the game is over (too-few-pieces, 1-0)"


@pytest.mark.parametrize("code", TRANSLATED)
def test_why_a_move_is_illegal_is_said_in_each_language(code: str) -> None:
    assert_all_translated(_illegal(), code)
    mill = {"nl": "molen", "fi": "mylly", "de": "Mühle"}[code]
    assert mill in _illegal()[7].render(code)


#: Position texts that are no position, each wrong in another field.
BAD_POSITIONS = [
    "x",
    "......../......../........ w 9 9 0 1 -x -",
    "......../......../.......Q w 9 9 0 1 -",
    "......../......../........ x 9 9 0 1 -",
    "WWWWWWWW/WW....../........ w 9 9 0 1 -",
    "......../......../........ w 9 9 0 0 -",
    "......../......../........ w 9 9 0 1 a1-a4",
    "......../......../........ w 9 9 1 1 a1",
    "......../......../........ w 9 9 1 1 zz-a4",
    ".......W/......../........ b 8 9 1 1 a7-a1",
    "......../......../........ w 9 9 0 x1 -",
]


@pytest.mark.parametrize("code", TRANSLATED)
def test_why_a_position_text_is_no_position_is_said_in_each_language(code: str) -> None:
    from morris.core import InvalidPositionError

    errors = []
    for text in BAD_POSITIONS:
        with pytest.raises(InvalidPositionError) as raised:
            Board(text)
        assert str(raised.value) == raised.value.message.render("en")  # English for the journal
        errors.append(raised.value.message)
    assert_all_translated(errors, code)
    with pytest.raises(InputError) as refused:  # the setup page's refusal, around the core's words
        from morris.app.board_setup import parse_position

        parse_position(Board(), "......../......../.......Q w 9 9 0 1 -")
    shown = assert_translated(refused.value.message, code)
    assert "'Q'" in shown and "c4" in shown


# -- the board link --------------------------------------------------------------------------------


def _link_reasons() -> list[Message]:
    import httpx

    from morris.web.pairing import PairingRefused, clash_message, not_remote_here, why_not_connected

    url = "http://192.168.1.30:8700"
    refused = PairingRefused(i18n.msg("{url} refused the link ({status}): {why}", url=url,
                                   status="401", why=i18n.plain("unauthorized")))  # fmt: skip
    clash_white = clash_message("white", "remote", "black")
    clash_black = clash_message("black", "remote", "white")
    other_mode = clash_message("white", "referee", None)
    assert clash_white is not None and clash_black is not None and other_mode is not None
    return [
        why_not_connected(url, httpx.ConnectError("[Errno 111] Connection refused")),
        why_not_connected(url, httpx.ConnectError("[Errno 113] No route to host")),
        why_not_connected(url, httpx.ReadTimeout("timed out")),
        why_not_connected(url, RuntimeError("boom")),
        why_not_connected(url, refused),
        clash_white,
        clash_black,
        other_mode,
        not_remote_here(Mode.REFEREE),
    ]


def _without_options(text: str) -> str:
    """``text`` without the option names and the words they quote (never translated)."""
    for option in ("--human white", "--human black", "--mode remote", "--web"):
        text = text.replace(option, "")
    return text


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_links_reasons_are_said_in_each_language(code: str) -> None:
    reasons = _link_reasons()
    english = [m.render("en") for m in reasons]
    assert english[0] == (
        "connection refused to http://192.168.1.30:8700 (is the other board running with --web?)"
    )
    assert english[5].startswith("both boards play white at the board (--human white on both)")
    texts = [message.render(code) for message in reasons]
    for message, text in zip(reasons, texts, strict=True):
        assert text != message.render("en")
    left = english_left_in(_without_options(_APART.join(texts)), code)
    assert not left, f"{code}: {texts!r} hold English {left}"
    for index in range(5):
        assert "http://192.168.1.30:8700" in reasons[index].render(code)  # the address as given
    assert "--human black" in reasons[5].render(code)  # the fix, with the option as it is typed
    assert "referee" in reasons[8].render(code)  # the mode's name, as it is typed


def test_the_links_words_for_the_state_are_the_boards_language(board_language: None) -> None:
    from morris.web.pairing import pairing_clash

    assert pairing_clash("white", "remote", "black") == (
        "both boards play white at the board (--human white on both): start one with --human black"
    )
    i18n.set_language("fi")
    clash = pairing_clash("white", "remote", "black")
    assert clash is not None and clash.startswith("kummallakin laudalla")


# -- a bad configuration file ----------------------------------------------------------------------


def _config_error(tmp_path: Path, text: str) -> ConfigError:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    return raised.value


def test_a_bad_configuration_files_error_in_german_names_the_file_and_key(
    tmp_path: Path, board_language: None
) -> None:
    path = tmp_path / "config.toml"
    i18n.set_language("de")
    error = _config_error(tmp_path, "[game]\nlevel = 99\n")
    text = str(error)  # what the command line prints, in the board's language
    assert text.startswith(f"{path}: game.level ")  # the file and the key as they are
    assert "muss zwischen 1 und 9 liegen" in text and "99" in text
    assert not english_left_in(text, "de"), text
    assert error.message.render("en") == f"{path}: game.level must be from 1 to 9, got 99"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_kind_of_configuration_error_is_said_in_each_language(
    tmp_path: Path, code: str
) -> None:
    files = [
        "[game]\nlevel = 99\n",
        "[game]\nmode = 'chess'\n",
        "[game]\nlevel = 'five'\n",
        "[game]\nflying = 1\n",
        "[engine]\nmovetime = 'x'\n",
        "[web]\nlisten = 'nowhere'\n",
        "[web]\nlink = 'ftp://x'\n",
        "[ui]\nlanguage = '!!'\n",
        "[speech]\nvoice = '?'\n",
        "[referee]\ndebounce = 0.5\naccept_delay = 0.1\n",
        "[web]\nlink = 'http://10.0.0.2:8700'\n",  # a link outside mode remote
        "game = 3\n",  # a section that is no table
    ]
    errors = [_config_error(tmp_path, text).message for text in files]
    for shown in assert_all_translated(errors, code):
        assert shown.startswith(str(tmp_path / "config.toml")), shown
    not_toml = _config_error(tmp_path, "[game\n").message.render(code)  # tomllib's words follow
    assert not_toml.split(": ")[1] == {"nl": "geen geldige TOML", "fi": "ei kelvollista TOMLia",
                                       "de": "kein gültiges TOML"}[code]  # fmt: skip
    unknown = _config_error(tmp_path, "[game]\nspeed = 1\n").message
    shown = unknown.render(code)
    assert "game.speed" in shown and shown != unknown.render("en")
    assert not english_left_in(shown.split("(")[0], code)  # before the list of the known keys
    unreadable = tmp_path / "latin1.toml"
    unreadable.write_bytes(b"[game]\nmode = '\xe9'\n")
    with pytest.raises(ConfigError) as raised:
        load_config(unreadable)
    assert_translated(raised.value.message, code)


# -- the engine, the hardware, the installer -------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_engines_description_is_said_in_each_language(code: str) -> None:
    fields = [
        "built-in, C search in a thread",
        "built-in, C search in its own process",
        "built-in, Python search in a thread",
        "built-in, Python search in its own process",
    ]
    assert_all_translated([engine_words_of(field) for field in fields], code)
    external = engine_words_of("external: /usr/bin/sanmill --uci").render(code)
    assert external.endswith(": /usr/bin/sanmill --uci") and not external.startswith("external")
    assert engine_words_of("something new").render(code) == "something new"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_hardwares_and_the_installers_errors_are_said_in_each_language(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from morris.app.errors import HardwareUnavailable, InstallError
    from morris.daemon import install, loop

    monkeypatch.setattr(loop, "gpio_available", lambda: False)
    with pytest.raises(HardwareUnavailable) as no_gpio:
        loop.open_hardware(Config())  # a gpio board on a machine without GPIO
    shown = assert_translated(no_gpio.value.message, code, expected="`morris run --sim`")
    assert "/dev/gpiochip*" in shown
    with pytest.raises(InstallError) as fixed_port:
        install._checked_listen("127.0.0.1:0")
    assert_translated(fixed_port.value.message, code, expected="'127.0.0.1:0'")
    with pytest.raises(InstallError) as by_name:
        install._link_address("http://board.example:8700")
    assert_translated(by_name.value.message, code, expected="[web] link")
    with pytest.raises(InstallError) as bad_listen:
        install._checked_listen("nowhere")
    assert_translated(bad_listen.value.message, code)


# -- where the words are shown ---------------------------------------------------------------------


def test_a_reviews_json_gives_the_solved_values_words_in_the_language_asked() -> None:
    from morris.app.review import TurnReview

    value = value_json(Result(Value.WIN, 3), "white")
    turn = TurnReview(ply=1, label="1.", move="d6", mover="white", before="", after="", best=None,
                      score_before=None, score_after=None, wdl_before=None, wdl_after=None,
                      threw=None, solution_before=value, solution_after=None)  # fmt: skip
    assert turn.to_json()["solution_before"]["text"] == "white wins in 2"  # the board's: English
    assert turn.to_json("nl")["solution_before"] == {**value, "text": "wit wint in 2 zetten"}
    assert turn.to_json("de")["solution_after"] is None


def test_the_snapshots_outcome_is_said_in_the_readers_language() -> None:
    from morris.sim import Simulation
    from tests.app.scenario_kit import SETTLE, play

    with Simulation(mode="referee") as sim:
        sim.setup(position("a7 d7 g4", "a1 d1 f2", turn="w"))
        for name in ("a7", "d7", "g4", "a1", "d1", "f2"):
            sim.place(name)
        sim.wait(SETTLE)
        play(sim, "g4-g7xa1", pause=1.0)  # a mill, and Black is down to two pieces
        snapshot = sim.controller.snapshot(sim.now)
        i18n.set_language("fi")  # the board's language: its snapshot says it; the journal, English
        try:
            assert str(snapshot.outcome).startswith("1-0 (valkoinen voittaa")
            journal = sim.controller.describe()
        finally:
            i18n.set_language("en")
    assert "game over 1-0 (white wins: black has only two pieces)" in journal
    assert snapshot.outcome is not None and snapshot.termination == "too-few-pieces"
    assert str(snapshot.outcome) == "1-0 (white wins: black has only two pieces)"
    assert snapshot.outcome.render("de") == "1-0 (Weiß gewinnt: Schwarz hat nur noch zwei Steine)"
