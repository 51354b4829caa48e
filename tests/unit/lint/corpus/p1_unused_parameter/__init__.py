"""Lint corpus: Quotes."""
