"""``droidsim agent``: run an on-device agent as an installed agent app."""

from __future__ import annotations

import click

from sim.cli.api_key import api_key_options
from sim.cli.model_options import model_server_options, split_model_options


@click.command("agent")
@click.option("--as", "as_package", required=True, metavar="PKG",
              help="The agent app to run as (it must request EXECUTE_APP_FUNCTIONS).")
@click.option("--model", default="offline", show_default=True, metavar="offline|openai:NAME",
              help="offline: a keyword stand-in for smoke tests, no weights, not a measure of quality; "
                   "openai:NAME: any chat-completions server.")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Chat-completions endpoint (Ollama, vLLM, llama.cpp...).")
@api_key_options
@click.option("--session", "session_id", help="Continue a stored conversation by id.")
@click.option("--json", "json_output", is_flag=True, help="Emit the event stream as JSON lines.")
@model_server_options
@click.argument("prompt", required=False)
@click.pass_context
def agent_command(ctx: click.Context, as_package: str, model: str, base_url: str | None, api_key: str | None,
                  session_id: str | None, json_output: bool, prompt: str | None, **server_options) -> None:
    """Ask the agent PROMPT, or chat interactively when no PROMPT is given.

    Exit code 0 when the agent answered, 1 when the run ended in an error (including
    max turns reached and an answer cut off at the token limit), 130 on ^C.
    """
    from droid.agent.console import run_agent_console
    from sim.cli.connection import open_context, resolve

    model_options, agent_options = split_model_options(server_options)
    address = resolve(ctx.find_root().obj["device"], ctx.find_root().obj["data"])
    with open_context(address, as_package) as context:
        # The agent keeps its sessions in its own data folder, as an app would.
        context.data_dir = address.data_dir / "data" / as_package if address.data_dir else None
        code = run_agent_console(context, prompt, model=model, base_url=base_url, api_key=api_key,
                                 json_output=json_output, session_id=session_id,
                                 model_options=model_options, agent_options=agent_options)
    raise SystemExit(code)
