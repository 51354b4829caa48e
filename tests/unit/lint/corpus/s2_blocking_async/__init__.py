"""Lint corpus: Jokes."""
