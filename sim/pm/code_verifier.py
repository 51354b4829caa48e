"""CodeVerifier: which function ids an app's code implements, asked outside the device.

Importing an app runs its code, which must never happen inside system_server: a crash or
``os._exit`` there would take the device down. Each verification runs in a fresh process,
gone when it ends (its process group killed), so nothing one app's import-time code does can
reach a later install. On a device run as root it also runs under a uid of its own from
Android's isolated range (99000-99999), which owns nothing of the device's, and every process
of that uid is killed afterwards, however it detached (the range is this device's own:
sim/zygote/os_user.py). Without root it confines itself with Landlock, read-only.

What it answers is the metadata the compiler would write for the service's declarations
(``droidsim appfunctions generate``), so install can compare the whole signature of each
function with the app's XML, not only its id.

Run as ``python -m sim.pm.code_verifier APP_DIR SERVICE_NAME [--uid UID]``: one JSON answer on
stdout (``{"ids": [...] | null, "metadata": BASE64 | null}`` or ``{"error": "..."}``; the
metadata is null for a service that is not an ``AppFunctionServiceEntryPoint``, which
declares ids only).

``InProcessCodeVerifier`` does the same without the helper process, for a device whose
apps run in the caller's process anyway (``sim.testing``): there is nothing to protect.
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from droid.appfunctions.metadata import AppFunctionPackageMetadata
from sim.zygote.specialize import clean_environment, kill_every_process_of

VERIFY_TIMEOUT = 20.0


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
    runs them as the device's user."""

    def __init__(self, isolated_uids: range | None = None) -> None:
        self._uids = itertools.cycle(isolated_uids) if isolated_uids else None
        self._lock = threading.Lock()

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        with self._lock:
            uid = next(self._uids) if self._uids else None
        return _declared_from(self._ask(app_dir, service_name, uid))

    def _ask(self, app_dir: Path, service_name: str, uid: int | None) -> dict:
        command = [sys.executable, "-m", "sim.pm.code_verifier", str(app_dir), service_name]
        if uid is not None:
            command += ["--uid", str(uid)]
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=clean_environment(Path(tempfile.gettempdir()), {}, uid is not None),
            cwd="/", text=True, start_new_session=True,
        )
        # Wait for the process, not for its output to end: a child it left holds the pipe open.
        try:
            process.wait(timeout=VERIFY_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        finally:
            _end(process, uid)
        assert process.stdout is not None
        output = process.stdout.read()
        process.stdout.close()
        lines = output.splitlines()
        if process.returncode != 0 or not lines:
            return {"error": "loading the app's code killed the verifier process (or took too long)"}
        return json.loads(lines[-1])

    def close(self) -> None:
        """Nothing outlives a verification, so there is nothing to close."""


class InProcessCodeVerifier:
    """The verifier's answers computed in this process (app code runs here)."""

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        return _declared_from(_answer(app_dir, service_name))

    def close(self) -> None:
        pass


def _end(process: subprocess.Popen, uid: int | None) -> None:
    """The verifier and everything it started: its group, and every process of its uid."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
    if uid is not None:
        kill_every_process_of(uid)


def _declared_from(answer: dict) -> DeclaredCode:
    if "error" in answer:
        raise CodeVerificationError(answer["error"])
    ids, encoded = answer.get("ids"), answer.get("metadata")
    return DeclaredCode(
        None if ids is None else frozenset(ids),
        None if encoded is None else AppFunctionPackageMetadata.FromString(base64.b64decode(encoded)),
    )


def _answer(app_dir: Path, service_name: str) -> dict:
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("app_dir", type=Path)
    parser.add_argument("service_name")
    parser.add_argument("--uid", type=int)
    args = parser.parse_args()
    # Loaded before the drop, as the zygote preloads.
    import droid.appfunctions.compiler  # noqa: F401
    import droid.appfunctions.entry_point  # noqa: F401
    import droid.appfunctions.loader  # noqa: F401

    app_dir = args.app_dir
    if args.uid is not None:
        from sim.zygote.specialize import specialize

        app_dir = specialize(args.uid, (app_dir,))[app_dir]
    else:  # without root: read-only to code and the app, where the kernel has Landlock
        from sim.zygote import landlock
        from sim.zygote.specialize import import_roots

        landlock.confine([*map(Path, import_roots(packages_themselves=True)), app_dir], [])
    # App code may print; only the answer goes to the real stdout.
    answers, sys.stdout = sys.stdout, sys.stderr
    answers.write(json.dumps(_answer(app_dir, args.service_name)) + "\n")
    answers.flush()
    os._exit(0)  # no atexit handler or thread the app's code left behind runs


if __name__ == "__main__":
    main()
