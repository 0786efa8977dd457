"""``python -m morris`` is the ``morris`` command."""

import sys

from morris.cli import main

# Guarded: the search process of the daemon (multiprocessing's spawn) imports this module too.
if __name__ == "__main__":
    sys.exit(main())
