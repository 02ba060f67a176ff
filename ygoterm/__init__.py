"""ygoterm: Yu-Gi-Oh!-style card duels in the terminal, over a pure-Python rules engine."""

__version__ = "0.1.0"
