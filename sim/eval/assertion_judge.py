"""A judge model for a task's natural-language assertions (``--judge-model openai:NAME``).

τ²'s retail and airline tasks carry assertions such as "Agent should refuse to proceed with the
cancellation." that only a reader can check. The judge reads the whole conversation (what the
user said, what the agent said, and the calls it made with their answers) and says of each
assertion whether it holds, with a short reason, as one JSON object. It goes through any
chat-completions server, unstreamed and at temperature 0. An answer that is not that object,
or that leaves an assertion out, is the judge's failure (an infrastructure error of the case),
never a verdict on the agent.
"""

from __future__ import annotations

import json
import re
from typing import Any

from droid.agent.errors import ModelError
from droid.agent.messages import Message
from droid.agent.models import ModelRequest, ModelResponse, model_from_spec

INSTRUCTIONS = """You grade a customer-service conversation. You are given the conversation (the customer, \
the agent, and the agent's tool calls with their results) and numbered statements about what the agent \
should have done. For each statement decide from the conversation alone whether the agent's behaviour \
satisfies it. Answer with one JSON object and nothing else:
{"results": [{"statement": NUMBER, "met": BOOL, "reason": "one short sentence"}]}
with one entry per statement, in order."""
_OBJECT = re.compile(r"\{.*\}", re.S)


class AssertionJudge:
    def __init__(self, spec: str, base_url: str | None = None, api_key: str | None = None) -> None:
        self.spec = spec
        self.model = model_from_spec(spec, base_url=base_url, api_key=api_key, stream=False, temperature=0.0)

    async def judge(self, conversation: list[tuple[str, str]], assertions: list[str]) -> list[dict[str, Any]]:
        """Each assertion with ``met`` and the judge's ``reason``; ``conversation``: (speaker, text)."""
        if not assertions:
            return []
        shown = "\n".join(f"{speaker}: {text}" for speaker, text in conversation)
        numbered = "\n".join(f"{i}. {a}" for i, a in enumerate(assertions, 1))
        request = ModelRequest(INSTRUCTIONS, (Message.user(f"Conversation:\n{shown}\n\nStatements:\n{numbered}"),))
        answer = ""
        async for chunk in self.model.generate(request):
            if isinstance(chunk, ModelResponse):
                answer = chunk.text
        verdicts = parse(answer, len(assertions), self.spec)
        return [{"assertion": a, **verdict} for a, verdict in zip(assertions, verdicts)]

    async def aclose(self) -> None:
        await self.model.aclose()


def parse(answer: str, count: int, spec: str) -> list[dict[str, Any]]:
    """The judge's ``met`` and ``reason`` per statement, in order; ModelError says what it sent instead."""
    match = _OBJECT.search(answer or "")
    try:
        data: Any = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        data = None
    results = data.get("results") if isinstance(data, dict) else None
    by_number: dict[int, dict[str, Any]] = {}
    for entry in results if isinstance(results, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("met"), bool) and isinstance(entry.get("statement"), int):
            by_number[entry["statement"]] = {"met": entry["met"], "reason": str(entry.get("reason") or "")}
    missing = [n for n in range(1, count + 1) if n not in by_number]
    if missing:
        raise ModelError(f"judge {spec} did not answer {{\"results\": [{{\"statement\": N, \"met\": BOOL, "
                         f"\"reason\": ...}}]}} for statement(s) {', '.join(map(str, missing))}: "
                         f"{(answer or '')[:200]!r}")
    return [by_number[n] for n in range(1, count + 1)]
