"""``droidsim shell settings``, ``device_config`` and ``dumpsys``, as adb's commands of those names."""

from __future__ import annotations

import click

from sim.cli.connection import context_from
from sim.cli.output import fail_with

SETTINGS_SERVICE = "settings"


def _settings_call(ctx: click.Context, method: str, *args):
    with context_from(ctx) as context:
        try:
            return getattr(context.get_system_service(SETTINGS_SERVICE), method)(*args)
        except Exception as error:
            fail_with(error)


def _print_value(value: str | None) -> None:
    click.echo("null" if value is None else value)


@click.group()
def settings() -> None:
    """Secure settings the device reads (settings get|put|delete secure KEY)."""


@settings.command("list")
@click.pass_context
def settings_list(ctx: click.Context) -> None:
    """Every setting and DeviceConfig key this device reads."""
    for (table, name), description in _settings_call(ctx, "known").items():
        click.echo(f"{table} {name}: {description}")


@settings.command("get")
@click.argument("table", type=click.Choice(["secure"]))
@click.argument("key")
@click.pass_context
def settings_get(ctx: click.Context, table: str, key: str) -> None:
    """Print a setting's value, or null."""
    _print_value(_settings_call(ctx, "get_setting", table, key))


@settings.command("put")
@click.argument("table", type=click.Choice(["secure"]))
@click.argument("key")
@click.argument("value")
@click.pass_context
def settings_put(ctx: click.Context, table: str, key: str, value: str) -> None:
    """Set a setting; a value its reader would refuse is an error."""
    _settings_call(ctx, "put_setting", table, key, value)


@settings.command("delete")
@click.argument("table", type=click.Choice(["secure"]))
@click.argument("key")
@click.pass_context
def settings_delete(ctx: click.Context, table: str, key: str) -> None:
    """Delete a setting."""
    _settings_call(ctx, "delete_setting", table, key)


@click.group("device_config")
def device_config() -> None:
    """DeviceConfig flags the device reads (device_config get|put|delete NAMESPACE KEY)."""


@device_config.command("get")
@click.argument("namespace")
@click.argument("key")
@click.pass_context
def device_config_get(ctx: click.Context, namespace: str, key: str) -> None:
    """Print a flag's value, or null."""
    _print_value(_settings_call(ctx, "get_setting", "device_config", f"{namespace}/{key}"))


@device_config.command("put")
@click.argument("namespace")
@click.argument("key")
@click.argument("value")
@click.pass_context
def device_config_put(ctx: click.Context, namespace: str, key: str, value: str) -> None:
    """Set a flag; a value its reader would refuse is an error."""
    _settings_call(ctx, "put_setting", "device_config", f"{namespace}/{key}", value)


@device_config.command("delete")
@click.argument("namespace")
@click.argument("key")
@click.pass_context
def device_config_delete(ctx: click.Context, namespace: str, key: str) -> None:
    """Delete a flag."""
    _settings_call(ctx, "delete_setting", "device_config", f"{namespace}/{key}")


@click.group()
def dumpsys() -> None:
    """Dump a system service's state."""


@dumpsys.command("package")
@click.argument("package_name", metavar="[PACKAGE]", required=False)
@click.pass_context
def dumpsys_package(ctx: click.Context, package_name: str | None) -> None:
    """Each package (or PACKAGE): uid, what it was installed from, and its signers."""
    from sim.cli.shell_pm import package_manager_call
    from sim.pm.installed_from import installed_from_line

    packages = [p for p in package_manager_call(ctx, "list_packages") if package_name in (None, p.package_name)]
    if package_name and not packages:
        fail_with(LookupError(f"Unable to find package: {package_name}"))
    for info in packages:
        click.echo(f"Package [{info.package_name}] (uid {info.uid}):")
        click.echo(f"  {installed_from_line(info.installed_from)}")


@dumpsys.command("app_function")
@click.pass_context
def dumpsys_app_function(ctx: click.Context) -> None:
    """Functions, access levels, the agent allowlist, access flags and the access history."""
    with context_from(ctx) as context:
        try:
            text = context.get_system_service("app_function").dump()
        except Exception as error:
            fail_with(error)
    click.echo(text, nl=False)
