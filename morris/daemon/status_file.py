"""The daemon's status file: what it is doing, for ``morris status`` and anyone else to read.

The daemon writes :class:`ServiceStatus` with :func:`write_status` to ``status.json`` in its state
directory (``$STATE_DIRECTORY``, which systemd sets from ``StateDirectory=``; by default
``/var/lib/morris``) whenever something a person would notice changes. The file is JSON, one
object, replaced atomically so a reader never sees half of it::

    {
      "format": 1,
      "pid": 812,
      "started": "2026-11-29T12:00:00+00:00",
      "updated": "2026-11-29T12:03:10+00:00",
      "mode": "vs-ai",
      "level": 3,
      "backend": "gpio",
      "link": "up",
      "board": "in sync",
      "position": "...",
      "move_count": 7,
      "side_to_move": "black",
      "last_event": "white placed d6",
      "outcome": null,
      "engine": "built-in, C search in a thread",
      "engine_warning": null
    }

The values are data, the same in every language (``morris status`` says the known ones in its
reader's language); the errors of :func:`read_status` are in the board's language, for
``morris status`` to show. Times are ISO 8601 with a UTC offset. Readers ignore keys they do
not know, so fields can be added without raising ``format``; it changes only when a field changes
meaning or is removed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from morris.app.errors import StatusFileError
from morris.i18n import _

logger = logging.getLogger(__name__)

__all__ = [
    "STATUS_FILE_NAME",
    "STATUS_FORMAT",
    "ServiceStatus",
    "read_status",
    "write_status",
]

STATUS_FORMAT = 1
STATUS_FILE_NAME = "status.json"


@dataclasses.dataclass(frozen=True)
class ServiceStatus:
    """A snapshot of the running daemon: its process, its devices and its game."""

    pid: int
    """The daemon's process id."""
    started: datetime
    """When the daemon started (timezone-aware)."""
    updated: datetime
    """When this snapshot was taken (timezone-aware)."""
    mode: str
    """The game mode, a :class:`~morris.app.mode.Mode` value: ``"vs-ai"`` (a person plays the Pi),
    ``"referee"`` or ``"remote"`` (a newer daemon's other word is read as it is)."""
    backend: str
    """The device backend from the configuration: ``"gpio"``, ``"serial"`` or ``"sim"``."""
    link: str
    """Health of the link to the board: ``"up"``, ``"down"`` (a serial board unplugged or silent),
    or ``"failed"`` (the board stopped answering and the daemon is exiting)."""
    board: str
    """The sensed board against the game: ``"in sync"``, or what is wrong (``"piece on d6"``)."""
    position: str
    """The game's position in the core's notation."""
    move_count: int
    """Moves played in this game."""
    side_to_move: str | None = None
    """``"white"`` or ``"black"``; ``None`` when the game is over or not started."""
    level: int | None = None
    """The engine's level when the Pi plays, else ``None``."""
    last_event: str | None = None
    """The last thing that happened, in words (``"white placed d6"``)."""
    outcome: str | None = None
    """How the game ended (``"black wins: white has two pieces"``); ``None`` while it goes on."""
    engine: str | None = None
    """The Pi's engine and how it runs (``"built-in, C search in a thread"``, ``"external: X"``)."""
    remote: str | None = None
    """In mode remote, the remote player: ``"waiting"``, ``"up (page)"`` or ``"up (board)"`` (a
    linked board); ``None`` in the other modes."""
    engine_warning: str | None = None
    """Why the Pi plays weaker than configured, with the fix: the C search is not built (20-25
    times slower), or the external engine failed and the built-in one plays; else ``None``."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the status file."""
        data = dataclasses.asdict(self)
        data["started"] = self.started.isoformat()
        data["updated"] = self.updated.isoformat()
        return {"format": STATUS_FORMAT, **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ServiceStatus:
        """Parse the JSON object of a status file; raises :class:`StatusFileError`."""
        if data.get("format") != STATUS_FORMAT:
            raise StatusFileError(
                _("status format {found} is not {wanted} (an older morris?)").format(
                    found=repr(data.get("format")), wanted=STATUS_FORMAT
                )
            )
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            if field.name not in data:
                if field.default is dataclasses.MISSING:
                    raise StatusFileError(
                        _("the status has no {field}").format(field=repr(field.name))
                    )
                continue
            values[field.name] = data[field.name]
        for name in ("started", "updated"):
            try:
                values[name] = datetime.fromisoformat(values[name])
            except (TypeError, ValueError) as exc:
                raise StatusFileError(
                    _("the status's {field} {value} is not a time").format(
                        field=name, value=repr(values[name])
                    )
                ) from exc
        for name, value in values.items():
            expected = _FIELD_TYPES.get(name)
            # type() rather than isinstance(): JSON true must not pass as the integer 1.
            if expected is not None and type(value) not in expected:
                raise StatusFileError(
                    _("the status's {field} {value} has the wrong type").format(
                        field=name, value=repr(value)
                    )
                )
        return cls(**values)


_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "pid": (int,),
    "mode": (str,),
    "backend": (str,),
    "link": (str,),
    "board": (str,),
    "position": (str,),
    "move_count": (int,),
    "side_to_move": (str, type(None)),
    "level": (int, type(None)),
    "remote": (str, type(None)),
    "last_event": (str, type(None)),
    "outcome": (str, type(None)),
    "engine": (str, type(None)),
    "engine_warning": (str, type(None)),
}


def write_status(path: Path, status: ServiceStatus) -> None:
    """Replace the file at ``path`` with ``status``, atomically and durably.

    The text goes to a temporary file in the same directory, is flushed to disk, and is renamed
    over ``path``: a reader (or a power cut) sees the old status or the new, never a torn file.
    The file is readable by the service's group (``morris``), not by everyone.
    """
    text = json.dumps(status.to_json(), indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fchmod(file.fileno(), 0o640)
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    # The rename is durable only once the directory is on disk too.
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def read_status(path: Path) -> ServiceStatus:
    """The status in the file at ``path``; raises :class:`StatusFileError` naming the path."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StatusFileError(
            _("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StatusFileError(
            _("{path} is not JSON: {reason}").format(path=path, reason=exc)
        ) from exc
    if not isinstance(data, dict):
        raise StatusFileError(
            # TRANSLATORS: {kind} is a JSON type as Python names it (list, str).
            _("{path} holds {kind}, not an object").format(path=path, kind=type(data).__name__)
        )
    try:
        return ServiceStatus.from_json(data)
    except StatusFileError as exc:
        raise StatusFileError(f"{path}: {exc}") from exc
