"""Nine Men's Morris on a physical board.

The rules core is importable from the package itself::

    >>> import morris
    >>> board = morris.Board()
    >>> board.push_notation("d6")
    Move.parse('d6')
    >>> board.turn == morris.BLACK
    True
"""

from morris.core import *  # noqa: F403
from morris.core import __all__ as __all__

__version__ = "0.1.0"
