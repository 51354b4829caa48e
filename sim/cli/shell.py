"""``droidsim shell``: the device's shell commands, run as com.android.shell (or ``--as PKG``).

``cmd app_function`` mirrors AppFunctionManagerServiceShellCommand
(spec/platform-android.md §5), printing what it prints (sim/cli/platform_shell.py): the
listing and execute-app-function's result are droidsim's own (docs/differences.md), every
other answer is the phone's. Its access commands, ``pm``, ``settings``, ``device_config`` and
``dumpsys`` live in the sibling shell_* modules.
"""

from __future__ import annotations

import json
import threading

import click

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import UnknownKeyError, parameters_from_json, to_json
from droid.appfunctions.proxies import PENDING_INTENT_NAME, pending_intent_from_data
from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_XML,
    AppFunctionMetadata,
    type_label,
)
from droid.appfunctions.requests import (
    APP_FUNCTION_STATE_DEFAULT,
    APP_FUNCTION_STATE_DISABLED,
    APP_FUNCTION_STATE_ENABLED,
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
)
from droid.os.cancellation import CancellationSignal
from droid.os.exceptions import IllegalArgumentException
from sim.cli.brief_yaml import brief_yaml as brief_yaml_of
from sim.cli.function_hints import unknown_function_hint
from sim.cli.connection import context_from
from sim.cli.output import fail_with, print_json, print_table
from sim.cli.platform_shell import (
    PlatformShellGroup,
    PlatformVerb,
    fail,
    parcelable,
    print_help,
    require,
)
from sim.cli.shell_access import ACCESS_COMMANDS
from sim.cli.shell_pm import pm
from sim.cli.shell_settings import device_config, dumpsys, dumpsys_app_function, settings
from sim.cli.shell_test_hooks import TEST_HOOK_COMMANDS
from sim.cli.shell_users import user_option
from sim.pm.installed_from import installed_from_json
from sim.pm.unindexed import unindexed_functions
from sim.responses.describe import answers_json
from sim.responses.generated import GENERATED_EXTRA
from sim.responses.types import enum_values, shared_types

STATES = {"enable": APP_FUNCTION_STATE_ENABLED, "disable": APP_FUNCTION_STATE_DISABLED, "default": APP_FUNCTION_STATE_DEFAULT}


@click.group()
def shell() -> None:
    """Run a shell command on the device, as com.android.shell (or the root --as PKG)."""


@shell.group()
def cmd() -> None:
    """Talk to a system service (cmd SERVICE ...)."""


@cmd.group("app_function", cls=PlatformShellGroup, invoke_without_command=True)
@click.pass_context
def app_function(ctx: click.Context) -> None:
    """The app_function service: list, execute and enable AppFunctions; agent access."""
    if ctx.invoked_subcommand is None:
        print_help(ctx)


for _command in ACCESS_COMMANDS + TEST_HOOK_COMMANDS:
    app_function.add_command(_command)
for _group in (pm, settings, device_config, dumpsys):
    shell.add_command(_group)


def functions_as_json(functions: list[AppFunctionMetadata]) -> dict:
    """The list-app-functions object: each package mapped to its functions."""
    listing: dict[str, list[dict]] = {}
    for f in functions:
        shared = shared_types(f.package_metadata)
        listing.setdefault(f.package_name, []).append(
            {
                "id": f.id,
                "enabled": f.is_enabled,
                "description": f.description,
                **signature_json(f, shared),
                "answers": answers_json(f.package_metadata.answers, f.id),
                "installed_from": installed_from_json(f.package_metadata.installed_from),
            }
        )
    return listing


def signature_json(function: AppFunctionMetadata, shared: dict) -> dict:
    """A function's ``parameters`` and ``response`` as listings print them, enum values included."""
    return {
        "parameters": [
            {"name": p.name, "type": type_label(p.data_type), "required": p.is_required,
             "description": p.description, **_enum(p.data_type, shared)}
            for p in function.parameters
        ],
        "response": {"type": type_label(function.response.value_type), "description": function.response.description,
                     **_enum(function.response.value_type, shared)}
        if function.HasField("response") else None,
    }


def _enum(data_type, shared: dict) -> dict:
    """``{"enum_values": [...]}`` for a type that declares them, else nothing."""
    values = enum_values(data_type, shared)
    return {"enum_values": values} if values else {}


def parameters_line(parameters: list[dict]) -> str:
    """``speed: string (STANDARD|INSTANT), limit: int``: the listing's parameters column."""
    return ", ".join(f"{p['name']}: {p['type']}" + (f" ({'|'.join(map(str, p['enum_values']))})"
                                                     if "enum_values" in p else "") for p in parameters)


@app_function.command("help")
@click.pass_context
def help_command(ctx: click.Context) -> None:
    """Print this help text (cmd app_function help)."""
    print_help(ctx.parent)


@app_function.command("dump", hidden=True)
@click.pass_context
def dump_command(ctx: click.Context) -> None:
    """dumpsys app_function (android.os.ShellCommand.handleDefaultCommands runs the service's dump
    for ``dump`` and returns 0; the phone's help does not list it)."""
    ctx.invoke(dumpsys_app_function)


@app_function.command("list-app-functions", cls=PlatformVerb)
@click.option("--package", "package_name", help="Only this package's functions.")
@user_option(what="the user to list functions for")
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
    levels = {f.id: f.access_level for f in functions}
    rows = [
        (package, f["id"], "yes" if f["enabled"] else "no", access_level_name(levels[f["id"]]),
         parameters_line(f["parameters"]), " ".join(f["description"].split()))
        for package, functions in listing.items()
        for f in functions
    ]
    print_table(f"{len(rows)} functions in {len(listing)} packages",
                ["package", "function", "enabled", "access", "parameters", "description"], rows)


def access_level_name(level: int) -> str:
    """The XML's spelling; a function that declares none is at the default, androidTrusted."""
    return ACCESS_LEVEL_XML.get(level or ACCESS_LEVEL_ANDROID_TRUSTED, str(level))


@app_function.command("execute-app-function", cls=PlatformVerb)
@click.option("--package", "package_name", help="Target package (required).")
@click.option("--function", "function_id", help="The exact function id (PACKAGE.Service#name) (required).")
@click.option("--parameters",
              help="Parameters as a JSON object ('{}' for none), as Android requires; dates, times and instants "
                   "may be ISO 8601 text, zones their name (required).")
@click.option("--timeout-duration", default=30.0, show_default=True, help="Seconds to wait before cancelling.")
@click.option("--brief-yaml", is_flag=True, help="Print the result document as concise YAML, as Android does.")
@click.option("--pending-intent-path", metavar="PATH",
              help="The key in the response extras of a PendingIntent to report ('.' for nested extras).")
@user_option(what="the user to execute the function under")
@click.pass_context
def execute_app_function(ctx: click.Context, package_name: str | None, function_id: str | None,
                         parameters: str | None, timeout_duration: float, brief_yaml: bool,
                         pending_intent_path: str | None) -> None:
    """Execute a function and print its return value as JSON (or, with --brief-yaml, YAML).

    A key the function does not declare is refused here, naming the declared ones (the app
    would ignore it). Every other attempt reaches the device, which refuses what it must and
    records each one in the access history; a refusal the shell can explain gets a hint (the
    exact ids a short name could mean, a package that is not installed, close matches, the
    forms a value may take)."""
    require(package_name, "--package")
    require(function_id, "--function")
    require(parameters, "--parameters")
    try:
        values = json.loads(parameters)
    except json.JSONDecodeError as error:  # convertJsonToGenericDocument's JSONException, caught at line 289
        fail(f"Exception: org.json.JSONException: {error}")
    with context_from(ctx) as context:
        manager = context.app_function_manager
        function, components = _find_function(manager, package_name, function_id)
        conversion_problem = None
        try:
            document = parameters_from_json(function, values, components)
        except UnknownKeyError as error:  # the app would ignore the key: refuse it here, as MCP does
            fail_with(error)
        except AppFunctionException as error:
            # The device refuses these parameters itself and records the attempt; the shell's
            # reading of them (with the forms it accepts) follows the device's error.
            conversion_problem = error.error_message
            document = parameters_from_json(None, values) if isinstance(values, dict) else AppFunctionData()
        signal = CancellationSignal()
        timer = threading.Timer(timeout_duration, signal.cancel)
        timer.start()
        try:
            response = manager.execute_app_function(ExecuteAppFunctionRequest(package_name, function_id, document),
                                                    signal)
        except AppFunctionException as error:
            if signal.is_canceled:
                fail("Timed out")  # stdout, -1 (line 689)
            said = conversion_problem if conversion_problem != error.error_message else None  # the app said it
            fail_with(error, hint=_not_found_hint(ctx, manager, error, package_name, function_id) or said)
        finally:
            timer.cancel()
    if GENERATED_EXTRA in response.extras:  # --on-miss schema: say so where a person reads it
        click.echo(f"Warning: {response.extras[GENERATED_EXTRA]}", err=True)
    if brief_yaml:
        click.echo(brief_yaml_of(response.result_document))
    else:
        print_json(to_json(response.return_value))
    if pending_intent_path is not None:
        click.echo(_pending_intent_report(response.extras, pending_intent_path))


def _pending_intent_report(extras: AppFunctionData, path: str) -> str:
    """Android sends the PendingIntent found at ``path`` (nested extras split on '.'); droidsim
    has no activities to start, so it names what it found instead."""
    value: object = extras
    for segment in path.split("."):
        value = value.get(segment) if isinstance(value, AppFunctionData) else None
    if not isinstance(value, AppFunctionData) or value.qualified_name != PENDING_INTENT_NAME:
        return f"No PendingIntent found at extras key: {path}"
    return f"Found PendingIntent at extras key: {path}: {pending_intent_from_data(value)!r} (not sent: droidsim has no activities)"


def _find_function(manager, package_name: str, function_id: str):
    """The function's metadata by its exact id, for typing the parameters; (None, None) if the
    caller cannot see it, in which case the device itself answers with the right error."""
    if not package_name:
        return None, None
    for function in manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({package_name}))):
        if function.id == function_id:
            return function, function.package_metadata.components
    return None, None


def _not_found_hint(ctx: click.Context, manager, error: AppFunctionException, package_name: str,
                    function_id: str) -> str | None:
    """Only the shell, which may see every function, explains a not-found: another caller
    would learn what it may not see."""
    if error.error_code != AppFunctionException.ERROR_FUNCTION_NOT_FOUND or ctx.find_root().obj.get("as_package"):
        return None
    with context_from(ctx) as context:
        unindexed = unindexed_functions(context)
    return unknown_function_hint(manager.search_app_functions(), package_name, function_id, unindexed)


@app_function.command("set-enabled", cls=PlatformVerb)
@click.option("--package", "package_name", help="Target package (required).")
@click.option("--function", "function_id", help="The exact function id (PACKAGE.Service#name) (required).")
@click.option("--state", metavar="enable|disable|default", help="The enabled state to set (required).")
@user_option(what="the user to set the function state for")
@click.pass_context
def set_enabled(ctx: click.Context, package_name: str | None, function_id: str | None, state: str | None) -> None:
    """Set a function's enabled state (default returns to the XML's value).

    As on Android, the device's answer is printed and the exit code is 0 either way:
    ``App function enabled state updated successfully.`` or ``Error setting app function
    state: ...`` (runSetAppFunctionEnabled, lines 452-477)."""
    require(package_name, "--package")
    require(function_id, "--function")
    if state not in STATES:
        fail("Error: --state must be specified. The accepted values are: `enable`, `disable`, `default`.")
    with context_from(ctx) as context:
        try:
            context.app_function_manager.set_app_function_enabled(function_id, STATES[state], package_name)
        except Exception as error:
            click.echo(f"Error setting app function state: {parcelable(error)}")
            return
    click.echo("App function enabled state updated successfully.")


# AppFunctionManagerServiceImpl.isAppFunctionEnabled hands the shell's callback the reader's own
# AppFunctionNotFoundException, which the client API turns into an IllegalArgumentException.
_NOT_FOUND_CLASS = "android.app.appfunctions.AppFunctionManagerHelper$AppFunctionNotFoundException"


@app_function.command("is-enabled", cls=PlatformVerb)
@click.option("--package", "package_name", help="Target package (required).")
@click.option("--function", "function_id", help="The function's exact id (required).")
@user_option(what="the user to check the function state for")
@click.pass_context
def is_enabled(ctx: click.Context, package_name: str | None, function_id: str | None) -> None:
    """Print whether a function is enabled: true or false (exit 0 even when the check fails,
    printing ``Error checking app function state: ...``, as on Android)."""
    require(package_name, "--package")
    require(function_id, "--function")
    with context_from(ctx) as context:
        try:
            enabled = context.app_function_manager.is_app_function_enabled(function_id, package_name)
        except IllegalArgumentException as error:
            click.echo(f"Error checking app function state: android.os.ParcelableException: {_NOT_FOUND_CLASS}: {error}")
            return
        except Exception as error:
            click.echo(f"Error checking app function state: {parcelable(error)}")
            return
    click.echo("true" if enabled else "false")


@app_function.command("read-app-description", cls=PlatformVerb, unknown_option_to_stderr=True)
@click.option("--package", "package_name", help="The package whose description to print.")
@user_option(what="the user whose app to read")
@click.pass_context
def read_app_description(ctx: click.Context, package_name: str | None) -> None:
    """Print the app description agents read (res/xml/app_metadata.xml).

    As readAppDescription: without --package, PackageManager.getProperty's requireNonNull throws;
    a package that is not installed, or has no app metadata property, is its
    NameNotFoundException (no message); a resource without a description prints ``null``."""
    if package_name is None:
        fail("Exception: java.lang.NullPointerException")
    with context_from(ctx) as context:
        functions = context.app_function_manager.search_app_functions(
            AppFunctionSearchSpec(package_names=frozenset({package_name})))
    package = next((f.package_metadata for f in functions), None)
    if package is None or not package.HasField("app_metadata"):
        fail("Exception: android.content.pm.PackageManager$NameNotFoundException")
    click.echo(package.app_metadata.description or "null")
