"""What the host wants the board's LEDs to show, as the LIGHTS frame carries it.

The device does the blinking; the host keeps one code per point LED and per status LED and a
generation that changes with every change of them, so a heartbeat naming an older generation
tells the host the device missed a LIGHTS frame. The blink phase does not travel: the device
starts an LED's blink lit when its code changes (PROTOCOL.md, version 1.1), so resending the same
codes changes nothing visible.
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_bridge import protocol as P
from morris_device import POINT_INDEX, POINT_NAMES, Signal, StatusLight, check_point

__all__ = ["SIGNAL_CODES", "STATUS_LIGHT_ORDER", "LightState", "point_codes"]

#: Status LED ``i`` of the device is ``STATUS_LIGHT_ORDER[i]``.
STATUS_LIGHT_ORDER: tuple[StatusLight, ...] = (
    StatusLight.TURN,
    StatusLight.THINKING,
    StatusLight.ERROR,
    StatusLight.GAME_OVER,
)
#: Each signal's code in a LIGHTS frame.
SIGNAL_CODES: dict[Signal, int] = {
    Signal.OFF: P.SIG_OFF,
    Signal.ON: P.SIG_ON,
    Signal.SLOW: P.SIG_SLOW,
    Signal.FAST: P.SIG_FAST,
}


def point_codes(lights: Mapping[str, Signal]) -> list[int]:
    """The code of every point LED, in point order; points not named are off.

    Raises :class:`morris_device.UnknownPoint` for a name that is not a point.
    """
    codes = [P.SIG_OFF] * len(POINT_NAMES)
    for name, signal in lights.items():
        codes[POINT_INDEX[check_point(name)]] = SIGNAL_CODES[Signal(signal)]
    return codes


class LightState:
    """The codes of every LED and their generation (1..65535; 0 is the device's "none")."""

    def __init__(self) -> None:
        self._points = [P.SIG_OFF] * len(POINT_NAMES)
        self._status = [P.SIG_OFF] * len(STATUS_LIGHT_ORDER)
        #: Changes with every change of the codes.
        self.generation = 1

    def set_points(self, codes: list[int]) -> bool:
        """Show ``codes`` (from :func:`point_codes`) on the point LEDs; whether that changed."""
        if codes == self._points:
            return False
        self._points = codes
        self._changed()
        return True

    def set_status(self, light: StatusLight, signal: Signal) -> bool:
        """Show ``signal`` on one status LED; whether that changed anything."""
        index = STATUS_LIGHT_ORDER.index(StatusLight(light))
        code = SIGNAL_CODES[Signal(signal)]
        if self._status[index] == code:
            return False
        self._status[index] = code
        self._changed()
        return True

    def switch_off(self) -> None:
        """Every LED off (a new generation even if they were, so the device is told)."""
        self._points = [P.SIG_OFF] * len(POINT_NAMES)
        self._status = [P.SIG_OFF] * len(STATUS_LIGHT_ORDER)
        self._changed()

    def payload(self) -> bytes:
        """The LIGHTS frame's payload for the current codes."""
        return P.pack_lights(self.generation, self._points, self._status)

    def _changed(self) -> None:
        self.generation = self.generation % 0xFFFF + 1
