"""The model's API key stays in the command: the app's process asks, through the relay, for
chat completions only, and never holds the key (sim/agent_app/model_relay.py). Against the
chat-server double in its own process (tests/unit/agent/chat_server.py)."""

from __future__ import annotations

import asyncio
import struct

import pytest

from droid.agent import Agent, AgentRunner
from droid.agent.errors import ModelError
from droid.agent.events import TextMessage
from droid.agent.models.openai_compat import OpenAICompatibleModel
from sim.agent_app.model_relay import RELAYED_KEY, ModelRelay, RelayTransport, _http
from tests.unit.agent.chat_server import received, running

KEY = "the-users-key"


@pytest.fixture(scope="module")
def server():
    with running() as url:
        yield url


@pytest.fixture
def relay():
    """Makes a relay to a base URL, and the app's end of it."""
    relays = []

    def make(base_url: str, **options) -> tuple[ModelRelay, RelayTransport]:
        relay = ModelRelay(base_url, KEY, options)
        relays.append(relay)
        return relay, RelayTransport(relay.theirs.detach())

    yield make
    for relay in relays:
        relay.close()


def answer(transport: RelayTransport, base_url: str, prompt: str = "hello", **options) -> str:
    """The text of one run of an agent whose model reaches ``base_url`` through ``transport``."""
    model = OpenAICompatibleModel("openai", base_url=base_url, api_key=RELAYED_KEY, max_retries=0,
                                  transport=transport, **options)

    async def go() -> str:
        session = AgentRunner(Agent(), model).create_session()
        return "".join(e.text for e in [event async for event in session.run(prompt)] if isinstance(e, TextMessage))

    return asyncio.run(go())


@pytest.mark.parametrize("stream", [True, False])
def test_the_server_gets_the_key_from_the_command_and_the_app_asks_without_it(server, relay, stream):
    _, transport = relay(f"{server}/v1")
    assert answer(transport, f"{server}/v1", stream=stream)
    request = received(server)[-1]
    assert request["authorization"] == f"Bearer {KEY}"
    assert request["body"].get("stream", False) is stream


def test_nothing_but_chat_completions_is_relayed(server, relay):
    _, transport = relay(f"{server}/v1")
    before = len(received(server))

    async def ask(method: str, path: str) -> int:
        async with _http.AsyncClient(transport=transport) as client:
            return (await client.request(method, f"{server}/v1/{path}", json={})).status_code

    assert asyncio.run(ask("GET", "models")) == asyncio.run(ask("POST", "files")) == 404
    assert asyncio.run(ask("GET", "chat/completions")) == 404
    assert len(received(server)) == before, "nothing reached the server"


def test_a_server_that_cannot_be_reached_is_named_as_without_the_relay(relay):
    _, transport = relay("http://127.0.0.1:1/v1")
    with pytest.raises(ModelError, match="cannot reach http://127.0.0.1:1/v1 for model openai"):
        answer(transport, "http://127.0.0.1:1/v1")


def test_the_commands_read_timeout_ends_a_stalled_stream(server, relay):
    _, transport = relay(f"{server}/v1", read_timeout=1)
    with pytest.raises(ModelError, match=r"sent nothing for read_timeout \(1s\)"):
        answer(transport, f"{server}/v1", "[stall]", read_timeout=1)


def test_a_request_past_the_bound_closes_the_relay(server):
    relay = ModelRelay(f"{server}/v1", KEY, {})
    try:
        relay.theirs.sendall(struct.pack(">cI", b"R", 2**31))  # as the app's code may send
        relay.theirs.settimeout(30)
        assert relay.theirs.recv(1) == b"", "the relay closed its end"
    finally:
        relay.close()
