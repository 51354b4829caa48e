"""``droidsim agent``: run an on-device agent as an installed agent app."""

from __future__ import annotations

import click

from sim.cli.api_key import api_key_options

_TOOL_CHOICE = "auto|none|required|TOOL"


@click.command("agent")
@click.option("--as", "as_package", required=True, metavar="PKG",
              help="The agent app to run as (it must request EXECUTE_APP_FUNCTIONS).")
@click.option("--model", default="offline", show_default=True, metavar="offline|openai:NAME",
              help="offline: a heuristic stand-in, no weights; openai:NAME: any chat-completions server.")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Chat-completions endpoint (Ollama, vLLM, llama.cpp...).")
@api_key_options
@click.option("--session", "session_id", help="Continue a stored conversation by id.")
@click.option("--json", "json_output", is_flag=True, help="Emit the event stream as JSON lines.")
@click.option("--no-stream", is_flag=True,
              help="Ask for whole responses instead of a stream (for servers whose streams drop tool calls).")
@click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Seconds to open a connection to the server (default 10).")
@click.option("--read-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Seconds to wait for the server's next bytes; a stalled stream fails after this (default 120).")
@click.option("--tool-choice", metavar=_TOOL_CHOICE,
              help="tool_choice for the first model call of each prompt (later calls: auto).")
@click.option("--parallel-tool-calls/--no-parallel-tool-calls", default=None,
              help="Allow several tool calls in one model turn (default: the server's).")
@click.option("--no-text-tool-calls", is_flag=True,
              help="Do not run tool calls that the model wrote as text (<tool_call>..., bare JSON).")
@click.option("--trim-history", is_flag=True,
              help="When the conversation no longer fits the model's context, drop the oldest turns and retry.")
@click.argument("prompt", required=False)
@click.pass_context
def agent_command(ctx: click.Context, as_package: str, model: str, base_url: str | None, api_key: str | None,
                  session_id: str | None, json_output: bool, no_stream: bool, connect_timeout: float | None,
                  read_timeout: float | None, tool_choice: str | None, parallel_tool_calls: bool | None,
                  no_text_tool_calls: bool, trim_history: bool, prompt: str | None) -> None:
    """Ask the agent PROMPT, or chat interactively when no PROMPT is given.

    Exit code 0 when the agent answered, 1 when the run ended in an error (including
    max turns reached and an answer cut off at the token limit), 130 on ^C.
    """
    from droid.agent.console import run_agent_console
    from sim.cli.connection import open_context, resolve

    model_options = {
        "stream": False if no_stream else None,
        "connect_timeout": connect_timeout,
        "read_timeout": read_timeout,
        "text_tool_calls": False if no_text_tool_calls else None,
    }
    agent_options = {
        "tool_choice": tool_choice,
        "parallel_tool_calls": parallel_tool_calls,
        "context_overflow": "drop_oldest" if trim_history else None,
    }
    address = resolve(ctx.find_root().obj["device"], ctx.find_root().obj["data"])
    with open_context(address, as_package) as context:
        # The agent keeps its sessions in its own data folder, as an app would.
        context.data_dir = address.data_dir / "data" / as_package if address.data_dir else None
        code = run_agent_console(context, prompt, model=model, base_url=base_url, api_key=api_key,
                                 json_output=json_output, session_id=session_id,
                                 model_options=model_options, agent_options=agent_options)
    raise SystemExit(code)
