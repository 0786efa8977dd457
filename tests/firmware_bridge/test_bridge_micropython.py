"""The files flashed to the Pico use only what MicroPython has."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import firmware_bridge

PACKAGE = Path(firmware_bridge.__file__).parent
FLASHED = [PACKAGE / "protocol.py", *sorted((PACKAGE / "firmware").glob("*.py"))]
#: Modules a MicroPython build for the RP2040 has, plus the flashed files themselves.
MICROPYTHON = {
    "struct", "binascii", "machine", "neopixel", "micropython", "select", "sys", "os", "time",
    "protocol", "boardfw", "config",
}  # fmt: skip
#: Imported only inside try/except ImportError, for CPython.
GUARDED = {"typing", "firmware_bridge"}


@pytest.mark.parametrize("path", FLASHED, ids=lambda p: p.name)
def test_only_micropython_modules_and_syntax(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.module != "__future__", f"{path.name}: MicroPython has no __future__"
            names = [(node.module or "").split(".")[0]]
        else:
            continue
        for name in names:
            assert name in MICROPYTHON | GUARDED, f"{path.name} imports {name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            continue
        if isinstance(node, ast.JoinedStr):  # f-strings: fine, but no '=' self-documenting form
            assert "=}" not in ast.unparse(node), f"{path.name}: f'{{x=}}' is not MicroPython"
    guarded_ok = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Try)
        for stmt in node.body
        if isinstance(stmt, ast.Import | ast.ImportFrom)
        for alias in (
            [ast.alias(stmt.module or "")] if isinstance(stmt, ast.ImportFrom) else stmt.names
        )
    }
    top_level = {
        (stmt.module or "").split(".")[0]
        if isinstance(stmt, ast.ImportFrom)
        else stmt.names[0].name
        for stmt in tree.body
        if isinstance(stmt, ast.Import | ast.ImportFrom)
    }
    assert not (top_level & GUARDED - guarded_ok), f"{path.name}: unguarded CPython-only import"
