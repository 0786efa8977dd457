"""docs/INSTALL.md's service steps under systemd as PID 1, in a booted userland.

The checks, each as a user would see it: the install steps of the docs run as written; the unit
reports READY within 5 s; ``systemctl reload`` rereads the configuration with nothing but the
venv's ``morris``; the exposure of ``systemd-analyze security morris`` is the docs' figure with
and without the web companion; the companion answers from this machine; a game played through
it resumes after a SIGKILL (restarted by systemd) and after a hung main loop (SIGSTOP, killed by
the watchdog); the journal shows what the docs say it shows. Then each hardening directive is
tried on a probe process, to name those the container cannot enforce, and why.
"""

from __future__ import annotations

import json
import re
import socket
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from tools.morris_pilab import docsteps
from tools.morris_pilab.container import Booted
from tools.morris_pilab.errors import EXIT_CHECK_FAILED, LabError

__all__ = ["LAB_CONFIG", "PROBES", "ServiceChecks", "docs_exposure", "free_port"]

#: The configuration the lab installs before ``morris install-service`` (which keeps an existing
#: one): the simulated board, as no GPIO chip is here, and a quick level-1 opponent.
LAB_CONFIG = (
    '[hardware]\nbackend = "sim"\n\n[game]\nmode = "vs-ai"\nhuman = "white"\nlevel = 1\n\n'
    # Where docs/INSTALL.md puts the tables, none there: the journal must say so.
    '[engine]\ntables = "/var/lib/morris/tables"\n'
)

#: READY within this many seconds of the process starting (the issue's bound).
READY_LIMIT = 5.0


def free_port() -> int:
    """A TCP port free on this machine's loopback now (the container shares the network)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def docs_exposure(repo: Path) -> tuple[float, float | None]:
    """The exposure docs/INSTALL.md gives for ``systemd-analyze security morris``: without the
    web companion, and with it (``None`` if it gives none)."""
    text = (repo / "docs" / "INSTALL.md").read_text(encoding="utf-8")
    match = re.search(r"`systemd-analyze security morris`[^.]*?scores (\d+\.\d)", text, re.S)
    if match is None:
        raise LabError("docs/INSTALL.md no longer gives the unit's exposure", EXIT_CHECK_FAILED)
    web = re.search(r"with the web companion[^.]*?(\d+\.\d)", text[match.start() :], re.S)
    return float(match.group(1)), float(web.group(1)) if web else None


#: (directive, probe in Python, what the probe shows when the directive holds). The probe exits 0
#: when the directive held, 1 when it did not. ``{port}`` is a port the companion listens on.
PROBES: tuple[tuple[str, str, str], ...] = (
    (
        "IPAddressDeny=any",
        "import socket,sys\ns=socket.socket()\ns.settimeout(3)\n"
        "try: s.connect(('127.0.0.1',{port}))\nexcept OSError: sys.exit(0)\nsys.exit(1)",
        "a connection to the companion on loopback is refused",
    ),
    (
        "SocketBindDeny=any",
        "import socket,sys\ntry: socket.socket().bind(('127.0.0.1',0))\n"
        "except OSError: sys.exit(0)\nsys.exit(1)",
        "binding a TCP port fails",
    ),
    (
        "DevicePolicy=closed",
        "import sys\ntry: open('/dev/net/tun','rb').close()\nexcept OSError: sys.exit(0)\n"
        "sys.exit(1)",
        "opening /dev/net/tun (not in the closed set) fails",
    ),
    (
        "PrivateNetwork=yes",
        # Asked of the kernel in the process's own namespace (sysfs shows the mounter's).
        "import socket,sys\nnames=[n for _, n in socket.if_nameindex()]\n"
        "sys.exit(0 if names==['lo'] else 1)",
        "only lo is seen",
    ),
    (
        "RestrictAddressFamilies=AF_UNIX",
        "import socket,sys\ntry: socket.socket(socket.AF_INET)\nexcept OSError: sys.exit(0)\n"
        "sys.exit(1)",
        "an AF_INET socket cannot be made",
    ),
    (
        "ProtectSystem=strict",
        "import sys\ntry: open('/usr/pilab-probe','w')\nexcept OSError: sys.exit(0)\nsys.exit(1)",
        "/usr cannot be written",
    ),
    (
        "MemoryDenyWriteExecute=yes",
        "import mmap,sys\ntry: mmap.mmap(-1,4096,prot=mmap.PROT_WRITE|mmap.PROT_EXEC)\n"
        "except OSError: sys.exit(0)\nsys.exit(1)",
        "writable+executable memory is refused",
    ),
    (
        "ProtectClock=yes",
        "import time,sys\ntry: time.clock_settime(time.CLOCK_REALTIME, time.time())\n"
        "except OSError: sys.exit(0)\nsys.exit(1)",
        "setting the clock fails",
    ),
    (
        "RestrictNamespaces=yes",
        # unshare(CLONE_NEWUTS) through libc: os.unshare is Python 3.12's.
        "import ctypes,sys\nlibc=ctypes.CDLL(None,use_errno=True)\n"
        "sys.exit(0 if libc.unshare(0x04000000)!=0 else 1)",
        "a new namespace cannot be made",
    ),
)

#: Why a directive may not hold in this container, by what the lab finds.
WHY_CGROUP_V1 = (
    "this machine runs the legacy (v1) cgroup hierarchy and hands the container no cgroup "
    "controllers; systemd enforces {d} with cgroup v2 (BPF programs attached to the unit's "
    "cgroup), so it cannot here. On Raspberry Pi OS bookworm (unified cgroup v2) it does"
)


class ServiceChecks:
    """The checks of :mod:`tools.morris_pilab.service` in one booted userland."""

    def __init__(self, box: Booted, repo: Path, say: Callable[[str], None]) -> None:
        self.box = box
        self.repo = repo
        self.say = say
        self.results: dict[str, Any] = {}

    # -- helpers ---------------------------------------------------------------------------

    def sh(self, command: str, what: str, timeout: float = 600) -> str:
        """Run ``command`` inside; its output, or :class:`LabError` naming ``what``."""
        result = self.box.run(command, timeout=timeout)
        if not result.ok:
            # What the service said goes into the log with the failure.
            self.box.run("journalctl -u morris --no-pager -n 60; systemctl status morris -n 0")
        return result.require(what).output

    def show(self, *props: str) -> dict[str, str]:
        """``systemctl show morris`` for ``props``."""
        out = self.sh(f"systemctl show morris -p {' -p '.join(props)}", "systemctl show")
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def wait_active(self, after_usec: int, timeout: float) -> dict[str, str]:
        """Wait until the unit is active again, entered after ``after_usec`` (CLOCK_MONOTONIC,
        which the container shares with this machine); its properties."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            props = self.show(
                "ActiveState", "ActiveEnterTimestampMonotonic", "MainPID", "NRestarts"
            )
            if (
                props.get("ActiveState") == "active"
                and int(props.get("ActiveEnterTimestampMonotonic") or 0) > after_usec
            ):
                return props
            time.sleep(0.2)
        raise LabError(f"morris did not come back within {timeout:g} s", EXIT_CHECK_FAILED)

    def fail(self, message: str) -> NoReturn:
        """End the run: a check of the product failed."""
        raise LabError(message, EXIT_CHECK_FAILED)

    def api(self, port: int, method: str, path: str) -> Any:
        """A request to the companion from this machine; the JSON answer."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            method=method,
            headers={"Host": f"127.0.0.1:{port}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode("utf-8"))

    # -- the steps -------------------------------------------------------------------------

    def install(self) -> None:
        """docs/INSTALL.md sections 1 and 2, as written (with the listed adaptations)."""
        self.sh("update-ca-certificates >/dev/null", "update-ca-certificates")
        self.sh(
            f"cd {docsteps.SOURCE_INSIDE} && git init -q && git add -A && "
            "git -c user.name=pilab -c user.email=pilab@localhost commit -qm 'working tree'",
            "committing the working tree inside",
        )
        timings = []
        for step in docsteps.install_steps(self.repo):
            if not step.command:
                self.say(f"  skipped `{step.written}`: {step.note}")
                continue
            note = f" ({step.note})" if step.note else ""
            self.say(f"  $ {step.command}{note}")
            result = self.box.run(step.command, timeout=1800)
            result.require(f"`{step.written}` ({step.source})")
            if step.expected is not None and result.output.strip().splitlines()[-1:] != [
                step.expected
            ]:
                self.fail(
                    f"`{step.written}` printed {result.output.strip()!r}, not {step.expected}"
                )
            timings.append((step.command, round(result.seconds, 1)))
        self.results["install_seconds"] = round(sum(s for _, s in timings), 1)
        self.results["install_steps"] = timings
        self.say(f"  install steps: {self.results['install_seconds']} s")

    def install_service(self) -> None:
        """docs/INSTALL.md section 5 (dry run, install), with the lab's configuration."""
        self.sh(
            f"mkdir -p /etc/morris && printf '%s' '{LAB_CONFIG}' > /etc/morris/config.toml",
            "writing the lab's configuration",
        )
        self.say("  /etc/morris/config.toml: backend sim (no GPIO here), level 1")
        for step in docsteps.service_steps(self.repo):
            self.say(f"  $ {step.command}")
            self.sh(step.command, f"`{step.written}`")
        self.results["ready_seconds"] = self.ready_time("install-service")

    def ready_time(self, what: str) -> float:
        """Seconds from the process's start to READY=1 (systemd's own timestamps)."""
        props = self.show(
            "ActiveState", "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic"
        )
        if props.get("ActiveState") != "active":
            status = self.box.run("systemctl status morris --no-pager -n 30").output
            self.fail(f"morris is {props.get('ActiveState')} after {what}:\n{status}")
        ready = (
            int(props["ActiveEnterTimestampMonotonic"])
            - int(props["ExecMainStartTimestampMonotonic"])
        ) / 1e6
        self.say(f"  READY {ready:.2f} s after the process started ({what})")
        if ready > READY_LIMIT:
            self.fail(f"READY took {ready:.2f} s (limit {READY_LIMIT:g} s)")
        return round(ready, 2)

    def exposure(self, key: str, expected: float | None) -> None:
        """``systemd-analyze security morris`` inside, against the docs' figure."""
        out = self.sh("systemd-analyze security morris --no-pager", "systemd-analyze security")
        match = re.search(r"Overall exposure level for morris\.service: (\d+\.\d) (\w+)", out)
        if match is None:
            self.fail(f"systemd-analyze security printed no exposure:\n{out[-500:]}")
        figure = float(match.group(1))
        self.results[key] = f"{match.group(1)} {match.group(2)}"
        self.say(f"  exposure {match.group(1)} {match.group(2)} (docs: {expected})")
        if expected is not None and figure != expected:
            self.fail(f"exposure {figure} inside, docs/INSTALL.md says {expected}")

    def reload(self) -> None:
        """Change the level, ``systemctl reload morris``: in force when it returns."""
        before = self.show("MainPID")["MainPID"]
        self.sh("sed -i 's/^level = 1$/level = 2/' /etc/morris/config.toml", "editing the config")
        result = self.box.run("systemctl reload morris", timeout=60)
        result.require("systemctl reload morris")
        status = json.loads(self.sh("cat /var/lib/morris/status.json", "reading status.json"))
        if status.get("level") != 2:
            self.fail(f"after systemctl reload the level is {status.get('level')}, not 2")
        if self.show("MainPID")["MainPID"] != before:
            self.fail("systemctl reload restarted the daemon instead of reloading it")
        journal = self.sh("journalctl -u morris --no-pager -n 50", "journalctl")
        if "configuration reloaded from /etc/morris/config.toml" not in journal:
            self.fail("the journal has no 'configuration reloaded from' line after the reload")
        self.results["reload_seconds"] = round(result.seconds, 2)
        self.say(f"  systemctl reload: level 2 in force when it returned ({result.seconds:.2f} s)")
        self.sh("sed -i 's/^level = 2$/level = 1/' /etc/morris/config.toml", "editing the config")
        self.sh("systemctl reload morris", "systemctl reload morris")

    def web(self, port: int) -> None:
        """Install again with the companion on loopback; it answers from this machine."""
        self.sh(
            f"sudo /opt/morris/venv/bin/morris install-service --listen 127.0.0.1:{port}",
            "morris install-service --listen",
        )
        self.results["ready_seconds_web"] = self.ready_time("install-service --listen")
        deadline = time.monotonic() + 20
        while True:
            try:
                state = self.api(port, "GET", "/api/state")
                break
            except OSError as exc:
                if time.monotonic() > deadline:
                    self.fail(f"the companion on 127.0.0.1:{port} does not answer here: {exc}")
                time.sleep(0.3)
        if state.get("mode") != "vs-ai" or state.get("level") != 1:
            self.fail(f"the companion's state is not the configured game: {state}")
        self.say(f"  the companion answers on this machine's 127.0.0.1:{port}")

    def play(self, port: int) -> list[str]:
        """Place d6 on the simulated board through the companion; the game's moves once the
        turn is read."""
        self.api(port, "POST", "/api/sim/place/d6")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            moves: list[str] = self.api(port, "GET", "/api/state")["moves"]
            if moves:
                self.say(f"  played through the HTTP API: {' '.join(moves)}")
                return moves
            time.sleep(0.3)
        self.fail("the turn d6 placed through the companion was never read")

    def resumed(self, port: int, moves: list[str], what: str) -> None:
        """The companion shows the same game after a restart."""
        deadline = time.monotonic() + 20
        while True:
            try:
                now = self.api(port, "GET", "/api/state")["moves"]
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.fail(f"the companion did not come back after {what}")
                time.sleep(0.3)
        if now[: len(moves)] != moves:
            self.fail(f"after {what} the game is {now}, not {moves}: it did not resume")
        self.say(f"  the game resumed after {what}: {' '.join(now)}")

    def kill(self, signal_name: str, timeout: float) -> float:
        """``systemctl kill -s SIGNAL morris``; seconds until systemd has it active again."""
        before = self.show("MainPID", "NRestarts")
        sent = time.monotonic()
        self.sh(f"systemctl kill -s {signal_name} morris", f"systemctl kill -s {signal_name}")
        props = self.wait_active(int(sent * 1e6), timeout)
        if props["MainPID"] == before["MainPID"]:
            self.fail(f"after {signal_name} the daemon is the same process")
        if int(props["NRestarts"]) <= int(before["NRestarts"]):
            self.fail(f"after {signal_name} systemd did not count a restart")
        seconds = (int(props["ActiveEnterTimestampMonotonic"]) / 1e6) - sent
        self.say(f"  {signal_name}: active again (READY) {seconds:.1f} s after the signal")
        return round(seconds, 1)

    def journal(self) -> None:
        """What docs/INSTALL.md says ``journalctl -u morris`` shows."""
        tables = self.sh(
            "journalctl -u morris -b --no-pager | grep -E 'endgame tables|solved' || true",
            "journalctl",
        )
        warnings = self.sh("journalctl -u morris -b -p warning --no-pager", "journalctl -p")
        expected = {
            "no endgame tables in": tables,
            "no solved game in": tables,
            "Watchdog timeout": warnings,
        }
        missing = [line for line, text in expected.items() if line not in text]
        if missing:
            self.fail(f"journalctl -u morris lacks what docs/INSTALL.md says: {missing}")
        self.say("  journalctl -u morris: " + "; ".join(f"'{k}'" for k in expected))

    def hardening(self, port: int) -> None:
        """Each probe with and without its directive, as a transient unit: which hold here."""
        main = self.show("MainPID")["MainPID"]
        status = self.sh(f"grep -E 'NoNewPrivs|Seccomp:|CapEff' /proc/{main}/status", "status")
        fields = dict(re.findall(r"(\w+):\s+(\S+)", status))
        self.results["main_process"] = fields
        self.say(
            f"  the daemon: NoNewPrivs {fields.get('NoNewPrivs')}, seccomp mode "
            f"{fields.get('Seccomp')}, effective capabilities {fields.get('CapEff')}"
        )
        cgroup = self.sh("stat -fc %T /sys/fs/cgroup", "stat").strip()
        held, not_held = [], []
        for directive, code, shows in PROBES:
            probe = code.replace("{port}", str(port))
            path = "/run/pilab-probe.py"
            self.sh(f"cat > {path} <<'EOF'\n{probe}\nEOF", "writing a probe")
            base = f"systemd-run --wait --pipe --quiet -p DynamicUser=no -- /usr/bin/python3 {path}"
            without = self.box.run(base, timeout=60)
            with_it = self.box.run(base.replace(" -- ", f" -p {directive} -- "), timeout=60)
            if with_it.code == 0 and without.code != 0:
                held.append(directive)
            elif with_it.code == 0:
                held.append(f"{directive} (the container denies it already)")
            elif with_it.code == 1:
                reason = (
                    WHY_CGROUP_V1.format(d=directive)
                    if cgroup != "cgroup2fs"
                    and directive.split("=")[0]
                    in ("IPAddressDeny", "SocketBindDeny", "DevicePolicy")
                    else "the probe shows no effect"
                )
                not_held.append((directive, shows, reason))
            else:
                not_held.append(
                    (directive, shows, f"probe inconclusive (exit {without.code}/{with_it.code})")
                )
        self.results["hardening_held"] = held
        self.results["hardening_not_held"] = not_held
        self.results["cgroup_fs"] = cgroup
        self.say(f"  hold here: {', '.join(held)}")
        for directive, shows, reason in not_held:
            self.say(f"  does NOT hold here: {directive} ({shows}): {reason}")

    def run_all(self) -> dict[str, Any]:
        """Every check in order; the figures."""
        expected, expected_web = docs_exposure(self.repo)
        self.say("install (docs/INSTALL.md 1, 2):")
        self.install()
        self.say("service (docs/INSTALL.md 5):")
        self.install_service()
        self.exposure("exposure", expected)
        self.say("reload (docs/INSTALL.md 6):")
        self.reload()
        port = free_port()
        self.say("the web companion (docs/INSTALL.md 5, --listen):")
        self.web(port)
        self.exposure("exposure_web", expected_web)
        moves = self.play(port)
        self.say("restarts (docs/INSTALL.md 7):")
        self.results["restart_after_sigkill"] = self.kill("SIGKILL", 30)
        self.resumed(port, moves, "SIGKILL")
        self.results["restart_after_watchdog"] = self.kill("SIGSTOP", 90)
        self.resumed(port, moves, "the watchdog kill")
        self.journal()
        self.say("hardening in this container:")
        self.hardening(port)
        return self.results
