"""The sd_notify client against real AF_UNIX datagram sockets, as systemd would listen."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.daemon.notify import Notifier, WatchdogPacer, monotonic_usec


class FakeSystemd:
    """A bound datagram socket standing in for systemd's notification socket."""

    def __init__(self, sock: socket.socket, env_value: str) -> None:
        self.sock = sock
        self.env_value = env_value

    def receive(self) -> dict[str, str]:
        """The next datagram's assignments; fails at once if nothing was sent."""
        data = self.sock.recv(4096)
        lines = data.decode().splitlines()
        return dict(line.split("=", 1) for line in lines)

    def has_pending(self) -> bool:
        try:
            self.sock.recv(4096, socket.MSG_PEEK)
        except BlockingIOError:
            return False
        return True


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.setblocking(False)
    yield FakeSystemd(sock, str(path))
    sock.close()


@pytest.fixture
def abstract_systemd() -> Iterator[FakeSystemd]:
    name = f"morris-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.setblocking(False)
    yield FakeSystemd(sock, "@" + name)
    sock.close()


def notifier_for(systemd: FakeSystemd, **env: str) -> Notifier:
    return Notifier.from_environment({"NOTIFY_SOCKET": systemd.env_value, **env}, pid=1234)


def test_ready_status_stopping_reach_the_socket(systemd: FakeSystemd) -> None:
    with notifier_for(systemd) as notifier:
        assert notifier.ready(status="waiting for white")
        assert systemd.receive() == {"READY": "1", "STATUS": "waiting for white"}
        assert notifier.status("white to move, 3 pieces in hand")
        assert systemd.receive() == {"STATUS": "white to move, 3 pieces in hand"}
        assert notifier.stopping()
        assert systemd.receive() == {"STOPPING": "1"}


def test_abstract_socket(abstract_systemd: FakeSystemd) -> None:
    with notifier_for(abstract_systemd) as notifier:
        assert notifier.ready()
    assert abstract_systemd.receive() == {"READY": "1"}


def test_newline_in_status_cannot_inject_assignments(systemd: FakeSystemd) -> None:
    with notifier_for(systemd) as notifier:
        notifier.status("line one\nREADY=1")
    assert systemd.receive() == {"STATUS": "line one READY=1"}


def test_reloading_carries_monotonic_usec(systemd: FakeSystemd) -> None:
    with notifier_for(systemd) as notifier:
        notifier.reloading(now_usec=42)
        assert systemd.receive() == {"RELOADING": "1", "MONOTONIC_USEC": "42"}
        before = monotonic_usec()
        notifier.reloading()
        sent = int(systemd.receive()["MONOTONIC_USEC"])
    assert before <= sent <= monotonic_usec()


def test_watchdog_interval_from_environment(systemd: FakeSystemd) -> None:
    notifier = notifier_for(systemd, WATCHDOG_USEC="30000000", WATCHDOG_PID="1234")
    assert notifier.watchdog_interval == 30.0
    assert notifier.watchdog()
    assert systemd.receive() == {"WATCHDOG": "1"}
    notifier.close()


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"WATCHDOG_USEC": "0"},
        {"WATCHDOG_USEC": "garbage"},
        {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "999"},  # meant for another process
    ],
)
def test_watchdog_disabled(systemd: FakeSystemd, env: dict[str, str]) -> None:
    notifier = notifier_for(systemd, **env)
    assert notifier.watchdog_interval is None
    assert not notifier.watchdog()
    assert not systemd.has_pending()


def test_from_real_environment(systemd: FakeSystemd, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_environment()
    assert notifier.watchdog_interval == 2.0
    assert notifier.ready()
    assert systemd.receive() == {"READY": "1"}
    notifier.close()


@pytest.mark.parametrize("value", [None, "", "relative/path", "vsock:2:1234"])
def test_no_op_without_usable_socket(value: str | None) -> None:
    env = {} if value is None else {"NOTIFY_SOCKET": value}
    notifier = Notifier.from_environment({**env, "WATCHDOG_USEC": "1000000"})
    assert not notifier.is_enabled
    assert notifier.watchdog_interval is None
    assert not notifier.ready()
    assert not notifier.status("x")
    assert not notifier.stopping()
    assert not notifier.reloading()
    assert not notifier.watchdog()
    assert not WatchdogPacer(notifier).tick(0.0)


def test_vanished_socket_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier(str(tmp_path / "gone"), watchdog_interval=1.0)
    assert not notifier.ready()
    assert not notifier.watchdog()
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "could not notify systemd" in warnings[0].getMessage()


def test_pacer_pings_at_half_the_interval(systemd: FakeSystemd) -> None:
    notifier = notifier_for(systemd, WATCHDOG_USEC="10000000")  # 10 s, no WATCHDOG_PID
    pacer = WatchdogPacer(notifier)
    pinged = [now for now in (100.0, 101.0, 104.9, 105.0, 106.0, 109.9, 110.0) if pacer.tick(now)]
    assert pinged == [100.0, 105.0, 110.0]
    for _ in pinged:
        assert systemd.receive() == {"WATCHDOG": "1"}
    assert not systemd.has_pending()
    notifier.close()


def test_pacer_stops_pinging_when_the_loop_stalls(systemd: FakeSystemd) -> None:
    """A loop stuck between two ticks sends nothing, so systemd's watchdog expires."""
    notifier = notifier_for(systemd, WATCHDOG_USEC="10000000")
    pacer = WatchdogPacer(notifier)
    assert pacer.tick(0.0)
    systemd.receive()
    # The loop hangs for 30 s (three watchdog intervals): no tick, so no ping reached systemd.
    assert not systemd.has_pending()
    # It comes back: the first tick pings again at once.
    assert pacer.tick(30.0)
    assert systemd.receive() == {"WATCHDOG": "1"}
    notifier.close()


def test_pacer_rejects_silly_fraction() -> None:
    with pytest.raises(ValueError, match=r"1\.5"):
        WatchdogPacer(Notifier(None), fraction=1.5)


def test_a_full_systemd_queue_drops_notifications_instead_of_blocking(
    systemd: FakeSystemd,
) -> None:
    """If systemd stops reading, the daemon's loop must not stall on a watchdog ping."""
    notifier = notifier_for(systemd)
    # Far more datagrams than a Unix socket queues (net.unix.max_dgram_qlen, 10 to 512): with a
    # blocking socket the first send past the limit would hang this test for ever.
    sent = [notifier.status(f"turn {i}") for i in range(2000)]
    assert sent[0] is True
    assert sent.count(False) > 0
    notifier.close()
