"""What every child of the verifier's zygote shares: leaving the zygote behind, its answer read
back, and its end (sim/pm/verifier_zygote.py forks them; sim/pm/spare_decoder.py too)."""

from __future__ import annotations

import json
import os
import select
import signal
import time

VERIFY_TIMEOUT = 20.0
# The other kind of request: ``{"kind": "spare", "uid"}`` forks a spare decoder under ``uid``
# and hands it to the device (sim/pm/spare_channel.py), which decodes an APK in it (sim/apk:
# untrusted input, so never in the device's process); it has no reply line.
SPARE = "spare"
KILLED_OR_SLOW = "loading the app's code killed the verifier process (or took too long)"
# An answer is a few MB at most (a decoded APK's text, a large app's metadata); a child that
# writes more (app code at import can find the answer pipe) is stopped there, before the zygote,
# and the device after it, hold what it wrote.
MAX_ANSWER_BYTES = 128 * 1024 * 1024
# The spare decoder's bounds, past what it holds once it has the APK (sim/pm/spare_decoder.py).
# Measured: an APK with an AndroidX-sized table and more (a 13.5 MB resources.arsc, 166,000
# strings in 83 locales, 3,000 assets, signed v1+v2+v3) decodes in 2.7 s of CPU, the spare
# growing by some 200 MB of address space (69 MB once warm, 270 MB at its peak).
DECODE_CPU_SECONDS = 10
DECODE_MEMORY_BYTES = 512 << 20
# What a spare may answer: the decoded text of what install reads (the manifest, the function
# XML and app metadata it names), each file of which install refuses past 8 MiB (sim/xmlsafe.py);
# a real app's is kilobytes (the AndroidX-sized one above: 6 kB). The tool or device that reads
# the answer holds it, and its JSON, in memory.
MAX_DECODED_BYTES = 32 << 20
# The reason of an APK refused because its decode failed, not because of what it holds.
UNEXPECTED = "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION"
ANSWER_TOO_LARGE = f"the verifier's child wrote more than {MAX_ANSWER_BYTES >> 20} MiB as its answer (stopped there)"


def leave_zygote(*keep: int) -> None:
    """In a fresh child: a session of its own, and nothing of the zygote's open but ``keep``;
    stdin and stdout, the zygote's request and reply pipes, become /dev/null."""
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def write_answer(answer_fd: int, answered: dict) -> None:
    """The child's one answer, as a JSON line, then its end: no atexit handler or thread that
    the code it ran left behind runs."""
    reply = memoryview((json.dumps(answered) + "\n").encode())
    while reply:
        reply = reply[os.write(answer_fd, reply):]
    os._exit(0)


def collect(exited: int, answer_fd: int, deadline: float, *, one_line: bool = False,
            limit: int = MAX_ANSWER_BYTES) -> bytes | None:
    """The answer of the child whose pidfd is ``exited``, read until it exits: a process it
    left behind may hold the pipe open, so its end, not the pipe's, ends the wait.
    ``one_line``: until its first line has come, for a child whose answer is all it does (the
    spare decoder): its exit, the teardown of a large process, takes milliseconds the answer
    need not wait for. None once it has written more than ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0

    def read() -> bytes:
        nonlocal size
        chunk = os.read(answer_fd, 65536)
        size += len(chunk)
        return chunk

    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        ready, _, _ = select.select([answer_fd, exited], [], [], remaining)
        if answer_fd in ready:
            chunk = read()
            if chunk:
                chunks.append(chunk)
                if one_line and b"\n" in chunk:
                    break
                continue
        if exited in ready or answer_fd in ready:  # exited, or every writer closed the pipe
            while size <= limit and select.select([answer_fd], [], [], 0)[0] and (chunk := read()):
                chunks.append(chunk)
            break
    return None if size > limit else b"".join(chunks)


def answer_of(pid: int | None, output: bytes | None) -> dict:
    """What the ended child ``pid`` answered in ``output``; an error if it died first, was too
    slow or wrote too much (None). ``pid`` None: the child is reaped later, and only a whole
    line counts as an answer."""
    status = os.waitpid(pid, 0)[1] if pid is not None else 0
    if output is None:
        return {"error": ANSWER_TOO_LARGE}
    lines = output.decode("utf-8", "replace").splitlines(keepends=True)
    if os.waitstatus_to_exitcode(status) != 0 or not lines or (pid is None and not lines[0].endswith("\n")):
        return {"error": KILLED_OR_SLOW}
    return json.loads(lines[-1] if pid is not None else lines[0])


def end_group(pid: int) -> None:
    """The child and what it started in its session (the child too, if it has not left the
    zygote's yet): cheap, so done before the zygote answers."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def sweep(uid: int | None) -> None:
    """Every process of ``uid``, however it detached (setsid, double fork): a fork of the zygote,
    some milliseconds, so done after it answers and before it reads the next request. Nothing
    is lost by answering first: an isolated uid can write nothing the device reads, and no
    later request is served before the sweep has ended what it left."""
    from sim.zygote.specialize import kill_every_process_of

    if uid is not None:
        kill_every_process_of(uid, single_threaded=True)
