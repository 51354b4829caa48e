"""``cmd app_function`` agent-access commands (AppFunctionManagerServiceShellCommand, QPR2).

grant/revoke set OTHER_GRANTED/OTHER_DENIED under the OTHER mask, as Android's do; the
allowlist commands write the Secure setting APP_FUNCTION_ADDITIONAL_AGENT_ALLOWLIST: Android's
set- and clear- replace it, droidsim's add- and remove- change one agent and keep the rest,
and each names the agents that leave the allowlist and the access they lose.
"""

from __future__ import annotations

import click

from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_REQUEST_STATE_UNREQUESTABLE,
    access_flag_names,
)
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, parse_agent_list, serialize_agent_list
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


def _edit_additional_agents(ctx: click.Context, change, replace_verb: str = "", removing: tuple[str, ...] = ()) -> None:
    """Change the Secure list (read, then written whole) and name each agent that leaves the
    agent allowlist with the access it loses (onAgentAllowlistChanged drops its flags), as the
    device's log does."""
    with context_from(ctx) as context:
        manager, settings = context.app_function_manager, context.get_system_service("settings")
        try:
            old = parse_agent_list(settings.get_setting(*ADDITIONAL_AGENT_ALLOWLIST) or "")
            new = change(list(old))
            leaving = set(old) - set(new)
            access = {agent: _access_of(manager, agent) for agent in leaving}
            before = set(manager.get_agent_allowlist())
            settings.put_setting(*ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list(new) or None)
            allowlist = manager.get_agent_allowlist()
        except Exception as error:
            fail_with(error)
    dropped = sorted(before - set(allowlist))
    for agent in dropped:
        click.echo(f"Removed {agent} from the agent allowlist: "
                   + (f"its access to {', '.join(access[agent])} is gone" if access[agent] else "it had no access grants"))
    for agent in sorted(leaving - set(dropped)):
        click.echo(f"{agent} stays on the agent allowlist: DeviceConfig's list (or the platform) names it too")
    for agent in (a for a in removing if a not in old):
        where = "; DeviceConfig's list (or the platform) names it" if agent in allowlist else ""
        click.echo(f"{agent} is not on the additional list: nothing to remove{where}")
    if dropped and replace_verb:
        click.echo(f"warning: {replace_verb} replaced the list and dropped {', '.join(dropped)}; "
                   "add-additional-allowlisted-agents PKG adds one agent beside the others", err=True)
    click.echo(f"Agent allowlist: [{', '.join(allowlist)}]")


def _access_of(manager, agent: str) -> list[str]:
    """``TARGET (FLAGS)`` for each target the agent has flags for."""
    pairs = ((target, manager.get_access_flags(agent, target)) for target in manager.get_valid_targets())
    return [f"{target} ({'|'.join(access_flag_names(flags))})" for target, flags in pairs if flags]


@click.command("set-additional-allowlisted-agents")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def set_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Allowlist these agents besides the device's list (replaces the previous ones, naming
    each agent dropped and the access it loses; add-additional-allowlisted-agents adds one)."""
    _edit_additional_agents(ctx, lambda old: list(dict.fromkeys(packages)), "set-additional-allowlisted-agents")


@click.command("add-additional-allowlisted-agents")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def add_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Allowlist these agents too, keeping the ones already listed."""
    _edit_additional_agents(ctx, lambda old: [*old, *(p for p in dict.fromkeys(packages) if p not in old)])


@click.command("remove-additional-allowlisted-agents")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def remove_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Take these agents off the list, naming the access each loses."""
    _edit_additional_agents(ctx, lambda old: [p for p in old if p not in packages], removing=packages)


@click.command("clear-additional-allowlisted-agents")
@click.pass_context
def clear_additional_agents(ctx: click.Context) -> None:
    """Remove the agents set-additional-allowlisted-agents added, naming the access each loses."""
    _edit_additional_agents(ctx, lambda old: [])


ACCESS_COMMANDS = (
    grant_access, revoke_access, list_valid_agents, list_valid_targets, set_additional_agents, add_additional_agents,
    remove_additional_agents, clear_additional_agents,
)
