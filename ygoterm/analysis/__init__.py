"""Measurements and statistics over the engine and the card data (benchmarks, odds)."""
