"""Other apps' functions, for the cross-app rules (F5 references, F9 impersonation).

Peers come from the other app folders given to the same lint run and, with
``--device``, from every package installed on a device, as
``AppFunctionManager.search_app_functions`` returns them to the shell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from droid.appfunctions.metadata import function_name
from droid.appfunctions.manager import AppFunctionManager
from sim.lint.model import App


@dataclass(frozen=True)
class Peer:
    package: str
    function_id: str
    name: str
    description: str
    origin: str  # "app folder" or "device"


def peers_from_apps(apps: Iterable[App]) -> list[Peer]:
    return [
        Peer(app.package, f.id, f.name, f.description, "app folder") for app in apps for f in app.functions
    ]


def peers_from_device(manager: AppFunctionManager) -> list[Peer]:
    """Every function on the device the caller (the shell) can see."""
    return [
        Peer(f.package_name, f.id, function_name(f), f.description, "device")
        for f in manager.search_app_functions()
    ]


def peers_for(app: App, peers: Iterable[Peer]) -> list[Peer]:
    """The peers another package owns: an app is not compared with itself, nor
    with its own installed copy on the device."""
    return [p for p in peers if p.package != app.package]
