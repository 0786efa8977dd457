"""``morris install-service``, ``uninstall-service``, ``status`` and ``reload``.

The first two set the daemon up as a systemd service (``morris.daemon.install``); ``status``
shows the running service's game and health from the status file it keeps
(``morris.daemon.status_file``); ``reload`` is the unit's ``ExecReload=``: it asks the daemon to
reread its configuration (SIGHUP) and waits until it has, so ``systemctl reload morris`` returns
once the new settings hold. It runs the venv's own ``morris``, so the unit needs no binary beyond
the one it starts (``/bin/kill`` is in procps, which a minimal Debian lacks; ``Type=notify-reload``
needs systemd 253, Raspberry Pi OS bookworm has 252).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from morris import i18n
from morris.commands.options import listen_argument
from morris.commands.words import either, error
from morris.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from morris.daemon.status_file import ServiceStatus

__all__ = ["register"]

# Codes of `morris status`, as LSB status actions use them.
STATUS_RUNNING = 0
STATUS_NOT_RUNNING = 3
STATUS_UNKNOWN = 4
# Codes of `morris reload`.
RELOAD_DONE = 0
RELOAD_NO_DAEMON = 1
RELOAD_NOT_CONFIRMED = 4


def register(subparsers: Any) -> None:
    """Add the four subcommands to the ``morris`` parser."""
    install = subparsers.add_parser(
        "install-service",
        help=_("install, enable and start the systemd service (root)"),
        description=_(
            "Create the morris user and the gpio/dialout groups if missing, install the "
            "unit and a default configuration (never overwriting yours), then enable and start it."
        ),
    )
    install.add_argument("--dry-run", action="store_true", help=_("print the plan, change nothing"))
    install.add_argument(
        "--venv",
        type=Path,
        default=Path(sys.prefix),
        help=_("the venv the service runs morris from (default: this one, %(default)s)"),
    )
    install.add_argument(
        "--config-dir",
        type=Path,
        default=Path("/etc/morris"),
        help=_("where the configuration is (default: %(default)s)"),
    )
    install.add_argument("--user", default="morris", help=_("system user to run as (%(default)s)"))
    install.add_argument(
        "--extra-group",
        action="append",
        default=[],
        choices=["spi", "i2c"],
        help=_("also give the service this group and its devices (for profiles using SPI or I2C)"),
    )
    install.add_argument("--no-start", action="store_true", help=_("enable at boot, do not start"))
    install.add_argument(
        "--web",
        action="store_true",
        help=_(
            "serve the web companion (where [web] listen says, else 127.0.0.1:8700): the unit "
            "opens the network to its listener only"
        ),
    )
    install.add_argument(
        "--listen",
        metavar="HOST:PORT",
        type=listen_argument,
        help=_(
            "serve the web companion here (implies --web); without --web or --listen the "
            "configuration's [web] keys decide"
        ),
    )
    install.add_argument(
        "--root",
        type=Path,
        help=_("write files under this directory and run no command (testing)"),
    )
    install.set_defaults(run=run_install)

    uninstall = subparsers.add_parser(
        "uninstall-service",
        help=_("stop, disable and remove the systemd service (root)"),
        description=_(
            "Stop and disable the service and remove its unit. The configuration, the "
            "saved game and the user stay unless --purge is given."
        ),
    )
    uninstall.add_argument(
        "--dry-run", action="store_true", help=_("print the plan, change nothing")
    )
    uninstall.add_argument(
        "--purge", action="store_true", help=_("also remove configuration, saved game and user")
    )
    uninstall.add_argument("--user", default="morris", help=_("the service's user (%(default)s)"))
    uninstall.add_argument(
        "--config-dir",
        type=Path,
        default=Path("/etc/morris"),
        help=_("where the configuration is (default: %(default)s)"),
    )
    uninstall.add_argument(
        "--root",
        type=Path,
        help=_("remove files under this directory and run no command (testing)"),
    )
    uninstall.set_defaults(run=run_uninstall)

    status = subparsers.add_parser(
        "status",
        help=_("show the service's game and health"),
        description=_(
            "Show the game and health the running daemon reports in its state directory."
        ),
    )
    status.add_argument(
        "--state-dir",
        type=Path,
        help=_(
            "the daemon's state directory (default: look in $STATE_DIRECTORY, /var/lib/morris "
            "and ~/.local/state/morris, and show the daemon that runs)"
        ),
    )
    status.add_argument(
        "--json",
        action="store_true",
        help=_(
            "print it as JSON, the same in every language: service, status_file, running and "
            "status (the status file's object)"
        ),
    )
    status.set_defaults(run=run_status)

    reload = subparsers.add_parser(
        "reload",
        help=_("make the running daemon reread its configuration and wait until it has"),
        description=_(
            "Send the daemon SIGHUP and wait for the status snapshot it writes when the "
            "reload is done. The service's ExecReload= runs this (`systemctl reload morris`). "
            "Exit 0 reloaded, 1 no such daemon, 4 signalled but not confirmed within --timeout."
        ),
    )
    reload.add_argument("--pid", type=int, required=True, help=_("the daemon's process id"))
    reload.add_argument(
        "--state-dir",
        type=Path,
        help=_(
            "where the daemon writes status.json (default: $STATE_DIRECTORY, then the places "
            "`morris status` looks in)"
        ),
    )
    reload.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help=_("seconds to wait for the daemon to confirm (default %(default)s)"),
    )
    reload.set_defaults(run=run_reload)


def _check_root(args: argparse.Namespace, verb: str) -> str | None:
    if args.dry_run or args.root is not None or os.geteuid() == 0:
        return None
    return _(
        "morris {command} changes the system and must run as root: sudo morris {command} "
        "(or --dry-run)"
    ).format(command=verb)


def _web_listen(args: argparse.Namespace, config_dir: Path) -> str | None:
    """Where the service's web companion listens: ``--listen``, else (with ``--web`` or
    ``[web] enabled``) the configuration's ``[web] listen``; ``None`` when it is off.

    Raises :class:`ConfigError` for a configuration that cannot be read.
    """
    from morris.app.config import load_config, parse_listen

    if args.listen is not None:
        parse_listen(args.listen)
        return str(args.listen)
    path = config_dir / "config.toml"
    if args.root is not None:
        path = args.root / path.relative_to(path.anchor)
    config = load_config(path) if path.is_file() else None
    if config is not None and (config.web.enabled or args.web):
        return config.web.listen
    if args.web:
        from morris.app.config import DEFAULT_LISTEN

        return DEFAULT_LISTEN
    return None


def _speech(args: argparse.Namespace, config_dir: Path) -> bool:
    """Whether the configuration speaks (``[speech] enabled``): the unit then gets the sound
    device."""
    from morris.app.config import load_config

    path = config_dir / "config.toml"
    if args.root is not None:
        path = args.root / path.relative_to(path.anchor)
    return path.is_file() and load_config(path).speech.enabled


def _web_link(args: argparse.Namespace, config_dir: Path) -> str | None:
    """The other board the configuration links this one to (``[web] link``), or ``None``."""
    from morris.app.config import load_config

    path = config_dir / "config.toml"
    if args.root is not None:
        path = args.root / path.relative_to(path.anchor)
    if not path.is_file():
        return None
    return load_config(path).web.link or None


def run_install(args: argparse.Namespace) -> int:
    """``morris install-service``."""
    from morris.app.errors import ConfigError, InstallError
    from morris.daemon.install import Host, InstallOptions, apply, plan_install

    if (problem := _check_root(args, "install-service")) is not None:
        print(problem, file=sys.stderr)
        return 1
    config_dir = args.config_dir.absolute()
    try:
        web_listen = _web_listen(args, config_dir)
        web_link = _web_link(args, config_dir)
        speech = _speech(args, config_dir)
    except ConfigError as exc:
        error(str(exc), command="morris install-service")
        return 1
    options = InstallOptions(
        venv=args.venv.absolute(),
        config_dir=config_dir,
        user=args.user,
        extra_groups=tuple(args.extra_group),
        start=not args.no_start,
        web_listen=web_listen,
        web_link=web_link,
        speech=speech,
    )
    host = Host.this_machine()
    if args.root is not None:
        host.has_systemctl = True  # show the whole plan; commands are skipped under --root
    try:
        steps = plan_install(options, host)
        print(
            _("Plan to install the morris service:")
            if args.dry_run
            else _("Installing the morris service:")
        )
        apply(steps, dry_run=args.dry_run, root=args.root)
    except InstallError as exc:
        error(str(exc), command="morris install-service")
        return 1
    print(_("Done.") if not args.dry_run else _("Nothing was changed (--dry-run)."))
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    """``morris uninstall-service``."""
    from morris.app.errors import InstallError
    from morris.daemon.install import Host, apply, plan_uninstall

    if (problem := _check_root(args, "uninstall-service")) is not None:
        print(problem, file=sys.stderr)
        return 1
    host = Host.this_machine()
    if args.root is not None:
        host.has_systemctl = True
    try:
        steps = plan_uninstall(
            host, purge=args.purge, user=args.user, config_dir=args.config_dir.absolute()
        )
        print(
            _("Plan to remove the morris service:")
            if args.dry_run
            else _("Removing the morris service:")
        )
        apply(steps, dry_run=args.dry_run, root=args.root)
    except InstallError as exc:
        error(str(exc), command="morris uninstall-service")
        return 1
    print(_("Done.") if not args.dry_run else _("Nothing was changed (--dry-run)."))
    return 0


def _service_state() -> tuple[str | None, str | None]:
    """``systemctl is-active morris`` ("active", "failed", ...), or ``None`` if systemd cannot
    tell, and why it cannot when systemd was asked and did not answer (else ``None``)."""
    if shutil.which("systemctl") is None:
        return None, None
    try:
        result = subprocess.run(
            ["systemctl", "is-active", "morris"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None, None
    if not result.stdout.strip():
        # No answer from systemd at all (not booted with systemd, no D-Bus): say so, don't guess.
        reason = result.stderr.strip().splitlines()
        return None, reason[0] if reason else _("systemctl said nothing")
    return result.stdout.strip(), None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, as another user
    return True


def _age(then: datetime, now: datetime) -> str:
    seconds = int((now - then).total_seconds())
    if seconds < 120:
        return ngettext("{n} s ago", "{n} s ago", seconds).format(n=seconds)
    if seconds < 7200:
        minutes = seconds // 60
        return ngettext("{n} min ago", "{n} min ago", minutes).format(n=minutes)
    hours = seconds // 3600
    return ngettext("{n} h ago", "{n} h ago", hours).format(n=hours)


#: The width of the labels of ``morris status`` (the English ones and their colon fit).
LABEL_WIDTH = 13


def _row(label: str, value: object) -> None:
    """A line of ``morris status``: ``label:`` and the value, aligned (wider in a language
    whose label is longer)."""
    print(f"{label + ':':<{LABEL_WIDTH}} {value}")


#: The values of the status file's fields that ``morris status`` says in words (any other
#: value is shown as the daemon wrote it).
STATUS_WORDS: dict[str, str] = {
    # TRANSLATORS: the link to the board in morris status: working.
    "up": N_("up"),
    # TRANSLATORS: the link to the board in morris status: unplugged or silent.
    "down": N_("down"),
    # TRANSLATORS: the link to the board in morris status: it stopped answering.
    "failed": N_("failed"),
    # TRANSLATORS: the remote player in morris status: not there yet.
    "waiting": N_("waiting"),
    "up (page)": N_("up (on a web page)"),
    "up (board)": N_("up (a linked board)"),
    "in sync": N_("in sync"),
    "does not match the game": N_("does not match the game"),
}


def _word(value: str) -> str:
    return _(STATUS_WORDS[value]) if value in STATUS_WORDS else value


def _running_status(paths: list[Path]) -> tuple[Path, ServiceStatus]:
    """The status of the daemon that runs: of the status files in ``paths`` that can be read,
    the first whose daemon is alive, else the most recently updated. Raises
    :class:`StatusFileError` naming every place looked in when none can be read."""
    from morris.app.errors import StatusFileError
    from morris.daemon.status_file import read_status

    found: list[tuple[Path, ServiceStatus]] = []
    errors: list[str] = []
    for path in paths:
        try:
            status = read_status(path)
        except StatusFileError as exc:
            errors.append(str(exc))
            continue
        if _process_alive(status.pid):
            return path, status
        found.append((path, status))
    if found:
        return max(found, key=lambda item: item[1].updated)
    raise StatusFileError("; ".join(errors))


def run_status(args: argparse.Namespace) -> int:
    """``morris status``: print the status file and the service state; 0 if it is running."""
    from morris.app.errors import StatusFileError
    from morris.app.paths import daemon_state_dirs
    from morris.daemon.status_file import STATUS_FILE_NAME

    if args.json:
        i18n.set_language("en")  # the JSON's texts (an error) are English in every language
    state, unknown = _service_state()
    if args.state_dir is not None:
        paths = [args.state_dir / STATUS_FILE_NAME]
    else:
        paths = [d / STATUS_FILE_NAME for d in daemon_state_dirs()]
    try:
        path, status = _running_status(paths)
    except StatusFileError as exc:
        if args.json:
            print(json.dumps({"service": state, "status_file": None, "error": str(exc)}))
        else:
            _print_service(state, unknown)
            print(_("no game status: {reason}").format(reason=exc))
        return STATUS_NOT_RUNNING if state not in (None, "active", "reloading") else STATUS_UNKNOWN
    alive = _process_alive(status.pid)
    if args.json:
        data = {"service": state, "status_file": str(path), "running": alive}
        print(json.dumps({**data, "status": status.to_json()}, indent=2))
    else:
        _print_status(state, unknown, path if len(paths) > 1 else None, status, alive)
    if state is not None and state != "active":
        return STATUS_NOT_RUNNING
    return STATUS_RUNNING if alive else STATUS_NOT_RUNNING


def _print_service(state: str | None, unknown: str | None) -> None:
    if state is not None:
        _row(_("service"), f"{state} (systemctl is-active morris)")
    elif unknown is not None:
        _row(_("service"), _("unknown ({reason})").format(reason=unknown))


def _print_status(
    state: str | None,
    unknown: str | None,
    path: Path | None,
    status: ServiceStatus,
    alive: bool,
) -> None:
    """``morris status``'s lines, in the board's language."""
    _print_service(state, unknown)
    if path is not None:
        _row(_("status file"), path)
    now = datetime.now(UTC)
    for name, value in _status_rows(status, alive, now):
        _row(name, value)


def _game_text(status: ServiceStatus) -> str:
    """The status's game in words: ``2 moves, white to move``, ``7 moves, over: 1-0``."""
    n = status.move_count
    if status.outcome:
        return ngettext("{n} move, over: {result}", "{n} moves, over: {result}", n).format(
            n=n, result=status.outcome
        )
    if status.side_to_move == "white":
        return ngettext("{n} move, white to move", "{n} moves, white to move", n).format(n=n)
    if status.side_to_move == "black":
        return ngettext("{n} move, black to move", "{n} moves, black to move", n).format(n=n)
    return ngettext("{n} move", "{n} moves", n).format(n=n)


def _status_rows(status: ServiceStatus, alive: bool, now: datetime) -> list[tuple[str, str]]:
    """The labelled lines of ``morris status`` for ``status``, in the board's language; the
    mode and backend are the configuration's values, the last event and the engine as the
    daemon wrote them."""

    def when(moment: datetime) -> str:
        return f"{moment.isoformat(timespec='seconds')} ({_age(moment, now)})"

    daemon = (
        _("pid {pid} running") if alive else _("pid {pid} not running (stale status)")
    ).format(pid=status.pid)
    mode = status.mode
    if status.level is not None:
        # TRANSLATORS: after the game mode (vs-ai, referee, remote) in morris status.
        mode = _("{mode}, level {level}").format(mode=mode, level=status.level)
    rows = [
        (_("daemon"), daemon),
        (_("started"), when(status.started)),
        (_("updated"), when(status.updated)),
        (_("mode"), mode),
        (_("backend"), status.backend),
        # TRANSLATORS: a label of morris status: the link to the board's hardware.
        (_("link"), _word(status.link)),
        *([(_("remote"), _word(status.remote))] if status.remote else []),
        (_("board"), _word(status.board)),
        (_("game"), _game_text(status)),
        (_("position"), status.position),
        (_("last event"), status.last_event or "-"),
        (_("engine"), status.engine or "-"),
        *([(_("warning"), status.engine_warning)] if status.engine_warning else []),
    ]
    return rows


def _status_updated(paths: list[Path], pid: int) -> datetime | None:
    """When daemon ``pid`` last wrote its status file in ``paths``; ``None`` if none is its."""
    from morris.app.errors import StatusFileError
    from morris.daemon.status_file import read_status

    for path in paths:
        try:
            status = read_status(path)
        except StatusFileError:
            continue
        if status.pid == pid:
            return status.updated
    return None


def run_reload(args: argparse.Namespace) -> int:
    """``morris reload --pid PID``: SIGHUP to the daemon, then wait until it has written a status
    snapshot after the signal (it writes one at the end of every reload)."""
    from morris.app.paths import daemon_state_dirs
    from morris.daemon.status_file import STATUS_FILE_NAME

    if args.pid <= 0:
        error(_("not a process id: {pid}").format(pid=args.pid), command="morris reload")
        return RELOAD_NO_DAEMON
    if args.state_dir is not None:
        paths = [args.state_dir / STATUS_FILE_NAME]
    else:
        paths = [d / STATUS_FILE_NAME for d in daemon_state_dirs()]
    sent = datetime.now(UTC)
    try:
        os.kill(args.pid, signal.SIGHUP)
    except ProcessLookupError:
        error(_("no process {pid}").format(pid=args.pid), command="morris reload")
        return RELOAD_NO_DAEMON
    except PermissionError:
        error(
            _("not allowed to signal process {pid}").format(pid=args.pid),
            command="morris reload",
        )
        return RELOAD_NO_DAEMON
    deadline = time.monotonic() + max(args.timeout, 0.0)
    while True:
        updated = _status_updated(paths, args.pid)
        if updated is not None and updated >= sent:
            print(_("daemon {pid} reloaded its configuration").format(pid=args.pid))
            return RELOAD_DONE
        if not _process_alive(args.pid):
            error(
                _("process {pid} ended during the reload").format(pid=args.pid),
                command="morris reload",
            )
            return RELOAD_NO_DAEMON
        if time.monotonic() >= deadline:
            where = either([str(p) for p in paths])
            error(
                _(
                    "sent SIGHUP to {pid}, but it wrote no status to {where} within {seconds} s"
                ).format(pid=args.pid, where=where, seconds=f"{args.timeout:g}"),
                command="morris reload",
            )
            return RELOAD_NOT_CONFIRMED
        time.sleep(0.05)
