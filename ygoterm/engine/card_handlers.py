"""The handlers of the few cards the vocabulary cannot express (see engine/handlers.py)."""

from __future__ import annotations

from .handlers import handler  # noqa: F401
