"""Model backends behind one small interface (``Model.generate``)."""

from __future__ import annotations

from typing import Any

from droid.agent.errors import AgentError
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, ReasoningDelta, TextDelta
from droid.agent.models.offline import OfflineModel
from droid.agent.models.openai_compat import OpenAICompatibleModel
from droid.agent.models.scripted import ScriptedModel, tool_call


def model_from_spec(
    spec: str | None = None, *, base_url: str | None = None, api_key: str | None = None, **options: Any
) -> Model:
    """``offline`` (default), ``openai`` (model name from the environment) or ``openai:NAME``.

    ``options`` go to ``OpenAICompatibleModel`` (``stream``, ``connect_timeout``,
    ``read_timeout``, ``text_tool_calls``...); None values are left out.
    """
    spec = (spec or "offline").strip()
    options = {k: v for k, v in options.items() if v is not None}
    if spec == "offline":
        given = (["base_url"] if base_url else []) + sorted(options)
        if given:
            raise AgentError(f"{', '.join(given)} apply to openai:NAME models, not to the offline model")
        return OfflineModel()
    kind, _, name = spec.partition(":")
    if kind == "openai":
        return OpenAICompatibleModel(name or None, base_url=base_url, api_key=api_key, **options)
    raise AgentError(f"unknown model {spec!r}: use 'offline' or 'openai:NAME'")


__all__ = [
    "Model",
    "ModelChunk",
    "ModelRequest",
    "ModelResponse",
    "OfflineModel",
    "OpenAICompatibleModel",
    "ReasoningDelta",
    "ScriptedModel",
    "TextDelta",
    "model_from_spec",
    "tool_call",
]
