"""Lint corpus: Helper agent."""
