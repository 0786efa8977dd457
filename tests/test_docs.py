"""The documentation stays whole on a fresh clone: the spec is in ``docs/``, and links resolve.

- No tracked file may refer to the spec folder that once sat beside the repository: a clone does
  not have it, so such a reference is a dead end (the rules, the design and the style are in
  ``docs/RULES.md``, ``docs/DESIGN.md`` and ``docs/STYLE.md``).
- Every relative link in the project's Markdown (README.md, docs/, hardware/README.md,
  firmware_bridge/) points at a file that exists, and an ``#anchor`` at a heading of that file.
- Every test file the Markdown names (``tests/...py``) exists, so the failure list of DESIGN.md
  keeps pointing at real tests.
- The board diagram that ``tests/core/reference.py`` reads its links and mills from is the one in
  docs/RULES.md, as that module says.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.core.reference import DIAGRAM

ROOT = Path(__file__).resolve().parents[1]

#: The Markdown whose links are checked.
MARKDOWN = sorted(
    {
        ROOT / "README.md",
        ROOT / "hardware" / "README.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("firmware_bridge/*.md"),
    }
)

_OLD = "sha" + "red"  # the old folder's name, split so this file does not match itself
#: Ways a file can name the old folder: a relative path to it, a path into it (by the names it
#: held), a path join with its name, or prose that calls it by its name.
OLD_FOLDER_PATTERNS = [
    re.compile(r"\.\.[/\\]" + _OLD + r"\b"),
    re.compile(r"(?<![\w.-])" + _OLD + r"/(?:games|seeds|hooks|DESIGN|RULES|STYLE)\b"),
    re.compile(r"""["']""" + _OLD + r"""["']"""),
    re.compile(r"`+" + _OLD + r"`+"),
    re.compile(r"\b" + _OLD + r"\s+folder\b", re.IGNORECASE),
]

_SKIPPED_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache"}


def _tracked_files() -> list[Path]:
    """The files git tracks; outside a git checkout (an unpacked sdist), every file of the tree."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return [
            p
            for p in ROOT.rglob("*")
            if p.is_file() and not _SKIPPED_DIRS & set(p.relative_to(ROOT).parts)
        ]
    return [ROOT / name for name in out.decode().split("\0") if name]


def _text(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None  # binary
    return data.decode("utf-8", errors="replace")


def test_no_tracked_file_refers_to_the_old_spec_folder() -> None:
    hits = []
    for path in _tracked_files():
        if not path.is_file():
            continue  # deleted in the work tree, not yet committed
        text = _text(path)
        if text is None:
            continue
        for lineno, line in enumerate(text.splitlines(), start=1):
            if any(p.search(line) for p in OLD_FOLDER_PATTERNS):
                hits.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert not hits, "references to a folder a clone does not have (use docs/):\n" + "\n".join(hits)


def _without_fences(markdown: str) -> str:
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", markdown, flags=re.DOTALL | re.M)


def _prose(markdown: str) -> str:
    """The Markdown without code blocks and inline code, where brackets are not links."""
    return re.sub(r"`[^`\n]*`", "", _without_fences(markdown))


def _links(markdown: str) -> list[str]:
    prose = _prose(markdown)
    inline = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", prose)
    reference = re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", prose, flags=re.M)
    return inline + reference


def _anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of ``markdown``."""
    anchors = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", _without_fences(markdown), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchors.add(slug)
    return anchors


def _is_external(target: str) -> bool:
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target))


@pytest.mark.parametrize("page", MARKDOWN, ids=[str(p.relative_to(ROOT)) for p in MARKDOWN])
def test_relative_links_point_at_files_that_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in _links(text):
        if _is_external(target):
            continue
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"{target}: no file {linked}")
        elif (
            anchor
            and linked.suffix == ".md"
            and linked.is_file()
            and anchor.lower() not in _anchors(linked.read_text(encoding="utf-8"))
        ):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    assert not broken, f"broken links in {page.relative_to(ROOT)}:\n" + "\n".join(broken)


@pytest.mark.parametrize("page", MARKDOWN, ids=[str(p.relative_to(ROOT)) for p in MARKDOWN])
def test_the_tests_the_documentation_names_exist(page: Path) -> None:
    named = set(re.findall(r"`(tests/[\w/]+\.py)", page.read_text(encoding="utf-8")))
    missing = sorted(name for name in named if not (ROOT / name).is_file())
    assert not missing, f"{page.relative_to(ROOT)} names tests that do not exist: {missing}"


def test_the_links_are_found() -> None:
    # The checks above pass trivially if no link is ever found: make sure some are.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert {"docs/RULES.md", "docs/DESIGN.md", "docs/STYLE.md"} <= set(_links(readme))
    assert "settled-points" in _anchors((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))


def test_the_reference_rules_read_the_diagram_of_rules_md() -> None:
    assert DIAGRAM in (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
