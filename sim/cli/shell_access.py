"""``cmd app_function`` agent-access verbs, as AppFunctionManagerServiceShellCommand prints them.

grant/revoke set OTHER_GRANTED/OTHER_DENIED under the OTHER mask and print
``Access granted successfully.`` or, when the device changed nothing (an invalid pair, or
the flag already set), ``Error: Failed to grant the app function access.`` with -1
(AppFunctionManagerServiceShellCommand.java @f6328b66, lines 795-808 and 847-860); the device's
log says why. set- and clear-additional-allowlisted-agents write the Secure setting
APP_FUNCTION_ADDITIONAL_AGENT_ALLOWLIST whole and print nothing (lines 731-756). Adding or
removing one agent while keeping the others is droidsim's own ``droidsim access agents``
(sim/cli/access.py): a phone has no such verb.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from droid.appfunctions import access_fixes
from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_OTHER_DENIED,
    ACCESS_FLAG_OTHER_GRANTED,
    access_flag_names,
)
from sim.appfunctions.agent_allowlist import ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list
from sim.cli.connection import context_from
from sim.cli.installed_names import installed_packages, not_installed
from sim.cli.output import print_json
from sim.cli.platform_shell import ANDROID_FAILURE, PlatformVerb, fail, java_string, require
from sim.cli.shell_users import user_option


def _update_other_flag(ctx: click.Context, agent: str | None, target: str | None, flag: int, verb: str,
                       done: str) -> None:
    require(agent, "--agent-package")
    require(target, "--target-package")
    with context_from(ctx) as context:
        try:
            changed = context.app_function_manager.update_access_flags(agent, target, ACCESS_FLAG_MASK_OTHER, flag)
        except Exception as error:
            fail(f"Exception: {java_string(error)}")
        # A script reads a phone's output byte for byte (the device's log says why); a person at a
        # terminal is also told why, with its fix, on stderr.
        why = None if changed or not sys.stderr.isatty() else _why_unchanged(context, agent, target, flag)
    if not changed:
        click.echo(f"Error: Failed to {verb} the app function access.")
        if why:
            click.echo(f"droidsim: {why}", err=True)
        raise SystemExit(ANDROID_FAILURE)
    click.echo(f"Access {done} successfully.")


def _why_unchanged(context: Any, agent: str, target: str, flag: int) -> str:
    """Why the device changed nothing, as its log says it: the pair's first failed rule, with its
    fix, or the flag already set (which a phone reports as a failure too)."""
    manager = context.app_function_manager
    if manager.get_access_flags(agent, target) & ACCESS_FLAG_MASK_OTHER == flag:
        return (f"{agent} already has {access_flag_names(flag)[0]} for {target}: nothing to change "
                "(a phone, too, says 'Failed' for that)")
    installed = installed_packages(context)
    info = installed.get(agent)
    why = access_fixes.invalid_pair(
        agent, target, agent_installed=info is not None,
        agent_requests=info is not None and access_fixes.EXECUTE_APP_FUNCTIONS in info.requested_permissions,
        agent_allowlisted=agent in manager.get_agent_allowlist(), target_installed=target in installed,
        target_has_service=target in manager.get_valid_targets())
    for package in (agent, target):
        if why == f"{package} is not installed":
            why = not_installed(package, installed)
    return why or "the device changed nothing: `droidsim logcat` says why"


def _pair_options(command):
    command = user_option("--target-user", "the target package's user")(command)
    command = user_option("--agent-user", "the agent package's user")(command)
    command = click.option("--target-package", "target", metavar="PKG", help="The target package (required).")(command)
    return click.option("--agent-package", "agent", metavar="PKG", help="The agent package (required).")(command)


@click.command("grant-app-function-access", cls=PlatformVerb)
@_pair_options
@click.pass_context
def grant_access(ctx: click.Context, agent: str | None, target: str | None) -> None:
    """Grant an agent access to an app's functions (OTHER_GRANTED)."""
    _update_other_flag(ctx, agent, target, ACCESS_FLAG_OTHER_GRANTED, "grant", "granted")


@click.command("revoke-app-function-access", cls=PlatformVerb)
@_pair_options
@click.pass_context
def revoke_access(ctx: click.Context, agent: str | None, target: str | None) -> None:
    """Revoke an agent's access to an app's functions (OTHER_DENIED)."""
    _update_other_flag(ctx, agent, target, ACCESS_FLAG_OTHER_DENIED, "revoke", "revoked")


def _list_command(name: str, label: str, method: str, help_text: str) -> click.Command:
    @click.command(name, cls=PlatformVerb, help=help_text)
    @click.option("--json", "as_json", is_flag=True, help="Print a JSON array (droidsim's; a phone has no such option).")
    @user_option()
    @click.pass_context
    def command(ctx: click.Context, as_json: bool) -> None:
        with context_from(ctx) as context:
            try:
                packages = getattr(context.app_function_manager, method)()
            except Exception as error:
                fail(f"Exception: {java_string(error)}")
        if as_json:
            print_json(packages)
        else:
            click.echo(f"{label}: [{', '.join(packages)}]")  # List.toString() (lines 878, 897)

    return command


list_valid_agents = _list_command(
    "list-valid-agents", "Valid agents", "get_valid_agents",
    "List installed agents: they request EXECUTE_APP_FUNCTIONS and are allowlisted.",
)
list_valid_targets = _list_command(
    "list-valid-targets", "Valid targets", "get_valid_targets", "List installed packages with an AppFunctionService."
)


def _write_additional_agents(ctx: click.Context, packages: list[str]) -> None:
    """Settings.Secure.putString of the whole list; the device's log names each agent that
    leaves the allowlist and the access it loses."""
    with context_from(ctx) as context:
        try:
            context.get_system_service("settings").put_setting(
                *ADDITIONAL_AGENT_ALLOWLIST, serialize_agent_list(packages) or None)
        except Exception as error:
            fail(f"Exception: {java_string(error)}")


@click.command("set-additional-allowlisted-agents", cls=PlatformVerb)
@click.argument("packages", nargs=-1)
@click.pass_context
def set_additional_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Allowlist these agents besides the device's list, replacing the ones set before
    (`droidsim access agents add PKG` adds one and keeps the others)."""
    if not packages:  # getNextArgRequired() right after the verb (line 733)
        fail('Exception: java.lang.IllegalArgumentException: Argument expected after '
             '"set-additional-allowlisted-agents"')
    _write_additional_agents(ctx, list(packages))


@click.command("clear-additional-allowlisted-agents", cls=PlatformVerb)
@click.pass_context
def clear_additional_agents(ctx: click.Context) -> None:
    """Remove the agents set-additional-allowlisted-agents added."""
    _write_additional_agents(ctx, [])


ACCESS_COMMANDS = (
    grant_access, revoke_access, list_valid_agents, list_valid_targets, set_additional_agents, clear_additional_agents,
)
