"""Errors of the service layer (``morris.app``): one root, one leaf per failure a person sees."""

from __future__ import annotations


class ServiceError(Exception):
    """Root of the errors raised by ``morris.app``."""


class StatusFileError(ServiceError, ValueError):
    """The daemon's status file is missing, unreadable or not in the expected format."""


class InstallError(ServiceError, RuntimeError):
    """Installing or removing the system service failed, or is not allowed (not root)."""
