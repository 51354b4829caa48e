"""Lint corpus: Flights."""
