"""The shared device vocabulary: one list of point names, one error root, one virtual clock."""

from __future__ import annotations

import threading

import pytest

import morris.core
import morris_device
from morris_device.clock import VirtualClock
from tests.loaded import loaded_after


def test_point_names_are_the_rules_core_order() -> None:
    # Bit i of a sensor mask and point i of the rules must be the same point.
    assert morris.core.POINT_NAMES == morris_device.POINT_NAMES


def test_point_index_inverts_the_names() -> None:
    assert [morris_device.POINT_INDEX[name] for name in morris_device.POINT_NAMES] == list(
        range(24)
    )


def test_check_point_names_the_bad_name() -> None:
    assert morris_device.check_point("d6") == "d6"
    with pytest.raises(morris_device.UnknownPoint, match="'z9'") as info:
        morris_device.check_point("z9")
    assert isinstance(info.value, ValueError)


def test_names_of_reads_bit_i_as_point_i() -> None:
    assert morris_device.names_of(0) == []
    assert morris_device.names_of(1 << 23 | 1 << 9) == ["d6", "c4"]
    assert morris_device.names_of((1 << 24) - 1) == list(morris_device.POINT_NAMES)


@pytest.mark.parametrize("mask", [0, 0b101, 1 << 23 | 1 << 9, 0xABCDEF, (1 << 24) - 1])
def test_names_of_is_the_rules_cores_names_of(mask: int) -> None:
    assert morris_device.names_of(mask) == morris.core.names_of(mask)


def test_virtual_clock_moves_only_forward_and_when_told() -> None:
    clock = VirtualClock(10.0)
    assert clock() == 10.0
    clock.set(5.0)
    assert clock() == 10.0
    assert clock.advance(0.5) == 10.5
    clock.set(12.0)
    assert clock() == clock.now == 12.0


def test_virtual_clock_loses_no_advance_between_threads() -> None:
    clock = VirtualClock()

    def tick() -> None:
        for _ in range(10_000):
            clock.advance(1.0)

    threads = [threading.Thread(target=tick) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert clock() == 40_000.0


def test_importing_the_serial_bridge_loads_no_gpiozero() -> None:
    # A Pico-based board must not need gpiozero (nor pay for loading it).
    assert loaded_after("import firmware_bridge", ("gpiozero", "hardware")) == []


def test_importing_the_device_vocabulary_loads_no_backend() -> None:
    modules = ("gpiozero", "serial", "hardware", "firmware_bridge", "morris")
    assert loaded_after("import morris_device", modules) == []
