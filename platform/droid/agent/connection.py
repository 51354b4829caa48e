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
import socket
from pathlib import Path

from droid.content.context import Context, connect
from droid.content.device_address import (
    MAX_CREDENTIAL_BYTES,
    CredentialNotFoundError,
    DeviceAddress,
    DeviceNotFoundError,
    resolve_device,
)
from droid.content.running_devices import lock_holder, registry_dir, running_devices
from droid.content.safe_read import RefusedFileError, read_file

log = logging.getLogger("droid.agent")
_PROBE_SECONDS = 2.0  # to tell "nothing listens there" from a credential problem


def connect_as(package: str, device: str | os.PathLike[str] | None = None, *,
               data: str | os.PathLike[str] | None = None) -> Context:
    """A Context on the device as ``package``; ``data`` names the device's data directory where
    ``device`` is an address that does not (``HOST:PORT``). Close it (or use ``with``) when done.

    Raises ``DeviceNotFoundError`` when there is no device to reach, ``CredentialNotFoundError``
    when no credential of ``package`` can be read, and PermissionError when the device refuses
    the one found.
    """
    address = resolve_device(device, data)
    looked = _where_looked(device, address)
    _check_answers(address, looked)
    credential, folder = _credential(address, package, looked)
    try:
        context = connect(address.target, credential, folder)
    except PermissionError:
        raise
    except Exception as error:  # grpc.RpcError: nothing answers there
        if "RpcError" not in type(error).__name__:
            raise
        raise DeviceNotFoundError(f"cannot reach the device at {address.target}: is it running? {looked}") from None
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


def _where_looked(device: str | os.PathLike[str] | None, address: DeviceAddress) -> str:
    """Where connect_as looked for the device and its data folder, and what to pass instead."""
    how = ("given" if device else "from DROIDSIM_DEVICE" if os.environ.get("DROIDSIM_DEVICE")
           else "the device running on this machine")
    registered = ", ".join(f"{d.address} (data folder {d.data_dir})" for d in running_devices()) or "none"
    return (f"Looked at: the address {address.target} ({how}); the devices running on this machine "
            f"({registry_dir()}): {registered}; the data folder: {address.data_dir or 'not known'}. Pass the "
            "device's data folder (connect_as(PKG, DIR)), or its address and data folder "
            "(connect_as(PKG, 'HOST:PORT', data=DIR)); DROIDSIM_DEVICE and DROIDSIM_DATA set them for every "
            "droidsim command")


def _check_answers(address: DeviceAddress, looked: str) -> None:
    """Something listens at the address, or DeviceNotFoundError saying where connect_as looked."""
    target = address.target
    if target.startswith("unix:"):
        if not Path(target[5:]).exists():
            pid = lock_holder(address.data_dir) if address.data_dir else None
            where = (f"the device running on {address.data_dir} (pid {pid}) listens elsewhere (--listen HOST:PORT): "
                     "pass that address, with data=DIR" if pid else "none runs on that data folder: start one with "
                     "`make sim` or `droidsim device start`")
            raise DeviceNotFoundError(f"no device at {target}: {where}. {looked}")
        return
    host, colon, port = target.rpartition(":")
    if not colon or not port.isdigit():
        raise DeviceNotFoundError(f"{target} is neither a data folder (no such folder), unix:PATH nor HOST:PORT. "
                                  f"{looked}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_SECONDS).close()
    except OSError as error:
        raise DeviceNotFoundError(f"nothing answers at {target} ({error.strerror or error}). {looked}") from None


def _credential(address: DeviceAddress, package: str, looked: str) -> tuple[str, Path]:
    """The credential, and the app's folder it was read from."""
    places = [address.credential_file(package)]
    home = Path(os.environ.get("HOME", "/"))
    if home.name == package:  # this process runs as the app, in its own folder
        places.append(home / "credential")
    tried = []
    for path in places:
        if path is None:
            tried.append(f"the device's data folder, which {address.target} does not name and no running device "
                         "lists (pass data=DIR: the folder the device was started with, droidsim device start "
                         "--data DIR)")
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
    raise CredentialNotFoundError(f"no credential for {package}: looked at {'; '.join(tried)}. {looked}")
