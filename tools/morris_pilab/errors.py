"""The lab's exit codes and the one error it raises for them."""

from __future__ import annotations

__all__ = [
    "EXIT_CHECK_FAILED",
    "EXIT_NOT_BUILT",
    "EXIT_NO_CAPABILITY",
    "EXIT_NO_DISK",
    "EXIT_NO_REGISTRY",
    "EXIT_OK",
    "EXIT_USAGE",
    "LabError",
]

EXIT_OK = 0
#: A check of the product failed (the message names it; the log has the details).
EXIT_CHECK_FAILED = 1
#: Bad command line (argparse's own code).
EXIT_USAGE = 2
#: This machine cannot do it: not root, no mmdebstrap, no qemu/binfmt for the architecture,
#: no systemd-nspawn, or a container that does not boot.
EXIT_NO_CAPABILITY = 3
#: A package registry (Debian's mirror, PyPI, npm) did not answer.
EXIT_NO_REGISTRY = 4
#: Not enough free disk space for the cache.
EXIT_NO_DISK = 5
#: The userland is not in the cache (``tools/pilab build NAME`` first).
EXIT_NOT_BUILT = 6


class LabError(Exception):
    """A failure that ends the command with one message and :attr:`code`."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
