"""droid.agent: the on-device agent runtime (ML Kit's GenAI agent API, in Python).

An ``Agent`` (name, instructions, tools, limits) runs in an ``AgentRunner`` with a
``Model``; ``runner.create_session().run(prompt)`` streams ``AgentEvent``s while
the loop calls AppFunctions on the device, and ``await session.send(prompt)`` returns
the run as one ``AgentResponse``. See docs/agent.md.
"""

from __future__ import annotations

from droid.lazy_exports import lazy_exports

# Each public name and its module, imported on first use: a caller that needs one part
# (lint and the device read droid.agent.confirmation) does not load the model clients and
# their HTTP stack too.
_EXPORTS = {
    "agent": ("DEFAULT_MAX_TURNS", "Agent", "AgentBuilder"),
    "appfunction_tools": ("AppFunctionAgentTool", "AppFunctionAgentTools"),
    "chunks": ("AgentChunk",),
    "connection": ("connect_as",),
    "confirmation": ("CANCELLED_BY_USER", "DESTRUCTIVE_VERBS", "DestructivePolicy", "HitlConfirmationTool",
                     "cancelled_by_user", "default_is_destructive", "require_confirmation"),
    "errors": ("AgentError", "ContextLengthExceededError", "ModelError", "ToolResultError", "ToolsNotSupportedError",
               "error_map", "is_error_map"),
    "events": ("AgentEvent", "FunctionCall", "FunctionResponse", "Interrupted", "MaxTurnsReached", "ReasoningMessage",
               "TextMessage", "ToolRequestsReturned"),
    "interrupts": ("Interrupt", "InterruptRequest", "InterruptResponse", "InterruptRestart", "InterruptTool",
                   "ToolContext", "current_tool_context", "define_interrupt"),
    "messages": ("Message", "ToolDeclaration", "ToolRequest", "ToolResponse"),
    "models": ("Model", "ModelRequest", "ModelResponse", "OfflineModel", "OpenAICompatibleModel", "ReasoningDelta",
               "ScriptedModel", "TextDelta", "model_from_spec", "tool_call"),
    "response": ("AgentResponse", "EventStream"),
    "runner": ("AgentRunner",),
    "schema": ("parameters_schema",),
    "session": ("AgentSession",),
    "store": ("FileSessionStore", "InMemorySessionStore", "SessionStore"),
    "local_tools": ("FunctionTool", "function_tool"),
    "tools": ("AgentTool",),
}
__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
