"""Lint corpus: Books."""
