"""``python -m morris`` is the ``morris`` command."""

import sys

from morris.cli import main

sys.exit(main())
