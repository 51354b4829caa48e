"""Agent: what an agent is (ML Kit's ``Agent``), independent of any model or device."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from droid.agent.tools import AgentTool

DEFAULT_MAX_TURNS = 5


@dataclass
class Agent:
    """An agent's name, instructions, tools and limits.

    - ``tools``: tools to declare to the model (e.g. discovered AppFunctions, wrapped as you like).
    - ``max_turns``: how many times the model may be called for one prompt (Genkit's default, 5).
    - ``app_functions_enabled``: also declare every AppFunction the agent app can see, discovered
      by the runner from its Context. ``app_function_ids`` limits those to the listed full or
      short ids, and implies ``app_functions_enabled``.

    Enabling AppFunctions *and* adding tools for the same functions logs a warning; each
    function is declared once, as the tool you added (so your wrappers apply).
    """

    name: str = "agent"
    instructions: str = ""
    tools: Sequence[AgentTool] = field(default_factory=list)
    max_turns: int = DEFAULT_MAX_TURNS
    app_functions_enabled: bool = False
    app_function_ids: Sequence[str] | None = None

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        self.tools = list(self.tools)
        if self.app_function_ids is not None:
            self.app_function_ids = list(self.app_function_ids)
            if self.app_function_ids:
                self.app_functions_enabled = True
        for tool in self.tools:
            if not isinstance(tool, AgentTool):
                raise TypeError(f"tools must be AgentTool instances, got {tool!r} (wrap functions in FunctionTool)")

    @property
    def uses_tools(self) -> bool:
        return bool(self.tools) or self.app_functions_enabled
