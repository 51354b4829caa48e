"""The device listens on its Unix socket by default; a TCP listener on a loopback address stays
private, and any other address is reported as reachable from other machines."""

from __future__ import annotations

import logging

import pytest

from droid.content import connect
from sim.server.grpc_server import parse_listen


@pytest.mark.parametrize(("listen", "public"), [
    ("unix:/tmp/device.sock", False),
    ("127.0.0.1:0", False),
    ("localhost:0", False),
    ("[::1]:0", False),
    ("0.0.0.0:0", True),
    ("[::]:0", True),
    ("192.168.1.5:8080", True),
    ("device.example.com:8080", True),
])
def test_which_addresses_are_reachable_from_other_machines(listen, public):
    assert parse_listen(listen) == (listen, public)


@pytest.mark.parametrize("listen", ["8080", "host:port", "localhost:"])
def test_a_malformed_address_is_refused(listen):
    with pytest.raises(ValueError, match="--listen takes unix:PATH or HOST:PORT"):
        parse_listen(listen)


def test_by_default_the_device_is_a_unix_socket_in_its_data_directory(access_device):
    assert access_device.serve() == f"unix:{access_device.data_dir / 'device.sock'}"


def test_a_loopback_listener_serves_quietly(access_device, caplog):
    with caplog.at_level(logging.WARNING, logger="droidsim.server"):
        address = access_device.serve("127.0.0.1:0")
    assert address.startswith("127.0.0.1:") and not address.endswith(":0")
    assert caplog.records == []
    with connect(address, access_device.shell_credential_file.read_text()) as shell:
        assert shell.package_name == "com.android.shell"


def test_a_public_listener_says_so(access_device, caplog):
    with caplog.at_level(logging.WARNING, logger="droidsim.server"):
        address = access_device.serve("0.0.0.0:0")
    assert [r.getMessage() for r in caplog.records] == [
        "listening on 0.0.0.0:0: reachable from other machines, not only this one"
    ]
    assert address.startswith("0.0.0.0:")
