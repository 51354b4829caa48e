"""``droidsim shell``: the device's shell commands, run as com.android.shell (or ``--as PKG``).

``cmd app_function`` mirrors AppFunctionManagerServiceShellCommand
(spec/platform-android.md §5); its access commands, ``pm``, ``settings``, ``device_config``
and ``dumpsys`` live in the sibling shell_* modules.
"""

from __future__ import annotations

import json
import threading

import click

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import parameters_from_json, to_json
from droid.appfunctions.metadata import AppFunctionMetadata, function_name, type_label
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
)
from droid.os.cancellation import CancellationSignal
from sim.cli.brief_yaml import brief_yaml as brief_yaml_of
from sim.cli.connection import context_from
from sim.cli.output import fail_with, print_json, print_table
from sim.cli.shell_access import ACCESS_COMMANDS
from sim.cli.shell_pm import pm
from sim.cli.shell_settings import device_config, dumpsys, settings

STATES = {"enable": APP_FUNCTION_STATE_ENABLED, "disable": APP_FUNCTION_STATE_DISABLED, "default": APP_FUNCTION_STATE_DEFAULT}


@click.group()
def shell() -> None:
    """Run a shell command on the device, as com.android.shell (or the root --as PKG)."""


@shell.group()
def cmd() -> None:
    """Talk to a system service (cmd SERVICE ...)."""


@cmd.group("app_function")
def app_function() -> None:
    """The app_function service: list, execute and enable AppFunctions; agent access."""


for _command in ACCESS_COMMANDS:
    app_function.add_command(_command)
for _group in (pm, settings, device_config, dumpsys):
    shell.add_command(_group)


def functions_as_json(functions: list[AppFunctionMetadata]) -> dict:
    """The list-app-functions object: each package mapped to its functions."""
    listing: dict[str, list[dict]] = {}
    for f in functions:
        listing.setdefault(f.package_name, []).append(
            {
                "id": f.id,
                "enabled": f.is_enabled,
                "description": f.description,
                "parameters": [
                    {"name": p.name, "type": type_label(p.data_type), "required": p.is_required,
                     "description": p.description}
                    for p in f.parameters
                ],
                "response": {"type": type_label(f.response.value_type), "description": f.response.description}
                if f.HasField("response") else None,
            }
        )
    return listing


@app_function.command("list-app-functions")
@click.option("--package", "package_name", help="Only this package's functions.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON object Android prints.")
@click.pass_context
def list_app_functions(ctx: click.Context, package_name: str | None, as_json: bool) -> None:
    """List every function on the device, by package."""
    spec = AppFunctionSearchSpec(package_names=frozenset({package_name})) if package_name else None
    with context_from(ctx) as context:
        functions = context.app_function_manager.search_app_functions(spec)
    listing = functions_as_json(functions)
    if as_json:
        print_json(listing)
        return
    rows = [
        (package, f["id"].rsplit("#", 1)[-1], "yes" if f["enabled"] else "no",
         ", ".join(f"{p['name']}: {p['type']}" for p in f["parameters"]), f["description"].split("\n")[0][:60])
        for package, functions in listing.items()
        for f in functions
    ]
    print_table(f"{len(rows)} functions in {len(listing)} packages",
                ["package", "function", "enabled", "parameters", "description"], rows)


@app_function.command("execute-app-function")
@click.option("--package", "package_name", required=True, help="Target package.")
@click.option("--function", "function_id", required=True, help="The function's exact id.")
@click.option("--parameters", default="{}", show_default=True, help="Parameters as a JSON object.")
@click.option("--timeout-duration", default=30.0, show_default=True, help="Seconds to wait before cancelling.")
@click.option("--brief-yaml", is_flag=True, help="Print the result document as concise YAML, as Android does.")
@click.pass_context
def execute_app_function(ctx: click.Context, package_name: str, function_id: str, parameters: str,
                         timeout_duration: float, brief_yaml: bool) -> None:
    """Execute a function and print its return value as JSON."""
    try:
        values = json.loads(parameters)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--parameters") from None
    with context_from(ctx) as context:
        manager = context.app_function_manager
        function = exact_function(manager, package_name, function_id)
        components = function.package_metadata.components if function else None
        try:
            request = ExecuteAppFunctionRequest(package_name, function_id, parameters_from_json(function, values, components))
        except AppFunctionException as error:
            fail_with(error)
        signal = CancellationSignal()
        timer = threading.Timer(timeout_duration, signal.cancel)
        timer.start()
        try:
            response = manager.execute_app_function(request, signal)
        except AppFunctionException as error:
            if signal.is_canceled:
                click.echo("Timed out", err=True)
                raise SystemExit(255) from None
            fail_with(error)
        finally:
            timer.cancel()
    if brief_yaml:
        click.echo(brief_yaml_of(response.result_document))
        return
    print_json(to_json(response.return_value))


def exact_function(manager, package_name: str, function_id: str) -> AppFunctionMetadata | None:
    """The metadata of ``function_id``, which must be an exact id, as in AOSP's shell; None if
    the shell cannot see it (the device then answers with the right error). A short name that
    is not an id is refused, naming the ids it could mean."""
    if not package_name:
        return None
    functions = manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({package_name})))
    for function in functions:
        if function.id == function_id:
            return function
    meant = sorted(f.id for f in functions if function_name(f) == function_id)
    if meant:
        raise click.BadParameter(
            f"{function_id!r} is not a function id of {package_name}; --function takes the exact id: "
            + " or ".join(repr(i) for i in meant),
            param_hint="--function",
        )
    return None


@app_function.command("set-enabled")
@click.option("--package", "package_name", required=True)
@click.option("--function", "function_id", required=True)
@click.option("--state", type=click.Choice(sorted(STATES)), required=True)
@click.pass_context
def set_enabled(ctx: click.Context, package_name: str, function_id: str, state: str) -> None:
    """Set a function's enabled state (default returns to the XML's value)."""
    with context_from(ctx) as context:
        exact_function(context.app_function_manager, package_name, function_id)
        try:
            context.app_function_manager.set_app_function_enabled(function_id, STATES[state], package_name)
        except Exception as error:
            fail_with(error)
    click.echo(f"{function_id}: {state}")


@app_function.command("is-enabled")
@click.option("--package", "package_name", required=True)
@click.option("--function", "function_id", required=True, help="The function's exact id.")
@click.pass_context
def is_enabled(ctx: click.Context, package_name: str, function_id: str) -> None:
    """Print whether a function is enabled: true or false."""
    with context_from(ctx) as context:
        manager = context.app_function_manager
        exact_function(manager, package_name, function_id)
        try:
            enabled = manager.is_app_function_enabled(function_id, package_name)
        except Exception as error:
            fail_with(error)
    click.echo("true" if enabled else "false")


@app_function.command("read-app-description")
@click.option("--package", "package_name", required=True)
@click.pass_context
def read_app_description(ctx: click.Context, package_name: str) -> None:
    """Print the app description agents read (res/xml/app_metadata.xml)."""
    with context_from(ctx) as context:
        functions = context.app_function_manager.search_app_functions(
            AppFunctionSearchSpec(package_names=frozenset({package_name}))
        )
    description = next((f.package_metadata.app_metadata.description for f in functions), "")
    if not description:
        click.echo(f"No app metadata found for package: {package_name}", err=True)
        raise SystemExit(1)
    click.echo(description)
