"""A real Ray cluster on this machine: each node a ``ray start`` process of its own, reached through loopback only.

Ray 2.60 binds its gRPC servers to every interface whatever the node address, and on
Linux turns ``--node-ip-address 127.0.0.1`` into the machine's routable address
(``ray._private.services.resolve_ip_for_localhost``), so the flag alone leaves a cluster
open beyond loopback. Here the nodes, the drivers and the model server they call run in
a network namespace of their own whose only interface is loopback, so nothing they open
can be reached from outside it, and Ray's fixed ports (6379, 10001, 52365) meet no other
Ray on the machine. Making the namespace needs root (``unshare``, ``nsenter``);
``unavailable()`` says what is missing, and the tests skip (the bench leaves its row
out) with that reason.

The cluster's token is its own, and so are its settings: its processes get a HOME of their
own (where ``ray get-auth-token --generate`` writes the token, as docs/eval.md does; or
``start_two_nodes`` gives one in RAY_AUTH_TOKEN) and none of this process's RAY_ variables.
Ray turns token checking on by itself only for ``ray start --head`` (when it finds a
token), never for ``ray start --address`` or a driver given an address, so without
``RAY_AUTH_MODE=token`` a token file in HOME makes the head refuse the other nodes
(``InvalidAuthToken``): a HOME shared with other Rays would make that depend on them.

Each node is ``ray start --block`` in the foreground, stopped by a signal to its pid,
which stops the node's own processes; ``ray stop`` would stop every Ray on the machine.
A node may be given folders to hide (a tmpfs over each, in a mount namespace of its
own), so that a run reading the driver's files instead of those it shipped fails there.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterable

from tests.helpers import Output

VENV_BIN = Path(sys.executable).parent
RAY = str(VENV_BIN / "ray")
START_BOUND = 180.0  # seconds a node may take to say it started, on a loaded machine
STOP_BOUND = 60.0  # seconds a node may take to stop its processes after SIGTERM (Ray drains for up to 30)
LEFTOVER_BOUND = 15.0  # seconds a node's processes may take to end after the node has
# The namespace's keeper: brings loopback up (SIOCSIFFLAGS), says so, and lives until its stdin closes.
_KEEPER = """
import fcntl, socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
flags = struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, struct.pack("16sH14x", b"lo", 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", flags | 1))
print("up", flush=True)
sys.stdin.read()
"""
# In a node's own mount namespace: a tmpfs over each folder before the node starts.
_HIDE_THEN_RUN = 'while [ "$1" != -- ]; do mount -t tmpfs hidden "$1" || exit 1; shift; done; shift; exec "$@"'


def unavailable() -> str | None:
    """Why this machine cannot hold a loopback-only cluster, or None when it can."""
    if os.geteuid() != 0:
        return "needs root: the cluster runs in a network namespace of its own (unshare, nsenter)"
    missing = [tool for tool in ("unshare", "nsenter", "mount") if shutil.which(tool) is None]
    if missing:
        return f"needs {', '.join(missing)} (util-linux) for a loopback-only network namespace"
    if not Path(RAY).exists():
        return "needs ray (make test installs the 'ray' extra)"
    return None


class LoopbackNamespace:
    """A network namespace with only a loopback interface, kept while this object is open."""

    def __init__(self) -> None:
        self._keeper = subprocess.Popen(["unshare", "--net", "--", sys.executable, "-c", _KEEPER],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self._keeper.stdout.readline().strip() != "up":
            self.close()
            raise RuntimeError("could not bring up loopback in a new network namespace")

    def enter(self, argv: list[str]) -> list[str]:
        """``argv`` run inside the namespace."""
        return ["nsenter", f"--net=/proc/{self._keeper.pid}/ns/net", "--", *argv]

    def close(self) -> None:
        self._keeper.stdin.close()
        self._keeper.wait(timeout=STOP_BOUND)


class Node:
    """One ``ray start --block`` process and what it printed."""

    def __init__(self, argv: list[str], env: dict[str, str], name: str) -> None:
        self.name = name
        self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, preexec_fn=_end_with_this_process)
        self.output = Output(self.process.stdout)

    def wait_started(self) -> None:
        self.output.wait_for("Ray runtime started", f"the Ray {self.name}", START_BOUND)

    def stop(self) -> None:
        """SIGTERM to the node's ``ray start``, which stops its processes; what is left of them
        a while after that (a worker's own children: they end with it) is killed by pid."""
        started = _descendants(self.process.pid)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_BOUND)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        deadline = time.monotonic() + LEFTOVER_BOUND
        alive = lambda: [pid for pid, start in started.items() if _start_time(pid) == start]  # noqa: E731
        while alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in alive():
            os.kill(pid, signal.SIGKILL)


class RayCluster:
    """Nodes of one cluster in ``namespace``: a HOME with the cluster's token, a temp dir per node."""

    def __init__(self, namespace: LoopbackNamespace, hide: Iterable[Path] = ()) -> None:
        self.namespace = namespace
        self.hide = [str(path) for path in hide]
        self.root = Path(tempfile.mkdtemp(prefix="droidsim-ray-"))  # short: Ray's sockets live under it
        (self.root / "home").mkdir()
        # Ray's settings of this process are not the cluster's: it starts from none of them.
        self.env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
        self.env.update(HOME=str(self.root / "home"), RAY_USAGE_STATS_ENABLED="0",
                        PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
        self.nodes: list[Node] = []


    def start(self, argv: list[str], cpus: int = 1) -> Node:
        """A node from a ``ray start`` command line, in the foreground (``--block``), with its own
        temp dir and ``cpus`` CPUs; waits until it has joined (Ray prints that it started)."""
        name = "head node" if "--head" in argv else f"node {len(self.nodes)}"
        extra = ["--block", "--temp-dir", str(self.root / f"node{len(self.nodes)}"), "--num-cpus", str(cpus),
                 "--disable-usage-stats"] + (["--include-dashboard", "false"] if "--head" in argv else [])
        command = [RAY if argv[0] == "ray" else argv[0], *argv[1:], *extra]
        if self.hide:
            command = ["unshare", "--mount", "--", "sh", "-c", _HIDE_THEN_RUN, "sh", *self.hide, "--", *command]
        node = Node(self.namespace.enter(command), self.env, name)
        self.nodes.append(node)
        node.wait_started()
        return node

    def start_two_nodes(self, port: int = 6379) -> str:
        """A head and one more node, one CPU each, on 127.0.0.1, checking a token of their own;
        the address to give drivers."""
        self.env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32))
        address = f"127.0.0.1:{port}"
        self.start(["ray", "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1"])
        self.start(["ray", "start", f"--address={address}", "--node-ip-address=127.0.0.1"])
        return address

    def run(self, argv: list[str], bound: float, **options) -> subprocess.CompletedProcess:
        """``argv`` as a driver in the cluster's namespace and environment, waited for up to ``bound``."""
        return subprocess.run(self.namespace.enter(argv), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=bound, **{"env": self.env, **options})

    def popen(self, argv: list[str], **options) -> subprocess.Popen:
        return subprocess.Popen(self.namespace.enter(argv), stdin=subprocess.DEVNULL, text=True,
                                **{"env": self.env, **options})

    def workers_running(self, task: str) -> list[int]:
        """The pids of this cluster's Ray workers running ``task`` now (Ray titles them ``ray::TASK``)."""
        return [pid for node in self.nodes for pid in _descendants(node.process.pid)
                if _command(pid).startswith(f"ray::{task}")]

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()
        self.nodes.clear()
        shutil.rmtree(self.root, ignore_errors=True)


def _end_with_this_process() -> None:
    """In a node's process before it runs Ray: SIGTERM when the process that started it ends,
    so a test run that is killed leaves no cluster behind (PR_SET_PDEATHSIG survives exec)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


def _descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, with its start time (so a later kill cannot hit a reused pid)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _stat_field(int(entry.name), 4)
            if parent is not None:
                children.setdefault(int(parent), []).append(int(entry.name))
    found: dict[int, str] = {}
    stack = list(children.get(pid, []))
    while stack:
        child = stack.pop()
        start = _start_time(child)
        if start is not None:
            found[child] = start
            stack += children.get(child, [])
    return found


def _stat_field(pid: int, index: int) -> str | None:
    """Field ``index`` (1-based, as proc(5) numbers them) of /proc/PID/stat, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()[index - 3]


def _start_time(pid: int) -> str | None:
    return _stat_field(pid, 22)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""
