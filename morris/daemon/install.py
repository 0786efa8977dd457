"""Installing the daemon as a systemd service: the plan of steps, and carrying it out.

A plan is a list of steps (run a command, write a file, remove a path, or just say something), so
``--dry-run`` can print exactly what an install would do, and ``--root DIR`` can write the files
under a prefix for a look (or a test) without touching the system. Everything a step does is
printed as it is done: an administrator should be able to repeat or undo an install by hand.
"""

from __future__ import annotations

import dataclasses
import grp
import ipaddress
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from morris.app.errors import InstallError
from morris.i18n import _, msg, nmsg

__all__ = [
    "SERVICE_NAME",
    "Host",
    "InstallOptions",
    "Note",
    "RemovePath",
    "RunCommand",
    "Step",
    "WriteFile",
    "apply",
    "find_service_file",
    "plan_install",
    "plan_uninstall",
    "render_unit",
]

SERVICE_NAME = "morris"
UNIT_PATH = Path("/etc/systemd/system/morris.service")
STATE_DIR = Path("/var/lib/morris")
TEMPLATE_VENV = "/opt/morris/venv"
TEMPLATE_CONFIG = "/etc/morris/config.toml"
BASE_GROUPS = ("gpio", "dialout")
# Groups a hardware profile may need, with the device class (of /proc/devices) each one opens.
EXTRA_GROUP_DEVICES = {"spi": "char-spi", "i2c": "char-i2c", "audio": "char-alsa"}
#: The group and the device class that ``[speech] enabled`` gives the service (espeak-ng writes
#: to the sound card through ALSA): added to the unit only then.
SPEECH_GROUP = "audio"


@dataclasses.dataclass(frozen=True)
class RunCommand:
    """Run a command; its failure stops the plan."""

    argv: tuple[str, ...]
    why: str


@dataclasses.dataclass(frozen=True)
class WriteFile:
    """Write a file (creating its directory), or leave an existing one if ``overwrite`` is false."""

    path: Path
    text: str
    why: str
    mode: int = 0o644
    overwrite: bool = True


@dataclasses.dataclass(frozen=True)
class RemovePath:
    """Remove a file or a whole directory, if it exists."""

    path: Path
    why: str


@dataclasses.dataclass(frozen=True)
class Note:
    """Something the administrator should know; changes nothing."""

    text: str


Step = RunCommand | WriteFile | RemovePath | Note


@dataclasses.dataclass
class Host:
    """What the plan needs to know about the machine; replaced in tests."""

    group_exists: Callable[[str], bool]
    user_exists: Callable[[str], bool]
    has_systemctl: bool

    @classmethod
    def this_machine(cls) -> Host:
        """The machine this runs on."""

        def group_exists(name: str) -> bool:
            try:
                grp.getgrnam(name)
            except KeyError:
                return False
            return True

        def user_exists(name: str) -> bool:
            try:
                pwd.getpwnam(name)
            except KeyError:
                return False
            return True

        return cls(group_exists, user_exists, shutil.which("systemctl") is not None)


@dataclasses.dataclass(frozen=True)
class InstallOptions:
    """The choices of ``morris install-service``."""

    venv: Path = Path(sys.prefix)
    config_dir: Path = Path("/etc/morris")
    user: str = "morris"
    extra_groups: tuple[str, ...] = ()
    start: bool = True
    #: Where the web companion listens (``HOST:PORT``), or ``None`` when it is off: the unit
    #: then has no network at all.
    web_listen: str | None = None
    #: The other board a linked board connects to (``[web] link``, ``http://IP:PORT``), or
    #: ``None``: the unit then lets the service reach that address too.
    web_link: str | None = None
    #: ``[speech] enabled``: the unit then gets the sound device (the ``audio`` group and
    #: ``DeviceAllow=char-alsa``); without it the service has no sound device at all.
    speech: bool = False

    @property
    def groups(self) -> tuple[str, ...]:
        """The supplementary groups of the service: the base ones, the extra ones asked for,
        and ``audio`` when it speaks."""
        speech = (SPEECH_GROUP,) if self.speech else ()
        return tuple(dict.fromkeys((*BASE_GROUPS, *self.extra_groups, *speech)))

    @property
    def executable(self) -> Path:
        """The ``morris`` command the service runs."""
        return self.venv / "bin" / "morris"

    @property
    def config_path(self) -> Path:
        """The configuration file the service reads."""
        return self.config_dir / "config.toml"


def find_service_file(name: str) -> Path:
    """A file shipped in ``systemd/`` (``morris.service``, ``config.toml``).

    An installed package has them in ``<venv>/share/morris/systemd`` (pyproject's data-files); a
    source checkout (editable install) in ``systemd/`` next to the package. Raises
    :class:`InstallError` if neither has it.
    """
    candidates = [
        Path(sys.prefix) / "share" / "morris" / "systemd" / name,
        Path(__file__).resolve().parents[2] / "systemd" / name,
    ]
    for path in candidates:
        if path.is_file():
            return path
    raise InstallError(
        msg(
            "cannot find {name} in {places}",
            name=name,
            places=" | ".join(str(p.parent) for p in candidates),
        )
    )


def render_unit(template: str, options: InstallOptions) -> str:
    """The unit file for ``options``: the real venv, config path, user and groups filled in."""
    for path in (options.executable, options.config_path):
        # ExecStart= splits on whitespace and expands % and $: keep such paths out.
        if not path.is_absolute() or re.search(r"[\s%$\\\"']", str(path)):
            raise InstallError(
                msg(
                    "{path} must be an absolute path without spaces or quotes", path=repr(str(path))
                )
            )
    groups = " ".join(options.groups)
    command = f"{options.executable} run --config {options.config_path}"
    if options.web_listen is not None:
        command += f" --listen {_checked_listen(options.web_listen)}"
    replacements = {
        "ExecStart": command,
        "ExecReload": f"{options.executable} reload --pid $MAINPID",
        "User": options.user,
        "Group": options.user,
        "SupplementaryGroups": groups,
    }
    text = _set_lines(template, replacements)
    devices = [EXTRA_GROUP_DEVICES[g] for g in options.groups if g in EXTRA_GROUP_DEVICES]
    if devices:
        allow = "".join(f"\nDeviceAllow={device} rw" for device in devices)
        text = re.sub(
            r"^(DeviceAllow=char-gpiochip rw)$", lambda m: m.group(1) + allow, text, flags=re.M
        )
    if options.web_listen is not None or options.web_link is not None:
        text = _open_network(text, options.web_listen, options.web_link)
    header = (
        "# Written by `morris install-service`; local changes belong in `systemctl edit morris`.\n"
    )
    return header + text


#: The addresses a listener beyond loopback takes requests from: the private and link-local
#: ranges of a home network (RFC 1918, RFC 4193, RFC 3927/4291), never the internet.
HOME_NETWORKS = "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"


def _checked_listen(listen: str) -> str:
    from morris.app.config import parse_listen
    from morris.app.errors import ConfigError

    try:
        host, port = parse_listen(listen)
    except ConfigError as exc:
        raise InstallError(exc.message) from None
    if port == 0:
        raise InstallError(
            msg("listen address {listen}: the service needs a fixed port", listen=repr(listen))
        )
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _link_address(link: str) -> str:
    """The IP address of the linked board ``http://IP:PORT``: the unit allows addresses, never
    names (resolving one would need the whole network)."""
    from urllib.parse import urlsplit

    host = urlsplit(link).hostname or ""
    if host == "localhost":
        return "localhost"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        raise InstallError(
            msg(
                "{key} {link}: the service reaches the other board by its IP address only "
                "(write it as {form}, e.g. {example})",
                key="[web] link",
                link=repr(link),
                form="http://IP:PORT",
                example="http://10.8.0.2:8700",
            )
        ) from None


def _open_network(text: str, listen: str | None, link: str | None = None) -> str:
    """The unit with the network opened to the web companion's listener only (and to the
    linked board's address, ``link``).

    The private network namespace goes (its loopback is not the host's); the address families
    are the Internet ones (and AF_UNIX); IP traffic is allowed from loopback, or for a listener
    beyond it from the home network's ranges (:data:`HOME_NETWORKS`), and to the linked board;
    the service may bind only the companion's port (none without a listener).
    """
    from morris.app.config import parse_listen

    allowed = ["localhost"]
    bind = ""
    if listen is not None:
        host, port = parse_listen(listen)
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:  # a host name: it may be any address
            loopback = False
        allowed = ["localhost"] if loopback else HOME_NETWORKS.split()
        bind = f"SocketBindAllow=tcp:{port}\n"
    if link is not None:
        address = _link_address(link)
        if address not in allowed:
            allowed.append(address)
    families = "AF_UNIX AF_INET AF_INET6"
    replacements = {
        "PrivateNetwork": "no",
        "RestrictAddressFamilies": families,
        "IPAddressDeny": f"any\nIPAddressAllow={' '.join(allowed)}\n{bind}SocketBindDeny=any",
    }
    text = _set_lines(text, replacements)
    what = f"the web companion listens on {listen}" if listen is not None else ""
    if link is not None:
        what += (" and " if what else "") + f"the board is linked to {link}"
    note = (
        f"# {what[0].upper() + what[1:]}: the network is open to that alone "
        "(morris install-service --listen, or [web] in the configuration).\n"
    )
    return text.replace("\n[Install]", f"\n{note}[Install]", 1)


def _systemctl(*args: str, why: str) -> RunCommand:
    return RunCommand(("systemctl", *args), why)


def plan_install(options: InstallOptions, host: Host) -> list[Step]:
    """The steps of ``morris install-service``."""
    if re.fullmatch(r"[a-z_][a-z0-9_-]*", options.user) is None:
        raise InstallError(msg("not a user name: {user}", user=repr(options.user)))
    steps: list[Step] = []
    for group in options.groups:
        if host.group_exists(group):
            steps.append(Note(_("group {group} exists").format(group=group)))
            continue
        # systemd refuses to start a unit whose SupplementaryGroups= names a missing group.
        why = _("create group {group}").format(group=group)
        steps.append(RunCommand(("groupadd", "--system", group), why))
        if group == "gpio":
            rule = 'SUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"'
            steps.append(
                Note(
                    _(
                        "this is not Raspberry Pi OS (no gpio group): a udev rule must give the "
                        "gpio group /dev/gpiochip*, e.g. {rule}"
                    ).format(rule=rule)
                )
            )
    if host.user_exists(options.user):
        steps.append(Note(_("user {user} exists").format(user=options.user)))
    else:
        steps.append(
            RunCommand(
                (
                    "useradd", "--system", "--user-group", "--no-create-home",
                    "--home-dir", str(STATE_DIR), "--shell", "/usr/sbin/nologin",
                    "--comment", "morris board daemon", options.user,
                ),
                _("create system user {user}").format(user=options.user),
            )
        )  # fmt: skip
    template = find_service_file("morris.service").read_text(encoding="utf-8")
    steps.append(WriteFile(UNIT_PATH, render_unit(template, options), _("install the unit")))
    default_config = find_service_file("config.toml").read_text(encoding="utf-8")
    steps.append(
        WriteFile(
            options.config_path,
            default_config,
            _("write the default configuration"),
            overwrite=False,
        )
    )
    if not options.executable.exists():
        steps.append(
            Note(
                _("{path} does not exist yet: pip install the package there").format(
                    path=options.executable
                )
            )
        )
    if not host.has_systemctl:
        steps.append(Note(_("no systemctl here: the unit is written but not enabled or started")))
        return steps
    steps.append(_systemctl("daemon-reload", why=_("make systemd read the new unit")))
    if options.start:
        steps.append(_systemctl("enable", SERVICE_NAME, why=_("start at boot")))
        # `enable --now` leaves a running service on its old unit: an install again (after
        # changing [web], or an update) must restart it to take the new one. The game in
        # progress is saved on SIGTERM and resumed.
        why = _("start now (a running service restarts on the new unit)")
        steps.append(_systemctl("restart", SERVICE_NAME, why=why))
    else:
        steps.append(_systemctl("enable", SERVICE_NAME, why=_("start at boot")))
    steps.append(Note(_("logs: journalctl -u morris -f; game and health: morris status")))
    return steps


def plan_uninstall(host: Host, *, purge: bool = False, user: str = "morris",
                   config_dir: Path = Path("/etc/morris")) -> list[Step]:  # fmt: skip
    """The steps of ``morris uninstall-service``; ``purge`` also removes config, games and user."""
    steps: list[Step] = []
    if host.has_systemctl:
        why = _("stop it, not at boot")
        steps.append(_systemctl("disable", "--now", SERVICE_NAME, why=why))
    steps.append(RemovePath(UNIT_PATH, _("remove the unit")))
    if host.has_systemctl:
        steps.append(_systemctl("daemon-reload", why=_("make systemd forget the unit")))
        steps.append(_systemctl("reset-failed", SERVICE_NAME, why=_("clear its failed state")))
    if purge:
        steps.append(RemovePath(config_dir, _("remove the configuration")))
        steps.append(RemovePath(STATE_DIR, _("remove the saved game and status")))
        if host.user_exists(user):
            steps.append(RunCommand(("userdel", user), _("remove user {user}").format(user=user)))
    else:
        kept = _("kept {config}, {state} and user {user} (--purge removes them)").format(
            config=config_dir, state=STATE_DIR, user=user
        )
        steps.append(Note(kept))
    steps.append(Note(_("groups gpio and dialout are left alone: other programs use them")))
    return steps


def _describe(step: Step) -> str:
    match step:
        case RunCommand(argv, why):
            return f"{why}: {shlex.join(argv)}"
        case WriteFile(path, _text, why, mode, overwrite):
            how = (
                _("unless it exists")
                if not overwrite
                else _("mode {mode}").format(mode=f"{mode:o}")
            )
            return f"{why}: {path} ({how})"
        case RemovePath(path, why):
            return f"{why}: {path}"
        case Note(text):
            return text


def _under(root: Path | None, path: Path) -> Path:
    return path if root is None else root / path.relative_to(path.anchor)


def apply(
    steps: Sequence[Step],
    *,
    dry_run: bool = False,
    root: Path | None = None,
    out: TextIO | None = None,
    run: Callable[[Sequence[str]], subprocess.CompletedProcess[str]] | None = None,
) -> None:
    """Carry out ``steps`` in order, printing each one to ``out``.

    ``dry_run`` prints the plan and changes nothing. ``root`` writes and removes files under that
    directory and runs no command (they are printed as skipped). ``out`` defaults to standard
    output and ``run`` to :func:`subprocess.run` with ``check=True``. A failed command raises
    :class:`InstallError` and stops the plan.
    """
    out = sys.stdout if out is None else out
    runner = run or (lambda argv: subprocess.run(argv, check=True, capture_output=True, text=True))
    for step in steps:
        text = _describe(step)
        if isinstance(step, Note):
            # TRANSLATORS: a line of install-service's plan: a remark, no change.
            print("  " + _("note: {text}").format(text=text), file=out)
            continue
        if dry_run:
            # TRANSLATORS: a step of install-service --dry-run: what it would do ("install the
            # unit: /etc/...").
            print("  " + _("would {step}").format(step=text), file=out)
            continue
        match step:
            case RunCommand(argv):
                if root is not None:
                    print("  " + _("skipped (--root): {step}").format(step=text), file=out)
                    continue
                print(f"  {text}", file=out)
                try:
                    runner(argv)
                except (OSError, subprocess.CalledProcessError) as exc:
                    detail = getattr(exc, "stderr", None) or str(exc)
                    raise InstallError(
                        msg(
                            "{command} failed: {problem}",
                            command=shlex.join(argv),
                            problem=detail.strip(),
                        )
                    ) from exc
            case WriteFile(path, content, _why, mode, overwrite):
                target = _under(root, path)
                if target.exists() and not overwrite:
                    kept = _("kept {path}: it exists and is not overwritten").format(path=path)
                    print(f"  {kept}", file=out)
                    continue
                print(f"  {text}", file=out)
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_name(f".{target.name}.tmp")
                tmp.write_text(content, encoding="utf-8")
                os.chmod(tmp, mode)
                os.replace(tmp, target)
            case RemovePath(path):
                target = _under(root, path)
                if not target.exists() and not target.is_symlink():
                    print(
                        "  " + _("nothing to do: {path} does not exist").format(path=path), file=out
                    )
                    continue
                print(f"  {text}", file=out)
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink()


def _set_lines(text: str, replacements: dict[str, str]) -> str:
    """``text`` (a unit) with its one ``KEY=`` line of each key set to ``KEY=value``;
    :class:`InstallError` where the unit has no such line, or more than one."""
    for key, value in replacements.items():
        # Escaped: the replacement is a template where a backslash would mean a group.
        line = f"{key}={value}".replace("\\", "\\\\")
        text, count = re.subn(rf"^{key}=.*$", line, text, flags=re.M)
        if count != 1:
            raise InstallError(
                nmsg(
                    "the unit template has {n} {key}= line, expected one",
                    "the unit template has {n} {key}= lines, expected one",
                    count,
                    key=key,
                )
            )
    return text
