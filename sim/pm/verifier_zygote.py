"""The code verifier's zygote: one clean process that forks a fresh child per verification.

Started once per device, at its first install (``python -I -m sim.pm.verifier_zygote``, in
``/`` with ``HOME=/``: sim/zygote/child_start.py); it
preloads the declaration layer, as Android's zygote preloads the framework, and never imports
app code itself. Each request (a JSON line on stdin: ``{"app_dir", "service", "uid",
"timeout"}``) is answered by a child forked from that clean state: the child closes everything
of the zygote's, leaves its session, drops to the request's isolated uid (or confines itself
with Landlock without root), imports the app and writes its answer on a pipe of its own. Once
the child has exited, or after the request's timeout, its process group and every process of
its uid are killed, and the answer goes back as one JSON line on stdout. A child that dies
without answering, or takes too long, is answered with an error.

So each verification still runs in a process of its own that nothing of an earlier one
reached, at the cost of a fork instead of an interpreter's start (sim/pm/code_verifier.py).
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from pathlib import Path

VERIFY_TIMEOUT = 20.0
# The other kind of request: ``{"kind": "decode_apk", "app_dir", "apk", "sdk", "uid", "timeout"}``
# decodes the APK ``app_dir/apk`` (sim/apk: untrusted input, so never in the device's process).
DECODE_APK = "decode_apk"
KILLED_OR_SLOW = "loading the app's code killed the verifier process (or took too long)"


def verify(request: dict) -> dict:
    """One verification in a fresh child; what it answered, or why it could not."""
    answer_read, answer_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nothing of the zygote's survives into app code
        try:
            os.close(answer_read)
            _run_child(request, answer_write)
        finally:
            os._exit(1)
    os.close(answer_write)
    try:
        output = _collect(pid, answer_read, time.monotonic() + request.get("timeout", VERIFY_TIMEOUT))
    finally:
        os.close(answer_read)
        _end(pid, request.get("uid"))
    status = os.waitpid(pid, 0)[1]
    lines = output.decode("utf-8", "replace").splitlines()
    if os.waitstatus_to_exitcode(status) != 0 or not lines:
        return {"error": KILLED_OR_SLOW}
    return json.loads(lines[-1])


def _run_child(request: dict, answer_fd: int) -> None:
    from sim.pm.code_verifier import answer, apk_answer

    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the zygote's request and answer pipes: never the app's to read or write
        os.dup2(devnull, fd)
    os.closerange(3, answer_fd)
    os.closerange(answer_fd + 1, os.sysconf("SC_OPEN_MAX"))
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app_dir = Path(request["app_dir"])
    if request.get("uid") is not None:
        from sim.zygote.specialize import specialize

        app_dir = specialize(request["uid"], (app_dir,))[app_dir]
    else:  # without root: read-only to code and the app, where the kernel has Landlock
        from sim.zygote import landlock
        from sim.zygote.specialize import code_folders

        landlock.confine([*map(Path, code_folders()), app_dir], [])
    # App code may print; only the answer goes to the answer pipe.
    if request.get("kind") == DECODE_APK:
        answered = apk_answer(app_dir / request["apk"], request["sdk"])
    else:
        answered = answer(app_dir, request["service"])
        if "error" in answered:  # name the files by the folder asked about, not the descriptor read through
            answered["error"] = answered["error"].replace(str(app_dir), request["app_dir"])
    reply = json.dumps(answered) + "\n"
    os.write(answer_fd, reply.encode())
    os._exit(0)  # no atexit handler or thread the app's code left behind runs


def _collect(pid: int, answer_fd: int, deadline: float) -> bytes:
    """The child's answer, read until it exits: a process it left behind may hold the pipe
    open, so its end, not the pipe's, ends the wait."""
    exited = os.pidfd_open(pid)
    chunks = []
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            ready, _, _ = select.select([answer_fd, exited], [], [], remaining)
            if answer_fd in ready:
                chunk = os.read(answer_fd, 65536)
                if chunk:
                    chunks.append(chunk)
                    continue
            if exited in ready or answer_fd in ready:  # exited, or every writer closed the pipe
                while select.select([answer_fd], [], [], 0)[0] and (chunk := os.read(answer_fd, 65536)):
                    chunks.append(chunk)
                break
    finally:
        os.close(exited)
    return b"".join(chunks)


def _end(pid: int, uid: int | None) -> None:
    """The child and everything it started: its group, and every process of its uid."""
    from sim.zygote.specialize import kill_every_process_of

    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if uid is not None:
        kill_every_process_of(uid, single_threaded=True)


def _preload_apk_reader() -> None:
    """The APK reader (androguard, a third of a second to import) loads at the first APK, not
    at every device's first install; later children start with it imported."""
    from sim.apk.errors import ApkError
    from sim.apk.reader import preload

    try:
        preload()
    except ApkError:  # not installed: the child answers with what to install
        pass


def main() -> None:
    # Preloaded before any fork, as the zygote preloads: each child starts with them imported.
    import droid.appfunctions.compiler  # noqa: F401
    import droid.appfunctions.entry_point  # noqa: F401
    import droid.appfunctions.loader  # noqa: F401
    import sim.pm.code_verifier  # noqa: F401
    import sim.zygote.landlock  # noqa: F401
    import sim.zygote.specialize  # noqa: F401

    for line in sys.stdin:
        request = json.loads(line)
        if request.get("kind") == DECODE_APK:
            _preload_apk_reader()
        reply = verify(request)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
