"""Starting an agent app's agent in a process of its own, as the app (the command's side).

A droidsim command may run as root (it reads any app's credential, as adb's host may); it
never imports an app's code. The agent process starts as every device child does
(sim/zygote/child_start.py: ``python -I`` in ``/`` with a clean environment) and becomes the
app before it loads anything of the app's: it takes the uid that owns the app's folder where
that is not the command's own (an app's uid on a device that isolates its apps, or the
device's user), and confines itself with Landlock to its code and its folder where it runs as
a machine account (the device's user, or root), as the device's app processes do. On a device
that isolates its apps it reaches the device on the app socket, where the kernel names it as
the app. Its settings come down a pipe, never on its command line; a model server's API key
stays in the command, which makes the model calls the app's process asks for
(sim/agent_app/model_relay.py).
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import select
import signal
import socket
import stat
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from droid.content.device_address import DeviceAddress
from sim.agent_app.terminal import AgentTerminal
from sim.agent_app.tool_client import ToolClient
from sim.logcat import escaped
from sim.server.app_socket import published_address
from sim.zygote.child_start import START_FOLDER, python_command, start_environment
from sim.zygote.specialize import is_named_account

if TYPE_CHECKING:
    from sim.agent_app.model_relay import ModelRelay

# What a terminal's user set for how things look; nothing else of the command's environment
# reaches the app's process.
PRESENTATION = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")
# Seconds the keeper may take to end all the app started before it is killed itself.
ENDING_BOUND = 30.0
# What the app's process prints is copied a line at a time, a line that does not end this much
# at a time: never held whole.
OUTPUT_PIECE = 64 * 1024


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


class AgentProcess:
    """The keeper of the app's agent (sim/agent_app/keeper.py), in a session of its own. It
    holds the lifeline's read end: closing ours (``end``), or this process ending however it
    ends, makes it kill all the app started before it exits."""

    def __init__(self, process: subprocess.Popen, lifeline: int) -> None:
        self.process = process
        self._lifeline = lifeline
        self._exit = os.pidfd_open(process.pid)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait(self) -> int:
        """The agent's exit code, once nothing of the app runs."""
        return self.process.wait()

    def interrupt(self) -> None:
        """^C, passed on by the keeper to the app's process group."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGINT)

    def end(self) -> None:
        """Until nothing of the app runs; safe in a signal handler (it never reaps: Popen's
        wait may be under way)."""
        if self._lifeline >= 0:
            os.close(self._lifeline)
            self._lifeline = -1
        if self._exit >= 0 and not self._ended_within(ENDING_BOUND):
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            self._ended_within(None)

    def close(self) -> None:
        self.end()
        self.process.wait()
        if self._exit >= 0:
            os.close(self._exit)
            self._exit = -1

    def _ended_within(self, seconds: float | None) -> bool:
        poller = select.poll()
        poller.register(self._exit, select.POLLIN)
        return bool(poller.poll(None if seconds is None else seconds * 1000))


def start(launch: AppAgentLaunch, mode: list[str], config: dict[str, Any], **popen: Any) -> AgentProcess:
    """The agent's keeper, which forks the app's process, given ``config`` on a pipe;
    ``popen``: its standard streams and the descriptors it keeps (``pass_fds``). Never the
    command's session: no terminal of the user's is the agent's controlling terminal."""
    read, write = os.pipe()
    lifeline, ours = os.pipe()
    presentation = {name: os.environ[name] for name in PRESENTATION if name in os.environ}
    args = ["--lifeline-fd", str(lifeline), "--package", launch.package, "--home", str(launch.home),
            "--code-dir", str(launch.code_dir), "--config-fd", str(read), *mode]
    if launch.uid is not None:
        args += ["--uid", str(launch.uid)]
    if launch.confine:
        args.append("--confine")
    command = python_command("sim.agent_app.keeper", *args, shares_device_uid=launch.uid is None)
    try:
        process = subprocess.Popen(command, cwd=START_FOLDER, pass_fds=(read, lifeline, *popen.pop("pass_fds", ())),
                                   env=start_environment({"DROIDSIM_DEVICE": launch.address, **presentation}),
                                   start_new_session=True, **popen)
    except BaseException:
        os.close(ours)
        raise
    finally:
        os.close(read)
        os.close(lifeline)
    with os.fdopen(write, "w") as pipe:
        json.dump(config, pipe)
    return AgentProcess(process, ours)


@contextlib.contextmanager
def ending_with_the_command(agent: AgentProcess) -> Iterator[None]:
    """SIGTERM or SIGHUP on the command ends the agent first (everything it started), then the
    command, as by the signal: once the command is gone, nothing of the app runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end_then_die(number: int, _frame: Any) -> None:
        agent.end()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    previous = {number: signal.signal(number, end_then_die) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def relay_the_model(config: dict[str, Any]) -> "ModelRelay | None":
    """For a model server, the relay that keeps the key in this process: ``config`` then names
    the relay's descriptor and holds a stand-in for the key (sim/agent_app/model_relay.py).
    None for the offline model, or when there is neither a key nor a server address (the app's
    process then says so, as for a key it lacks); ``config`` then holds no key either."""
    if not str(config.get("model")).startswith("openai") or not (config.get("api_key") or config.get("base_url")):
        config["api_key"] = None  # the offline model needs none: a key the user's environment holds stays here
        return None
    from sim.agent_app.model_relay import RELAYED_KEY, ModelRelay

    relay = ModelRelay(config.get("base_url"), config.get("api_key"), config.get("model_options") or {})
    config.update(api_key=RELAYED_KEY, model_relay_fd=relay.theirs.fileno())
    return relay


class _Ending(Exception):
    """SIGTERM or SIGHUP reached ``droidsim agent``."""


def run_console(launch: AppAgentLaunch, config: dict[str, Any]) -> int:
    """``droidsim agent``: the console runs in the app's process; its exit code is the
    command's. On a terminal it gets a pseudo-terminal of its own, which this process relays
    (sim/agent_app/terminal.py); ^C typed there is the app's to answer (130). ^C sent to this
    process is passed on, and a second one ends the agent; SIGTERM and SIGHUP end it, give the
    terminal back as it was, and then end this process as the signal does."""
    terminal = AgentTerminal.for_this_process()
    relay = relay_the_model(config)
    agent: AgentProcess | None = None
    ending: list[int] = []

    def pass_on(_number: int, _frame: Any) -> None:
        if agent is None or ending:
            raise KeyboardInterrupt
        ending.append(signal.SIGINT)
        agent.interrupt()

    def end(number: int, _frame: Any) -> None:
        ending[:] = [number]
        raise _Ending

    previous = {number: signal.signal(number, handler)
                for number, handler in ((signal.SIGINT, pass_on), (signal.SIGTERM, end), (signal.SIGHUP, end))}
    try:
        agent = start(launch, ["--console"], config, **(terminal.child_streams() if terminal else {}),
                      pass_fds=(relay.theirs.fileno(),) if relay else ())
        if relay is not None:
            relay.theirs.close()
        if terminal is not None:
            terminal.relay_until_ended(agent.pid)
        return agent.wait()
    except KeyboardInterrupt:
        return 130
    except _Ending:
        pass
    finally:
        if terminal is not None:
            terminal.close()
        if agent is not None:
            agent.close()
        if relay is not None:
            relay.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    os.kill(os.getpid(), ending[0])  # as the signal would have, now that nothing of the app runs
    return 128 + ending[0]


class ToolServerProcess:
    """``droidsim mcp``: the app's process serving its agent's tools over a socket. Started in
    two steps so that the command's SIGTERM handler (ending_with_the_command) is in place
    before the app's code runs: the constructor starts the keeper, ``connect`` waits for the
    app's agent to be built; ``agent`` then describes it, None when the app declares none (the
    process has then ended). What the process prints reaches this command's stderr with its
    control characters escaped."""

    def __init__(self, launch: AppAgentLaunch) -> None:
        ours, theirs = socket.socketpair()
        output, their_output = os.pipe()
        try:
            self.agent_process = start(launch, ["--tools-fd", str(theirs.fileno())], {}, pass_fds=(theirs.fileno(),),
                                       stdin=subprocess.DEVNULL, stdout=their_output, stderr=their_output)
        except BaseException:
            os.close(output)
            ours.close()
            raise
        finally:
            theirs.close()
            os.close(their_output)
        threading.Thread(target=_copy_escaped, args=(output,), name=f"agent-output-{launch.package}",
                         daemon=True).start()
        self._package = launch.package
        self._socket: socket.socket | None = ours
        self.client: ToolClient | None = None
        self.agent: dict[str, Any] | None = None

    def connect(self) -> None:
        """Until the app's agent has described itself (AgentProcessGone if the process ends first)."""
        socket_, self._socket = self._socket, None
        try:
            self.client = ToolClient(socket_, self._package)
        except BaseException:
            socket_.close()
            raise
        self.agent = self.client.agent

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        elif self._socket is not None:
            self._socket.close()
        self.agent_process.close()


def _copy_escaped(fd: int) -> None:
    text = codecs.getincrementaldecoder("utf-8")("replace")  # a character split between pieces stays whole
    with os.fdopen(fd, "rb") as output:
        while piece := output.readline(OUTPUT_PIECE):
            sys.stderr.write(escaped(text.decode(piece)))
            sys.stderr.flush()
