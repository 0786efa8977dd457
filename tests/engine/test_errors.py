"""The engine's errors: one root under the rules core's, each still the builtin it always was."""

from __future__ import annotations

import pytest

from morris.core import MorrisError
from morris.engine import (
    EngineCrashed,
    EngineError,
    EngineTimeout,
    ExternalEngineError,
    ProtocolError,
    TableError,
)


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (ExternalEngineError, RuntimeError),
        (EngineCrashed, RuntimeError),
        (EngineTimeout, TimeoutError),
        (ProtocolError, ValueError),
        (TableError, ValueError),
    ],
)
def test_every_engine_error_has_the_one_root_and_its_builtin(
    error: type[Exception], builtin: type[Exception]
) -> None:
    with pytest.raises(EngineError) as caught:
        raise error("x")
    assert isinstance(caught.value, MorrisError)
    assert isinstance(caught.value, builtin)


def test_the_families_do_not_overlap() -> None:
    assert not issubclass(ProtocolError, ExternalEngineError)
    assert not issubclass(TableError, ExternalEngineError)
    assert not issubclass(TableError, ProtocolError)
    assert issubclass(EngineCrashed, ExternalEngineError)
    assert issubclass(EngineTimeout, ExternalEngineError)
