"""``droidsim access``: droidsim's own conveniences for agent access, which no phone has.

A phone's shell sets the additional agent allowlist whole (``cmd app_function
set-additional-allowlisted-agents PKG...``) or clears it; these add or remove one agent and keep
the rest, and say what changed: each agent that leaves the allowlist and the access it loses
(onAgentAllowlistChanged drops its flags). They edit the same Secure setting,
``app_function_additional_agent_allowlist``, so a phone's verbs see what they did. A script
meant to run on a phone too uses the platform's verbs (docs/access-control.md).
"""

from __future__ import annotations

import click

from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.appfunctions.agent_allowlist import (
    ADDITIONAL_AGENT_ALLOWLIST,
    DEVICE_CONFIG_AGENT_ALLOWLIST,
    SYSTEM_AGENT_ALLOWLIST,
    parse_agent_list,
)
from sim.cli.connection import context_from
from sim.cli.installed_names import warn_uninstalled
from sim.cli.output import fail_with, print_json, print_table

# Where an entry of the agent allowlist comes from (AppFunctionManagerServiceImpl's three lists).
ADDITIONAL = "additional list"
DEVICE_CONFIG = "DeviceConfig"
PLATFORM = "platform"


@click.group("access")
def access_group() -> None:
    """droidsim's own agent-access commands (a phone has none of these; see `droidsim shell cmd
    app_function` for the platform's)."""


@access_group.group("agents")
def agents_group() -> None:
    """The agent allowlist: add or remove one agent, keeping the others, or list it."""


def _edit(ctx: click.Context, operation: int, packages: tuple[str, ...]) -> None:
    """Change the additional list in one step in the device (two editors at once never undo each
    other), and name each agent that leaves the agent allowlist with the access it loses."""
    with context_from(ctx) as context:
        try:
            change = context.app_function_manager.edit_additional_agent_allowlist(operation, list(packages))
        except Exception as error:
            fail_with(error)
        if operation == AllowlistEdit.ADD:
            warn_uninstalled(context, packages, "agent allowlist")
    dropped = [loss.package_name for loss in change.losses]
    for loss in change.losses:
        click.echo(f"Removed {loss.package_name} from the agent allowlist: "
                   + (f"its access to {', '.join(loss.lost)} is gone" if loss.lost else "it had no access grants"))
    for agent in (a for a in change.removed if a not in dropped):
        click.echo(f"{agent} stays on the agent allowlist: DeviceConfig's list (or the platform) names it too")
    for agent in change.not_listed:
        where = "; DeviceConfig's list (or the platform) names it" if agent in change.allowlist else ""
        click.echo(f"{agent} is not on the additional list: nothing to remove{where}")
    click.echo(f"Agent allowlist: [{', '.join(change.allowlist)}]")


@agents_group.command("add")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def add_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Allowlist these agents too, keeping the ones already listed."""
    _edit(ctx, AllowlistEdit.ADD, packages)


@agents_group.command("remove")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def remove_agents(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Take these agents off the additional list, naming the access each loses."""
    _edit(ctx, AllowlistEdit.REMOVE, packages)


@agents_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of {package, listed_by, valid}.")
@click.pass_context
def list_agents(ctx: click.Context, as_json: bool) -> None:
    """The agent allowlist, each entry with the list that names it and whether it is a valid
    agent (installed, requesting EXECUTE_APP_FUNCTIONS)."""
    with context_from(ctx) as context:
        manager, settings = context.app_function_manager, context.get_system_service("settings")
        try:
            sources = {
                ADDITIONAL: _names(parse_agent_list(settings.get_setting(*ADDITIONAL_AGENT_ALLOWLIST) or "")),
                DEVICE_CONFIG: _names(parse_agent_list(settings.get_setting(*DEVICE_CONFIG_AGENT_ALLOWLIST) or "")),
                PLATFORM: _names(SYSTEM_AGENT_ALLOWLIST),
            }
            valid = set(manager.get_valid_agents())
            allowlist = manager.get_agent_allowlist()
        except Exception as error:
            fail_with(error)
    rows = [{"package": agent, "listed_by": [name for name, agents in sources.items() if agent in agents],
             "valid": agent in valid} for agent in allowlist]
    if as_json:
        print_json(rows)
        return
    print_table(f"{len(rows)} agents on the allowlist", ["package", "listed by", "valid agent"],
                [(r["package"], ", ".join(r["listed_by"]), "yes" if r["valid"] else "no") for r in rows])


def _names(entries) -> set[str]:
    return {entry.package_name for entry in entries}
