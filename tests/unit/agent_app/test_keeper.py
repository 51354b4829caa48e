"""The keeper ends every process the app's agent started, however it tried to get away
(sim/agent_app/keeper.py, process_group.py)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid

from tests.helpers import EVENT_BOUND

# Below a subreaper, an app's process pinned to its group starts three leftovers: one that
# tries to detach (setsid, then a double fork) and ignores every signal it may, one that forks
# its successor and exits for ever (never the same pid for long: a walk of /proc loses to it),
# and a plain child. Once each has announced itself, the keeper's ending; then what was refused.
_TREE = """
import ctypes, json, os, signal, subprocess, sys, time
from sim.agent_app import keeper, process_group
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
ready_r, ready_w = os.pipe()
refused_r, refused_w = os.pipe()

def detached():
    refused = []
    for name, call in (("setsid", os.setsid), ("setpgid", lambda: os.setpgid(0, 0)),
                       ("a new session", lambda: subprocess.run(["true"], start_new_session=True))):
        try:
            call()
        except PermissionError:
            refused.append(name)
    os.write(refused_w, json.dumps(refused).encode())
    if os.fork() == 0:
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(number, signal.SIG_IGN)
        os.write(ready_w, b"d")
        while True:
            time.sleep(1)
    os._exit(0)

def walker():
    os.write(ready_w, b"w")
    while True:
        if os.fork():
            os._exit(0)

def plain():
    os.write(ready_w, b"p")
    time.sleep(3600)

app = os.fork()
if app == 0:
    process_group.pin()
    for body in (detached, walker, plain):
        if os.fork() == 0:
            body()
    time.sleep(3600)
seen = b""
while len(seen) < 3:
    seen += os.read(ready_r, 3)
print(keeper.end_the_app(app), os.read(refused_r, 1000).decode(), flush=True)
time.sleep(3600)
"""


def marked(marker: str) -> list[int]:
    """The running processes whose environment holds ``marker``."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/environ", "rb") as environ:
                if marker.encode() not in environ.read():
                    continue
            with open(f"/proc/{name}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(name))
        except OSError:
            continue
    return found


def test_every_process_of_the_app_ends_at_once_however_it_tried_to_get_away():
    name, value = "DROIDSIM_KEEPER_TEST", uuid.uuid4().hex
    marker = f"{name}={value}"
    process = subprocess.Popen([sys.executable, "-c", _TREE], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, name: value})
    try:
        code, refused = process.stdout.readline().split(" ", 1)
        assert int(code) == 128 + signal.SIGKILL, "the app's process was killed with its group"
        assert json.loads(refused) == ["setsid", "setpgid", "a new session"]
        assert marked(marker) == [process.pid], "only the keeper itself is left"
    finally:
        process.kill()
        process.wait(EVENT_BOUND)
        while left := marked(marker):  # should the ending have failed: the walker moves on, so again
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
