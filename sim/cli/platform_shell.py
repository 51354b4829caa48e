"""``cmd app_function`` as AppFunctionManagerServiceShellCommand prints it: text and exit codes.

A script written against a phone parses what the phone prints, so the verbs Android has answer
as it does (AppFunctionManagerServiceShellCommand.java @f6328b66, cited by line below): a
verb's own errors go to stdout with exit 255 (``onCommand`` returns -1, ``cmd`` exits with its
low byte), an option without its value is ``Exception: java.lang.IllegalArgumentException:
Argument expected after "--x"`` (BasicShellCommandHandler.getNextArgRequired, caught at line
289), an unknown option ``Unknown option: --x`` and an unknown verb ``Unknown command: x``
(handleDefaultCommands). What droidsim adds beyond that is behind a flag (``--json``) or a
``droidsim`` command of its own (``droidsim access``), never in these verbs' default output.
"""

from __future__ import annotations

from typing import NoReturn

import click

from droid.os.exceptions import IllegalArgumentException, IllegalStateException, SecurityException

ANDROID_FAILURE = 255  # onCommand's -1, as `cmd` exits with it

# The Java class a droid exception stands for, as Throwable.toString() names it.
_JAVA_NAMES = {
    IllegalArgumentException: "java.lang.IllegalArgumentException",
    IllegalStateException: "java.lang.IllegalStateException",
    SecurityException: "java.lang.SecurityException",
}


def fail(line: str, err: bool = False) -> NoReturn:
    """Print ``line`` as the shell command does (stdout, unless the verb uses getErrPrintWriter)
    and exit as onCommand's -1."""
    click.echo(line, err=err)
    raise SystemExit(ANDROID_FAILURE)


def require(value: object, option: str) -> None:
    """The verbs' own check of a required option: ``Error: --x must be specified.`` (line 435)."""
    if value is None:
        fail(f"Error: {option} must be specified.")


def java_string(error: BaseException) -> str:
    """``Throwable.toString()`` of the Java exception ``error`` stands for."""
    name = next((java for cls, java in _JAVA_NAMES.items() if isinstance(error, cls)), "java.lang.RuntimeException")
    message = str(error)
    return f"{name}: {message}" if message else name


def parcelable(error: BaseException) -> str:
    """An error as a callback's ``ParcelableException`` prints: its message is the cause's
    toString() (``new ParcelableException(e)``, RuntimeException(Throwable))."""
    return f"android.os.ParcelableException: {java_string(error)}"


class PlatformVerb(click.Command):
    """A verb Android's shell command has: its option errors read as the phone prints them.

    ``unknown_option_to_stderr``: read-app-description prints its ``Unknown option`` with
    getErrPrintWriter (line 310); every other verb with getOutPrintWriter (line 374)."""

    def __init__(self, *args, unknown_option_to_stderr: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._unknown_option_to_stderr = unknown_option_to_stderr

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            fail(f"Unknown option: {error.option_name}", err=self._unknown_option_to_stderr)
        except click.BadOptionUsage as error:
            if "requires an argument" not in error.message:
                raise
            fail(f'Exception: java.lang.IllegalArgumentException: Argument expected after "{error.option_name}"')


class PlatformShellGroup(click.Group):
    """``cmd app_function``: an unknown verb is ``Unknown command: X`` and ``-h`` the help with
    -1 (BasicShellCommandHandler.handleDefaultCommands, reached from line 285)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args[:1] == ["-h"]:  # handleDefaultCommands' own "-h": the help, then -1
            print_help(ctx)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            fail(f"Unknown command: {name}")
        return super().resolve_command(ctx, args)


def print_help(ctx: click.Context) -> NoReturn:
    """``help``, or no verb at all: the help, then -1 (handleDefaultCommands)."""
    click.echo(ctx.get_help())
    raise SystemExit(ANDROID_FAILURE)
