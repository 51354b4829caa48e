"""``cmd app_function`` agent-access commands (AppFunctionManagerServiceShellCommand, QPR2).

grant/revoke set OTHER_GRANTED/OTHER_DENIED under the OTHER mask, as Android's do; the
allowlist commands write the Secure setting APP_FUNCTION_ADDITIONAL_AGENT_ALLOWLIST.
"""

from __future__ import annotations

import click

from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
)
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list
from sim.cli.connection import context_from
from sim.cli.output import fail_with, print_json
from sim.cli.shell_users import user_option

INVALID_PAIR = (
    "{agent} -> {target} is not a valid pair: the agent must be installed, request "
    "android.permission.EXECUTE_APP_FUNCTIONS and be on the agent allowlist "
    "(set-additional-allowlisted-agents); the target must be installed with an AppFunctionService"
)


def _update_other_flag(ctx: click.Context, agent: str, target: str, flag: int, verb: str, done: str) -> None:
    with context_from(ctx) as context:
        manager = context.app_function_manager
        try:
            changed = manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, flag)
            state = manager.get_access_request_state(agent, target)
        except Exception as error:
            fail_with(error)
    if state == ACCESS_REQUEST_STATE_UNREQUESTABLE:
        raise click.ClickException(f"Failed to {verb} the app function access: " + INVALID_PAIR.format(agent=agent, target=target))
    click.echo(f"Access {done} successfully." if changed else f"Access already {done}: nothing to change.")


def _pair_options(command):
    command = user_option("--target-user", "the target package's user")(command)
    command = user_option("--agent-user", "the agent package's user")(command)
    command = click.option("--target-package", "target", required=True, metavar="PKG", help="The target package.")(command)
    return click.option("--agent-package", "agent", required=True, metavar="PKG", help="The agent package.")(command)


@click.command("grant-app-function-access")
@_pair_options
@click.pass_context
def grant_access(ctx: click.Context, agent: str, target: str) -> None:
    """Grant an agent access to an app's functions (OTHER_GRANTED)."""
    _update_other_flag(ctx, agent, target, ACCESS_FLAG_OTHER_GRANTED, "grant", "granted")


@click.command("revoke-app-function-access")
@_pair_options
@click.pass_context
def revoke_access(ctx: click.Context, agent: str, target: str) -> None:
    """Revoke an agent's access to an app's functions (OTHER_DENIED)."""
    _update_other_flag(ctx, agent, target, ACCESS_FLAG_OTHER_DENIED, "revoke", "revoked")


def _list_command(name: str, label: str, method: str, help_text: str) -> click.Command:
    @click.command(name, help=help_text)
    @click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
    @user_option()
    @click.pass_context
    def command(ctx: click.Context, as_json: bool) -> None:
        with context_from(ctx) as context:
            try:
                packages = getattr(context.app_function_manager, method)()
            except Exception as error:
                fail_with(error)
        if as_json:
            print_json(packages)
        else:
            click.echo(f"{label}: [{', '.join(packages)}]")

    return command


list_valid_agents = _list_command(
    "list-valid-agents", "Valid agents", "get_valid_agents",
    "List installed agents: they request EXECUTE_APP_FUNCTIONS and are allowlisted.",
)
list_valid_targets = _list_command(
    "list-valid-targets", "Valid targets", "get_valid_targets", "List installed packages with an AppFunctionService."
)


def _write_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    with context_from(ctx) as context:
        try:
            context.get_system_service("settings").put_setting(
                *ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list(list(packages)) or None
            )
            allowlist = context.app_function_manager.get_agent_allowlist()
        except Exception as error:
            fail_with(error)
    click.echo(f"Agent allowlist: [{', '.join(allowlist)}]")


@click.command("set-additional-allowlisted-agents")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def set_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Allowlist these agents besides the device's list (replaces the previous ones)."""
    _write_additional_agents(ctx, packages)


@click.command("clear-additional-allowlisted-agents")
@click.pass_context
def clear_additional_agents(ctx: click.Context) -> None:
    """Remove the agents set-additional-allowlisted-agents added."""
    _write_additional_agents(ctx, ())


ACCESS_COMMANDS = (
    grant_access, revoke_access, list_valid_agents, list_valid_targets, set_additional_agents, clear_additional_agents,
)
