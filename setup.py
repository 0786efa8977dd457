"""Compiled parts of the engine; the package works without them (pure Python).

- ``morris.engine._native`` (built by default, skipped with a warning if there is no C compiler or
  no Python headers; ``MORRIS_NATIVE=0`` at install time skips it): the search's inner loop in C,
  ``morris/engine/native/search.c``, its evaluation ``evaluate.c`` and its reader of the solved
  game's sectors ``sectors.c``, with their CPython glue
  ``morris/engine/_native.c`` (its constants and evaluation weights come from the Python source
  at import, ``configure``). The same moves, scores and node counts as the Python search
  (tests/engine/test_native.py compares them), many times the nodes per second.
- ``morris.solver.solution._retro`` (built with it, on the same terms): the retrograde analysis
  of the solved game's moving phase in the symmetry-reduced index and the placing sectors'
  Bellman step, ``morris/solver/solution/native/moving.c`` and ``placing.c`` with their shared
  header ``retro.h``, and their CPython glue ``morris/solver/solution/_retro.c``. Only
  ``morris tables build --men`` needs it (its moving-phase units are solved nowhere else);
  playing from a built solution does not.
- ``MORRIS_COMPILE=1 pip install --no-build-isolation .``: mypyc compiles the engine, its
  search, its move generator and its evaluation (plain typed Python) as well, which speeds up the
  Python side (the root of the search, and everything when ``_native`` is not built). Needs mypy
  in the environment that builds. See docs/ENGINE.md.

The translations: ``build_py`` (which both ``pip install`` and ``pip install -e`` run) compiles
every ``morris/locale/<lang>/LC_MESSAGES/morris.po`` into ``morris.mo`` beside it with Babel (a
build requirement), so the catalogs are built by the install and never committed. A fuzzy or
untranslated entry is left out of the compiled catalog (English is shown for it), as msgfmt does;
tests/i18n checks that there is none. See docs/TRANSLATING.md.
"""

import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

LOCALE_DIR = Path(__file__).parent / "morris" / "locale"


def compile_catalogs() -> list[Path]:
    """Compile each ``.po`` of :data:`LOCALE_DIR` into the ``.mo`` beside it (when older)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
        with mo.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogs(build_py):
    """``build_py`` that compiles the translations first, so the ``.mo`` files are package data
    of the wheel, and in the source tree for an editable install."""

    def run(self) -> None:
        for mo in compile_catalogs():
            print(f"compiled {mo.relative_to(LOCALE_DIR.parent.parent)}")
        super().run()
        # Installed, the board reads the .mo; a .po beside it (written after it, so newer)
        # would make morris.i18n compile it again at every start.
        built = Path(self.build_lib, "morris", "locale").resolve()
        if getattr(self, "editable_mode", False) or built == LOCALE_DIR.resolve():
            return  # an editable install reads the source tree: its .po files stay
        for source in built.rglob("*.po*"):
            source.unlink()


COMPILED = [
    "morris/engine/movegen.py",
    "morris/engine/evaluate.py",
    "morris/engine/search.py",
    "morris/engine/engine.py",
]

ext_modules = []
if os.environ.get("MORRIS_NATIVE", "") != "0":
    ext_modules.append(
        Extension(
            "morris.engine._native",
            [
                "morris/engine/_native.c",
                "morris/engine/native/search.c",
                "morris/engine/native/evaluate.c",
                "morris/engine/native/sectors.c",
            ],
            include_dirs=["morris/engine"],
            depends=[
                "morris/engine/native/search.h",
                "morris/engine/native/evaluate.h",
                "morris/engine/native/sectors.h",
                "morris/engine/native/symindex.h",
            ],
            extra_compile_args=["-O2"],
            libraries=["m"],  # log(): the placing reductions' table
            optional=True,  # no compiler: a warning, and the Python search
        )
    )
    ext_modules.append(
        Extension(
            "morris.solver.solution._retro",
            [
                "morris/solver/solution/_retro.c",
                "morris/solver/solution/native/moving.c",
                "morris/solver/solution/native/placing.c",
            ],
            include_dirs=["morris/solver/solution", "morris/engine/native"],
            depends=["morris/solver/solution/native/retro.h", "morris/engine/native/symindex.h"],
            extra_compile_args=["-O2", "-pthread"],  # a pass's threads (System(threads=N))
            extra_link_args=["-pthread"],
            optional=True,  # no compiler: a warning; `morris tables build --men` then refuses
        )
    )
if os.environ.get("MORRIS_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify  # needs mypy in the build environment

    # Only the engine is compiled: the project's mypy overrides for other packages go unused.
    ext_modules += mypycify(["--no-warn-unused-configs", *COMPILED], opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithCatalogs})
