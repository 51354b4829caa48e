"""Lint corpus: Sync."""
