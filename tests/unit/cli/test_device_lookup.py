"""How a command (and the MCP bridge) finds the device, in the order docs/mcp.md gives:
--device, else DROIDSIM_DEVICE, else the one device running on this machine (or the one in
this folder's .droidsim/device among several), else .droidsim/device."""

from __future__ import annotations

import click
import pytest

from sim.cli.connection import resolve
from sim.running_devices import DeviceLock


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine with no device running, the test inside an empty project folder."""
    monkeypatch.setenv("DROIDSIM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DROIDSIM_DEVICE", raising=False)
    monkeypatch.delenv("DROIDSIM_DATA", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    locks = []

    def run(data_dir):
        lock = DeviceLock(data_dir)
        lock.register(f"unix:{data_dir}/device.sock")
        locks.append(lock)
        return data_dir.resolve()

    yield run
    for lock in locks:
        lock.release()


def test_the_lookup_order(machine, tmp_path, monkeypatch) -> None:
    with pytest.raises(click.ClickException, match="no device found. Looked at: --device"):
        resolve(None)
    here = (tmp_path / "project" / ".droidsim" / "device")
    here.mkdir(parents=True)
    assert resolve(None).data_dir == here.resolve()                     # this folder's, nothing running
    elsewhere = machine(tmp_path / "elsewhere")
    assert resolve(None).data_dir == elsewhere                          # the one running wins over it
    machine(here)
    machine(tmp_path / "third")
    assert resolve(None).data_dir == here.resolve()                     # among several, this folder's
    named = tmp_path / "named"
    named.mkdir()
    monkeypatch.setenv("DROIDSIM_DEVICE", str(named))
    assert resolve(None).data_dir == named.resolve()                    # DROIDSIM_DEVICE before those
    assert resolve(str(elsewhere)).data_dir == elsewhere                # --device before everything


def test_several_running_and_none_here_asks_for_device(machine, tmp_path) -> None:
    machine(tmp_path / "a")
    machine(tmp_path / "b")
    with pytest.raises(click.ClickException, match="2 devices are running: pass --device DIR to pick one"):
        resolve(None)
