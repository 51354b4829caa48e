"""Lint corpus app: an agent app."""

from __future__ import annotations

from droid.agent import Agent


def build_agent() -> Agent:
    return Agent(name="helper", instructions="Answer the user's questions.", app_functions_enabled=True)
