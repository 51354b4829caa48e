"""``cmd app_function`` verbs that tune the service for tests (AppFunctionManagerServiceShellCommand).

Each exists only where its feature flag is on, Android 17 (``--sdk 37``); on Android 16 the
command answers -1 and prints nothing, as Android's does (AppFunctionManagerServiceShellCommand
.java @f6328b66, lines 267-283). droidsim's service keeps no
allowlist cache and reads its search index whole, so what these would tune is not there to
change: they answer as Android does (docs/differences.md).
"""

from __future__ import annotations

from typing import Callable

import click

from sim.cli.connection import context_from
from sim.cli.platform_shell import ANDROID_FAILURE, PlatformVerb, fail
from sim.platform_version import PlatformVersion, platform_version


def _on_android_17(ctx: click.Context, has: Callable[[PlatformVersion], bool]) -> None:
    with context_from(ctx) as context:
        version = platform_version(context.sdk_int)
    if not has(version):
        raise SystemExit(ANDROID_FAILURE)


def _permission_v2(version: PlatformVersion) -> bool:
    return version.system_permission_skips_grant


def _dynamic_app_functions(version: PlatformVersion) -> bool:
    return version.indexes_app_level_functions


@click.command("purge-allowlist-cache", cls=PlatformVerb)
@click.pass_context
def purge_allowlist_cache(ctx: click.Context) -> None:
    """Purge the agent allowlist cache (Android 17)."""
    _on_android_17(ctx, _permission_v2)
    click.echo("Purge allowlist cache")


@click.command("set-test-page-size", cls=PlatformVerb)
# setTestPageSize reads the value inside its try, so one that is missing fails as one that is
# no number does: flag_value stands for it.
@click.option("--page-size", default="-1", is_flag=False, flag_value="", help="Search's internal page size.")
@click.pass_context
def set_test_page_size(ctx: click.Context, page_size: str) -> None:
    """Set search's internal page size for a test (Android 17)."""
    _on_android_17(ctx, _dynamic_app_functions)
    try:
        size = int(page_size)
    except ValueError:
        fail("Fail to parse page-size")
    if size <= 0:  # Android says so, and sets it all the same
        click.echo(f"Invalid page size of {size}")
    click.echo(f"Set test page size to {size}")


@click.command("reset-test-page-size", cls=PlatformVerb)
@click.pass_context
def reset_test_page_size(ctx: click.Context) -> None:
    """Return search's internal page size to the default (Android 17)."""
    _on_android_17(ctx, _dynamic_app_functions)


TEST_HOOK_COMMANDS = (purge_allowlist_cache, set_test_page_size, reset_test_page_size)
