"""Helpers for the service tests: the ``morris`` parser with only the service commands."""

from __future__ import annotations

import argparse

import pytest

from morris.commands import service


@pytest.fixture
def morris_service() -> argparse.ArgumentParser:
    """A ``morris`` parser with install-service, uninstall-service and status registered.

    Built here rather than with ``morris.cli.build_parser`` so these tests do not depend on the
    other command modules.
    """
    parser = argparse.ArgumentParser(prog="morris")
    service.register(parser.add_subparsers(dest="command", required=True))
    return parser
