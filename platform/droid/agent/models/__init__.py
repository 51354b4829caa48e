"""Model backends behind one small interface (``Model.generate``)."""

from __future__ import annotations

from typing import Any

from droid.agent.errors import AgentError
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, ReasoningDelta, TextDelta
from droid.agent.models.scripted import ScriptedModel, tool_call
from droid.lazy_exports import lazy_exports


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
        from droid.agent.models.offline import OfflineModel

        return OfflineModel()
    kind, _, name = spec.partition(":")
    if kind == "openai":
        from droid.agent.models.openai_compat import OpenAICompatibleModel

        return OpenAICompatibleModel(name or None, base_url=base_url, api_key=api_key, **options)
    raise AgentError(f"unknown model {spec!r}: use 'offline' or 'openai:NAME'")


# The backends load when used: a scripted run (tests, an agent app's tool server) needs neither
# the offline model's date parser nor the HTTP client.
_BACKENDS = {"offline": ("OfflineModel",), "openai_compat": ("OpenAICompatibleModel",)}
_lazy, __getattr__, __dir__ = lazy_exports(__name__, _BACKENDS)
__all__ = sorted(["Model", "ModelChunk", "ModelRequest", "ModelResponse", "ReasoningDelta", "ScriptedModel", "TextDelta",
                  "model_from_spec", "tool_call", *_lazy])
