"""The Raspberry Pi lab: the product on emulated Pis and under systemd as PID 1 (``tools/pilab``).

It builds and caches Debian bookworm userlands (what Raspberry Pi OS is made of) for arm64,
32-bit armhf and this machine's own architecture with ``mmdebstrap``, runs arm programs through
``qemu-user-static`` and binfmt_misc, boots a userland with systemd as PID 1 in
``systemd-nspawn``, and runs there exactly the install steps of README.md and docs/INSTALL.md
(read from the documents themselves) and the product's checks. docs/PLATFORMS.md has the results.

Every failure of the lab itself (not root, no binfmt, no registry, no disk, no nspawn) ends with
one line and an exit code of :mod:`tools.morris_pilab.errors`; a check of the product that fails
exits 1 naming the check.
"""
