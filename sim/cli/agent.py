"""``droidsim agent``: run an on-device agent as an installed agent app."""

from __future__ import annotations

import click

from sim.cli.api_key import api_key_options
from sim.cli.model_options import model_server_options, split_model_options


@click.command("agent")
@click.option("--as", "as_package", required=True, metavar="PKG",
              help="The agent app to run as (it must request EXECUTE_APP_FUNCTIONS); its own agent, if its "
                   "manifest declares one, else the stock console agent.")
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

    The agent runs in a process of its own, as the app: the agent the app declares
    (docs/agent.md, "Your own agent app"), else the stock console agent.

    Exit code 0 when the agent answered, 1 when the run ended in an error (including
    max turns reached, an answer cut off at the token limit, an app that may call none
    of the functions it sees, and, with --json, a call refused for want of an answer),
    130 on ^C.
    """
    from sim.agent_app.launch import AgentLaunchError, code_dir_of, plan, run_console
    from sim.cli.connection import open_context, resolve
    from sim.cli.output import warn_if_edited

    model_options, agent_options = split_model_options(server_options)
    address = resolve(ctx.find_root().obj["device"], ctx.find_root().obj["data"])
    with open_context(address, as_package) as context:
        try:
            launch = plan(address, as_package, code_dir_of(context))
        except AgentLaunchError as error:
            raise click.ClickException(str(error)) from None
        warn_if_edited(context)
    # The agent runs in a process of its own, as the app (sim/agent_app): the app's own agent
    # where its manifest declares one, else the stock console agent. Its settings go down a pipe.
    config = {"prompt": prompt, "model": model, "base_url": base_url, "api_key": api_key,
              "json_output": json_output, "session_id": session_id,
              "model_options": model_options, "agent_options": agent_options}
    raise SystemExit(run_console(launch, config))
