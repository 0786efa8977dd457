"""The solved 3 men's morris for the puzzle route's tests (built once per run, shared with
tests/solution)."""

from tests.solution.conftest import solved3

__all__ = ["solved3"]
