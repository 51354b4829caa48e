"""The models eval can run: offline, openai:NAME, and two built from the suite itself.

``scripted`` is the oracle: a ScriptedModel that replays exactly what each case
expects (the expected calls with values its matchers accept, a question where
the case wants one, no call where it wants none) and says truly what happened,
with what its lookups answered. ``wrong`` does the opposite in every turn. The scorer proves itself with them: the oracle must score 100 %
and ``wrong`` 0 % on any suite (tests/unit/eval/test_self_check.py).
"""

from __future__ import annotations

import datetime as dt
import json
import time
from typing import Any, AsyncIterator

from droid.agent import Model, ModelError, ModelRequest, ModelResponse, ScriptedModel, tool_call
from droid.agent.errors import ContextLengthExceededError
from droid.agent.errors import is_error_map
from droid.agent.messages import ASSISTANT, TOOL, USER
from droid.agent.models import model_from_spec
from sim.eval.catalog import Catalog
from sim.eval.suite import Case, is_read
from sim.eval.values import fit_arguments

BUILT_IN = ("offline", "scripted", "wrong")
ORACLE_DONE = "Done."
ORACLE_NOT_DONE = "That did not go through."
ORACLE_ASK = "Could you tell me a bit more about what you need?"
ORACLE_ASK_ABOUT = "Could you tell me the {}?"
ORACLE_CONFIRM = "Shall I go ahead with that?"
ORACLE_ABSTAIN = "I can't help with that with the apps on this device."
ORACLE_FOUND = "The app answered:"


class ModelSpecError(ValueError):
    """A --model that names no backend."""


def check_model_spec(spec: str) -> None:
    if spec in BUILT_IN or spec.startswith("openai:") or spec == "openai":
        return
    raise ModelSpecError(f"unknown model {spec!r}: use offline, scripted, wrong or openai:NAME")


def check_model_options(spec: str, options: dict[str, Any]) -> None:
    """Server options (``--no-stream``, ``--read-timeout``...) only for a model behind a server."""
    given = sorted(k for k, v in options.items() if v is not None)
    if given and not spec.startswith("openai"):
        raise ModelSpecError(f"{', '.join(given)} apply to openai:NAME models, not to {spec}")


def case_model(spec: str, case: Case, catalog: Catalog, tool_names: dict[str, str], run_date: dt.date,
               base_url: str | None = None, api_key: str | None = None, *, model_mode: bool = False,
               options: dict[str, Any] | None = None) -> Model:
    """A model for one case (the built-in ones depend on the case; the others do not).
    ``model_mode``: no HITL wrapper confirms destructive calls, so the oracle asks in words."""
    if spec == "scripted":
        return oracle_model(case, catalog, tool_names, run_date, model_mode)
    if spec == "wrong":
        return wrong_model(case, catalog, tool_names)
    if spec == "offline":
        from droid.agent import OfflineModel

        return OfflineModel(today=run_date)
    return model_from_spec(spec, base_url=base_url, api_key=api_key, **(options or {}))


def oracle_model(case: Case, catalog: Catalog, tool_names: dict[str, str], run_date: dt.date,
                 model_mode: bool = False) -> ScriptedModel:
    """Each expected call, then words that say truly what happened; a question where one is due."""
    steps: list[Any] = []
    for turn in case.turns:
        if not turn.calls:
            about = ORACLE_ASK_ABOUT.format(turn.about[0]) if turn.about else ORACLE_ASK
            steps.append(about if turn.ask else ORACLE_ABSTAIN)
            continue
        calls = turn.calls
        if model_mode and any(c.confirmation == "required" for c in calls):
            steps.append(ORACLE_CONFIRM)  # the user's reply comes next; "no" drops the calls it refuses
            calls = [c for c in calls if c.approves or c.confirmation != "required"]
        if calls:
            steps.append([_oracle_call(c, catalog, tool_names, run_date) for c in calls])
        undone = any(c.error or not c.done or not c.approves for c in turn.calls)
        steps.append(_oracle_reply(ORACLE_NOT_DONE if undone else ORACLE_DONE))
    return ScriptedModel(steps, name="scripted")


def _oracle_reply(said: str) -> Any:
    """What happened, then what the lookups of the turn answered, as they answered it."""

    def reply(request: ModelRequest) -> str:
        found = [m.tool_response.output for m in _this_turn(request.messages)
                 if m.role == TOOL and m.tool_response is not None and is_read(m.tool_response.name)
                 and not is_error_map(m.tool_response.output)]
        return said + "".join(f" {ORACLE_FOUND} {json.dumps(output, ensure_ascii=False)}" for output in found)

    return reply


def _this_turn(messages: tuple[Any, ...]) -> list[Any]:
    last_user = max((i for i, m in enumerate(messages) if m.role == USER), default=-1)
    return list(messages[last_user + 1:])


def _oracle_call(call: Any, catalog: Catalog, tool_names: dict[str, str], run_date: dt.date) -> Any:
    function = catalog.resolve(call.function)
    args = {k: m.sample(run_date) for k, m in call.args.items() if m.kind != "absent"}
    return tool_call(tool_names[function.function_id], fit_arguments(args, function.parameters))


def wrong_model(case: Case, catalog: Catalog, tool_names: dict[str, str]) -> ScriptedModel:
    """Calls where it should not, and a function other than every expected one where it should."""
    steps: list[Any] = []
    for turn in case.turns:
        if turn.expects is None:
            steps.append(ORACLE_DONE)
            continue
        expected = {catalog.resolve(c.function).function_id for c in turn.calls or []}
        expected |= {catalog.resolve(name).function_id for name in turn.allow}
        other = next(f for f in sorted(tool_names) if f not in expected)
        steps += [tool_call(tool_names[other]), ORACLE_DONE]
    return ScriptedModel(steps, name="wrong")


class TimedModel(Model):
    """Measures the wrapped model's own time and collects the token usage and the warnings it reports
    (an answer that looks like a tool call no parser read, tool results its prompt never held, an
    answer past max_tokens: the server, not the model, needs fixing)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = model.name
        self.supports_tools = model.supports_tools
        self.seconds = 0.0
        self.tokens: dict[str, int] = {}
        self.warnings: list[str] = []
        self.own_overflow: str | None = None  # why the last context overflow was the model's doing

    async def generate(self, request: ModelRequest) -> AsyncIterator[Any]:
        stream = self.model.generate(request).__aiter__()
        while True:
            started = time.perf_counter()
            try:
                chunk = await stream.__anext__()
            except StopAsyncIteration:
                self.seconds += time.perf_counter() - started
                return
            except ContextLengthExceededError as error:
                self.seconds += time.perf_counter() - started
                self.own_overflow = own_output_overflow(error, request)
                raise
            self.seconds += time.perf_counter() - started
            if isinstance(chunk, ModelResponse):
                for key, value in (getattr(chunk, "usage", None) or {}).items():
                    if isinstance(value, int):
                        self.tokens[key] = self.tokens.get(key, 0) + value
                self.warnings += [w for w in chunk.warnings if w not in self.warnings]
            yield chunk

    async def aclose(self) -> None:
        await self.model.aclose()


def own_output_overflow(error: ContextLengthExceededError, request: ModelRequest) -> str | None:
    """Why a context overflow is the model's own doing, or None (then the suite's conversation, its
    tools or the server's context are too big for the model: no verdict on it). The model's doing:
    the server counted far more tokens than were sent (it generated into its own prompt), or the
    model's earlier messages outweigh every tool result in the conversation (less the parts of
    the results that only echo its own arguments back, as an app's "no order ORD-…" does)."""
    if getattr(error, "by_own_output", False):
        return (f"the server counted {error.requested} tokens for a request of about {error.sent}: the model's "
                "own output filled its context")
    own = [m for m in request.messages if m.role == ASSISTANT]
    said = sum(len(m.text or "") + sum(len(json.dumps(r.args, default=str)) for r in m.tool_requests) for m in own)
    echoes = [json.dumps(v)[1:-1] for m in own for r in m.tool_requests for v in r.args.values()
              if isinstance(v, str) and len(v) >= 20]
    results = 0
    for message in request.messages:
        if message.role == TOOL and message.tool_response is not None:
            text = json.dumps(message.tool_response.output, default=str)
            for echo in echoes:
                text = text.replace(echo, "")
            results += len(text)
    if said and said >= results:
        return f"the model's own messages ({said} characters) filled its context"
    return None


def server_down(error: BaseException) -> bool:
    """A backend that cannot be reached stops the whole run. Other model errors (HTTP statuses
    after the client's retries, an answer that stalls past read_timeout) are one case's infra_error."""
    if not isinstance(error, ModelError):
        return False
    return type(error.__cause__).__name__ == "APIConnectionError" or "cannot reach" in str(error)
