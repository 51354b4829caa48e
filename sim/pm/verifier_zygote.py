"""The code verifier's zygote: one clean process that forks a fresh child per verification.

Started at a device's first install (``python -I -m sim.pm.verifier_zygote``, in ``/`` with
``HOME=/``: sim/zygote/child_start.py), or taken over clean from a device shut down before it in
the same process (sim/pm/code_verifier.py); it preloads the declaration layer, as Android's zygote preloads the framework, and never imports
app code itself. Each request (a JSON line on stdin: ``{"app_dir", "service", "uid",
"timeout"}``) is answered by a child forked from that clean state: the child closes everything
of the zygote's, leaves its session, drops to the request's isolated uid (or confines itself
with Landlock without root), imports the app and writes its answer on a pipe of its own. Once
the child has exited, or after the request's timeout, its process group is killed and the
answer goes back as one JSON line on stdout; then every process of its uid is killed, before
the next request is read (sim/pm/verifier_child.py says why that order is safe). A child that
dies without answering, or takes too long, is answered with an error. An APK is decoded by a
child forked before it came, the spare decoder (sim/pm/spare_decoder.py), whose pipes the
zygote hands to the device over the socket ``--spares-fd`` names (sim/pm/spare_channel.py).

So each verification still runs in a process of its own that nothing of an earlier one
reached, at the cost of a fork instead of an interpreter's start (sim/pm/code_verifier.py).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from pathlib import Path

from sim.pm.spare_decoder import SpareDecoder
from sim.pm.verifier_child import SPARE, VERIFY_TIMEOUT, answer_of, collect, end_group, leave_zygote, sweep, write_answer



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
    exited = os.pidfd_open(pid)
    try:
        output = collect(exited, answer_read, time.monotonic() + request.get("timeout", VERIFY_TIMEOUT))
    finally:
        os.close(exited)
        os.close(answer_read)
        end_group(pid)
    return answer_of(pid, output)


def _run_child(request: dict, answer_fd: int) -> None:
    from sim.pm.code_verifier import answer

    leave_zygote(answer_fd)
    app_dir = Path(request["app_dir"])
    if request.get("uid") is not None:
        from sim.zygote.specialize import specialize

        app_dir = specialize(request["uid"], (app_dir,))[app_dir]
    else:  # without root: read-only to code and the app, where the kernel has Landlock
        from sim.zygote import landlock
        from sim.zygote.specialize import code_folders

        landlock.confine([*map(Path, code_folders()), app_dir], [])
    # App code may print; only the answer goes to the answer pipe.
    answered = answer(app_dir, request["service"])
    if "error" in answered:  # name the files by the folder asked about, not the descriptor read through
        answered["error"] = answered["error"].replace(str(app_dir), request["app_dir"])
    write_answer(answer_fd, answered)


def _preload_apk_reader() -> None:
    """The APK reader (androguard, a third of a second to import) loads at the first APK, not
    at every device's first install; later children start with it imported."""
    from sim.apk.errors import ApkError
    from sim.apk.reader import preload

    try:
        preload()
    except ApkError:  # not installed: the child answers with what to install
        return
    import sim.apk.decode  # noqa: F401


def _reply(reply: dict) -> None:
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()


def main() -> None:
    # Preloaded before any fork, as the zygote preloads: each child starts with them imported.
    import droid.appfunctions.compiler  # noqa: F401
    import droid.appfunctions.entry_point  # noqa: F401
    import droid.appfunctions.loader  # noqa: F401
    import sim.pm.code_verifier  # noqa: F401
    import sim.zygote.landlock  # noqa: F401
    import sim.zygote.specialize  # noqa: F401

    parser = argparse.ArgumentParser()
    parser.add_argument("--spares-fd", type=int, required=True)
    spares_channel = socket.socket(fileno=parser.parse_args().spares_fd)
    decoder: SpareDecoder | None = None
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("kind") == SPARE:
            if decoder is None:
                _preload_apk_reader()
                decoder = SpareDecoder(spares_channel)
            decoder.hand_out(request.get("uid"))
            continue
        if decoder is not None:
            decoder.release(request.get("uid"))
        _reply(verify(request))
        sweep(request.get("uid"))


if __name__ == "__main__":
    main()
