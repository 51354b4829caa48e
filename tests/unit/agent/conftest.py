from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

from droid.agent import AgentSession
from droid.appfunctions import AppFunctionManager

from .chat_server import received, running
from .fakes import FakeAppFunctionService, FakeContext

__all__ = ["collect", "console", "received", "run"]


@pytest.fixture
def service() -> FakeAppFunctionService:
    return FakeAppFunctionService()


@pytest.fixture
def manager(service: FakeAppFunctionService) -> AppFunctionManager:
    return AppFunctionManager(service)


@pytest.fixture
def context(service: FakeAppFunctionService) -> FakeContext:
    return FakeContext(service)


def collect(events: Any) -> list:
    """All events of a run (an async iterator), collected in a fresh event loop."""

    async def go() -> list:
        return [event async for event in events]

    return asyncio.run(go())


def run(session: AgentSession, prompt: str | None = None, **kwargs: Any) -> list:
    return collect(session.run(prompt, **kwargs))


def console(context: Any, prompt: str | None, stdin: str = "", **kwargs: Any) -> tuple[int, str, str]:
    """``run_agent_console`` with ``stdin`` as its input: the exit code, stdout and stderr."""
    from droid.agent.console import run_agent_console

    out, err = io.StringIO(), io.StringIO()
    code = run_agent_console(context, prompt, stdin=io.StringIO(stdin), stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def chat_server():
    """A chat-completions server in its own process, on loopback (see chat_server.py)."""
    with running() as url:
        yield url
