"""The configuration, the command line and the engine protocol take the registry's variant names."""

from __future__ import annotations

import pytest

from morris.app.config import TEMPLATE, ConfigError, parse_config
from morris.cli import build_parser
from morris.core import VARIANT_NAMES, VARIANTS, find_variant
from morris.engine.uci import UciServer

NOT_VARIANTS = ["chess", "shax", ""]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_configuration_takes_each_variant(name: str) -> None:
    assert parse_config(f'[game]\nvariant = "{name}"\n').game.variant == name


@pytest.mark.parametrize("name", NOT_VARIANTS)
def test_the_configuration_refuses_other_names(name: str) -> None:
    with pytest.raises(
        ConfigError, match=f"game.variant.*must be one of {', '.join(VARIANT_NAMES)}"
    ):
        parse_config(f'[game]\nvariant = "{name}"\n')


def test_the_template_describes_every_variant() -> None:
    for name in VARIANT_NAMES:
        assert f'"{name}" ({find_variant(name).variant.summary})' in TEMPLATE


def _variant_choices(command: str) -> list[str]:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    (action,) = [a for a in sub._actions if a.dest == "variant"]
    assert action.choices is not None
    return list(action.choices)


@pytest.mark.parametrize("command", ["run", "sim"])
def test_the_daemon_commands_offer_the_variants(command: str) -> None:
    assert _variant_choices(command) == list(VARIANT_NAMES)


def test_play_offers_every_name_and_alias() -> None:
    assert _variant_choices("play") == sorted(VARIANTS)


def test_the_protocol_lists_and_takes_the_variants() -> None:
    lines: list[str] = []
    server = UciServer(lines.append)
    server.handle("uci")
    (option,) = [line for line in lines if line.startswith("option name Variant")]
    assert option.split(" var ")[1:] == list(VARIANT_NAMES)
    for name, rules in VARIANTS.items():
        lines.clear()
        server.handle(f"setoption name Variant value {name}")
        assert not lines, lines
        assert server.board.variant is rules
    for name in NOT_VARIANTS:
        lines.clear()
        server.handle(f"setoption name Variant value {name}")
        assert lines and "error" in lines[0], lines
