"""``droidsim``: boot a device, install apps, and talk to it like adb."""

from __future__ import annotations

import logging

import click

from sim.cli.lazy import LazyGroup

# Every command is imported when named (sim/cli/lazy.py): `droidsim shell ...` runs hundreds of
# times in scripts and tests, and importing every command's modules took half of each run.
COMMANDS = {
    "access": "sim.cli.access:access_group",
    "agent": "sim.cli.agent:agent_command",
    "apk": "sim.cli.apk:apk_command",
    "appfunctions": "sim.cli.appfunctions:appfunctions",
    "conformance": "sim.cli.conformance:conformance_command",
    "device": "sim.cli.device:device",
    "eval": "sim.cli.eval_compare:eval_group",
    "install": "sim.cli.install:install",
    "lint": "sim.cli.lint:lint_command",
    "logcat": "sim.cli.logcat:logcat",
    "mcp": "sim.cli.mcp:mcp_command",
    "responses": "sim.cli.responses:responses_command",
    "shell": "sim.cli.shell:shell",
    "uninstall": "sim.cli.install:uninstall",
}


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy_subcommands=COMMANDS)
@click.version_option(package_name="droidsim", prog_name="droidsim", message="%(prog)s %(version)s")
@click.option("--device", envvar="DROIDSIM_DEVICE", metavar="ADDRESS",
              help="Data directory, unix:PATH or HOST:PORT (default: DROIDSIM_DEVICE, else the device "
                   "running on this machine, else .droidsim/device).")
@click.option("--data", envvar="DROIDSIM_DATA", metavar="DIR",
              help="The device's data directory, where credentials live (for a TCP address).")
@click.option("--as", "as_package", metavar="PKG",
              help="Act as this installed package instead of the shell (needs its credential, "
                   "which only whoever can read the device's data directory can read, as with adb).")
@click.pass_context
def cli(ctx: click.Context, device: str | None, data: str | None, as_package: str | None) -> None:
    """A simulated Android device for AppFunctions and on-device agents."""
    ctx.obj = {"device": device, "data": data, "as_package": as_package}


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    cli(prog_name="droidsim")

