"""The daemon's configuration: one TOML file, every key documented, sane defaults.

Command-line flags override keys (see :func:`Config.with_overrides`). A bad file raises
:class:`ConfigError` naming the file and the key; the command line turns it into exit code 2.
The documented template is :data:`TEMPLATE` (``morris config --template`` prints it; the service
installs ``systemd/config.toml``, which holds the same keys).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from morris.app.errors import ConfigError
from morris.app.mode import Mode
from morris.app.paths import systemd_state_dir, tables_dir, user_state_dir
from morris.core.board import Board
from morris.core.rules import STANDARD
from morris.core.variant import VARIANT_NAMES, VARIANTS, find_variant
from morris.engine.levels import MAX_LEVEL
from morris.i18n import Message, msg

logger = logging.getLogger(__name__)

COLOURS = ("white", "black")
BACKENDS = ("gpio", "serial", "sim")


@dataclass(frozen=True)
class GameConfig:
    """``[game]``: what is played."""

    mode: Mode = Mode.VS_AI
    human: str = "white"
    level: int = 5
    variant: str = STANDARD.name
    flying: bool = True  # false switches flying off; true keeps the variant's (six: none)
    threefold_repetition: bool = True
    no_removal_limit: int = 100  # 0 switches the rule off
    remove_from_mills: bool = False
    double_mill_removes_two: bool = False


@dataclass(frozen=True)
class EngineConfig:
    """``[engine]``: who the Pi is."""

    command: str = ""  # empty: the built-in engine; else an external engine command line
    movetime: float = 10.0  # a cap on the Pi's thinking time per turn, seconds
    seed: int = 0
    tables: str = ""  # endgame table directory; empty: the default data directory
    solution: str = ""  # the solved game's directory; empty: solution/ in the tables' directory


@dataclass(frozen=True)
class RefereeTimings:
    """``[referee]``: how a person's actions on the board are read (seconds)."""

    debounce: float = 0.1
    accept_delay: float = 0.5
    flag_delay: float = 5.0
    takeback_delay: float = 1.5
    clear_delay: float = 2.0
    hint_duration: float = 4.0


@dataclass(frozen=True)
class HardwareConfig:
    """``[hardware]``: what is under the board."""

    backend: str = "gpio"
    profile: str = ""  # a built-in profile name or a path; empty: the default profile
    pin_factory: str = ""  # empty: gpiozero's choice (lgpio on a Pi 5)
    serial_url: str = ""  # backend "serial": empty finds the board by USB id


@dataclass(frozen=True)
class PathsConfig:
    """``[paths]``: where games are kept."""

    state_dir: str = ""  # empty: $STATE_DIRECTORY (systemd), else ~/.local/state/morris
    games_dir: str = ""  # empty: <state_dir>/games


#: Where the web companion listens unless told otherwise: this machine only.
DEFAULT_LISTEN = "127.0.0.1:8700"
_HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,253}[A-Za-z0-9])?$")


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8700`` for an IPv6 address) as ``(host, port)``; port 0 asks for
    any free port.

    Raises :class:`ConfigError` naming the text.

    >>> parse_listen("127.0.0.1:8700"), parse_listen("[::]:80")
    (('127.0.0.1', 8700), ('::', 80))
    """
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ConfigError(
            msg(
                "listen address {text} is not HOST:PORT, e.g. {first} or {second}",
                text=repr(text),
                first="127.0.0.1:8700",
                second="0.0.0.0:8700",
            )
        )
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ConfigError(
                msg(
                    "listen address {text}: {host} is no IPv6 address",
                    text=repr(text),
                    host=repr(host),
                )
            ) from None
    elif not _HOST_NAME.match(host):
        raise ConfigError(
            msg(
                "listen address {text}: {host} is no host name or address",
                text=repr(text),
                host=repr(host),
            )
        )
    return host, int(port)


@dataclass(frozen=True)
class WebConfig:
    """``[web]``: the web companion (off unless asked for)."""

    enabled: bool = False
    listen: str = DEFAULT_LISTEN
    #: Board to board: the other board's companion (``http://HOST:PORT``) this one links to.
    link: str = ""
    #: The other board's control token (its link printed at start), for a listener beyond
    #: its loopback.
    link_token: str = ""


@dataclass(frozen=True)
class UiConfig:
    """``[ui]``: the words a person reads and hears."""

    #: The board's language: ``en``, ``nl``, ``fi`` or ``de`` (a locale name such as ``de_AT``
    #: works too); empty: ``LC_ALL``, ``LC_MESSAGES``, ``LANG``. ``--lang`` overrides it.
    language: str = ""


#: espeak-ng's speaking rate, words per minute (its own limits), and amplitude.
SPEECH_RATES = (80, 450)
SPEECH_VOLUMES = (0, 200)


@dataclass(frozen=True)
class SpeechConfig:
    """``[speech]``: the game said aloud through espeak-ng (:mod:`morris.app.speech`)."""

    enabled: bool = False
    #: An espeak-ng voice (``espeak-ng --voices``); empty: the board language's own.
    voice: str = ""
    rate: int = 160
    volume: int = 100


@dataclass(frozen=True)
class Config:
    """The whole configuration."""

    game: GameConfig = field(default_factory=GameConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)
    referee: RefereeTimings = field(default_factory=RefereeTimings)
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    source: str = "<defaults>"

    def state_dir(self, environ: Mapping[str, str] = os.environ) -> Path:
        """The state directory: the key, else systemd's ``$STATE_DIRECTORY``, else the XDG one."""
        if self.paths.state_dir:
            return Path(self.paths.state_dir).expanduser()
        return systemd_state_dir(environ) or user_state_dir(environ)

    def games_dir(self, environ: Mapping[str, str] = os.environ) -> Path:
        """Where finished games are saved as game records."""
        if self.paths.games_dir:
            return Path(self.paths.games_dir).expanduser()
        return self.state_dir(environ) / "games"

    def tables_dir(self, environ: Mapping[str, str] = os.environ) -> Path:
        """Where the endgame tables are: the ``engine.tables`` key, else the data directory
        (:func:`morris.app.paths.tables_dir`)."""
        if self.engine.tables:
            return Path(self.engine.tables).expanduser()
        return tables_dir(environ)

    def solution_dir(self, environ: Mapping[str, str] = os.environ) -> Path:
        """Where the solved game is (``morris tables build --men K``): the ``engine.solution``
        key, else ``solution`` in the tables' directory (:meth:`tables_dir`)."""
        if self.engine.solution:
            return Path(self.engine.solution).expanduser()
        return self.tables_dir(environ) / "solution"

    def with_overrides(self, **overrides: Any) -> Config:
        """A copy with ``section_key=value`` overrides (``game_level=5``); ``None`` is ignored."""
        sections: dict[str, dict[str, Any]] = {}
        for name, value in overrides.items():
            if value is None:
                continue
            section, _, key = name.partition("_")
            sections.setdefault(section, {})[key] = value
        data = {s: dataclasses.asdict(getattr(self, s)) for s in _SECTIONS}
        for section, values in sections.items():
            if section not in data:
                raise ConfigError(
                    msg(
                        "flag --{section}-...: unknown section {name}",
                        section=section,
                        name=repr(section),
                    )
                )
            data[section].update(values)
        return _build(data, source=f"{self.source} + command line")


_SECTIONS: dict[str, type[Any]] = {
    "game": GameConfig,
    "engine": EngineConfig,
    "referee": RefereeTimings,
    "hardware": HardwareConfig,
    "paths": PathsConfig,
    "web": WebConfig,
    "ui": UiConfig,
    "speech": SpeechConfig,
}


#: What a key's check says is wrong with its value: a predicate ("must be one of ...") that
#: follows the key's name, or ``None`` for a good value.
Problem = Message | None


def _choice(options: tuple[str, ...]) -> Callable[[Any], Problem]:
    def check(value: Any) -> Problem:
        return (
            None
            if value in options
            else msg("must be one of {options}", options=", ".join(options))
        )

    return check


def _between(low: float, high: float) -> Callable[[Any], Problem]:
    def check(value: Any) -> Problem:
        if low <= value <= high:
            return None
        return msg("must be from {low} to {high}", low=format(low, "g"), high=format(high, "g"))

    return check


_LINK_URL = re.compile(
    r"^https?://[A-Za-z0-9.\-]+(:\d{1,5})?/?$|^https?://\[[0-9A-Fa-f:]+\](:\d{1,5})?/?$"
)


def _link(value: Any) -> Problem:
    if value == "" or (isinstance(value, str) and _LINK_URL.match(value)):
        return None
    return msg(
        "must be the other board's address, {form} (e.g. {example})",
        form="http://HOST:PORT",
        example="http://192.168.1.30:8700",
    )


def _directory(value: Any) -> Problem:
    if value and Path(value).expanduser().exists() and not Path(value).expanduser().is_dir():
        return msg(
            "must be a directory (where {command} puts it)",
            command="`morris tables build --men K --dir DIR`",
        )
    return None


def _listen(value: Any) -> Problem:
    try:
        parse_listen(value)
    except ConfigError:
        return msg("must be HOST:PORT, e.g. {example}", example="127.0.0.1:8700")
    return None


_VOICE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+\-/]{0,63}$")


def _voice(value: Any) -> Problem:
    if value == "" or _VOICE.match(value):
        return None
    return msg(
        "must be an espeak-ng voice name ({command}), e.g. {example}",
        command="espeak-ng --voices",
        example="de, en-gb+f3",
    )


def _language(value: Any) -> Problem:
    if value == "" or re.match(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]+)?(\.[A-Za-z0-9-]+)?$", value):
        return None  # one without a catalog is a warning at start (English), not an error
    return msg(
        "must be a language such as {languages} (or a locale name such as {locale})",
        languages="en, nl, fi, de",
        locale="de_AT",
    )


#: The settings' types beyond TOML's own, by their annotation: read as text, checked (the
#: key's check in :data:`_CHECKS` names the choices), then made one.
_TEXT_TYPES: dict[str, Callable[[str], Any]] = {"Mode": Mode}

_CHECKS: dict[str, Callable[[Any], Problem]] = {
    "game.mode": _choice(tuple(Mode)),
    "game.human": _choice(COLOURS),
    "game.level": _between(1, MAX_LEVEL),
    "game.variant": _choice(VARIANT_NAMES),
    "game.no_removal_limit": _between(0, 10_000),
    "engine.movetime": _between(0.05, 3600),
    "engine.solution": _directory,
    "referee.debounce": _between(0.0, 1.0),
    "referee.accept_delay": _between(0.05, 1.0),
    "referee.flag_delay": _between(0.5, 60),
    "referee.takeback_delay": _between(0.2, 30),
    "referee.clear_delay": _between(0.2, 30),
    "referee.hint_duration": _between(0.5, 60),
    "hardware.backend": _choice(BACKENDS),
    "web.listen": _listen,
    "web.link": _link,
    "ui.language": _language,
    "speech.voice": _voice,
    "speech.rate": _between(*SPEECH_RATES),
    "speech.volume": _between(*SPEECH_VOLUMES),
}


def _convert(key: str, expected: type[Any], value: Any) -> Any:
    if isinstance(value, bool):
        ok = expected is bool
    elif isinstance(value, int):
        ok = expected in (int, float)
    elif isinstance(value, float):
        ok = expected is float
    else:
        ok = isinstance(value, str) and expected is str
    if ok:
        return float(value) if expected is float else value
    # TRANSLATORS: {key} is a configuration file and key ("/etc/morris/config.toml: game.level").
    problems = {
        bool: msg("{key}: expected true or false, got {value}", key=key, value=repr(value)),
        int: msg("{key}: expected a whole number, got {value}", key=key, value=repr(value)),
        float: msg("{key}: expected a number, got {value}", key=key, value=repr(value)),
        str: msg("{key}: expected text, got {value}", key=key, value=repr(value)),
    }
    raise ConfigError(problems[expected])


def _build(data: Mapping[str, Any], *, source: str) -> Config:
    sections: dict[str, Any] = {}
    for section, values in data.items():
        if section not in _SECTIONS:
            known = ", ".join(f"[{s}]" for s in _SECTIONS)
            raise ConfigError(
                msg(
                    "{source}: unknown section {section} (known: {known})",
                    source=source,
                    section="[" + section + "]",
                    known=known,
                )
            )
        if not isinstance(values, Mapping):
            raise ConfigError(
                msg(
                    "{source}: {section} must be a table {table}",
                    source=source,
                    section=section,
                    table="[" + section + "]",
                )
            )
        cls = _SECTIONS[section]
        types = {f.name: f.type for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            full = f"{section}.{key}"
            if key not in types:
                known = ", ".join(types)
                raise ConfigError(
                    msg(
                        "{source}: unknown key {key} (known in {section}: {known})",
                        source=source,
                        key=full,
                        section="[" + section + "]",
                        known=known,
                    )
                )
            kind = str(types[key])
            expected = {"bool": bool, "int": int, "float": float}.get(kind, str)
            converted = _convert(f"{source}: {full}", expected, value)
            check = _CHECKS.get(full)
            problem = check(converted) if check else None
            if problem:
                raise ConfigError(
                    msg(
                        "{source}: {key} {problem}, got {value}",
                        source=source,
                        key=full,
                        problem=problem,
                        value=repr(value),
                    )
                )
            kwargs[key] = _TEXT_TYPES[kind](converted) if kind in _TEXT_TYPES else converted
        sections[section] = cls(**kwargs)
    config = Config(**sections, source=source)
    _check_profile(config.hardware.profile, source)
    timings = config.referee
    if timings.debounce >= timings.accept_delay:
        raise ConfigError(
            msg(
                "{source}: {key} ({value}) must be shorter than {other} ({limit})",
                source=source,
                key="referee.debounce",
                value=format(timings.debounce, "g"),
                other="referee.accept_delay",
                limit=format(timings.accept_delay, "g"),
            )
        )
    if config.web.link and config.game.mode is not Mode.REMOTE:
        raise ConfigError(
            msg(
                "{source}: {key} ({link}) links two boards in mode remote, but {mode_key} is "
                "{mode} (use {option})",
                source=source,
                key="web.link",
                link=config.web.link,
                mode_key="game.mode",
                mode=repr(config.game.mode.value).replace("'", '"'),
                option="--mode remote",
            )
        )
    return config


def board_from_config(config: Config) -> Board:
    """A new board with the variant and settings of ``config``."""
    return board_for(config, config.game.variant)


def board_for(config: Config, variant: str) -> Board:
    """A new board of ``variant`` with the settings of ``config``.

    ``game.flying = true`` keeps the variant's own flying rule (six men's morris has none);
    ``false`` switches flying off.
    """
    game = config.game
    return find_variant(variant)(
        flying=None if game.flying else False,
        threefold_repetition=game.threefold_repetition,
        no_removal_limit=game.no_removal_limit or None,
        remove_from_mills=game.remove_from_mills,
        double_mill_removes_two=game.double_mill_removes_two,
    )


def _check_profile(profile: str, source: str) -> None:
    """Load the wiring profile the configuration names, so a broken one is refused at once.

    Without this, a bad profile surfaced only when the board was opened (or never, for
    ``morris config check``), as a traceback.
    """
    if not profile:
        return
    from hardware.exc import ProfileError
    from hardware.profiles import load_profile

    try:
        load_profile(profile)
    except ProfileError as exc:
        raise ConfigError(f"{source}: hardware.profile: {exc}") from None  # the profile's words


def parse_config(text: str, *, source: str = "<text>") -> Config:
    """The configuration in TOML ``text``. Raises :class:`ConfigError` naming the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            msg("{source}: not valid TOML: {problem}", source=source, problem=str(exc))
        ) from None
    return _build(data, source=source)


def load_config(path: str | os.PathLike[str] | None) -> Config:
    """The configuration from ``path`` (``None``: the defaults).

    Raises :class:`ConfigError` for a missing or unreadable file or a bad key.
    """
    if path is None:
        return Config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            msg(
                "{path}: cannot read the configuration: {problem}",
                path=path,
                problem=exc.strerror or str(exc),
            )
        ) from None
    except UnicodeDecodeError:
        raise ConfigError(msg("{path}: the configuration is not UTF-8 text", path=path)) from None
    logger.info("configuration from %s", path)
    return parse_config(text, source=str(path))


TEMPLATE = """\
# Configuration of the morris board daemon (morris run --config FILE).
# Every key is optional; the value shown is the default. Command-line flags override keys.

[game]
# "vs-ai": a person plays the Pi; "referee": two people play, the Pi checks the rules;
# "remote": a person plays someone far away (a web page or a linked board; docs/WEB.md).
mode = "vs-ai"
# The colour the person at the board plays against the Pi or the remote player: "white"
# (moves first) or "black".
human = "white"
# The Pi's strength, 1 (a beginner can win) to 9 (the strongest). The mode button cycles it.
level = 5
# The game (docs/RULES.md has a section on each):
{variants}
# At the board, the mode button and then the hint button step through them for the next game.
variant = "{standard}"
# A player with three pieces left may move a piece to any empty point. true keeps the
# variant's rule (six men's morris has no flying); false switches flying off in any variant.
flying = true
# The third occurrence of the same position is a draw.
threefold_repetition = true
# This many moving-phase turns in a row without a removal is a draw; 0 switches the rule off.
no_removal_limit = 100
# A mill may take a piece that stands in a mill even while others stand outside mills.
remove_from_mills = false
# A turn that closes two mills at once removes two pieces.
double_mill_removes_two = false

[engine]
# Empty: the built-in engine. Else the command line of an engine speaking the UCI-style
# protocol of `morris engine` (for example another Mill engine).
command = ""
# The longest the Pi may think about one turn, in seconds (the level sets how deep it looks).
movetime = 10.0
# Seed of the Pi's randomness at low levels: the same seed plays the same game.
seed = 0
# Directory of the endgame tables (`morris tables build`); empty: the default data directory.
tables = ""
# Directory of the solved game (`morris tables build --men K`), used for the Pi's play, the
# hints and the values shown; empty: "solution" in the tables' directory.
solution = ""

[referee]
# Seconds. A sensor change shorter than debounce (bounce, a weak magnet's flicker) is ignored.
debounce = 0.1
# A board that shows a legal turn is accepted after being still this long (at most 1 s).
accept_delay = 0.5
# A still board that no legal turn explains is shown as wrong (lights, error LED) after this.
flag_delay = 5.0
# Putting the board back to an earlier position takes back turns once it is still this long.
takeback_delay = 1.5
# An empty board for this long starts a new game.
clear_delay = 2.0
# How long the hint button shows its suggestion.
hint_duration = 4.0

[hardware]
# "gpio": sensors and LEDs on the Pi's pins (a wiring profile); "serial": a microcontroller
# over USB (firmware_bridge); "sim": the simulated board (no hardware at all).
backend = "gpio"
# A built-in wiring profile name (see hardware/README.md) or the path of your own copy.
# Empty: the default profile.
profile = ""
# gpiozero pin factory: empty lets gpiozero choose (lgpio on a Raspberry Pi 5).
pin_factory = ""
# Backend "serial": the port URL (for example "/dev/morris-board"); empty finds it by USB id.
serial_url = ""

[paths]
# Where the unfinished game is kept. Empty: $STATE_DIRECTORY (set by systemd), else
# ~/.local/state/morris.
state_dir = ""
# Where finished games are saved as game records. Empty: <state_dir>/games.
games_dir = ""

[web]
# The web companion: the game on a phone or a computer (docs/WEB.md). Off: no port is opened.
enabled = false
# Where it listens, HOST:PORT. 127.0.0.1 reaches this machine only; 0.0.0.0 (every address)
# reaches the home network, and then every link carries a token (shown at start).
listen = "127.0.0.1:8700"
# Board to board (mode "remote"): the other board's companion, http://HOST:PORT, that this
# one links to; each board's turns become the other's remote turns. Empty: no link.
link = ""
# The other board's control token (shown when it starts), if it listens beyond loopback.
link_token = ""

[ui]
# The board's language: "en", "nl", "fi" or "de" (the event line, the narration, speech).
# Empty: the system's (LC_ALL, LC_MESSAGES, LANG), else English. --lang overrides it.
language = ""

[speech]
# Say the game aloud (the Pi's turns, mills, mistakes, the result ...) through espeak-ng, in
# the board's language (apt install espeak-ng; the service then gets the sound device).
enabled = false
# An espeak-ng voice (espeak-ng --voices); empty: the board language's own ("de", "fi" ...).
voice = ""
# Words per minute, 80 to 450.
rate = 160
# Loudness, 0 to 200 (100 is espeak-ng's normal).
volume = 100
""".replace(
    "{variants}",
    "\n".join(f'#   "{name}" ({VARIANTS[name].summary})' for name in VARIANT_NAMES),
).replace("{standard}", STANDARD.name)
