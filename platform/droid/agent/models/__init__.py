"""Model backends behind one small interface (``Model.generate``)."""

from __future__ import annotations

from droid.agent.errors import AgentError
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, TextDelta
from droid.agent.models.offline import OfflineModel
from droid.agent.models.openai_compat import OpenAICompatibleModel
from droid.agent.models.scripted import ScriptedModel, tool_call


def model_from_spec(spec: str | None = None, *, base_url: str | None = None, api_key: str | None = None) -> Model:
    """``offline`` (default), ``openai`` (model name from the environment) or ``openai:NAME``."""
    spec = (spec or "offline").strip()
    if spec == "offline":
        if base_url:
            raise AgentError("--base-url applies to openai:NAME models, not to the offline model")
        return OfflineModel()
    kind, _, name = spec.partition(":")
    if kind == "openai":
        return OpenAICompatibleModel(name or None, base_url=base_url, api_key=api_key)
    raise AgentError(f"unknown model {spec!r}: use 'offline' or 'openai:NAME'")


__all__ = [
    "Model",
    "ModelChunk",
    "ModelRequest",
    "ModelResponse",
    "OfflineModel",
    "OpenAICompatibleModel",
    "ScriptedModel",
    "TextDelta",
    "model_from_spec",
    "tool_call",
]
