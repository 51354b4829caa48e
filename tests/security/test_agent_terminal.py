"""An app's own agent never holds the user's terminal, and nothing it starts outlives the
command that ran it (issue 43: F01, F01b, F01c, F02).

Each test runs a real shell on a pseudo-terminal, as a user's: the shell is the session
leader and the terminal its controlling one. The shell runs ``droidsim agent --as`` or
``droidsim mcp --as`` with tests/security/apps/ttyagent installed, whose ``build_agent`` types a
command into every descriptor 0..1023, /dev/tty and its ancestors' streams (TIOCSTI), and leaves
a double-forked process in a session of its own that goes on reading and typing into every
terminal it can reach. The command ends every way a command ends; then the shell must not have
run the typed command, nothing of the app may run, and what the user types next reaches the
shell whole. The app may also put its keeper's group in the foreground of its own terminal and
type ^\\ and ^Z there, which the line discipline turns into signals no permission check stops.
The last two tests run the same attack from a process that does hold the terminal, and see it
work: so these checks can fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
from pathlib import Path

import pytest

import sim.device
import sim.zygote.specialize
from sim.zygote import landlock
from tests.helpers import EVENT_BOUND, copy_app, running_processes, wait_until
from tests.security.apps.ttyagent.agent import FLOOD
from tests.security.conftest import alive, gone

TTY_APP = Path(__file__).parent / "apps" / "ttyagent"
TTY = "com.example.ttyagent"
RAN = "INJECTED-42"  # what the shell prints if it runs what the app typed
# Makes the terminal on its standard streams the controlling terminal of the session it leads, then runs the shell.
_SESSION_LEADER = ("import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
                   "os.execvp(sys.argv[1], sys.argv[1:])")


class Shell:
    """``sh`` on a pseudo-terminal of its own, leading its session, as a user's login shell."""

    def __init__(self, env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        self.terminal = os.fstat(slave).st_rdev
        self.process = subprocess.Popen([sys.executable, "-c", _SESSION_LEADER, "sh"], stdin=slave, stdout=slave,
                                        stderr=slave, start_new_session=True, env={**env, "PS1": "$ ", "ENV": ""})
        os.close(slave)
        self._output = bytearray()
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for(r"\$ ", "the shell's prompt")
        self.settings = termios.tcgetattr(self.master)  # the terminal's, as the shell left them

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                data = b""
            with self._changed:
                self._output += data
                self._changed.notify_all()
            if not data:
                return

    @property
    def output(self) -> str:
        return self._output.decode("utf-8", "replace")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def wait_for(self, pattern: str, what: str) -> re.Match:
        with self._changed:
            if not self._changed.wait_for(lambda: re.search(pattern, self.output), EVENT_BOUND):
                raise AssertionError(f"waited {EVENT_BOUND:g} s for {what}; the terminal shows:\n{self.output}")
            return re.search(pattern, self.output)

    def run(self, command: str) -> int:
        """Type ``command``; its exit status, once the shell has it back."""
        self.type(f"{command}; printf 'STATUS=%s.\\n' $?\n")
        return int(self.wait_for(r"STATUS=(\d+)\.", command)[1])

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.master)


class TtyDevice:
    """A served device with the terminal thief installed as a privileged agent app."""

    def __init__(self, folder: Path) -> None:
        self.device = sim.device.Device(folder / "data")
        self.device.install(copy_app(TTY_APP, folder / "apps"), system=True)
        self.device.serve()
        self.home = self.device.data_dir / "data" / TTY
        self.os_uid = self.device.os_user.os_uid(self.device.registry.get(TTY).uid) if self.device.os_isolation else None

    def environment(self) -> dict[str, str]:
        return {"PATH": os.environ["PATH"], "HOME": "/", "TERM": "xterm", "LANG": "C.UTF-8",
                "DROIDSIM_DEVICE": str(self.device.data_dir), "DROIDSIM_HOME": os.environ["DROIDSIM_HOME"]}

    def shell(self) -> Shell:
        return Shell(self.environment())

    def fresh(self, mode: str = "") -> None:
        """The app's reports of an earlier run gone; ``mode`` tells its agent to fail after the attack."""
        for name in ("attack.json", "lurker.log", "mode", "signalled"):
            (self.home / name).unlink(missing_ok=True)
        if mode:
            (self.home / "mode").write_text(mode)

    def report(self) -> dict:
        return json.loads((self.home / "attack.json").read_text())

    def lurker_log(self) -> list[dict]:
        path = self.home / "lurker.log"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture(scope="module", params=["root", "confined"])
def thief(request):
    """As root, the app's agent runs under the app's uid; ``confined``, under the device's own
    (here root's, with every capability) confined by Landlock, as on a device not run as root."""
    if request.param == "root" and os.geteuid() != 0:
        pytest.skip("needs root: only a device run as root gives each app its own uid")
    if request.param == "confined" and landlock.abi_version() == 0:
        pytest.skip("needs a kernel with Landlock (Linux 5.13+): without it the agent runs unconfined")
    folder = Path(tempfile.mkdtemp(prefix="droidsim-terminal-"))
    folder.chmod(0o755)
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "confined":
            for module in (sim.device, sim.zygote.specialize):
                patch.setattr(module, "os_isolation", lambda: False)
        thief = TtyDevice(folder)
        try:
            yield thief
        finally:
            thief.device.shutdown()
            shutil.rmtree(folder, ignore_errors=True)


def droidsim(*args: str) -> str:
    return " ".join([sys.executable, "-m", "sim.cli", *args])


def command_pid(shell: Shell) -> int:
    """The command the shell is running (its child)."""
    return wait_until(lambda: next((pid for pid, (ppid, _) in running_processes().items() if ppid == shell.process.pid),
                                   None), "the shell's command")


ENDED_BY = {"ctrl-c": 130, "ctrl-c thrice": 130, "sigterm": 128 + signal.SIGTERM, "sigkill": 128 + signal.SIGKILL,
            "eof": 0}


def end(shell: Shell, how: str) -> None:
    if how == "ctrl-c":
        shell.type("\x03")
    elif how == "ctrl-c thrice":  # to an agent deaf to it
        shell.type("\x03\x03\x03")
    elif how == "eof":
        shell.type("\x04")
    else:
        os.kill(command_pid(shell), signal.SIGTERM if how == "sigterm" else signal.SIGKILL)


def assert_nothing_reached_the_users_terminal(thief: TtyDevice, shell: Shell, killed: bool = False) -> None:
    """``killed``: the command had no time to wait for its agent; the keeper ends it all once
    it sees the command gone, a moment later."""
    report = thief.report()
    # The user's terminal: the shell's session (the shell leads it) and device number.
    users = [p for p in report["pushed"] if p["session"] == shell.process.pid or p["terminal"] == shell.terminal]
    assert users == [], "TIOCSTI reached the user's terminal"
    for pid, who in ((report["pid"], "the app's agent process"), (report["lurker"], "its double-forked leftover")):
        assert (gone(pid) if killed else not alive(pid)), f"{who} (pid {pid}) outlived the command"
    if thief.os_uid is not None:
        left = [pid for pid, (_, uid) in running_processes().items() if uid == thief.os_uid]
        assert left == [], f"processes of the app's uid {thief.os_uid} outlived the command"
    if not killed:
        assert termios.tcgetattr(shell.master) == shell.settings, "the terminal is given back as it was"
    shell.type("echo typed-$((1+1))\n")  # what the user types next reaches the shell, whole
    shell.wait_for(r"typed-2", "the shell to run what the user typed next")
    assert RAN not in shell.output, "the shell ran what the app typed"
    touched = [e for e in thief.lurker_log() if e["session"] == shell.process.pid or e["terminal"] == shell.terminal]
    assert touched == [], "the leftover read or typed into the user's terminal"


@pytest.mark.parametrize("how", ["answers", "fails", "ctrl-c", "ctrl-c thrice", "sigterm", "sigkill"])
def test_droidsim_agent_never_gives_the_app_the_users_terminal_and_leaves_nothing_running(thief, how):
    if thief.os_uid is None and how != "answers":
        pytest.skip("the ways of ending are the root case's; the confined case is the strongest attacker's")
    thief.fresh({"fails": "fail", "ctrl-c thrice": "deaf"}.get(how, ""))
    shell = thief.shell()
    try:
        if how in ("answers", "fails"):
            status = shell.run(droidsim("agent", "--as", TTY, "'Say hello'"))
            assert status == (0 if how == "answers" else 1), shell.output
        else:
            shell.type(droidsim("agent", "--as", TTY) + "; printf 'STATUS=%s.\\n' $?\n")
            if how == "ctrl-c thrice":
                wait_until(lambda: (thief.home / "attack.json").exists(), "the app's agent to be built")
            else:
                shell.wait_for(r"you>", "the agent's prompt")
            end(shell, how)
            status = int(shell.wait_for(r"STATUS=(\d+)\.", "the command to end")[1])
            assert status == ENDED_BY[how], shell.output
        assert thief.report()["pushed"], "the attack ran, and typed into the agent's own terminal"
        assert_nothing_reached_the_users_terminal(thief, shell, killed=how == "sigkill")
    finally:
        shell.close()


@pytest.mark.parametrize("how", ["eof", "sigterm"])
def test_droidsim_mcp_never_gives_the_app_the_users_terminal_and_leaves_nothing_running(thief, how):
    if thief.os_uid is None and how == "sigterm":
        pytest.skip("the ways of ending are the root case's; the confined case is the strongest attacker's")
    thief.fresh()
    shell = thief.shell()
    try:
        shell.type(droidsim("mcp", "--as", TTY) + "; printf 'STATUS=%s.\\n' $?\n")
        wait_until(lambda: (thief.home / "attack.json").exists(), "the app's agent to be built")
        end(shell, how)
        status = int(shell.wait_for(r"STATUS=(\d+)\.", "the command to end")[1])
        assert status == ENDED_BY[how], shell.output
        assert_nothing_reached_the_users_terminal(thief, shell)
    finally:
        shell.close()


def test_the_app_cannot_end_the_keeper_through_its_own_terminal(thief):
    """The keeper leads the agent's session: the app made the keeper's group the foreground one
    of its terminal and typed ^\\ there, and the line discipline sent the keeper SIGQUIT, which
    neither a uid nor Landlock stops. The keeper died, and the app's leftover ran on after the
    command had ended. Defence: the keeper ignores what a terminal sends but ^C and SIGHUP."""
    thief.fresh("signal-keeper")
    shell = thief.shell()
    try:
        status = shell.run(droidsim("agent", "--as", TTY, "'Say hello'"))
        signalled = (thief.home / "signalled").read_text()
        if signalled.startswith("refused") and thief.os_uid is not None:
            pytest.skip(f"TIOCSTI {signalled} (dev.tty.legacy_tiocsti is 0): the app cannot type into its terminal")
        assert signalled == "typed", "the app put the keeper's group in front and typed ^\\ and ^Z"
        assert status == 0, shell.output
        assert_nothing_reached_the_users_terminal(thief, shell)
    finally:
        shell.close()


def test_a_line_the_app_never_ends_reaches_the_mcp_command_as_it_comes(thief):
    """F08 by another descriptor: ``mcp --as`` copied what the app's process printed a line at a
    time, so a line that never ended was held whole in the command (1.5 GiB written, 1.6 GiB
    held). Defence: it is copied 64 KiB at a time; here a 1 MiB line reaches the command's
    stderr while the app still holds it open."""
    thief.fresh("flood")
    command = subprocess.Popen([sys.executable, "-m", "sim.cli", "mcp", "--as", TTY], env=thief.environment(),
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    copied = [0]

    def count() -> None:
        while chunk := command.stderr.read1(65536):
            copied[0] += chunk.count(b"A")

    threading.Thread(target=count, daemon=True).start()
    try:
        wait_until(lambda: copied[0] >= FLOOD, "the app's unended line to reach the command's stderr")
    finally:
        command.terminate()  # the app never finishes building its agent: the command is ended so
        command.wait(EVENT_BOUND)
    assert not alive(thief.report()["lurker"]), "the app's leftover ended with the command"


def test_the_attack_types_into_the_shell_from_a_process_that_holds_the_terminal():
    if Path("/proc/sys/dev/tty/legacy_tiocsti").read_text().strip() == "0" and os.geteuid() != 0:
        pytest.skip("dev.tty.legacy_tiocsti is 0 and this test runs without CAP_SYS_ADMIN: TIOCSTI cannot "
                    "work on this kernel, so there is no attack to show")
    shell = Shell({"PATH": os.environ["PATH"], "HOME": "/"})
    try:
        shell.run(f"{sys.executable} {TTY_APP / 'agent.py'} inject")
        shell.wait_for(RAN, "the shell to run what the attack typed")
    finally:
        shell.close()


def test_a_process_left_holding_the_terminal_reads_what_is_typed_next(tmp_path):
    log, pid = tmp_path / "lurker.log", tmp_path / "pid"
    shell = Shell({"PATH": os.environ["PATH"], "HOME": "/"})
    try:
        # One line: the shell has read it before the leftover starts, and then waits without
        # reading its terminal, as it does while a command runs.
        shell.type(f"{sys.executable} {TTY_APP / 'agent.py'} lurk {log} > {pid}; "
                   f"while [ ! -s {log} ]; do sleep 0.05; done; echo lurked-$((1))\n")
        wait_until(lambda: pid.exists() and pid.read_text().strip(), "the leftover to start")
        shell.type("my secret\n")
        shell.wait_for(r"lurked-1\s", "the leftover to read the line")
        assert [json.loads(line)["read"] for line in log.read_text().splitlines()] == ["my secret\n"]
    finally:
        if pid.exists() and pid.read_text().strip():
            os.kill(int(pid.read_text()), signal.SIGKILL)
        shell.close()
