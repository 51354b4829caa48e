"""Agent: what an agent is (ML Kit's ``Agent``), independent of any model or device."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from droid.agent.tools import AgentTool

DEFAULT_MAX_TURNS = 5
# What a session does when the server says the conversation no longer fits the model's context.
CONTEXT_OVERFLOW_ERROR = "error"
CONTEXT_OVERFLOW_DROP_OLDEST = "drop_oldest"
CONTEXT_OVERFLOW_POLICIES = (CONTEXT_OVERFLOW_ERROR, CONTEXT_OVERFLOW_DROP_OLDEST)
TOOL_CHOICES = ("auto", "none", "required")  # or a tool's name


@dataclass
class Agent:
    """An agent's name, instructions, tools and limits.

    - ``tools``: tools to declare to the model (e.g. discovered AppFunctions, wrapped as you like).
    - ``max_turns``: how many rounds of tool calls one prompt may make (Genkit's ``maxTurns``,
      default 5). The model is called at most ``max_turns + 1`` times per prompt: once per
      round, and once more to answer from the last round's results. If that last call still
      asks for tools, they are not run and the run ends with ``MaxTurnsReached``.
    - ``app_functions_enabled``: also declare every AppFunction the agent app can see, discovered
      by the runner from its Context. ``app_function_ids`` limits those to the listed full or
      short ids, and implies ``app_functions_enabled``.
    - ``tool_choice`` (``auto``, ``none``, ``required`` or a tool name) and
      ``parallel_tool_calls``: passed to models that support them; None keeps the server's
      default. ``tool_choice`` applies to the first model call of each prompt only (later calls
      are ``auto``), so ``required`` forces one round of calls and cannot loop to ``max_turns``.
    - ``context_overflow``: ``error`` (default) raises ``ContextLengthExceededError`` when the
      server says the conversation is too long; ``drop_oldest`` leaves out the oldest whole
      turns (never the instructions, the tool declarations or the current prompt) and retries.

    Enabling AppFunctions *and* adding tools for the same functions logs a warning; each
    function is declared once, as the tool you added (so your wrappers apply).
    """

    name: str = "agent"
    instructions: str = ""
    tools: Sequence[AgentTool] = field(default_factory=list)
    max_turns: int = DEFAULT_MAX_TURNS
    app_functions_enabled: bool = False
    app_function_ids: Sequence[str] | None = None
    tool_choice: str | None = None
    parallel_tool_calls: bool | None = None
    context_overflow: str = CONTEXT_OVERFLOW_ERROR

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        if self.context_overflow not in CONTEXT_OVERFLOW_POLICIES:
            raise ValueError(f"context_overflow must be one of {', '.join(CONTEXT_OVERFLOW_POLICIES)}, "
                             f"not {self.context_overflow!r}")
        self.tools = list(self.tools)
        if self.app_function_ids is not None:
            self.app_function_ids = list(self.app_function_ids)
            if self.app_function_ids:
                self.app_functions_enabled = True
        check_tools(self.tools)

    @property
    def uses_tools(self) -> bool:
        return bool(self.tools) or self.app_functions_enabled

    @staticmethod
    def builder() -> "AgentBuilder":
        """ML Kit's ``Agent.Builder``: ``Agent.builder().set_name("x").add_tools(t).build()``."""
        return AgentBuilder()


def check_tools(tools: Sequence[AgentTool]) -> None:
    for tool in tools:
        if not isinstance(tool, AgentTool):
            raise TypeError(f"tools must be AgentTool instances, got {tool!r} (wrap functions in FunctionTool)")


class AgentBuilder:
    """Fluent construction of an Agent, with ML Kit's names in snake_case; ``build()`` checks it."""

    def __init__(self) -> None:
        self._name = "agent"
        self._instructions = ""
        self._tools: list[AgentTool] = []
        self._max_turns = DEFAULT_MAX_TURNS
        self._app_functions_enabled = False
        self._app_function_ids: list[str] = []

    def set_name(self, name: str) -> "AgentBuilder":
        self._name = name
        return self

    def set_instructions(self, instructions: str) -> "AgentBuilder":
        self._instructions = instructions
        return self

    def enable_app_functions(self, enabled: bool = True) -> "AgentBuilder":
        self._app_functions_enabled = enabled
        return self

    def add_app_function_ids(self, *function_ids: str) -> "AgentBuilder":
        """Full (``pkg.Service#fn``) or short (``fn``) ids; implies ``enable_app_functions()``."""
        self._app_function_ids += list(function_ids)
        return self

    def add_tools(self, *tools: AgentTool) -> "AgentBuilder":
        self._tools += list(tools)
        return self

    def set_max_turns(self, max_turns: int) -> "AgentBuilder":
        self._max_turns = max_turns
        return self

    def build(self) -> Agent:
        return Agent(
            name=self._name,
            instructions=self._instructions,
            tools=list(self._tools),
            max_turns=self._max_turns,
            app_functions_enabled=self._app_functions_enabled,
            app_function_ids=list(self._app_function_ids) or None,
        )
