"""``cmd app_function`` verbs that tune the service for tests (AppFunctionManagerServiceShellCommand).

Each exists only where its feature flag is on, Android 17 (``--sdk 37``); on Android 16 the
command answers -1, as Android's does, and droidsim says why. droidsim's service keeps no
allowlist cache and reads its search index whole, so what these would tune is not there to
change: they answer as Android does (docs/differences.md).
"""

from __future__ import annotations

from typing import Callable

import click

from sim.cli.connection import context_from
from sim.platform_version import PlatformVersion, platform_version

ANDROID_FAILURE = 255  # the shell's -1


def _on_android_17(ctx: click.Context, command: str, feature: str, has: Callable[[PlatformVersion], bool]) -> None:
    with context_from(ctx) as context:
        version = platform_version(context.sdk_int)
    if not has(version):
        click.echo(f"{command} needs {feature} (Android 17); this device is {version.name}", err=True)
        raise SystemExit(ANDROID_FAILURE)


def _permission_v2(version: PlatformVersion) -> bool:
    return version.system_permission_skips_grant


def _dynamic_app_functions(version: PlatformVersion) -> bool:
    return version.indexes_app_level_functions


@click.command("purge-allowlist-cache")
@click.pass_context
def purge_allowlist_cache(ctx: click.Context) -> None:
    """Purge the agent allowlist cache (Android 17)."""
    _on_android_17(ctx, "purge-allowlist-cache", "permission v2", _permission_v2)
    click.echo("Purge allowlist cache")


@click.command("set-test-page-size")
@click.option("--page-size", required=True, help="Search's internal page size.")
@click.pass_context
def set_test_page_size(ctx: click.Context, page_size: str) -> None:
    """Set search's internal page size for a test (Android 17)."""
    _on_android_17(ctx, "set-test-page-size", "dynamic app functions", _dynamic_app_functions)
    try:
        size = int(page_size)
    except ValueError:
        click.echo("Fail to parse page-size")
        raise SystemExit(ANDROID_FAILURE) from None
    if size <= 0:  # Android says so, and sets it all the same
        click.echo(f"Invalid page size of {size}")
    click.echo(f"Set test page size to {size}")


@click.command("reset-test-page-size")
@click.pass_context
def reset_test_page_size(ctx: click.Context) -> None:
    """Return search's internal page size to the default (Android 17)."""
    _on_android_17(ctx, "reset-test-page-size", "dynamic app functions", _dynamic_app_functions)


TEST_HOOK_COMMANDS = (purge_allowlist_cache, set_test_page_size, reset_test_page_size)
