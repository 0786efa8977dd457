"""Tests of the rules core, one module per concept."""
