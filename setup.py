"""Optional compiled engine: ``MORRIS_COMPILE=1 pip install --no-build-isolation .``

The search, its move generator and its evaluation are plain typed Python. With ``MORRIS_COMPILE=1``
(and mypy installed in the environment that builds), mypyc compiles those three modules to C
extensions: the same moves, scores and node counts, about three times the nodes per second (see
docs/ENGINE.md). Without it, this file changes nothing and the package is pure Python.
"""

import os

from setuptools import setup

COMPILED = ["morris/engine/movegen.py", "morris/engine/evaluate.py", "morris/engine/search.py"]

ext_modules = []
if os.environ.get("MORRIS_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify  # needs mypy in the build environment

    # Only the engine is compiled: the project's mypy overrides for other packages go unused.
    ext_modules = mypycify(["--no-warn-unused-configs", *COMPILED], opt_level="3")

setup(ext_modules=ext_modules)
