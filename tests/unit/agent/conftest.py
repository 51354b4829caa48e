from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from droid.agent import AgentSession
from droid.appfunctions import AppFunctionManager

from .fakes import FakeAppFunctionService, FakeContext


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


CHAT_SERVER = Path(__file__).with_name("chat_server.py")


@pytest.fixture
def chat_server():
    """A chat-completions server in its own process, on loopback (see chat_server.py)."""
    process = subprocess.Popen([sys.executable, str(CHAT_SERVER)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def received(server: str) -> list[dict]:
    """Every request body the chat server got, in order."""
    with urllib.request.urlopen(f"{server}/requests", timeout=10) as response:
        return json.load(response)
