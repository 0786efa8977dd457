"""The 24 points as the device layer knows them: by name, in matrix order.

The order is the rules core's (:data:`morris.core.points.POINT_NAMES`, held equal by a test):
``index = ring * 8 + position``; ring 0 is the outer square, positions run clockwise from the
top-left corner. A 3x8 matrix drives ring line ``index // 8`` and reads position line
``index % 8``; bit ``i`` of a firmware's sensor mask is ``POINT_NAMES[i]``.

>>> POINT_NAMES[9]
'd6'
>>> names_of(0b101)
['a7', 'g7']
>>> check_point("z9")
Traceback (most recent call last):
    ...
morris_device.exc.UnknownPoint: unknown point 'z9' (points are a7, d7, g7, g4, g1, d1, a1, a4, b6, d6, f6, f4, f2, d2, b2, b4, c5, d5, e5, e4, e3, d3, c3, c4)
"""  # noqa: E501 (a doctest's expected line is as long as it is)

from __future__ import annotations

from typing import Final

from morris_device.exc import UnknownPoint

__all__ = ["POINT_INDEX", "POINT_NAMES", "check_point", "names_of"]

#: The 24 point names in matrix order (see the module docstring).
POINT_NAMES: Final[tuple[str, ...]] = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
)  # fmt: skip

#: Each point name's index in :data:`POINT_NAMES` (its bit in a sensor mask).
POINT_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(POINT_NAMES)}


def check_point(name: str) -> str:
    """Return ``name`` if it is one of :data:`POINT_NAMES`; raise :class:`UnknownPoint`."""
    if name not in POINT_INDEX:
        raise UnknownPoint(f"unknown point {name!r} (points are {', '.join(POINT_NAMES)})")
    return name


def names_of(mask: int) -> list[str]:
    """The names of the points set in ``mask`` (bit ``i`` is ``POINT_NAMES[i]``), in point order.

    The same function as :func:`morris.core.points.names_of`, for a layer that imports no rules.
    """
    return [name for i, name in enumerate(POINT_NAMES) if mask >> i & 1]
