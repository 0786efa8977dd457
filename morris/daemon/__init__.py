"""The service: the controller on a real (or simulated) board in real time, under systemd.

:mod:`~morris.daemon.loop` is the main loop (:class:`Daemon`) and opens the configured hardware;
:mod:`~morris.daemon.notify` speaks systemd's notify protocol and paces the watchdog;
:mod:`~morris.daemon.status_file` publishes the game and the service's health for ``morris
status``; :mod:`~morris.daemon.install` installs and removes the systemd unit.
"""

from morris.daemon.loop import (
    Daemon,
    OpenedBoard,
    gpio_available,
    open_hardware,
)

__all__ = [
    "Daemon",
    "OpenedBoard",
    "gpio_available",
    "open_hardware",
]
