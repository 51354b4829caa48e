"""The keeper of an agent app's agent: ``python -I -m sim.agent_app.keeper --lifeline-fd N ...``
(started by launch.py in a session of its own), the parent of the app's process.

The app's code may fork, detach (``setsid``) and double-fork; whatever it starts must still end
with the command that started it, without root and whether the command ends normally, on ^C,
on SIGTERM or is killed. So the keeper, which never runs anything of the app's:

- forks the app's process (sim/agent_app/child.py), which makes a process group of its own
  that nothing it starts can leave (sim/agent_app/process_group.py), then becomes the app;
- makes the agent's own pseudo-terminal (launch.py's, when there is one) its session's
  controlling terminal, with the app's group in its foreground, so ^C typed there reaches the
  app; ^C sent to the keeper (the command passes on its own) is passed on to the app's group;
- is a child subreaper (``PR_SET_CHILD_SUBREAPER``): every process the app starts stays its
  descendant, however it detaches, as orphans are reparented to it rather than to init;
- watches the lifeline, a pipe whose other end only the command holds: end of file there means
  the command has ended, however it ended;
- when the app's process ends or the command does, kills the app's group with SIGKILL (at
  once: a group signal is atomic against fork), then every process still below it, until none
  is left, and only then exits (with the app's exit code), so that once the command has
  waited for the keeper nothing of the app runs.

It imports nothing but the standard library (and sim/processes.py) before it forks: it stays small and single-threaded.
The app's uid (as root) cannot signal or trace it; without root, Landlock (ABI 6, Linux 6.12)
keeps the app from signalling it, and from tracing it at any ABI (docs/security.md). Their
terminal is another matter: the keeper leads the session, so the app may make the keeper's
group the terminal's foreground one (``tcsetpgrp``) and type ^\\ or ^Z there (``TIOCSTI``), and
the line discipline signals that group with no permission check at all; so the keeper ignores
every signal a terminal sends but ^C (passed on to the app) and SIGHUP (an end).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import select
import signal
import sys
import termios

from sim.processes import descendants

_PR_SET_CHILD_SUBREAPER = 36
_ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
# What a terminal sends its foreground group besides ^C and a hang-up. SIGQUIT would end the
# keeper and leave what the app started running; the others would stop it.
_TERMINAL_SIGNALS = (signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)


class _Ended(Exception):
    """The command asked the agent to end (SIGTERM, SIGHUP)."""


def main(argv: list[str]) -> None:
    lifeline = _lifeline_fd(argv)
    terminal = _take_the_agents_terminal()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    for number in _ENDING_SIGNALS:
        signal.signal(number, _end)
    for number in _TERMINAL_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    app = os.fork()
    if app == 0:
        os.close(lifeline)
        for number in (*_ENDING_SIGNALS, *_TERMINAL_SIGNALS):
            signal.signal(number, signal.SIG_DFL)
        from sim.agent_app import child, process_group

        unpinned = process_group.pin()
        if unpinned:
            print(f"warning: {unpinned}: what the agent starts may leave its process group, and is then ended "
                  "by a walk of /proc, which a process forking without end can outrun (docs/security.md)",
                  file=sys.stderr)
        child.main(argv, keeper=os.getppid())
        return
    with contextlib.suppress(OSError):  # done by the child too; it may have ended already
        os.setpgid(app, app)
        if terminal is not None:
            os.tcsetpgrp(terminal, app)
    signal.signal(signal.SIGINT, lambda *_: _signal_group(app, signal.SIGINT))
    os.closerange(3, lifeline)  # the app's descriptors (its settings, its socket) are the app's alone
    os.closerange(lifeline + 1, os.sysconf("SC_OPEN_MAX"))
    try:
        _watch(app, lifeline)
    except _Ended:
        pass
    finally:
        for number in (signal.SIGINT, *_ENDING_SIGNALS):
            signal.signal(number, signal.SIG_IGN)
        code = end_the_app(app)
    sys.exit(code)


def _lifeline_fd(argv: list[str]) -> int:
    """``--lifeline-fd N`` taken out of ``argv`` (the rest is the app's process's)."""
    at = argv.index("--lifeline-fd")
    fd = int(argv[at + 1])
    del argv[at:at + 2]
    return fd


def _take_the_agents_terminal() -> int | None:
    """The pseudo-terminal on the standard streams, if any, becomes this session's controlling
    terminal. Never taken from another session (argument 0): a terminal that is the user's
    stays the user's."""
    for fd in (0, 1, 2):
        if os.isatty(fd):
            fcntl.ioctl(fd, termios.TIOCSCTTY, 0)
            return fd
    return None


def _end(number: int, _frame: object) -> None:
    raise _Ended(signal.Signals(number).name)


def _signal_group(group: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, number)


def _watch(app: int, lifeline: int) -> None:
    """Until the app's process has ended (left unreaped); raises _Ended once the command has."""
    poller = select.poll()
    poller.register(os.pidfd_open(app), select.POLLIN)
    poller.register(lifeline, select.POLLIN)
    while True:
        for fd, _events in poller.poll():
            if fd != lifeline:
                return
            if not os.read(lifeline, 1):
                raise _Ended("the command ended")


def end_the_app(app: int) -> int:
    """Kill the app's group, then whatever is still below this process; the app's exit code
    (128 + N where a signal N ended it, as a shell says it). Called before the app is reaped,
    so its group's number cannot be anyone else's yet."""
    _signal_group(app, signal.SIGKILL)
    code = os.waitstatus_to_exitcode(os.waitpid(app, 0)[1])
    end_every_descendant()
    return code if code >= 0 else 128 - code


def end_every_descendant() -> None:
    """SIGKILL everything below this process and reap it, until nothing is left. A process
    forked while the last ones were being killed is found on the next pass: as a subreaper,
    this process inherits whatever they leave."""
    while True:
        for pid in descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(-1, 0)
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:  # no child left: nothing below this process runs
            return


if __name__ == "__main__":
    main(sys.argv[1:])
