"""Things that answer the engine's decisions: random play, goldfish, scripted commands."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
