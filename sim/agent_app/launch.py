"""Starting an agent app's agent in a process of its own, as the app (the command's side).

A droidsim command may run as root (it reads any app's credential, as adb's host may); it
never imports an app's code. The agent process starts as every device child does
(sim/zygote/child_start.py: ``python -I`` in ``/`` with a clean environment) and becomes the
app before it loads anything of the app's: it takes the uid that owns the app's folder where
that is not the command's own (an app's uid on a device that isolates its apps, or the
device's user), and confines itself with Landlock to its code and its folder where it runs as
a machine account (the device's user, or root), as the device's app processes do. On a device
that isolates its apps it reaches the device on the app socket, where the kernel names it as
the app. Its settings (the API key among them) come down a pipe, never on its command line.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droid.content.device_address import DeviceAddress
from sim.agent_app.tool_client import ToolClient
from sim.processes import reap
from sim.server.app_socket import published_address
from sim.zygote.child_start import START_FOLDER, python_command, start_environment
from sim.zygote.specialize import is_named_account

# What a terminal's user set for how things look; nothing else of the command's environment
# reaches the app's process.
PRESENTATION = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")


class AgentLaunchError(Exception):
    """The app's agent cannot be started as the app; the message says why and what to do."""


@dataclass(frozen=True)
class AppAgentLaunch:
    package: str
    home: Path  # the app's own folder: its working folder and HOME
    code_dir: Path  # the device's installed copy of its code
    address: str  # where the process reaches the device
    uid: int | None  # the uid it becomes; None: it stays the command's
    confine: bool  # Landlock, where it runs as a machine account


def code_dir_of(context: Any) -> Path:
    """The installed copy of the app's code, as the device says (PackageInfo.code_path)."""
    own = next((p for p in context.get_system_service("package").list_packages()
                if p.package_name == context.package_name), None)
    if own is None or not own.code_path:
        raise AgentLaunchError(f"the device does not say where {context.package_name}'s code is")
    return Path(own.code_path)


def plan(address: DeviceAddress, package: str, code_dir: Path) -> AppAgentLaunch:
    if address.data_dir is None:
        raise AgentLaunchError(f"{address.target} is not a local data directory: running {package}'s agent as the "
                               "app needs the device's data directory (--data DIR, or DROIDSIM_DATA)")
    home = address.data_dir / "data" / package
    try:
        status = os.lstat(home)
    except FileNotFoundError:
        raise AgentLaunchError(f"{home} does not exist: is {package} installed on this device?") from None
    if not stat.S_ISDIR(status.st_mode):
        raise AgentLaunchError(f"{home} is not a folder: {package}'s agent runs in its own folder, never through a link")
    me, owner = os.geteuid(), status.st_uid
    if owner in (me, 0):
        uid, confine = None, True
    elif me != 0:
        raise AgentLaunchError(f"{home} belongs to uid {owner} and this command runs as uid {me}: run it as the "
                               f"device's user (root, on a device that gives apps their own uids) to run {package}'s "
                               "agent as the app")
    else:
        uid, confine = owner, is_named_account(owner)
    app_socket = published_address(address.data_dir) if uid is not None and not confine else None
    return AppAgentLaunch(package, home, code_dir, app_socket or address.target, uid, confine)


def start(launch: AppAgentLaunch, mode: list[str], config: dict[str, Any], **popen: Any) -> subprocess.Popen:
    """The agent process, given ``config`` on a pipe; ``popen``: its standard streams and the
    descriptors it keeps (``pass_fds``)."""
    read, write = os.pipe()
    presentation = {name: os.environ[name] for name in PRESENTATION if name in os.environ}
    args = ["--package", launch.package, "--home", str(launch.home), "--code-dir", str(launch.code_dir),
            "--config-fd", str(read), "--parent", str(os.getpid()), *mode]
    if launch.uid is not None:
        args += ["--uid", str(launch.uid)]
    if launch.confine:
        args.append("--confine")
    command = python_command("sim.agent_app.child", *args, shares_device_uid=launch.uid is None)
    try:
        process = subprocess.Popen(command, cwd=START_FOLDER, pass_fds=(read, *popen.pop("pass_fds", ())),
                                   env=start_environment({"DROIDSIM_DEVICE": launch.address, **presentation}),
                                   **popen)
    finally:
        os.close(read)
    with os.fdopen(write, "w") as pipe:
        json.dump(config, pipe)
    return process


def run_console(launch: AppAgentLaunch, config: dict[str, Any]) -> int:
    """``droidsim agent``: the console runs in the app's process, on this terminal; its exit
    code is the command's. ^C reaches both: the app's process answers it (130)."""
    process = start(launch, ["--console"], config)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return process.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
        if process.poll() is None:
            process.kill()
            process.wait()


class ToolServerProcess:
    """``droidsim mcp``: the app's process serving its agent's tools over a socket; ``agent``
    describes the agent, None when the app declares none (the process has then ended)."""

    def __init__(self, launch: AppAgentLaunch) -> None:
        ours, theirs = socket.socketpair()
        try:
            self.process = start(launch, ["--tools-fd", str(theirs.fileno())], {}, pass_fds=(theirs.fileno(),),
                                 stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno())
        finally:
            theirs.close()
        self.client = ToolClient(ours, launch.package)
        self.agent = self.client.agent

    def close(self) -> None:
        self.client.close()
        reap(self.process, timeout=10)
