"""The user an outcome-judged conversation is held with: a chat model playing a scenario, or a script.

τ²-bench has a model play the customer from the task's scenario, and the customer ends the
conversation: it says ``###STOP###`` when its goal is met, ``###TRANSFER###`` when it is
handed to a human agent, ``###OUT-OF-SCOPE###`` when the scenario leaves it nothing to say.
``ModelUser`` does the same through any chat-completions server (``--user-model openai:NAME``),
at temperature 0, unstreamed, with its own instructions and the scenario as its system prompt;
the agent's words come to it as the other party's, its own earlier turns as its own.

``ScriptedUser`` says a fixed list of turns (a test's, or the user's turns of a recorded run)
and then stops; if the agent hands it to a human first, it says ``###TRANSFER###``. A rerun
with it is deterministic wherever the agent is.

A user model that fails is said as the user model's failure, naming it; one that cannot be
reached stops the run (sim/eval/models.py ``server_down``), as the agent's model does.
"""

from __future__ import annotations

from droid.agent.errors import ModelError
from droid.agent.messages import ASSISTANT, Message
from droid.agent.models import ModelRequest, ModelResponse, model_from_spec

STOP, TRANSFER, OUT_OF_SCOPE = "###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###"
# What each signal ends the conversation as (τ² counts all three as the user's stop).
ENDINGS = {STOP: "user_stop", TRANSFER: "transfer", OUT_OF_SCOPE: "out_of_scope"}

INSTRUCTIONS = f"""You play a customer who has contacted a company's customer-service agent. The scenario \
below says who you are, why you are calling and how to behave; the other party is the agent.

- Write one message at a time, as the customer would say it, in plain words.
- Follow the scenario. What it does not tell you, you do not know: never invent names, numbers, \
ids or wishes it does not give.
- Do not read the scenario out. Give details when the agent asks for them, not all at once.
- When what you called for is done (or cannot be done and the scenario says to accept that), answer \
with {STOP} and nothing else.
- If the agent transfers you to a human agent, answer with {TRANSFER} and nothing else.
- If the agent asks for something the scenario gives you no way to answer and you cannot go on, \
answer with {OUT_OF_SCOPE} and nothing else."""


class UserModelError(ModelError):
    """The user model failed: its message names the model."""


def ending_of(text: str) -> str | None:
    """How the user's message ends the conversation, or None when it does not."""
    return next((ending for signal, ending in ENDINGS.items() if signal in (text or "")), None)


class ModelUser:
    def __init__(self, spec: str, scenario: str, base_url: str | None = None, api_key: str | None = None) -> None:
        self.spec = spec
        self.instructions = f"{INSTRUCTIONS}\n\n<scenario>\n{scenario}\n</scenario>"
        self.model = model_from_spec(spec, base_url=base_url, api_key=api_key, stream=False, temperature=0.0)
        self.messages: list[Message] = []  # from the user's side: the agent speaks as "user"

    async def reply(self, agent_said: str, transferred: bool = False) -> str:
        self.messages.append(Message.user(agent_said or "(the agent said nothing)"))
        answer = None
        try:
            async for chunk in self.model.generate(ModelRequest(self.instructions, tuple(self.messages))):
                if isinstance(chunk, ModelResponse):
                    answer = chunk.text
        except ModelError as error:
            raise UserModelError(f"the user model {self.spec}: {error}") from error
        if not (answer or "").strip():
            raise UserModelError(f"the user model {self.spec} answered with no text")
        self.messages.append(Message(ASSISTANT, answer))
        return answer

    async def aclose(self) -> None:
        await self.model.aclose()


class ScriptedUser:
    def __init__(self, turns: list[str]) -> None:
        self.turns = list(turns)
        self.said = 0

    async def reply(self, agent_said: str, transferred: bool = False) -> str:
        if transferred:
            return TRANSFER
        if self.said >= len(self.turns):
            return STOP
        self.said += 1
        return self.turns[self.said - 1]

    async def aclose(self) -> None:
        return None
