"""Every error the project raises descends from its package's one root, and says what it is.

A caller catches ``MorrisError`` for anything the rules, the referee or the engine refuse (the
engine's own root, ``EngineError``, is one), ``ServiceError`` for the app layers (configuration,
saved games, the service, the terminal UI),
``DeviceError`` for the board devices; each leaf is also the builtin it is (``ValueError`` for
bad input, ``RuntimeError``, ``ConnectionError`` ...), so code that knows nothing of the project
still catches it.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import pkgutil

import pytest

from firmware_bridge.exc import BridgeError
from hardware.exc import HardwareError
from morris.app.errors import ServiceError
from morris.core import MorrisError
from morris.engine.errors import EngineError
from morris_device import DeviceError

#: Package -> the root every exception class defined in it descends from.
ROOTS: dict[str, type[Exception]] = {
    "morris.core": MorrisError,
    "morris.referee": MorrisError,
    "morris.engine": EngineError,
    "morris.app": ServiceError,
    "morris.daemon": ServiceError,
    "morris.tui": ServiceError,
    "morris.web": ServiceError,
    "morris.sim": ServiceError,
    "morris.commands": ServiceError,
    "morris_device": DeviceError,
    "hardware": HardwareError,
    "firmware_bridge": BridgeError,
}
#: The MicroPython firmware runs on the microcontroller and cannot import the host's packages.
NOT_HERE = ("firmware_bridge.firmware",)
ROOT_CLASSES = {MorrisError, EngineError, ServiceError, DeviceError}
BUILTIN_ERRORS = {
    obj
    for obj in vars(builtins).values()
    if isinstance(obj, type) and issubclass(obj, Exception) and obj is not Exception
}


def _modules(package: str) -> list[str]:
    module = importlib.import_module(package)
    names = [package]
    if hasattr(module, "__path__"):
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            if not info.name.startswith(NOT_HERE):
                names.append(info.name)
    return names


def _errors() -> list[tuple[str, type[Exception]]]:
    found = []
    for package in ROOTS:
        for name in _modules(package):
            module = importlib.import_module(name)
            for attr, obj in vars(module).items():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, BaseException)
                    and obj.__module__ == name
                    and not attr.startswith("_")  # private control flow (the search's abort)
                ):
                    found.append((package, obj))
    return found


ERRORS = _errors()
#: The leaves: every error but the roots themselves (a root is the project's own, no builtin).
LEAVES = [(p, c) for p, c in ERRORS if c not in ROOT_CLASSES and c is not ROOTS[p]]


def test_the_errors_are_found() -> None:
    names = {cls.__name__ for _, cls in ERRORS}
    for expected in ("InvalidMoveError", "RefereeError", "TableError", "ConfigError",
                     "UnknownPoint", "ProfileError", "CRCError", "InputError"):  # fmt: skip
        assert expected in names


@pytest.mark.parametrize(("package", "cls"), ERRORS, ids=[c.__qualname__ for _, c in ERRORS])
def test_every_error_descends_from_its_packages_root(package: str, cls: type[Exception]) -> None:
    assert issubclass(cls, ROOTS[package]), f"{cls.__module__}.{cls.__qualname__}"


@pytest.mark.parametrize(("package", "cls"), LEAVES, ids=[c.__qualname__ for _, c in LEAVES])
def test_every_leaf_is_also_a_builtin_error(package: str, cls: type[Exception]) -> None:
    assert any(base in BUILTIN_ERRORS for base in cls.__mro__), (
        f"{cls.__module__}.{cls.__qualname__} is no ValueError, RuntimeError, ... as well"
    )


def test_every_device_backends_root_is_a_device_error() -> None:
    # The daemon catches a DeviceError from whichever board it drives: GPIO or the serial bridge.
    for package in ("hardware", "firmware_bridge"):
        assert issubclass(ROOTS[package], DeviceError), package
