"""``droidsim shell pm``: packages, permissions and the privileged allowlist, as adb's ``pm``."""

from __future__ import annotations

import click

from droidsim.v1.allowlist_pb2 import AllowlistEdit
from sim.cli.connection import context_from
from sim.cli.installed_names import warn_uninstalled
from sim.cli.output import fail_with, print_json, print_table
from sim.pm.installed_from import installed_from_json


def package_manager_call(ctx: click.Context, method: str, *args):
    with context_from(ctx) as context:
        try:
            return getattr(context.get_system_service("package"), method)(*args)
        except Exception as error:
            fail_with(error)


@click.group()
def pm() -> None:
    """The package manager: list, grant, revoke, clear."""


@pm.group("list")
def pm_list() -> None:
    """List packages or permissions."""


@pm_list.command("packages")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_packages(ctx: click.Context, as_json: bool) -> None:
    """Installed packages, their uid, status and granted permissions."""
    packages = [
        {"package": p.package_name, "uid": p.uid, "system": p.system, "privileged": p.privileged,
         "requested_permissions": list(p.requested_permissions), "granted_permissions": list(p.granted_permissions),
         "installed_from": installed_from_json(p.installed_from)}
        for p in package_manager_call(ctx, "list_packages")
    ]
    if as_json:
        print_json(packages)
        return
    rows = [
        (p["package"], p["uid"], "system" if p["system"] else "", "yes" if p["privileged"] else "no",
         "\n".join(p["granted_permissions"]) or "-")
        for p in packages
    ]
    print_table(f"{len(rows)} packages", ["package", "uid", "system", "privileged", "granted permissions"], rows)


@pm_list.command("permissions")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_permissions(ctx: click.Context, as_json: bool) -> None:
    """Defined permissions: the platform's and the apps'."""
    permissions = [
        {"name": p.name, "protection_level": p.protection_level, "package": p.package_name}
        for p in package_manager_call(ctx, "list_permissions")
    ]
    if as_json:
        print_json(permissions)
        return
    rows = [(p["name"], p["protection_level"], p["package"]) for p in permissions]
    print_table(f"{len(rows)} permissions", ["permission", "protection level", "defined by"], rows)


@pm.command("grant")
@click.argument("package")
@click.argument("permission")
@click.pass_context
def grant(ctx: click.Context, package: str, permission: str) -> None:
    """Grant a runtime (dangerous) permission; nothing else can be granted."""
    package_manager_call(ctx, "grant_permission", package, permission)
    click.echo(f"Granted {permission} to {package}")


@pm.command("revoke")
@click.argument("package")
@click.argument("permission")
@click.pass_context
def revoke(ctx: click.Context, package: str, permission: str) -> None:
    """Revoke a runtime (dangerous) permission."""
    package_manager_call(ctx, "revoke_permission", package, permission)
    click.echo(f"Revoked {permission} from {package}")


@pm.command("clear")
@click.argument("package")
@click.pass_context
def clear(ctx: click.Context, package: str) -> None:
    """Stop the app, delete its data and reset its functions' enabled states."""
    package_manager_call(ctx, "clear_package_data", package)
    click.echo("Success")


@pm.command("set-privileged-allowlist")
@click.argument("packages", nargs=-1)
@click.pass_context
def set_privileged_allowlist(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Make these packages privileged apps (replaces the list; none clears it).

    The stand-in for a system image's privapp-permissions files: a listed package is
    granted the privileged permissions it requests, as a system app is. Each entry is bound
    to the package installed under its name (its signer; an app folder's to its install), so
    another signer's package of that name gets nothing. A package the new list leaves out is
    named, with what it loses: to add one beside the others, use add-privileged-allowlist.
    """
    _edit_privileged_allowlist(ctx, AllowlistEdit.SET, packages, "set-privileged-allowlist")


@pm.command("add-privileged-allowlist")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def add_privileged_allowlist(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Add these packages to the privileged allowlist, keeping the others."""
    _edit_privileged_allowlist(ctx, AllowlistEdit.ADD, packages)


@pm.command("remove-privileged-allowlist")
@click.argument("packages", nargs=-1, required=True)
@click.pass_context
def remove_privileged_allowlist(ctx: click.Context, packages: tuple[str, ...]) -> None:
    """Take these packages off the privileged allowlist, naming what each loses."""
    _edit_privileged_allowlist(ctx, AllowlistEdit.REMOVE, packages)


def _edit_privileged_allowlist(ctx: click.Context, operation: int, packages: tuple[str, ...],
                               replace_verb: str = "") -> None:
    """Change the list in one step in the device, and name each package it drops with the
    privileged permissions that go with it, as the device's log does."""
    change = package_manager_call(ctx, "edit_privileged_allowlist", operation, list(packages))
    if operation != AllowlistEdit.REMOVE:
        with context_from(ctx) as context:
            warn_uninstalled(context, packages, "privileged allowlist")
    for loss in change.losses:
        click.echo(f"Removed {loss.package_name} from the privileged allowlist: "
                   + (f"it loses {', '.join(loss.lost)}" if loss.lost else "it held no privileged permission"))
    for name in change.not_listed:
        click.echo(f"{name} is not on the privileged allowlist: nothing to remove")
    if change.removed and replace_verb:
        click.echo(f"warning: {replace_verb} replaced the list and dropped {', '.join(change.removed)}; "
                   "add-privileged-allowlist PKG adds one package beside the others", err=True)
    click.echo(f"Privileged allowlist: [{', '.join(change.allowlist)}]")


@pm.command("get-privileged-allowlist")
@click.pass_context
def get_privileged_allowlist(ctx: click.Context) -> None:
    """Print the privileged allowlist."""
    click.echo(f"Privileged allowlist: [{', '.join(package_manager_call(ctx, 'get_privileged_allowlist'))}]")
