"""``--api-key-file`` and ``OPENAI_API_KEY``: a model server's key, never on a command line.

Every process of the machine can read every other's command line (/proc/PID/cmdline),
installed apps included, so a key given as ``--api-key VALUE`` would be theirs too. The key
comes from the environment (``OPENAI_API_KEY``, or ``DROIDSIM_OPENAI_API_KEY`` as the model
backend reads it) or a file; ``--api-key`` on the command line is refused, naming both.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

import click
from click.core import ParameterSource

ON_COMMAND_LINE = ("--api-key on the command line is readable by every process of this machine "
                   "(/proc/PID/cmdline), installed apps included: put the key in OPENAI_API_KEY or in a "
                   "file given as --api-key-file PATH")


def _refuse_on_command_line(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and ctx.get_parameter_source(param.name) == ParameterSource.COMMANDLINE:
        raise click.BadParameter(ON_COMMAND_LINE, ctx=ctx, param=param)
    return value


def _read_key(ctx: click.Context, param: click.Parameter, value: Path | None) -> str | None:
    if value is None:
        return None
    try:
        key = value.read_text().strip()
    except OSError as error:
        raise click.BadParameter(f"cannot read {value}: {error.strerror}", ctx=ctx, param=param) from None
    if not key:
        raise click.BadParameter(f"{value} is empty", ctx=ctx, param=param)
    return key


def api_key_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give ``command`` an ``api_key`` from --api-key-file, else OPENAI_API_KEY, else None."""

    @functools.wraps(command)
    def run(*args: Any, api_key: str | None, api_key_file: str | None, **kwargs: Any) -> Any:
        return command(*args, api_key=api_key_file or api_key, **kwargs)

    run = click.option("--api-key-file", type=click.Path(dir_okay=False, path_type=Path), callback=_read_key,
                       metavar="PATH", help="Read the endpoint's key from this file.")(run)
    return click.option("--api-key", envvar="OPENAI_API_KEY", callback=_refuse_on_command_line, metavar="KEY",
                        help="The endpoint's key, from the environment only (OPENAI_API_KEY): on the "
                             "command line it is refused, since every local process can read it there.")(run)
