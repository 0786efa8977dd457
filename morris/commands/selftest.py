"""``morris selftest``: walk the builder through a newly wired board and report faults.

The logic lives in :mod:`hardware.selftest`; this module only picks the board (a real one from a
wiring profile, or a simulated one) and the person (the terminal, or a scripted builder).
"""

from __future__ import annotations

import argparse
from typing import Any

from morris.commands.words import error
from morris.i18n import _

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``selftest`` to the ``morris`` parser."""
    parser = subparsers.add_parser(
        "selftest",
        help=_("check the wiring of the board: LEDs, sensors and buttons"),
        description=_(
            "Light each point in turn and ask which light is lit, ask for a magnet on "
            "each point while showing the live sensor state, ask for each button; report dead, "
            "stuck and crossed sensors, LEDs and buttons with the pin to check."
        ),
    )
    parser.add_argument(
        "--profile",
        default=None,
        help=_(
            "wiring profile: a built-in name (direct, matrix, shift-register) or a .toml path "
            "(default: shift-register)"
        ),
    )
    parser.add_argument(
        "--sim", action="store_true", help=_("run on a simulated board with a scripted builder")
    )
    parser.add_argument(
        "--miswired",
        action="store_true",
        help=_("with --sim: a simulated board built with deliberate faults (a demo)"),
    )
    parser.add_argument(
        "--live",
        type=float,
        metavar="SECONDS",
        default=None,
        help=_("only show the live sensor state for SECONDS, then stop"),
    )
    parser.add_argument("--no-leds", action="store_true", help=_("skip the LED test"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the self-test; exit code 0 when no fault is found, 1 otherwise, 2 on a bad profile."""
    from hardware.exc import ProfileError
    from hardware.profiles import DEFAULT_PROFILE, load_profile
    from hardware.words import set_translation
    from morris.app.errors import HardwareUnavailable
    from morris.i18n import ngettext

    set_translation(_, ngettext)  # the device layer knows no morris: it is given the catalog
    name = args.profile or DEFAULT_PROFILE
    try:
        profile = load_profile(name)
    except ProfileError as exc:
        error(str(exc), command="morris selftest")
        return 2
    if args.sim:
        return _run_sim(args, profile)
    try:
        return _run_real(args, profile)
    except HardwareUnavailable as exc:
        error(str(exc), command="morris selftest")
        return 2


def _run_sim(args: argparse.Namespace, profile: Any) -> int:
    from hardware.selftest import ScriptedBuilder, demo_miswired_board, run_selftest
    from hardware.simulated_board import SimulatedBoard

    sim = demo_miswired_board(profile.source) if args.miswired else SimulatedBoard(profile)
    with sim:
        builder = ScriptedBuilder(sim)
        builder.say = _print  # type: ignore[method-assign]
        report = run_selftest(sim.device, builder, wait=sim.wait, leds=not args.no_leds)
    return 0 if report.ok else 1


def _run_real(args: argparse.Namespace, profile: Any) -> int:
    import time

    from hardware.runner import BoardRunner
    from hardware.selftest import TerminalBuilder, render_board, run_selftest
    from morris.daemon.loop import require_gpio

    require_gpio(
        _(
            "To try the self-test without a Raspberry Pi, run `morris selftest --sim` (a "
            "simulated board; add --miswired to see how faults are reported)."
        )
    )
    board = _open(profile)
    with board, BoardRunner(board):
        if args.live is not None:
            end = time.monotonic() + args.live
            last: frozenset[str] | None = None
            while time.monotonic() < end:
                now = board.sensors()
                if now != last:
                    print(render_board(now), end="\n\n", flush=True)
                    last = now
                time.sleep(0.05)
            return 0
        report = run_selftest(board, TerminalBuilder(), wait=time.sleep, leds=not args.no_leds)
    return 0 if report.ok else 1


def _open(profile: Any) -> Any:
    """The board's pins, or :class:`HardwareUnavailable` naming why gpiozero could not open them."""
    import warnings

    from hardware.board import open_board
    from morris.app.errors import HardwareUnavailable

    # gpiozero warns once for each pin factory it cannot load before it gives up; those reasons
    # belong in the one message, not in four warnings above it.
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            return open_board(profile)
        except Exception as exc:
            reasons = "; ".join(str(w.message) for w in fallbacks)
            detail = f" ({reasons})" if reasons else ""
            raise HardwareUnavailable(
                _(
                    "cannot open the board's pins: {reason}{detail}. Without a Raspberry Pi, "
                    "run `morris selftest --sim`."
                ).format(reason=exc, detail=detail)
            ) from exc


def _print(text: str) -> None:
    print(text)
