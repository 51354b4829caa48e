"""Finding the device and acting as someone on it.

``--device ADDRESS``, else ``DROIDSIM_DEVICE``, else the device running on this machine
(sim/running_devices.py: found from any folder, as adb finds its server), else the default
data directory of the current folder. An address is a data directory, ``unix:PATH`` or
``HOST:PORT``. Acting as the
shell or as a package needs its credential, which lives in the data directory:
whoever can read that directory may act as anyone on the device, as with adb.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import click

from droid.content.context import Context, connect
from sim.running_devices import registry_dir, running_devices

DEFAULT_DATA_DIR = Path(".droidsim") / "device"
SOCKET_NAME = "device.sock"


@dataclass(frozen=True)
class DeviceAddress:
    target: str
    data_dir: Path | None

    def credential_for(self, package: str | None) -> str:
        if self.data_dir is None:
            raise click.ClickException(
                f"{self.target} is not a local data directory, so no credential can be read: "
                "pass --data DIR (or DROIDSIM_DATA) pointing at the device's data directory"
            )
        path = self.data_dir / "shell.credential" if package is None else self.data_dir / "data" / package / "credential"
        try:
            return path.read_text().strip()
        except FileNotFoundError:
            who = "the shell" if package is None else package
            raise click.ClickException(f"no credential for {who} at {path} (is it installed on this device?)") from None
        except PermissionError:
            raise click.ClickException(f"cannot read {path}: acting as another package needs access to the device's data") from None


def resolve(device: str | None, data: str | None = None) -> DeviceAddress:
    raw = device or os.environ.get("DROIDSIM_DEVICE") or str(find_running_device())
    data_dir = Path(data or os.environ.get("DROIDSIM_DATA", "")) if (data or os.environ.get("DROIDSIM_DATA")) else None
    path = Path(raw[5:] if raw.startswith("unix:") else raw)
    if path.is_dir():
        return DeviceAddress(f"unix:{(path / SOCKET_NAME).resolve()}", data_dir or path.resolve())
    if raw.startswith("unix:") or path.is_socket():
        guess = path.resolve().parent
        if data_dir is None and (guess / "shell.credential").exists():
            data_dir = guess
        return DeviceAddress(f"unix:{path.resolve()}", data_dir)
    return DeviceAddress(raw, data_dir)


def find_running_device() -> Path:
    """The data directory of the device to talk to when none is named; the error says
    everywhere it looked."""
    running = running_devices()
    here = DEFAULT_DATA_DIR.resolve()
    if len(running) == 1:
        return running[0].data_dir
    if any(d.data_dir == here for d in running):
        return here
    if running:
        listed = "; ".join(f"{d.data_dir} (pid {d.pid})" for d in running)
        raise click.ClickException(f"{len(running)} devices are running: pass --device DIR to pick one: {listed}")
    if here.is_dir():
        return here
    raise click.ClickException(
        "no device found. Looked at: --device (not given), DROIDSIM_DEVICE (not set), the devices "
        f"running on this machine ({registry_dir()}: none), and {here} (does not exist). "
        "Start one with `make sim` or `droidsim device start`."
    )


def open_context(address: DeviceAddress, as_package: str | None = None) -> Context:
    """A Context on the device as ``as_package``, else as the root ``--as PKG``, else as the shell."""
    if as_package is None:
        as_package = _root_option("as_package")
    if address.target.startswith("unix:") and not Path(address.target[5:]).exists():
        raise click.ClickException(
            f"no device at {address.target} (no device is running on that data directory): "
            "start one with `make sim` or `droidsim device start`"
        )
    try:
        return connect(address.target, address.credential_for(as_package))
    except PermissionError as error:
        raise click.ClickException(f"the device refused the credential: {error}") from None
    except Exception as error:  # grpc.RpcError: the device is not answering
        if type(error).__name__ in ("_InactiveRpcError", "RpcError"):
            raise click.ClickException(f"cannot reach the device at {address.target}") from None
        raise


def context_from(ctx: click.Context) -> Context:
    """The command's Context on the device named by the root options."""
    options = ctx.find_root().obj
    return open_context(resolve(options["device"], options["data"]))


def _root_option(name: str) -> str | None:
    ctx = click.get_current_context(silent=True)
    return None if ctx is None or ctx.find_root().obj is None else ctx.find_root().obj.get(name)
