"""CodeVerifier: which function ids an app's code implements, asked outside the device.

Importing an app runs its code, which must never happen inside system_server: a
crash or ``os._exit`` there would take the device down. Like Android's installd,
one helper process does it for every install, and is replaced when an app kills it.

Run as ``python -m sim.pm.code_verifier``: one JSON request per stdin line
(``{"app_dir", "service_name"}``), one JSON answer per stdout line
(``{"ids": [...] | null}`` or ``{"error": "..."}``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

VERIFY_TIMEOUT = 20.0


class CodeVerificationError(Exception):
    """The app's code could not be loaded; the message says why."""


class CodeVerifier:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None

    def implemented_ids(self, app_dir: Path, service_name: str) -> frozenset[str] | None:
        request = json.dumps({"app_dir": str(app_dir), "service_name": service_name})
        with self._lock:
            answer = self._ask(request)
        if "error" in answer:
            raise CodeVerificationError(answer["error"])
        ids = answer.get("ids")
        return None if ids is None else frozenset(ids)

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


def _serve() -> None:
    from droid.appfunctions.loader import load_app_service_class

    # App code may print; only our answers go to the real stdout.
    answers = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        try:
            # reload: the same path may hold a newer version of the app than last time.
            cls = load_app_service_class(Path(request["app_dir"]), request["service_name"], reload=True)
            ids = cls.implemented_function_ids()
            answer = {"ids": None if ids is None else sorted(ids)}
        except Exception as error:  # any failure of app code is an install error
            answer = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    _serve()
