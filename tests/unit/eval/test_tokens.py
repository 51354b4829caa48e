"""Tokens per case where the backend reports them: the chat-completions usage reaches the result."""

from __future__ import annotations

import asyncio

from droid.agent import Message, Model, ModelRequest, ModelResponse, OpenAICompatibleModel
from sim.eval.models import TimedModel

from .test_run import ChatServer


class TwoTurns(Model):
    async def generate(self, request):
        yield ModelResponse("hi", usage={"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12})


def test_timed_model_adds_up_the_usage_of_every_turn():
    timed = TimedModel(TwoTurns())

    async def go():
        for _ in range(2):
            assert (await timed.complete(ModelRequest("", (Message.user("x"),)))).text == "hi"

    asyncio.run(go())
    assert timed.tokens == {"prompt_tokens": 20, "completion_tokens": 4, "total_tokens": 24}
    assert timed.seconds > 0


def test_the_openai_backend_reports_the_servers_usage():
    server = ChatServer()
    try:
        model = OpenAICompatibleModel("test", base_url=server.url, api_key="sk-test", stream=False)
        response = asyncio.run(model.complete(ModelRequest("", (Message.user("hello"),))))
    finally:
        server.stop()
    # The test server counts its prompt and its answer as real servers do (about 4 characters a token):
    # "Hello from the test server." is 27 characters.
    assert response.usage == {"prompt_tokens": 9, "completion_tokens": 6, "total_tokens": 15}
