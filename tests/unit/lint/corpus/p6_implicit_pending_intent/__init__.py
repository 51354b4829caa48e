"""Lint corpus: Music."""
