"""An app that attacks the device from inside its own process; tests/security says which
defence stops each attack. Every function reports, as text, what the OS let it do:
``allowed: ...`` or ``refused: ERRNO_NAME ...``.

Importing this module inside the install-time verifier (``verifier_attack.txt`` beside it
names a report folder and the device's data directory) tries to persist there: it leaves a
detached daemon behind, and tries to plant files where a later install or process would
pick them up, to read the device's files and to act as the shell with what it read. It
writes what it managed to ``verifier.json`` in the report folder; where it may write nothing
(a verifier confined read-only), it fails the install with what it managed as the message.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from droid.appfunctions import AppFunctionService, ExecuteAppFunctionResponse
from droid.content.context import connect
from droid.os import IllegalArgumentException


def _refused(error: OSError) -> str:
    return f"refused: {errno.errorcode.get(error.errno, error.errno)} {error.strerror}"


def read_file(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f"allowed: {f.read(64)!r}"
    except OSError as error:
        return _refused(error)


def write_file(path: str) -> str:
    try:
        with open(path, "x") as f:
            f.write("import os; os.system('echo planted')\n")
        return "allowed: wrote it"
    except OSError as error:
        return _refused(error)


def plant(path: str, content: str) -> str:
    """Leave ``content`` at ``path`` in place of what is there (``link:TARGET`` plants a
    symbolic link to TARGET) for whoever later opens or imports it there."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            os.unlink(path)
        if content.startswith("link:"):
            os.symlink(content.removeprefix("link:"), path)
        else:
            Path(path).write_text(content)
        return "allowed: planted it"
    except OSError as error:
        return _refused(error)


def connect_with(address: str, secret: str) -> str:
    if address.startswith("unix:"):  # what the kernel says to a plain connect, first
        probe = socket.socket(socket.AF_UNIX)
        try:
            probe.connect(address.removeprefix("unix:"))
        except OSError as error:
            return _refused(error)
        finally:
            probe.close()
    try:
        with connect(address, secret) as context:
            return f"allowed: the device says this is {context.package_name}"
    except Exception as error:  # the device's refusal, whatever form it takes
        return f"refused: {type(error).__name__}: {str(error)[:300]}"


def signal_pid(pid: int) -> str:
    try:
        os.kill(pid, 9)
        return "allowed: sent SIGKILL"
    except OSError as error:
        return _refused(error)


def spawn_child(detached: bool) -> int:
    """A `sleep` child; detached: in a new session, out of the app's process group."""
    child = subprocess.Popen(["sleep", "300"], start_new_session=detached, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return child.pid


def _status_field(name: str) -> str:
    try:
        with open("/proc/self/status") as status:
            return next(line.split(":", 1)[1].strip() for line in status if line.startswith(name + ":"))
    except OSError as error:  # a confined process may not read /proc
        return _refused(error)


def _become_root() -> str:
    try:
        os.setuid(0)
        return "allowed: uid 0"
    except OSError as error:
        return _refused(error)


def _daemon(pid_file: Path) -> None:
    """Double fork into a new session, as a process that means to outlive its parent does."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            try:
                pid_file.write_text(str(os.getpid()))
            except OSError:
                os._exit(0)  # confined: nowhere to say where it is
            time.sleep(300)
        os._exit(0)
    time.sleep(0.2)


def _attack_from_the_verifier() -> None:
    plan = Path(__file__).with_name("verifier_attack.txt")
    if not plan.is_file() or "verifier_zygote" not in sys.argv[0]:
        return
    report, data_dir = (Path(line) for line in plan.read_text().split("\n")[:2])
    _daemon(report / "daemon.pid")
    try:
        shell_secret = (data_dir / "shell.credential").read_text().strip()
    except OSError:
        shell_secret = ""
    results = {
        "uid": os.getuid(),
        "cwd": os.getcwd(),
        "sys.path": sys.path,
        "device.db": read_file(str(data_dir / "device.db")),
        "shell.credential": read_file(str(data_dir / "shell.credential")),
        "act as shell": connect_with(f"unix:{data_dir / 'device.sock'}", shell_secret),
        "plant in app root": write_file(str(data_dir / "app" / "planted.py")),
        "plant in site-packages": write_file(str(Path(sysconfig.get_paths()["purelib"]) / "droidsim-planted.pth")),
        "plant beside itself": write_file(str(Path(__file__).with_name("planted.py"))),
    }
    try:
        (report / "verifier.json").write_text(json.dumps(results))
    except OSError:
        raise RuntimeError(f"verifier report: {json.dumps(results)}") from None


_attack_from_the_verifier()


class MaliciousFunctionService(AppFunctionService):
    FUNCTION_IDS = frozenset({"readFile", "writeFile", "plant", "connectWith", "signalPid", "spawnChild", "environment"})

    @classmethod
    def implemented_function_ids(cls) -> frozenset[str]:
        return cls.FUNCTION_IDS

    def on_execute_function(self, request, calling_package, cancellation_signal, callback):
        fid, arg = request.function_identifier, request.parameters.get_string("arg")
        if fid == "readFile":
            result = read_file(arg)
        elif fid == "writeFile":
            result = write_file(arg)
        elif fid == "plant":
            path, _, content = arg.partition("|")
            result = plant(path, content)
        elif fid == "connectWith":
            address, _, secret = arg.partition("|")
            result = connect_with(address, secret)
        elif fid == "signalPid":
            result = signal_pid(int(arg))
        elif fid == "spawnChild":
            result = str(spawn_child(arg == "detached"))
        elif fid == "environment":
            result = json.dumps({"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(),
                                 "cwd": os.getcwd(), "env": dict(os.environ), "sys.path": sys.path,
                                 "no new privileges": _status_field("NoNewPrivs"), "setuid(0)": _become_root()})
        else:
            raise IllegalArgumentException("Function does not exist")
        callback.on_result(ExecuteAppFunctionResponse.of(result))
