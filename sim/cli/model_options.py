"""The model-server options that ``droidsim agent`` and ``droidsim eval`` share, defined once.

``@model_server_options`` adds them to a command; ``split_model_options`` turns
the values into the backend's settings and the Agent's fields, the two places
they go (None: the server's or the runtime's default).
"""

from __future__ import annotations

from typing import Any, Callable

import click

_TOOL_CHOICE = "auto|none|required|TOOL"

_OPTIONS = (
    click.option("--no-stream", is_flag=True,
                 help="Ask for whole responses instead of a stream (for servers whose streams drop tool calls)."),
    click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
                 help="Seconds to open a connection to the server (default 10)."),
    click.option("--read-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
                 help="Seconds to wait for the server's next bytes; a stalled stream fails after this (default 120)."),
    click.option("--temperature", type=click.FloatRange(min=0), metavar="T",
                 help="Sampling temperature sent to the server (default: the server's)."),
    click.option("--max-tokens", type=click.IntRange(min=1), metavar="N",
                 help="The most tokens the model may write per answer (max_tokens, sent with every request); bounds "
                      "a model whose answer or call arguments run on, where the server honours it: llama-cpp-python's "
                      "chatml-function-calling ignores it for automatic tool calls, and a warning says when an "
                      "answer was longer (default: the server's, often the whole context)."),
    click.option("--tool-choice", metavar=_TOOL_CHOICE,
                 help="tool_choice for the first model call of each prompt (later calls: auto)."),
    click.option("--parallel-tool-calls/--no-parallel-tool-calls", default=None,
                 help="Allow several tool calls in one model turn (default: the server's)."),
    click.option("--no-text-tool-calls", is_flag=True,
                 help="Do not run tool calls that the model wrote as text (<tool_call>..., bare JSON)."),
    click.option("--trim-history", is_flag=True,
                 help="When the conversation no longer fits the model's context, drop the oldest turns and retry."),
)


def model_server_options(command: Callable) -> Callable:
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def split_model_options(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the backend's settings, the Agent's fields) from the options' values."""
    model_options = {
        "stream": False if values["no_stream"] else None,
        "connect_timeout": values["connect_timeout"],
        "read_timeout": values["read_timeout"],
        "temperature": values["temperature"],
        "max_tokens": values["max_tokens"],
        "text_tool_calls": False if values["no_text_tool_calls"] else None,
    }
    agent_options = {
        "tool_choice": values["tool_choice"],
        "parallel_tool_calls": values["parallel_tool_calls"],
        "context_overflow": "drop_oldest" if values["trim_history"] else None,
    }
    return model_options, agent_options
