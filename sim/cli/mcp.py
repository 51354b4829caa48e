"""``droidsim mcp``: serve what an installed agent app may call to any MCP client."""

from __future__ import annotations

import contextlib
import ipaddress
import sys
from pathlib import Path

import click

from sim.mcp.modes import ELICIT, MODES


@click.command("mcp")
@click.option("--as", "as_package", required=True, metavar="AGENT_PKG",
              help="The installed agent app to act as (it must hold EXECUTE_APP_FUNCTIONS).")
@click.option("--device", metavar="ADDRESS", help="Data directory, unix:PATH or HOST:PORT (default: the root --device).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio for clients that start the server (Claude Desktop, Claude Code); http for streamable HTTP.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: the address to bind (loopback unless told otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="HTTP: the port (0: any free one).")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path), envvar="DROIDSIM_MCP_TOKEN_FILE",
              help="HTTP: keep the bearer token in this file (mode 0600; reused if it is there, written if not) "
                   "instead of printing it once. Env: DROIDSIM_MCP_TOKEN_FILE.")
@click.option("--confirm", type=click.Choice(MODES), default=ELICIT, show_default=True,
              help="Destructive calls: ask the client's user (elicitation; refused where the client cannot ask), "
                   "refuse them all, or run them unasked.")
@click.pass_context
def mcp_command(ctx: click.Context, as_package: str, device: str | None, transport: str, host: str, port: int,
                token_file: Path | None, confirm: str) -> None:
    """Serve what AGENT_PKG may call as MCP tools (docs/mcp.md): its own agent's tools, run in
    the app's own process, where the app declares an agent; else its callable app functions."""
    import asyncio

    from sim.cli.connection import open_context, resolve
    from sim.cli.output import fail_with, warn_if_edited
    from sim.mcp.agent_tools import AgentCatalog
    from sim.mcp.catalog import Catalog
    from sim.mcp.confirmation import Confirmation
    from sim.mcp.http_auth import bridge_token
    from sim.mcp.server import Bridge

    root = ctx.find_root().obj
    address = resolve(device or root["device"], root["data"])
    if transport == "http" and not _is_loopback(host):
        click.echo(f"warning: serving MCP on {host}: reachable from other machines, with this agent's access",
                   err=True)
    try:
        token = bridge_token(token_file) if transport == "http" else ""
    except (ValueError, OSError) as error:
        raise click.ClickException(str(error)) from None
    with open_context(address, as_package) as context:
        warn_if_edited(context)
        with _agent_process(address, context) as agent:  # its agent built first, as droidsim agent --as does
            _say_diagnosis(context)
            try:
                catalog = Catalog(context) if agent is None else AgentCatalog(context, agent.client)
                bridge = Bridge(catalog, Confirmation(confirm), version=_version())
            except Exception as error:
                fail_with(error)
            serve = (bridge.serve_stdio() if transport == "stdio"
                     else bridge.serve_http(host, port, sys.stderr, token, token_file, address.data_dir))
            try:
                asyncio.run(serve)
            except KeyboardInterrupt:
                pass


def _say_diagnosis(context) -> None:
    """What the app holds and lacks as an agent, in the words droidsim agent --as says it
    (droid.agent.diagnosis); exit 1, as that door does, when it may call no app function."""
    from droid.agent.diagnosis import diagnose
    from sim.cli.output import fail_with

    try:
        diagnosis = diagnose(context)
    except Exception as error:
        fail_with(error)
    for line in diagnosis.lines():
        click.echo(f"warning: {line}", err=True)
    if diagnosis.refusal:
        click.echo(f"error: {diagnosis.refusal}", err=True)
        raise SystemExit(1)


@contextlib.contextmanager
def _agent_process(address, context):
    """The app's own agent in its own process, serving its tools; None when it declares none.
    Whatever it started ends before this command does, SIGTERM included."""
    from sim.agent_app.launch import AgentLaunchError, ToolServerProcess, code_dir_of, ending_with_the_command, plan
    from sim.agent_app.tool_client import AgentProcessGone

    try:
        process = ToolServerProcess(plan(address, context.package_name, code_dir_of(context)))
    except AgentLaunchError as error:
        raise click.ClickException(str(error)) from None
    except AgentProcessGone as error:  # the app's agent could not be built: its words, as droidsim agent --as says them
        click.echo(f"error: {error}", err=True)
        raise SystemExit(1) from None
    try:
        with ending_with_the_command(process.agent_process):  # before the app's code runs
            try:
                process.connect()
            except AgentProcessGone as error:
                raise click.ClickException(str(error)) from None
            yield process if process.agent is not None else None
    finally:
        process.close()


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _version() -> str:
    from importlib.metadata import version

    return version("droidsim")
