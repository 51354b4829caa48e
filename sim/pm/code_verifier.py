"""CodeVerifier: which function ids an app's code implements, asked outside the device.

Importing an app runs its code, which must never happen inside system_server: a
crash or ``os._exit`` there would take the device down. Like Android's installd,
one helper process does it for every install, and is replaced when an app kills it.

What it answers is the metadata the compiler would write for the service's declarations
(``droidsim appfunctions generate``), so install can compare the whole signature of each
function with the app's XML, not only its id.

Run as ``python -m sim.pm.code_verifier``: one JSON request per stdin line
(``{"app_dir", "service_name"}``), one JSON answer per stdout line
(``{"ids": [...] | null, "metadata": BASE64 | null}`` or ``{"error": "..."}``; the metadata
is null for a service that is not an ``AppFunctionServiceEntryPoint``, which declares ids only).

``InProcessCodeVerifier`` does the same without the helper process, for a device whose
apps run in the caller's process anyway (``sim.testing``): there is nothing to protect.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from droid.appfunctions.metadata import AppFunctionPackageMetadata

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
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        request = json.dumps({"app_dir": str(app_dir), "service_name": service_name})
        with self._lock:
            answer = self._ask(request)
        return _declared_from(answer)

    def _ask(self, request: str) -> dict:
        process = self._running()
        assert process.stdin is not None and process.stdout is not None
        timer = threading.Timer(VERIFY_TIMEOUT, process.kill)
        timer.start()
        try:
            process.stdin.write(request + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        finally:
            timer.cancel()
        if not line:
            self._process = None
            process.kill()
            process.wait()
            return {"error": "loading the app's code killed the verifier process (or took too long)"}
        return json.loads(line)

    def _running(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "sim.pm.code_verifier"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        return self._process

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._process.kill()
                self._process.wait()
                self._process = None


class InProcessCodeVerifier:
    """The verifier's answers computed in this process (app code runs here)."""

    def declared_code(self, app_dir: Path, service_name: str) -> DeclaredCode:
        return _declared_from(_answer(str(app_dir), service_name))

    def close(self) -> None:
        pass


def _declared_from(answer: dict) -> DeclaredCode:
    if "error" in answer:
        raise CodeVerificationError(answer["error"])
    ids, encoded = answer.get("ids"), answer.get("metadata")
    return DeclaredCode(
        None if ids is None else frozenset(ids),
        None if encoded is None else AppFunctionPackageMetadata.FromString(base64.b64decode(encoded)),
    )


def _answer(app_dir: str, service_name: str) -> dict:
    from droid.appfunctions.compiler import build_metadata
    from droid.appfunctions.entry_point import AppFunctionServiceEntryPoint
    from droid.appfunctions.loader import load_app_service_class

    try:
        # reload: the same path may hold a newer version of the app than last time.
        cls = load_app_service_class(Path(app_dir), service_name, reload=True)
        ids = cls.implemented_function_ids()
        if not issubclass(cls, AppFunctionServiceEntryPoint):
            return {"ids": None if ids is None else sorted(ids), "metadata": None}
        functions, components = build_metadata(cls)
    except Exception as error:  # any failure of app code is an install error
        return {"error": f"{type(error).__name__}: {error}"}
    metadata = AppFunctionPackageMetadata(app_functions=functions, components=components)
    return {"ids": sorted(ids), "metadata": base64.b64encode(metadata.SerializeToString()).decode("ascii")}


def _serve() -> None:
    # App code may print; only our answers go to the real stdout.
    answers = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        answers.write(json.dumps(_answer(request["app_dir"], request["service_name"])) + "\n")
        answers.flush()


if __name__ == "__main__":
    _serve()
