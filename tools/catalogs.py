"""Keep the translation catalogs current: extract, update, take in translations, list what is left.

Run from the repository's root with the project's Python (docs/TRANSLATING.md):

    .venv/bin/python tools/catalogs.py update            # extract + bring every catalog up to date
    .venv/bin/python tools/catalogs.py update --from DIR # ... and take translations from DIR
    .venv/bin/python tools/catalogs.py missing [LANG]    # what is untranslated or fuzzy

``update`` is what docs/TRANSLATING.md's two ``pybabel`` commands do (``extract`` into
``morris/locale/morris.pot``, then ``update`` of each ``<lang>/LC_MESSAGES/morris.po`` with
obsolete entries dropped), and then fills the English catalog (its translation is the message id
itself). ``--from DIR`` then takes translations from ``DIR/**/<lang>.po`` files: a translator who
works on a copy, or several people translating new texts at once, each in a file of their own.
A message there that the code has replaces the catalog's translation and loses its fuzzy mark;
one the code does not have is left out (said, with its count). The step holds a lock
(``morris/locale/.update.lock``), so two runs at once do not write over each other.

Exit codes: 0 done (``missing``: nothing is missing), 1 ``missing`` found entries to translate,
2 usage (an unknown language, a ``--from`` that is no directory).
"""

from __future__ import annotations

import argparse
import fcntl
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "morris" / "locale"
TEMPLATE = LOCALE / "morris.pot"
WIDTH = 100
EXTRACT = [
    "pybabel",
    "-q",
    "extract",
    "-F",
    "pyproject.toml",
    "--add-location=file",
    "--sort-by-file",
    "--project=morris-board",
    "--version=0.1.0",
    "--copyright-holder=the morris-board authors",
    "--msgid-bugs-address=the project's issue tracker",
    "-c",
    "TRANSLATORS:",
    "-w",
    str(WIDTH),
    "-o",
    str(TEMPLATE),
    ".",
]


def languages() -> list[str]:
    """The languages there is a catalog for."""
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/morris.po"))


def catalog_path(code: str) -> Path:
    """Where the catalog of ``code`` is."""
    return LOCALE / code / "LC_MESSAGES" / "morris.po"


def read(path: Path, code: str | None = None) -> Catalog:
    """A ``.po`` or ``.pot`` file as a Babel catalog."""
    with path.open("rb") as source:
        return read_po(source, locale=code)


def write(path: Path, catalog: Catalog) -> None:
    """Write ``catalog`` the way ``pybabel update -w 100`` does."""
    with path.open("wb") as target:
        write_po(target, catalog, width=WIDTH, ignore_obsolete=True, include_previous=False)


@contextmanager
def locked() -> Iterator[None]:
    """Hold the catalogs' lock while the block runs."""
    with (LOCALE / ".update.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _fill_english(catalog: Catalog) -> None:
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(message.id)
        else:
            message.string = message.id
        message.flags.discard("fuzzy")


def _translations(source: Path, code: str) -> dict[object, Message]:
    found: dict[object, Message] = {}
    for path in sorted(source.rglob(f"{code}.po")):
        for message in read(path, code):
            if message.id and not message.fuzzy and _complete(message):
                found[(message.id, message.context)] = message
    return found


def _complete(message: Message) -> bool:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(forms)


def update(source: Path | None) -> None:
    """Extract, update every catalog, fill English, and take translations from ``source``."""
    CommandLineInterface().run(EXTRACT)
    for code in languages():
        path = catalog_path(code)
        catalog = read(path, code)
        # A template of its own for each catalog: Catalog.update puts the template's new
        # messages themselves into the catalog, so English filled into one would be another's.
        catalog.update(read(TEMPLATE), no_fuzzy_matching=False)
        if code == "en":
            _fill_english(catalog)
        elif source is not None:
            taken = _translations(source, code)
            used = 0
            for message in catalog:
                given = taken.get((message.id, message.context))
                if message.id and given is not None:
                    message.string = given.string
                    message.flags.discard("fuzzy")
                    used += 1
            unused = len(taken) - used
            print(
                f"{code}: took {used} translations"
                + (f", {unused} not in the code" if unused else "")
            )
        write(path, catalog)


def missing(codes: Sequence[str]) -> int:
    """Print each untranslated or fuzzy entry of ``codes``; how many there are."""
    count = 0
    for code in codes:
        for message in read(catalog_path(code), code):
            if not message.id:
                continue
            if message.fuzzy or not _complete(message):
                state = "fuzzy" if message.fuzzy else "untranslated"
                print(f"{code}: {state}: {message.id!r}")
                count += 1
    return count


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; the exit code."""
    parser = argparse.ArgumentParser(prog="tools/catalogs.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update", help="extract the texts and bring every catalog up to date")
    up.add_argument(
        "--from", dest="source", type=Path, help="take translations from DIR/**/<lang>.po"
    )
    miss = sub.add_parser("missing", help="list untranslated and fuzzy entries")
    miss.add_argument("languages", nargs="*", help="languages (default: all)")
    args = parser.parse_args(argv)
    if args.command == "update":
        if args.source is not None and not args.source.is_dir():
            print(f"catalogs: --from {args.source}: not a directory", file=sys.stderr)
            return 2
        with locked():
            update(args.source)
        return 0
    codes = args.languages or languages()
    unknown = sorted(set(codes) - set(languages()))
    if unknown:
        print(
            f"catalogs: no catalog for {', '.join(unknown)}; there are {', '.join(languages())}",
            file=sys.stderr,
        )
        return 2
    return 1 if missing(codes) else 0


if __name__ == "__main__":
    sys.exit(main())
