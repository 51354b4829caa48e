"""An installed app tries to pass as someone else at the device's doors: a TCP listener
(sharing a port number with another socket), the app socket (piling up connections). These
need root: only a device run as root gives apps their own uids for the kernel to name."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.content.context import connect
from sim.device import Device
from sim.server.peer_relay import MAX_CONNECTIONS_PER_APP
from tests.helpers import copy_app
from tests.security.apps.intruder.intruder import hold_port, who_from_port
from tests.security.conftest import needs_root
from tests.unit.device.test_tcp_peers import needs_ipv6

pytestmark = needs_root

INTRUDER_APP = Path(__file__).parent / "apps" / "intruder"
INTRUDER = "com.example.intruder"
SHELL = "com.android.shell"


def intrude(device: Device, attack: str, *args: object) -> str:
    """Run one of the intruder's attacks inside its process, as the shell asks it to."""
    plan = json.dumps({"attack": attack, "args": list(args)})
    request = ExecuteAppFunctionRequest(INTRUDER, "attack", AppFunctionData({"arg": plan}))
    with device.shell_context() as shell:
        return shell.app_function_manager.execute_app_function(request).return_value


@pytest.fixture
def decoy():
    """Somewhere else to connect to, so that two sockets may share one local port."""
    listeners = []

    def listening_on(host: str) -> str:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listeners.append(socket.socket(family, socket.SOCK_STREAM))
        listeners[-1].bind((host, 0))
        listeners[-1].listen(16)
        port = listeners[-1].getsockname()[1]
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    yield listening_on
    for listener in listeners:
        listener.close()


def tcp_device(folder, host: str):
    device = Device(folder / "data")
    device.install(copy_app(INTRUDER_APP, folder / "apps"))
    address = device.serve(f"[{host}]:0" if ":" in host else f"{host}:0")
    return device, address


HOSTS = ["127.0.0.1", pytest.param("::1", marks=needs_ipv6)]


@pytest.mark.parametrize("host", HOSTS)
def test_the_shell_on_a_port_an_app_also_holds_is_the_shell(open_folder, decoy, host):
    device, address = tcp_device(open_folder, host)
    with device:
        shell_secret = device.shell_credential_file.read_text().strip()
        port = int(intrude(device, "holdPort", host, 0, decoy(host)))
        # The shell's connection shares its local port with the app's connection to the decoy.
        # Defence: the peer's socket is matched by both ends of the connection, not by the port.
        assert who_from_port(address, host, port, shell_secret) == f"the device says this is {SHELL}"


@pytest.mark.parametrize("host", HOSTS)
def test_an_app_on_a_port_the_shell_also_holds_is_itself_whatever_it_presents(open_folder, decoy, host):
    device, address = tcp_device(open_folder, host)
    with device:
        shell_secret = device.shell_credential_file.read_text().strip()
        port = hold_port(host, 0, decoy(host))  # the device's user, connected elsewhere from this port
        # The app connects from the same port number, presenting the shell's credential.
        # Defence: the kernel names its socket by the whole connection: the app's uid.
        assert intrude(device, "whoFromPort", address, host, port, shell_secret) == (
            f"the device says this is {INTRUDER}"
        )


def test_an_app_holds_at_most_its_cap_of_connections(open_folder):
    device = Device(open_folder / "data")
    device.install(copy_app(INTRUDER_APP, open_folder / "apps"))
    with device:
        device.serve()
        over = 8
        closed = json.loads(intrude(device, "pileConnections", device.app_address, MAX_CONNECTIONS_PER_APP + over))
        # Defence: a per-app cap on the app socket; the connections beyond it are closed unserved.
        # The app process's own channel to the device is one of its connections.
        assert closed == list(range(MAX_CONNECTIONS_PER_APP - 1, MAX_CONNECTIONS_PER_APP + over))
        # The shell is served all the while, and the app again once it lets go.
        with connect(device.address, device.shell_credential_file.read_text().strip()) as shell:
            assert shell.package_name == SHELL
        assert intrude(device, "letGo") == str(MAX_CONNECTIONS_PER_APP - 1)


def test_an_app_cannot_hold_the_devices_lock_to_keep_it_from_booting(open_folder, caplog):
    from sim.running_devices import LOCK_NAME, DeviceLock

    device = Device(open_folder / "data")
    device.install(copy_app(INTRUDER_APP, open_folder / "apps"))
    with device:
        lock_file = device.data_dir / LOCK_NAME
        lock = DeviceLock(device.data_dir)  # as `droidsim device start` takes it
        # Defence: the lock file is the device user's alone; flock needs an open descriptor.
        assert lock_file.stat().st_mode & 0o777 == 0o600
        assert intrude(device, "holdLock", str(lock_file)) == "refused: EACCES Permission denied"
        lock.release()
        # A lock file an older version left readable: the app holds it as the device "crashes".
        lock_file.chmod(0o644)
        assert intrude(device, "holdLock", str(lock_file)) == "holding the lock"
        # Defence: a holder of another uid is no device: the next boot replaces the file.
        again = DeviceLock(device.data_dir)
        assert lock_file.stat().st_mode & 0o777 == 0o600
        assert "holds the device's lock and is no device: replacing the lock file" in caplog.text
        again.release()
