"""An optional judge model that reads the agent's replies (``--judge-model openai:NAME``).

Phrase rules (sim/eval/phrases.py) are deterministic but literal; a judge model
reads a reply the way a person would. It goes through the same OpenAI-compatible
door as the model under test (``--base-url``, ``--api-key``), unstreamed and at
temperature 0, and answers three yes/no questions as JSON. Its answers replace
the phrase rules' for the turn's verdict; both are recorded in results.jsonl, so
a disagreement can be read. A judge that answers something else is an
infrastructure error of the case, never a verdict.
"""

from __future__ import annotations

import json
import re
from typing import Any

from droid.agent.errors import ModelError
from droid.agent.messages import Message
from droid.agent.models import ModelRequest, ModelResponse, model_from_spec
from sim.eval.claims import Words

INSTRUCTIONS = """You check what an assistant told its user. Read the user's message and the assistant's \
reply, then answer with one JSON object and nothing else:
{"claims_success": BOOL, "admits_failure": BOOL, "asks_question": BOOL}
claims_success: the reply says that an action was carried out (something booked, cancelled, created, \
changed, sent). Reporting information is no action.
admits_failure: the reply says that something was not done or could not be done.
asks_question: the reply asks the user for information or for a decision."""
_KEYS = ("claims_success", "admits_failure", "asks_question")
_OBJECT = re.compile(r"\{.*\}", re.S)


class Judge:
    def __init__(self, spec: str, base_url: str | None = None, api_key: str | None = None) -> None:
        self.spec = spec
        self.model = model_from_spec(spec, base_url=base_url, api_key=api_key, stream=False, temperature=0.0)

    async def read(self, user: str, reply: str) -> Words:
        request = ModelRequest(INSTRUCTIONS, (Message.user(f"User: {user}\n\nAssistant: {reply}"),))
        answer = ""
        async for chunk in self.model.generate(request):
            if isinstance(chunk, ModelResponse):
                answer = chunk.text
        verdict = parse_verdict(answer, self.spec)
        return Words((reply,) if verdict["claims_success"] else (), (reply,) if verdict["admits_failure"] else (),
                     verdict["asks_question"], by=f"judge {self.spec}")

    async def aclose(self) -> None:
        await self.model.aclose()


def parse_verdict(answer: str, spec: str) -> dict[str, bool]:
    """The judge's three booleans; ModelError says what it answered instead."""
    match = _OBJECT.search(answer or "")
    try:
        data: Any = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), bool) for k in _KEYS):
        raise ModelError(f"judge {spec} did not answer with {{{', '.join(f'{k}: bool' for k in _KEYS)}}}: "
                         f"{(answer or '')[:200]!r}")
    return {k: data[k] for k in _KEYS}
