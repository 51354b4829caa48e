"""Finding the device, and an installed package's credential on it: one rule for every droidsim
command and for an agent in its own process (droid.agent.connect_as).

An address is a data directory, ``unix:PATH`` or ``HOST:PORT``. None given: ``DROIDSIM_DEVICE``,
else the device running on this machine (droid.content.running_devices: found from any folder,
as adb finds its server), else the default data directory of the current folder; either is
used only if it is this user's (droid.content.running_devices.foreign_owner). A package's
credential lives in the data directory, ``DATA/data/PKG/credential``: whoever can read that
directory may act as anyone on the device, as with adb.
"""

from __future__ import annotations

import difflib
import os
import pwd
from dataclasses import dataclass
from pathlib import Path

from droid.content.running_devices import foreign_owner, registry_dir, running_devices
from droid.content.safe_read import RefusedFileError, read_file

DEFAULT_DATA_DIR = Path(".droidsim") / "device"
SOCKET_NAME = "device.sock"
SHELL_CREDENTIAL = "shell.credential"
MAX_CREDENTIAL_BYTES = 4096  # the device writes 43 characters (token_urlsafe(32))


class DeviceNotFoundError(LookupError):
    """No device where one was looked for; the message says everywhere it looked."""


class CredentialNotFoundError(LookupError):
    """A package's credential cannot be read; the message says where it looked and why."""


@dataclass(frozen=True)
class DeviceAddress:
    target: str
    data_dir: Path | None

    def credential_file(self, package: str | None) -> Path | None:
        """Where the shell's (``package`` None) or a package's credential is; None when the
        data directory is not known (a device named by HOST:PORT alone)."""
        if self.data_dir is None:
            return None
        return self.data_dir / SHELL_CREDENTIAL if package is None else self.data_dir / "data" / package / "credential"

    def read_credential(self, package: str | None) -> str:
        path = self.credential_file(package)
        if path is None and ":" not in self.target:  # neither HOST:PORT nor unix:PATH: a folder that is not there
            running = ", ".join(str(d.data_dir) for d in running_devices()) or "none"
            raise CredentialNotFoundError(
                f"there is no folder {self.target}: a device is named by its data folder, unix:PATH or HOST:PORT "
                f"(the data folders of the devices running on this machine: {running})")
        if path is None:
            raise CredentialNotFoundError(
                f"{self.target} is not a local data directory, so no credential can be read: "
                "pass --data DIR (or DROIDSIM_DATA) pointing at the device's data directory"
            )
        return read_credential_file(path, "the shell" if package is None else package)


def read_credential_file(path: Path, who: str) -> str:
    """The credential in ``path``, read as the device reads an app's files: an app may have
    replaced its own with a link (to another app's credential or the shell's), a FIFO or a
    device, and whoever reads it may be root (droid/content/safe_read.py)."""
    try:
        data = read_file(path, MAX_CREDENTIAL_BYTES, reader="droidsim")
    except FileNotFoundError:
        raise CredentialNotFoundError(
            f"no credential for {who} at {path} (is it installed on this device?{_closest_installed(path, who)})"
        ) from None
    except PermissionError:
        raise CredentialNotFoundError(
            f"cannot read {path}: acting as another package needs access to the device's data") from None
    except RefusedFileError as refused:
        raise CredentialNotFoundError(f"{refused}: it is not {who}'s credential as the device wrote it") from None
    try:
        return data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise CredentialNotFoundError(f"{path} holds no credential (it is not text the device wrote)") from None


def _closest_installed(path: Path, package: str) -> str:
    """' Did you mean PKG?' for the installed package (a folder of DATA/data) closest to ``package``."""
    try:
        installed = [entry.name for entry in path.parent.parent.iterdir() if entry.is_dir()]
    except OSError:
        return ""
    close = difflib.get_close_matches(package, installed, n=1, cutoff=0.8)
    return f" Did you mean {close[0]}?" if close else ""


def resolve_device(device: str | os.PathLike[str] | None = None, data: str | os.PathLike[str] | None = None) -> DeviceAddress:
    """The device named by ``device`` (else the lookup order above); ``data`` (else
    ``DROIDSIM_DATA``) is its data directory where the address does not say it."""
    raw = str(device) if device else os.environ.get("DROIDSIM_DEVICE") or str(find_running_device())
    given = data or os.environ.get("DROIDSIM_DATA")
    data_dir = Path(given) if given else None
    path = Path(raw[5:] if raw.startswith("unix:") else raw)
    if path.is_dir():  # the device running on it listens where its registry entry says (HOST:PORT too)
        listening = next((d.address for d in running_devices() if d.data_dir == path.resolve()), None)
        if listening and not listening.startswith("unix:"):
            return DeviceAddress(listening, data_dir or path.resolve())
        return DeviceAddress(f"unix:{(path / SOCKET_NAME).resolve()}", data_dir or path.resolve())
    if raw.startswith("unix:") or path.is_socket():
        guess = path.resolve().parent
        if data_dir is None and (guess / SHELL_CREDENTIAL).exists():
            data_dir = guess
        return DeviceAddress(f"unix:{path.resolve()}", data_dir)
    if data_dir is None:  # HOST:PORT of a device running here: its registry entry names its folder
        data_dir = next((d.data_dir for d in running_devices() if d.address == raw), None)
    return DeviceAddress(raw, data_dir)


def _refuse_another_accounts(here: Path) -> None:
    """This folder's device is used without being named only if it is this user's: in a folder
    others may write (/tmp, a shared project), another account may have put it there."""
    for path in (DEFAULT_DATA_DIR.parent.absolute(), DEFAULT_DATA_DIR.absolute(), here):
        owner = foreign_owner(path)
        if owner is not None:
            raise DeviceNotFoundError(
                f"{path} belongs to {_account(owner)}, not to you ({_account(os.geteuid())}): droidsim uses a device "
                "it finds by itself only if it is yours, as another account may have put it there to run its "
                f"apps' code with your settings and terminal. If you trust it, name it: --device {here}")


def _account(uid: int) -> str:
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"


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
        raise DeviceNotFoundError(f"{len(running)} devices are running: pass --device DIR to pick one: {listed}")
    if here.is_dir():
        _refuse_another_accounts(here)
        return here
    raise DeviceNotFoundError(
        "no device found. Looked at: --device (not given), DROIDSIM_DEVICE (not set), the devices "
        f"running on this machine ({registry_dir()}: none), and {here} (does not exist). "
        "Start one with `make sim` or `droidsim device start`."
    )
