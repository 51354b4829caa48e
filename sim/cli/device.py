"""``droidsim device start|stop``: boot a device in this process and serve until stopped, or stop
the one running on a data directory."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

import click

from sim import limits as call_limits
from sim.cli.connection import DEFAULT_DATA_DIR, resolve
from sim.cli.output import fail_with, print_table
from sim.platform_version import NEWEST, VERSIONS
from sim.running_devices import LOCK_NAME, DeviceLock, DeviceRunningError, lock_holder
from sim.zygote.process_manager import DEFAULT_CANCELLATION_TIMEOUT


@click.group()
def device() -> None:
    """Start and stop the device."""


@device.command("start")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_DATA_DIR,
              show_default=True, help="Where the device keeps its state.")
@click.option("--apps", "apps", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Install every app folder under DIR (repeatable).")
@click.option("--system-apps", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Install every app folder under DIR as a privileged system app (repeatable).")
@click.option("--pregrant-agent", "pregrant_agents", multiple=True, metavar="PKG",
              help="Make this system app the preinstalled agent: allowlisted, with pregranted access to every "
                   "target, apps installed later included (repeatable).")
@click.option("--listen", metavar="unix:PATH|HOST:PORT", help="Default: a Unix socket in the data directory.")
@click.option("--sdk", type=click.Choice([str(v) for v in sorted(VERSIONS)]), default=None,
              help=f"The Android version to simulate: 36 (Android 16) or 37 (Android 17). Default: the one the "
                   f"data directory was created with, else {NEWEST.sdk_int}.")
@click.option("--wipe", is_flag=True, help="Start from an empty data directory (everything installed is removed).")
@click.option("--cancellation-timeout", type=click.FloatRange(min=0.01), default=DEFAULT_CANCELLATION_TIMEOUT,
              show_default=True, metavar="SECONDS",
              help="How long a cancelled call may keep running before its app process is killed.")
@click.option("--execution-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="End a call that runs longer with ERROR_CANCELLED (default: no timeout, as on Android).")
@click.option("--max-parameters-bytes", type=click.IntRange(1, call_limits.MAX_PARAMETERS_BYTES_CEILING),
              default=call_limits.DEFAULT_MAX_PARAMETERS_BYTES, show_default=True, metavar="BYTES",
              help="Refuse a call whose encoded parameters and extras are larger (ERROR_LIMIT_EXCEEDED).")
@click.option("--max-data-depth", "max_depth", type=click.IntRange(1, call_limits.MAX_DEPTH_CEILING),
              default=call_limits.DEFAULT_MAX_DEPTH, show_default=True, metavar="LEVELS",
              help="Refuse parameters whose documents nest deeper (ERROR_LIMIT_EXCEEDED).")
@click.option("--max-list-length", type=click.IntRange(min=1), default=call_limits.DEFAULT_MAX_LIST_LENGTH,
              show_default=True, metavar="ITEMS",
              help="Refuse parameters with a longer list, or a document with more properties (ERROR_LIMIT_EXCEEDED).")
@click.option("--max-string-length", type=click.IntRange(min=1), default=call_limits.DEFAULT_MAX_STRING_LENGTH,
              show_default=True, metavar="CHARS",
              help="Refuse parameters with a longer string or bytes value (ERROR_LIMIT_EXCEEDED).")
@click.option("--max-calls-in-flight", type=click.IntRange(min=1), default=call_limits.DEFAULT_MAX_CALLS_IN_FLIGHT,
              show_default=True, metavar="CALLS",
              help="Refuse an app's call while it has this many running (ERROR_LIMIT_EXCEEDED).")
def device_start(data_dir: Path, apps: tuple[Path, ...], system_apps: tuple[Path, ...],
                 pregrant_agents: tuple[str, ...], listen: str | None, sdk: str | None, wipe: bool,
                 cancellation_timeout: float,
                 **limits: int | float | None) -> None:
    """Boot system_server, install apps, and serve until Ctrl-C (or `droidsim device stop`)."""
    from sim.device import Device
    from sim.logcat import configure_device_logging

    started = time.perf_counter()
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        lock = DeviceLock(data_dir)
    except DeviceRunningError as error:
        raise click.ClickException(str(error)) from None
    try:
        if wipe:
            _wipe(lock.data_dir)
        configure_device_logging(data_dir)
        try:
            device = Device(data_dir, cancellation_timeout=cancellation_timeout,
                            limits=call_limits.CallLimits(**limits), sdk=None if sdk is None else int(sdk))
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--sdk") from None
        try:
            for root in system_apps:
                device.install_all(root, system=True)
            for root in apps:
                device.install_all(root)
            for agent in pregrant_agents:
                device.pregrant_agent(agent)
        except Exception as error:
            device.shutdown()
            fail_with(error)
        address = device.serve(listen)
        lock.register(address)
        elapsed = (time.perf_counter() - started) * 1000
        _print_boot(device, address, elapsed)
        stop.wait()
        click.echo("shutting down")
        device.shutdown()
    finally:
        lock.release()


def _wipe(data_dir: Path) -> None:
    """Everything in the data directory but the lock this process holds."""
    for child in data_dir.iterdir():
        if child.name == LOCK_NAME:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


@device.command("stop")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              help="The device's data directory (default: found as every command finds the device).")
@click.option("--timeout", default=30.0, show_default=True, metavar="SECONDS", help="How long to wait for it to stop.")
@click.pass_context
def device_stop(ctx: click.Context, data_dir: Path | None, timeout: float) -> None:
    """Stop a running device (as Ctrl-C in its window does)."""
    if data_dir is None:
        address = resolve(ctx.find_root().obj["device"], ctx.find_root().obj["data"])
        if address.data_dir is None:
            raise click.ClickException(f"{address.target} is not a data directory: pass --data DIR")
        data_dir = address.data_dir
    data_dir = data_dir.resolve()
    pid = lock_holder(data_dir)
    if pid is None:
        raise click.ClickException(f"no device is running on {data_dir}")
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while lock_holder(data_dir) is not None:
        if time.monotonic() > deadline:
            raise click.ClickException(f"the device on {data_dir} (pid {pid}) did not stop within {timeout:g} s")
        time.sleep(0.05)
    click.echo(f"stopped the device on {data_dir} (pid {pid})")


def _print_boot(device, address: str, elapsed_ms: float) -> None:
    rows = []
    for p in device.registry.all():
        if not p.metadata.app_functions:  # an agent app declares none; list it all the same
            rows.append((p.package_name, p.uid, "-", "-"))
        for f in p.metadata.app_functions:
            enabled = "yes" if device.index.is_enabled(p.package_name, f) else "no"
            rows.append((p.package_name, p.uid, f.id.rsplit("#", 1)[-1], enabled))
    print_table(f"{len(device.registry.all())} packages", ["package", "uid", "function", "enabled"], rows)
    click.echo(f"{device.version.name} device ready in {elapsed_ms:.0f} ms, listening on {address}")
    for line in device.isolation:
        click.echo(line)
    droidsim = droidsim_command()
    click.echo(f"try: {droidsim} shell cmd app_function list-app-functions")
    for agent in device.pregrants.agents():
        click.echo(f'try: {droidsim} agent --as {agent} "PROMPT"')
    click.echo(f"Ctrl-C (or {droidsim} device stop) to stop")


def droidsim_command() -> str:
    """How to run droidsim from here: ``droidsim`` when that is on PATH and is this one, else
    the console script beside this Python (``.venv/bin/droidsim``), relative when it can be."""
    script = Path(sys.executable).parent / "droidsim"
    on_path = shutil.which("droidsim")
    if on_path and (not script.exists() or Path(on_path).resolve() == script.resolve()):
        return "droidsim"
    if not script.exists():
        return f"{sys.executable} -m sim.cli"
    try:
        return str(script.relative_to(Path.cwd()))
    except ValueError:
        return str(script)
