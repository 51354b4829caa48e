"""The agent's own pseudo-terminal, relayed to the user's (``droidsim agent --as`` on a terminal).

The app's code must never hold the user's terminal: with it, ``TIOCSTI`` types commands the
user's shell runs once droidsim exits, and a process left behind reads what the user types
next. So where the command's standard streams are a terminal, the agent gets a pseudo-terminal
of its own in their place (its settings and size copied from the user's), and this process
copies bytes between the two: what the user types goes to the agent's terminal, where its line
discipline handles echo and ^C (typed three times within two seconds, ^C ends the agent
whether it answers or not); what the agent writes comes back through ``TerminalText``,
which lets text, colours and cursor movement through but no sequence that makes the terminal
answer (a status or title report, which a terminal types as input), set a title or the
clipboard, or turn on reports of the mouse or focus. The user's terminal is put in raw mode for
the while, and restored.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import fcntl
import os
import re
import select
import signal
import termios
import time
import tty
from typing import Any

_READ = 64 * 1024
_PENDING_INPUT_BOUND = 64 * 1024  # typed ahead of an agent that does not read: the rest is dropped
# ^C typed this many times within these seconds ends the agent, whether it answers ^C or not.
_INTERRUPTS_TO_END, _INTERRUPTS_WITHIN = 3, 2.0


class AgentTerminal:
    def __init__(self, ttys: list[int]) -> None:
        self._ttys = ttys
        self.master, self._slave = os.openpty()
        settings = termios.tcgetattr(ttys[0])
        settings[6][termios.VSUSP] = b"\0"  # ^Z would stop the agent with nobody to resume it
        termios.tcsetattr(self._slave, termios.TCSANOW, settings)
        copy_size(ttys[0], self.master)
        self._input = 0 if 0 in ttys and _in_the_foreground(0) else None
        self._interrupt = settings[6][termios.VINTR]  # the user's ^C
        self._output = next((fd for fd in (1, 2) if fd in ttys), None)
        os.set_blocking(self.master, False)

    @classmethod
    def for_this_process(cls) -> AgentTerminal | None:
        """None when none of the standard streams is a terminal: the agent gets them as they are."""
        ttys = [fd for fd in (0, 1, 2) if os.isatty(fd)]
        return cls(ttys) if ttys else None

    def child_streams(self) -> dict[str, Any]:
        """Popen's streams: the agent's terminal in place of each that is the user's."""
        return {name: self._slave if fd in self._ttys else None
                for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2))}

    def relay_until_ended(self, pid: int) -> None:
        """Copy both ways until process ``pid`` (the agent's keeper) has ended, then what the
        agent wrote last."""
        os.close(self._slave)
        self._slave = -1
        ended = os.pidfd_open(pid)
        saved = termios.tcgetattr(self._input) if self._input is not None else None
        resized = signal.signal(signal.SIGWINCH, lambda *_: copy_size(self._ttys[0], self.master))
        try:
            if self._input is not None:
                tty.setraw(self._input, termios.TCSANOW)
            self._relay(ended)
        finally:
            signal.signal(signal.SIGWINCH, resized)
            if saved is not None:
                termios.tcsetattr(self._input, termios.TCSADRAIN, saved)
            os.close(ended)

    def _relay(self, ended: int) -> None:
        text = TerminalText()
        pending = b""
        interrupts: list[float] = []  # when ^C was typed lately
        poller = select.poll()
        poller.register(ended, select.POLLIN)
        poller.register(self.master, select.POLLIN)
        if self._input is not None:
            poller.register(self._input, select.POLLIN)
        master_open = True
        while True:
            if master_open:
                poller.modify(self.master, select.POLLIN | (select.POLLOUT if pending else 0))
            for fd, events in poller.poll():
                if fd == ended:
                    self._write(text.feed(self._drain()[0]))
                    return
                if fd == self._input:
                    typed = _read(fd)
                    if not typed:  # the user's terminal hung up
                        poller.unregister(fd)
                    interrupts = [t for t in interrupts if time.monotonic() - t < _INTERRUPTS_WITHIN]
                    interrupts += [time.monotonic()] * typed.count(self._interrupt)
                    if len(interrupts) >= _INTERRUPTS_TO_END:  # an agent that will not answer ^C
                        raise KeyboardInterrupt
                    pending = (pending + typed)[:_PENDING_INPUT_BOUND]
                    continue
                if events & select.POLLOUT and pending:
                    with contextlib.suppress(BlockingIOError):
                        pending = pending[os.write(self.master, pending):]
                if events & (select.POLLIN | select.POLLHUP | select.POLLERR):
                    written, closed = self._drain()
                    self._write(text.feed(written))
                    if closed and master_open:  # until the keeper has ended, only the end is awaited
                        poller.unregister(self.master)
                        master_open, pending = False, b""

    def _drain(self) -> tuple[bytes, bool]:
        """What the agent wrote, and whether no process holds its terminal any more."""
        chunks = []
        while True:
            try:
                chunk = _read(self.master)
            except BlockingIOError:
                return b"".join(chunks), False
            if not chunk:
                return b"".join(chunks), True
            chunks.append(chunk)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self._output is not None:
            view = view[os.write(self._output, view):]

    def close(self) -> None:
        for fd in (self._slave, self.master):
            if fd >= 0:
                os.close(fd)
        self._slave = self.master = -1


def _read(fd: int) -> bytes:
    """Up to 64 KiB; nothing once the terminal has hung up (EIO: no process holds its other end)."""
    try:
        return os.read(fd, _READ)
    except OSError as error:
        if error.errno != errno.EIO:
            raise
        return b""


def _in_the_foreground(fd: int) -> bool:
    """Whether this process may read the terminal ``fd`` (a background job would be stopped)."""
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:  # not this process's controlling terminal: no job control applies
        return True


def copy_size(source: int, target: int) -> None:
    with contextlib.suppress(OSError):
        fcntl.ioctl(target, termios.TIOCSWINSZ, fcntl.ioctl(source, termios.TIOCGWINSZ, b"\0" * 8))


# What a terminal is told to show, never to answer: SGR (colours), cursor movement, erasing,
# scrolling regions; the private modes of the cursor, wrapping, the alternate screen and
# bracketed paste. Anything else (DSR ``6n``, DA ``c``, window reports ``21t``...) is dropped.
_SHOWN_CSI = re.compile(r"\x1b\[[0-9;:]*[@A-HJKLMPSTXZ`abd-fmr]|\x1b\[\?(?:25|7|47|1047|1048|1049|2004)[hl]")
_SHOWN_ESC = set("78M=>")  # save and restore the cursor, reverse index, keypad modes
_STRINGS = set("]P_^X")  # OSC, DCS, APC, PM, SOS: titles, clipboard, queries; dropped whole
_ALLOWED_CONTROLS = set("\t\n\r\b\x07")
_SEQUENCE_BOUND = 64  # characters; past them an escape sequence is dropped, as it comes, to its end
# The 8-bit introducers, read as their 7-bit forms (a terminal in UTF-8 may honour either).
_C1 = {0x9B: "\x1b[", 0x9D: "\x1b]", 0x90: "\x1bP", 0x9E: "\x1b^", 0x9F: "\x1b_", 0x98: "\x1bX"}


class TerminalText:
    """A stream of bytes for a terminal, with every control sequence that is not in the lists
    above taken out; a sequence split between two writes is held until it is whole."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._held = ""  # the start of an escape sequence
        self._in_string = False
        self._dropping_to = ""  # in a sequence past its bound: the highest character before its final one

    def feed(self, data: bytes) -> bytes:
        text, out = self._held + self._decoder.decode(data).translate(_C1), []
        self._held, i = "", 0
        while i < len(text):
            char = text[i]
            if self._in_string:  # until BEL or ESC (ST is ESC \, whose backslash is dropped below)
                if char in "\x07\x1b":
                    self._in_string = False
                    i += char == "\x07"
                else:
                    i += 1
                continue
            if self._dropping_to:  # dropped up to its final character, and that too
                if not "\x20" <= char <= self._dropping_to:
                    self._dropping_to = ""
                i += 1
                continue
            if char != "\x1b":
                if char >= " " and not "\x7f" <= char <= "\x9f" or char in _ALLOWED_CONTROLS:
                    out.append(char)
                i += 1
                continue
            sequence, i = self._escape(text, i)
            if sequence is None:  # incomplete: held for the next write
                self._held = text[i:]
                break
            out.append(sequence)
        return "".join(out).encode()

    def _escape(self, text: str, i: int) -> tuple[str | None, int]:
        """The sequence at ``text[i]`` (ESC) if it may be shown, else "", and where it ends;
        None where it is not whole yet."""
        if i + 1 >= len(text):
            return None, i
        kind = text[i + 1]
        if kind in _STRINGS:
            self._in_string = True
            return "", i + 2
        if kind != "[":
            end = i + 1
            while end < len(text) and "\x20" <= text[end] <= "\x2f":  # intermediates (a character set: ESC ( 0)
                if end - i >= _SEQUENCE_BOUND:
                    self._dropping_to = "\x2f"
                    return "", end
                end += 1
            if end == len(text):
                return None, i
            return (text[i:end + 1] if end == i + 1 and kind in _SHOWN_ESC else ""), end + 1
        end = i + 2
        while end < len(text) and "\x20" <= text[end] <= "\x3f":
            if end - i >= _SEQUENCE_BOUND:
                self._dropping_to = "\x3f"
                return "", end
            end += 1
        if end == len(text):
            return None, i
        sequence = text[i:end + 1]
        return (sequence if _SHOWN_CSI.fullmatch(sequence) else ""), end + 1
