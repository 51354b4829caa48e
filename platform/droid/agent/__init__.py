"""droid.agent: the on-device agent runtime (ML Kit's GenAI agent API, in Python).

An ``Agent`` (name, instructions, tools, limits) runs in an ``AgentRunner`` with a
``Model``; ``runner.create_session().run(prompt)`` streams ``AgentEvent``s while
the loop calls AppFunctions on the device, and ``await session.send(prompt)`` returns
the run as one ``AgentResponse``. See docs/agent.md.
"""

from droid.agent.agent import DEFAULT_MAX_TURNS, Agent, AgentBuilder
from droid.agent.appfunction_tools import AppFunctionAgentTool, AppFunctionAgentTools
from droid.agent.chunks import AgentChunk
from droid.agent.connection import connect_as
from droid.agent.confirmation import (
    CANCELLED_BY_USER,
    DESTRUCTIVE_VERBS,
    DestructivePolicy,
    HitlConfirmationTool,
    cancelled_by_user,
    default_is_destructive,
    require_confirmation,
)
from droid.agent.errors import (
    AgentError,
    ContextLengthExceededError,
    ModelError,
    ToolsNotSupportedError,
    error_map,
    is_error_map,
)
from droid.agent.events import (
    AgentEvent,
    FunctionCall,
    FunctionResponse,
    Interrupted,
    MaxTurnsReached,
    ReasoningMessage,
    TextMessage,
    ToolRequestsReturned,
)
from droid.agent.interrupts import (
    Interrupt,
    InterruptRequest,
    InterruptResponse,
    InterruptRestart,
    InterruptTool,
    ToolContext,
    current_tool_context,
    define_interrupt,
)
from droid.agent.messages import Message, ToolDeclaration, ToolRequest, ToolResponse
from droid.agent.models import (
    Model,
    ModelRequest,
    ModelResponse,
    OfflineModel,
    OpenAICompatibleModel,
    ReasoningDelta,
    ScriptedModel,
    TextDelta,
    model_from_spec,
    tool_call,
)
from droid.agent.response import AgentResponse, EventStream
from droid.agent.runner import AgentRunner
from droid.agent.schema import parameters_schema
from droid.agent.session import AgentSession
from droid.agent.store import FileSessionStore, InMemorySessionStore, SessionStore
from droid.agent.function_tool import FunctionTool, function_tool
from droid.agent.tools import AgentTool

__all__ = [
    "Agent",
    "AgentBuilder",
    "AgentChunk",
    "AgentError",
    "AgentEvent",
    "AgentResponse",
    "AgentRunner",
    "AgentSession",
    "AgentTool",
    "AppFunctionAgentTool",
    "AppFunctionAgentTools",
    "CANCELLED_BY_USER",
    "ContextLengthExceededError",
    "DEFAULT_MAX_TURNS",
    "DESTRUCTIVE_VERBS",
    "DestructivePolicy",
    "EventStream",
    "FileSessionStore",
    "FunctionCall",
    "FunctionResponse",
    "FunctionTool",
    "HitlConfirmationTool",
    "InMemorySessionStore",
    "Interrupt",
    "InterruptRequest",
    "InterruptResponse",
    "InterruptRestart",
    "InterruptTool",
    "Interrupted",
    "MaxTurnsReached",
    "Message",
    "Model",
    "ModelError",
    "ModelRequest",
    "ModelResponse",
    "OfflineModel",
    "OpenAICompatibleModel",
    "ReasoningDelta",
    "ReasoningMessage",
    "ScriptedModel",
    "SessionStore",
    "TextDelta",
    "TextMessage",
    "ToolContext",
    "ToolDeclaration",
    "ToolRequest",
    "ToolRequestsReturned",
    "ToolResponse",
    "ToolsNotSupportedError",
    "cancelled_by_user",
    "connect_as",
    "current_tool_context",
    "default_is_destructive",
    "define_interrupt",
    "error_map",
    "function_tool",
    "is_error_map",
    "model_from_spec",
    "parameters_schema",
    "require_confirmation",
    "tool_call",
]
