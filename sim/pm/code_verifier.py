"""CodeVerifier: which function ids an app's code implements, asked outside the device.

Importing an app runs its code, which must never happen inside system_server: a crash or
``os._exit`` there would take the device down. Each verification runs in a fresh process,
gone when it ends (its process group killed), so nothing one app's import-time code does can
reach a later install: a child forked, per verification, from the verifier's zygote
(sim/pm/verifier_zygote.py), a clean process started at the device's first install that never
runs app code itself (and, once the device is shut down, handed to the next device booted in
the same process if it never forked a spare decoder). Code verified once in this process is
not run again: its answer is remembered by the bytes of its files (sim/pm/verified_code.py).
On a device run as root the child runs under a uid of its own from Android's isolated range
(99000-99999), which owns nothing of the device's, and every process of that uid is killed
afterwards, however it detached (the range is this device's own: sim/zygote/os_user.py). Without root it confines itself with Landlock, read-only.

What it answers is the metadata the compiler would write for the service's declarations
(``droidsim appfunctions generate``), so install can compare the whole signature of each
function with the app's XML, not only its id: ``{"ids": [...] | null, "metadata": BASE64 |
null}`` or ``{"error": "..."}``; the metadata is null for a service that is not an
``AppFunctionServiceEntryPoint``, which declares ids only.

``InProcessCodeVerifier`` does the same without the helper process, for a device whose
apps run in the caller's process anyway (``sim.testing``): there is nothing to protect. APKs
it still decodes in the verifier's child, bounded: an APK is hostile input wherever it is read.
"""

from __future__ import annotations

import atexit
import base64
import itertools
import json
import select
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from sim.apk.errors import ApkError
from sim.pm.spare_channel import SparePool
from sim.pm.verified_code import VerifiedCode
from sim.pm.verifier_child import (
    DECODE_CPU_SECONDS,
    KILLED_OR_SLOW,
    MAX_DECODED_BYTES,
    SPARE,
    UNEXPECTED,
    VERIFY_TIMEOUT,
    answer_of,
)
from sim.zygote.child_start import START_FOLDER, python_command, start_environment

if TYPE_CHECKING:
    from sim.apk.decode import DecodedApk

# How long past a verification's own timeout the zygote may take to answer before it is ended.
ZYGOTE_GRACE = 10.0
ZYGOTE_FAILED = "the code verifier stopped before it answered"
# Spare decoders the device keeps: in a run of installs the older has warmed up when its APK
# comes (a fresh fork's warm-up takes longer than an install).
SPARES = 2


class _IdleZygotes:
    """Zygotes of closed verifiers in this process that never forked a spare decoder. Such a
    zygote is as clean as a new one: it never runs app code, and each verification's processes
    are gone before it answers. So the next device booted in this process (eval's devices, a
    test suite's) takes it instead of starting an interpreter and importing the declaration
    layer again; one is kept per way of running (as the device's user, or dropping to isolated uids)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[bool, tuple[subprocess.Popen, socket.socket]] = {}
        atexit.register(self.end_all)  # each would end at its stdin's end anyway; this is at once

    def put(self, shares_device_uid: bool, zygote: subprocess.Popen, channel: socket.socket) -> None:
        with self._lock:
            replaced = self._idle.pop(shares_device_uid, None)
            self._idle[shares_device_uid] = (zygote, channel)
        if replaced is not None:
            _end(*replaced)

    def take(self, shares_device_uid: bool) -> tuple[subprocess.Popen, socket.socket] | None:
        with self._lock:
            taken = self._idle.pop(shares_device_uid, None)
        if taken is not None and taken[0].poll() is not None:  # it died while idle
            _end(*taken)
            return None
        return taken

    def end_all(self) -> None:
        with self._lock:
            idle, self._idle = list(self._idle.values()), {}
        for zygote, channel in idle:
            _end(zygote, channel)


def _end(zygote: subprocess.Popen, channel: socket.socket | None) -> None:
    if channel is not None:
        channel.close()
    zygote.kill()
    zygote.wait()
    for stream in (zygote.stdin, zygote.stdout):
        if stream is not None:
            stream.close()


_IDLE = _IdleZygotes()
_VERIFIED = VerifiedCode()


def end_idle_zygotes() -> None:
    """Ends the zygotes waiting in this process for a next device."""
    _IDLE.end_all()


@dataclass(frozen=True)
class DeclaredCode:
    """What a service's code declares: its ids (None: it routes at run time and cannot say)
    and, for an entry point, the metadata of its functions and shared types."""

    ids: frozenset[str] | None
    metadata: AppFunctionPackageMetadata | None


class CodeVerificationError(Exception):
    """The app's code could not be loaded; the message says why."""


class CodeVerifier:
    """``isolated_uids``: the uids verifications take turns with (this device's own); None
    runs them as the device's user. A verification still running after ``timeout`` seconds
    is ended and refused."""

    def __init__(self, isolated_uids: range | None = None, timeout: float = VERIFY_TIMEOUT) -> None:
        self._uids = itertools.cycle(isolated_uids) if isolated_uids else None
        self._uid_count = len(isolated_uids) if isolated_uids else 0
        # The spare decoders the zygote forks for APKs (sim/pm/spare_decoder.py): no verification
        # gets a uid one waits under, as its app code could trace or signal the spare.
        self._spares = SparePool(SPARES)
        self._timeout = timeout
        self._lock = threading.Lock()
        self._zygote: subprocess.Popen | None = None
        self._spares_channel: socket.socket | None = None
        self._forked_spares = False  # the zygote's spares (and their uids) are this device's: not reused

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        return _declared_from(_VERIFIED.answer(app_dir, service_name, lambda: self._verify(app_dir, service_name)))

    def _verify(self, app_dir: Path, service_name: str) -> dict:
        with self._lock:
            request = {"app_dir": str(app_dir), "service": service_name, "uid": self._next_uid(),
                       "timeout": self._timeout}
            return self._ask(request)

    def decode_apk(self, data: bytes, apk_name: str, sdk: int,
                   while_decoding: Callable[[], None] = lambda: None) -> DecodedApk:
        """The APK ``data`` (``apk_name`` in errors) decoded for ``sdk`` in a child of its own
        (sim/apk); ApkError if it is refused, or if decoding it crashed or hung that child.
        ``while_decoding`` runs once the child has the bytes: the device's own work meanwhile."""
        with self._lock:
            self._started_zygote()
            spare = self._spares.take(self._spares_channel, self._ask_spare, self._timeout + ZYGOTE_GRACE)
            if spare is None:  # the zygote failed: the next install starts a new one
                self._discard()
                return _decoded_from({"error": ZYGOTE_FAILED})
            deadline = time.monotonic() + self._timeout
            try:
                sent = spare.send(data, apk_name, sdk, deadline)
                while_decoding()
                output = spare.answer(deadline) if sent else b""
            finally:
                spare.end()
            self._spares.refill(self._ask_spare)  # forked while this install goes on
            answered = answer_of(None, output)
            if output is None:
                answered = {"refused": [UNEXPECTED, f"decoding {apk_name} answered more than {MAX_DECODED_BYTES >> 20} MiB "
                                                    "of text, the decoder's bound"]}
            elif answered.get("error") == KILLED_OR_SLOW and time.monotonic() >= deadline:
                answered = {"refused": [UNEXPECTED, f"decoding {apk_name} took longer than {self._timeout:g} s, "
                                                    "the decoder's bound"]}
            return _decoded_from(answered)

    def _ask_spare(self) -> bool:
        """Ask the zygote for a spare under a uid of its own; False if it could not be asked."""
        uid = self._next_uid()
        self._forked_spares = True
        if not self._send({"kind": SPARE, "uid": uid}):
            return False
        self._spares.asked(uid)
        return True

    def _next_uid(self) -> int | None:
        """The next isolated uid no spare waits under, if the range has one: a verification's
        app code under a spare's uid could trace it (the zygote ends such a spare first)."""
        if self._uids is None:
            return None
        reserved = self._spares.uids()
        uid = next(self._uids)
        for _ in range(self._uid_count - 1):
            if uid not in reserved:
                break
            uid = next(self._uids)
        return uid

    def _ask(self, request: dict) -> dict:
        line = ""
        if self._send(request):
            stdout = self._zygote.stdout
            try:
                answered, _, _ = select.select([stdout], [], [], self._timeout + ZYGOTE_GRACE)
                line = stdout.readline() if answered else ""
            except OSError:
                pass
        if not line:  # the zygote itself failed: the next install starts a new one
            self._discard()
            return {"error": ZYGOTE_FAILED}
        return json.loads(line)

    def _send(self, request: dict) -> bool:
        zygote = self._started_zygote()
        try:
            zygote.stdin.write(json.dumps(request) + "\n")
            zygote.stdin.flush()
        except OSError:
            self._discard()
            return False
        return True

    def _started_zygote(self) -> subprocess.Popen:
        if self._zygote is None or self._zygote.poll() is not None:
            self._discard()
            idle = _IDLE.take(self._shares_device_uid)
            if idle is not None:
                self._zygote, self._spares_channel = idle
                return self._zygote
            # Datagrams: each spare handed over is one message with its descriptors.
            self._spares_channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            with theirs:
                self._zygote = subprocess.Popen(
                    python_command("sim.pm.verifier_zygote", "--spares-fd", str(theirs.fileno()),
                                   shares_device_uid=self._shares_device_uid),
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, pass_fds=(theirs.fileno(),),
                    env=start_environment({}), cwd=START_FOLDER, text=True, start_new_session=True,
                )
        return self._zygote

    @property
    def _shares_device_uid(self) -> bool:
        return self._uids is None

    def close(self) -> None:
        """Lets the zygote go: to the next device's verifier in this process while it is idle
        and clean, else ended."""
        idle = self._lock.acquire(blocking=False)  # not in the middle of a request
        try:
            zygote, channel = self._zygote, self._spares_channel
            if idle and zygote is not None and zygote.poll() is None and not self._forked_spares:
                self._zygote = self._spares_channel = None
                _IDLE.put(self._shares_device_uid, zygote, channel)
            else:
                self._discard()
        finally:
            if idle:
                self._lock.release()

    def _discard(self) -> None:
        """Ends the zygote and its spares (a verification's own processes are gone when it
        answers): it failed, or is no longer clean."""
        zygote, self._zygote = self._zygote, None
        channel, self._spares_channel = self._spares_channel, None
        self._spares.clear()
        self._forked_spares = False
        if zygote is not None:
            _end(zygote, channel)
        elif channel is not None:
            channel.close()


class InProcessCodeVerifier:
    """The verifier's answers computed in this process (app code runs here); APKs decoded by
    a CodeVerifier's spare, started at the first."""

    def __init__(self) -> None:
        self._apk_decoder: CodeVerifier | None = None

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        return _declared_from(answer(app_dir, service_name))

    def decode_apk(self, data: bytes, apk_name: str, sdk: int,
                   while_decoding: Callable[[], None] = lambda: None) -> DecodedApk:
        if self._apk_decoder is None:
            self._apk_decoder = CodeVerifier()
        return self._apk_decoder.decode_apk(data, apk_name, sdk, while_decoding)

    def close(self) -> None:
        if self._apk_decoder is not None:
            self._apk_decoder.close()


def _declared_from(reply: dict) -> DeclaredCode:
    if "error" in reply:
        raise CodeVerificationError(reply["error"])
    ids, encoded = reply.get("ids"), reply.get("metadata")
    return DeclaredCode(
        None if ids is None else frozenset(ids),
        None if encoded is None else AppFunctionPackageMetadata.FromString(base64.b64decode(encoded)),
    )


def _decoded_from(reply: dict) -> DecodedApk:
    from sim.apk.decode import DecodedApk

    if "refused" in reply:
        raise ApkError(*reply["refused"])
    if reply.get("error") == KILLED_OR_SLOW:
        raise ApkError(UNEXPECTED, f"decoding the APK ended the decoder's process before it answered: its reader "
                                   f"crashed, or the kernel killed it past its bound of {DECODE_CPU_SECONDS} s of CPU")
    if "error" in reply:
        raise ApkError(UNEXPECTED, f"decoding the APK failed: {reply['error']}")
    return DecodedApk.from_json(reply["decoded"])


def answer(app_dir: Path, service_name: str) -> dict:
    """What the code of ``service_name`` declares; run where app code may run."""
    from droid.appfunctions.compiler import build_metadata
    from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
    from droid.appfunctions.loader import load_app_service_class

    try:
        # reload: in this process the same path may hold a newer version than last time.
        cls = load_app_service_class(app_dir, service_name, reload=True)
        ids = cls.implemented_function_ids()
        if not issubclass(cls, AppFunctionServiceEntryPoint):
            return {"ids": None if ids is None else sorted(ids), "metadata": None}
        functions, components = build_metadata(cls)
    except Exception as error:  # any failure of app code is an install error
        return {"error": f"{type(error).__name__}: {error}"}
    metadata = AppFunctionPackageMetadata(app_functions=functions, components=components)
    return {"ids": sorted(ids), "metadata": base64.b64encode(metadata.SerializeToString()).decode("ascii")}
