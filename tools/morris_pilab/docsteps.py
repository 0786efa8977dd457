"""The install steps, read from README.md and docs/INSTALL.md themselves.

The lab runs what the documents say, not a copy of it: a step changed in the docs is the step
run. The few changes it makes are listed with their reason (:data:`ADAPTATIONS`) and printed with
each run, so nothing is done quietly otherwise than written.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

__all__ = ["ADAPTATIONS", "Step", "commands", "install_steps", "readme_steps", "section_blocks"]

#: Where the lab puts the working tree inside a userland (a git repository of it, for the clone).
SOURCE_INSIDE = "/root/morris-src"


@dataclasses.dataclass(frozen=True)
class Step:
    """One command of a document, as the lab runs it."""

    source: str
    """Where it is written (``docs/INSTALL.md, 2. A venv in /opt/morris``)."""
    written: str
    """The command as the document has it."""
    command: str
    """The command the lab runs (``written`` with the adaptations applied)."""
    note: str = ""
    """Why the lab runs it otherwise than written (empty if it runs as written)."""

    @property
    def expected(self) -> str | None:
        """What the document says the command prints (a one-word comment after it, such as
        ``# True``), or ``None``."""
        match = re.search(r"\s#\s*(\w+)\s*$", self.written)
        return match.group(1) if match else None


#: (what the doc has, what the lab runs, why): the only differences from the documents.
ADAPTATIONS: tuple[tuple[str, str, str], ...] = (
    (
        "<the morris repository>",
        SOURCE_INSIDE,
        "the working tree under test, committed into a local repository inside",
    ),
    (
        " python3-lgpio",
        "",
        "python3-lgpio is Raspberry Pi OS's own package, not in Debian's archive (and the "
        "simulated board needs no GPIO)",
    ),
)

#: Steps that need what the lab does not have, with the reason; matched by prefix.
SKIPPED = {
    '/opt/morris/venv/bin/python -c "import lgpio': "lgpio is Raspberry Pi OS's package (above)",
}


def section_blocks(markdown: str, heading: str, arch: str | None = None) -> list[str]:
    """The fenced code blocks of the section titled ``heading`` (up to the next heading of any
    level). A block right after ``<!-- pilab: ARCH -->`` is for that architecture only: it is
    left out unless ``arch`` is ``ARCH``."""
    lines = markdown.splitlines()
    blocks: list[str] = []
    inside = False
    fence: list[str] | None = None
    only: str | None = None
    for line in lines:
        match = re.match(r"^(#+)\s+(.*)$", line)
        if match and fence is None:
            inside = match.group(2).strip() == heading
            continue
        if not inside:
            continue
        tag = re.fullmatch(r"<!--\s*pilab:\s*(\w+)\s*-->", line.strip())
        if tag and fence is None:
            only = tag.group(1)
        elif line.startswith("```"):
            if fence is None:
                fence = []
            else:
                if only is None or only == arch:
                    blocks.append("\n".join(fence))
                fence = None
                only = None
        elif fence is not None:
            fence.append(line)
        elif line.strip():
            only = None  # the tag is for the block right after it
    return blocks


def commands(block: str) -> list[str]:
    """The commands of a code block: one a line, ``\\`` continuations joined, blank lines and
    comment lines left out."""
    out: list[str] = []
    pending = ""
    for raw in block.splitlines():
        line = raw.rstrip()
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        if line.endswith("\\"):
            pending = line[:-1].rstrip()
            continue
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    if pending:
        out.append(pending.strip())
    return out


def _adapt(source: str, written: str) -> Step:
    command, notes = written, []
    for old, new, why in ADAPTATIONS:
        if old in command:
            command = command.replace(old, new)
            notes.append(why)
    return Step(source, written, command, "; ".join(notes))


def install_steps(repo: Path, arch: str | None = None) -> list[Step]:
    """docs/INSTALL.md's sections 1 and 2 (packages, the venv in /opt/morris and its checks),
    as the lab runs them on Debian architecture ``arch``; the optional mypyc build is a
    subsection of its own, left out."""
    text = (repo / "docs" / "INSTALL.md").read_text(encoding="utf-8")
    steps: list[Step] = []
    for heading in ("1. Packages", "2. A venv in /opt/morris"):
        for block in section_blocks(text, heading, arch):
            for written in commands(block):
                step = _adapt(f"docs/INSTALL.md, {heading}", written)
                skip = next((why for key, why in SKIPPED.items() if written.startswith(key)), None)
                if skip is not None:
                    step = dataclasses.replace(step, command="", note=f"not run: {skip}")
                steps.append(step)
    return steps


def service_steps(repo: Path) -> list[Step]:
    """docs/INSTALL.md's section 5: the dry run, then ``morris install-service``."""
    text = (repo / "docs" / "INSTALL.md").read_text(encoding="utf-8")
    heading = "5. Install the service"
    return [
        _adapt(f"docs/INSTALL.md, {heading}", written)
        for block in section_blocks(text, heading)[:1]
        for written in commands(block)
    ]


def readme_steps(repo: Path) -> tuple[str, str]:
    """README.md's two commands: the install (and simulator) line and the test line."""
    text = (repo / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"```sh\n(python3\.11 -m venv .venv && [^\n]+)\n```", text)
    if len(found) < 2:
        raise ValueError("README.md no longer has its two install lines")
    return found[0], found[1]
