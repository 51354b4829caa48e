"""Lint corpus: People."""
