"""The self-test finds every fault of a deliberately miswired simulated board."""

from __future__ import annotations

import pytest

from hardware.profiles import load_profile
from hardware.selftest import (
    ScriptedBuilder,
    TerminalBuilder,
    demo_miswired_board,
    render_board,
    run_selftest,
)
from hardware.simulated_board import SimulatedBoard, miswire
from morris_device import ButtonName


@pytest.mark.parametrize("name", ["direct", "matrix", "shift-register"])
def test_a_good_board_passes(name: str) -> None:
    with SimulatedBoard(name) as sim:
        report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait)
        assert report.ok, report.format()
        assert "buttons" in report.checked


@pytest.mark.parametrize("name", ["matrix", "shift-register"])
def test_each_fault_of_a_miswired_board_is_found(name: str) -> None:
    with demo_miswired_board(name) as sim:
        report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait)
    found = {(f.kind, f.name) for f in report.faults}
    assert found == {
        ("sensors crossed", "a7"),
        ("sensors crossed", "d7"),
        ("sensor dead", "g1"),
        ("sensor stuck", "b2"),
        ("LEDs crossed", "c5"),
        ("LEDs crossed", "e5"),
        ("LED dead", "f4"),
    }
    details = {f.name: f.detail for f in report.faults}
    assert "GPIO17" in details["a7"] and "GPIO6" in details["a7"]  # the pins to check


def test_crossed_buttons_and_stuck_led() -> None:
    profile = load_profile("shift-register")
    buttons = dict(profile.buttons)
    buttons[ButtonName.NEW], buttons[ButtonName.HINT] = (
        buttons[ButtonName.HINT],
        buttons[ButtonName.NEW],
    )
    with SimulatedBoard(profile, wiring=profile.replace(buttons=buttons)) as sim:
        sim.set_led_fault("d1", True)
        report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait, sensors=False)
    found = {(f.kind, f.name) for f in report.faults}
    assert found == {
        ("LED stuck on", "d1"),
        ("buttons crossed", "new"),
        ("buttons crossed", "hint"),
    }


def test_a_terminal_builder_is_driven_through_callables() -> None:
    profile = load_profile("shift-register")
    with SimulatedBoard(profile, wiring=miswire(profile, leds=[("a7", "d7")])) as sim:
        answers: list[str] = []
        told: list[str] = []

        def ask(prompt: str) -> str:
            # a person looking at the emulated board
            if prompt.startswith("Which lights"):
                answer = " ".join(sorted(getattr(n, "value", n) for n in sim.lit()))
                return "nonsense" if not answers else answer
            answers.append(prompt)
            if prompt.startswith("Put a magnet on"):
                sim.place(prompt.split()[4])
            elif prompt.startswith("Take the magnet off"):
                sim.lift(prompt.split()[4].rstrip(","))
            return ""

        def ask_logged(prompt: str) -> str:
            answer = ask(prompt)
            answers.append(answer)
            return answer

        builder = TerminalBuilder(ask=ask_logged, tell=told.append)
        report = run_selftest(sim.device, builder, wait=sim.wait, buttons=False)
    assert {(f.kind, f.name) for f in report.faults} == {
        ("LEDs crossed", "a7"),
        ("LEDs crossed", "d7"),
    }
    assert any("Unknown name" in t for t in told)
    assert any("##" in t for t in told)  # the live sensor view


def test_render_board_marks_sensed_points() -> None:
    art = render_board({"a7", "e4"})
    assert art.startswith("##----------d7")
    assert "e4" not in art
