"""AppFunction metadata and results as MCP tools and tool results.

The schemas come from the agent runtime's one conversion (droid.agent.schema), but the input
schema keeps shared types as ``$defs`` (MCP clients resolve ``$ref``; a model is given them
inlined), so recursive types are described whole. MCP wants objects at the top of an output
schema and of structured content, so a function that returns anything else (a string, a
list) has its value under ``result``, as the agent runtime wraps it for a model.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import mcp_types as types

from droid.agent.appfunction_tools import AppFunctionAgentTool
from droid.agent.confirmation import name_words
from droid.agent.errors import error_map
from droid.agent.schema import parameters_schema, response_schema
from droid.agent.tools import first_schema_error, invalid_arguments
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import parameters_from_json

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
FUNCTION_ID_META = "droidsim/functionId"
PACKAGE_META = "droidsim/packageName"


class ToolShape:
    """One function as an MCP tool, and how its results are shaped."""

    def __init__(self, agent_tool: AppFunctionAgentTool, name: str, destructive: bool, components: Any) -> None:
        self.agent_tool = agent_tool
        self.name = name
        self.destructive = destructive
        self.input_schema = {
            "$schema": JSON_SCHEMA_DIALECT,
            **parameters_schema(agent_tool.metadata, components, shared_types="defs"),
        }
        self._validator = jsonschema.Draft202012Validator(self.input_schema)
        returns = response_schema(agent_tool.metadata, components)
        self.wraps_result = returns is not None and returns.get("type") != "object"
        if returns is None:
            self.output_schema = None
        elif self.wraps_result:
            self.output_schema = {"type": "object", "properties": {"result": returns}, "required": ["result"]}
        else:
            self.output_schema = returns

    @property
    def function_id(self) -> str:
        return self.agent_tool.function_id

    async def invalid(self, args: Any) -> str | None:
        return self.schema_violation(args)

    async def run(self, args: dict[str, Any]) -> types.CallToolResult:
        """The call, on the device as the agent: its value, or the failure as the model gets it."""
        try:
            value = await self.agent_tool.return_value_json(args)
        except Exception as error:  # the device's AppFunctionException, or the connection failing
            return error_result(error)
        return self.result(value)

    def schema_violation(self, args: Any) -> str | None:
        """How ``args`` break the input schema, or None. What breaks it is said as the shell says
        it (an unknown key with the declared name closest to it, the form of a SetField, the
        fields of a date), and what the shell takes is taken (a date as ISO text): the call
        reads its arguments as the shell reads them (AppFunctionAgentTool.return_value_json)."""
        error = first_schema_error(self._validator, args)
        if error is None:
            return None
        if isinstance(args, dict):
            try:
                parameters_from_json(self.agent_tool.metadata, args, self.agent_tool.components)
            except AppFunctionException as refused:
                return refused.error_message
            return None
        return invalid_arguments(error).error_message

    def tool(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            title=" ".join(name_words(self.agent_tool.short_id)).capitalize(),
            description=self.agent_tool.description,
            input_schema=self.input_schema,
            output_schema=self.output_schema,
            annotations=types.ToolAnnotations(destructive_hint=self.destructive),
            _meta={FUNCTION_ID_META: self.agent_tool.function_id, PACKAGE_META: self.agent_tool.package_name},
        )

    def result(self, value: Any) -> types.CallToolResult:
        """The return value as structured content (when declared) and as text."""
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        structured = None
        if self.output_schema is not None:
            structured = {"result": value} if self.wraps_result else value
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured)


def error_result(error: BaseException) -> types.CallToolResult:
    """A failed call as the agent runtime gives it to a model: the error map, as text."""
    return refusal(error_map(error))


def refusal(payload: dict[str, Any]) -> types.CallToolResult:
    """A call that did not produce the function's value (an error map, CANCELLED_BY_USER)."""
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(payload, ensure_ascii=False))], is_error=True)
