"""``droidsim logcat``: the device log, read from its data directory."""

from __future__ import annotations

import click

from sim.cli.connection import resolve


@click.command()
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines.")
@click.pass_context
def logcat(ctx: click.Context, follow: bool) -> None:
    """Print the device log."""
    from sim.logcat import follow_log

    address = resolve(ctx.obj["device"], ctx.obj["data"])
    if address.data_dir is None:
        raise click.ClickException("logcat reads the device's data directory: pass --device DIR or --data DIR")
    follow_log(address.data_dir, follow, click.echo)
