"""The solved 3 and 4 men's morris for the training tests (built once per run, shared with
tests/solution)."""

from tests.solution.conftest import solved3, solved4

__all__ = ["solved3", "solved4"]
