"""Finding the device and acting as someone on it, for the CLI: droid.content.device_address's
rule (``--device ADDRESS``, else ``DROIDSIM_DEVICE``, else the device running on this machine,
else the default data directory of the current folder), with its errors as click's.
Acting as the shell or as a package needs its credential, which lives in the data directory:
whoever can read that directory may act as anyone on the device, as with adb.
"""

from __future__ import annotations

from pathlib import Path

import click

from droid.content.context import Context, connect
from droid.os.binder import SHELL_PACKAGE
from droid.content.device_address import (  # noqa: F401 - DEFAULT_DATA_DIR is the CLI's --data default
    DEFAULT_DATA_DIR,
    CredentialNotFoundError,
    DeviceAddress,
    DeviceNotFoundError,
    resolve_device,
)


def resolve(device: str | None, data: str | None = None) -> DeviceAddress:
    try:
        return resolve_device(device, data)
    except DeviceNotFoundError as error:
        raise click.ClickException(str(error)) from None


def credential_for(address: DeviceAddress, package: str | None) -> str:
    try:
        return address.read_credential(package)
    except CredentialNotFoundError as error:
        raise click.ClickException(str(error)) from None


def open_context(address: DeviceAddress, as_package: str | None = None) -> Context:
    """A Context on the device as ``as_package``, else as the root ``--as PKG``, else as the
    shell; refused unless the device names the credential's holder as that package (an app may
    have made its credential another's: the command never acts as anyone else)."""
    if as_package is None:
        as_package = _root_option("as_package")
    if address.target.startswith("unix:") and not Path(address.target[5:]).exists():
        raise click.ClickException(
            f"no device at {address.target} (no device is running on that data directory): "
            "start one with `make sim` or `droidsim device start`"
        )
    try:
        context = connect(address.target, credential_for(address, as_package))
    except PermissionError as error:
        raise click.ClickException(f"the device refused the credential: {error}") from None
    except Exception as error:  # grpc.RpcError: the device is not answering
        if type(error).__name__ in ("_InactiveRpcError", "RpcError"):
            raise click.ClickException(f"cannot reach the device at {address.target}") from None
        raise
    expected = as_package or SHELL_PACKAGE
    if context.package_name != expected:
        context.close()
        raise click.ClickException(
            f"the credential at {address.credential_file(as_package)} is {context.package_name}'s, not {expected}'s, "
            "as the device says: refusing to act as anyone else")
    return context


def context_from(ctx: click.Context) -> Context:
    """The command's Context on the device named by the root options."""
    options = ctx.find_root().obj
    return open_context(resolve(options["device"], options["data"]))


def _root_option(name: str) -> str | None:
    ctx = click.get_current_context(silent=True)
    return None if ctx is None or ctx.find_root().obj is None else ctx.find_root().obj.get(name)
