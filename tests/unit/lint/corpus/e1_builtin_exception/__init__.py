"""Lint corpus: Recipes."""
