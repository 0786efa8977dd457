"""Tests of the shared device vocabulary (morris_device)."""
