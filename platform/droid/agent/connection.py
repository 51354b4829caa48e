"""``connect_as``: an agent in its own process, on the device as its installed agent app.

It takes every address droidsim's commands take (a data directory, ``unix:PATH``,
``HOST:PORT``; none: ``DROIDSIM_DEVICE``, else the device running on this machine, else
``.droidsim/device``: droid.content.device_address) and finds the app's credential itself:
in the device's data directory (``DATA/data/PKG/credential``), else in the app's own folder
when this process runs as the app (``droidsim agent --as PKG`` starts an app's agent so),
never through a link, from a FIFO or a device (droid/content/safe_read.py).
When it finds none, it says everywhere it looked and why each failed. Connected, it logs (logger
``droid.agent``) what the app lacks as an agent, in the words of droidsim agent --as
(droid.agent.diagnosis).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from droid.content.context import Context, connect
from droid.content.device_address import (
    MAX_CREDENTIAL_BYTES,
    CredentialNotFoundError,
    DeviceAddress,
    DeviceNotFoundError,
    resolve_device,
)
from droid.content.safe_read import RefusedFileError, read_file

log = logging.getLogger("droid.agent")


def connect_as(package: str, device: str | os.PathLike[str] | None = None, *,
               data: str | os.PathLike[str] | None = None) -> Context:
    """A Context on the device as ``package``; ``data`` names the device's data directory where
    ``device`` is an address that does not (``HOST:PORT``). Close it (or use ``with``) when done.

    Raises ``DeviceNotFoundError`` when there is no device to reach, ``CredentialNotFoundError``
    when no credential of ``package`` can be read, and PermissionError when the device refuses
    the one found.
    """
    address = resolve_device(device, data)
    credential, folder = _credential(address, package)
    if address.target.startswith("unix:") and not Path(address.target[5:]).exists():
        raise DeviceNotFoundError(f"no device at {address.target} (none runs on that data directory): "
                                  "start one with `make sim` or `droidsim device start`")
    try:
        context = connect(address.target, credential, folder)
    except PermissionError:
        raise
    except Exception as error:  # grpc.RpcError: nothing answers there
        if "RpcError" not in type(error).__name__:
            raise
        raise DeviceNotFoundError(f"cannot reach the device at {address.target}: is it running?") from None
    if context.package_name != package:
        context.close()
        raise CredentialNotFoundError(f"the credential found for {package} is {context.package_name}'s")
    _log_diagnosis(context)
    return context


def _log_diagnosis(context: Context) -> None:
    """What the app lacks as an agent, as droidsim agent --as and mcp --as say it, on the
    droid.agent logger (nothing for an app that is set up)."""
    from droid.agent.diagnosis import diagnose

    try:
        lines = diagnose(context).lines()
    except Exception as error:  # noqa: BLE001 - the connection works; the diagnosis is advice
        log.warning("could not diagnose %s as an agent: %s: %s", context.package_name, type(error).__name__, error)
        return
    for line in lines:
        log.warning("%s", line)


def _credential(address: DeviceAddress, package: str) -> tuple[str, Path]:
    """The credential, and the app's folder it was read from."""
    places = [address.credential_file(package)]
    home = Path(os.environ.get("HOME", "/"))
    if home.name == package:  # this process runs as the app, in its own folder
        places.append(home / "credential")
    tried = []
    for path in places:
        if path is None:
            tried.append(f"the device's data directory (not known for {address.target}: pass data=DIR or set "
                         "DROIDSIM_DATA)")
            continue
        try:
            return read_file(path, MAX_CREDENTIAL_BYTES, reader="droidsim").decode("ascii", "replace").strip(), path.parent
        except RefusedFileError as refused:
            tried.append(f"{path} ({refused.args[0].removeprefix(f'{path} ')})")
        except FileNotFoundError:
            tried.append(f"{path} (not found: is {package} installed on this device?)")
        except PermissionError:
            tried.append(f"{path} (not readable by uid {os.geteuid()}: on a device that runs as root the app's "
                         f"folder is its own uid's; run this as root, or run the agent as the app with "
                         f"`droidsim agent --as {package}`)")
    raise CredentialNotFoundError(f"no credential for {package}: looked at {'; '.join(tried)}")
