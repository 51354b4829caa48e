"""Lint corpus: Reading list."""
