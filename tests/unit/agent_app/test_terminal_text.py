"""What an app's agent writes reaches the user's terminal as text to show, never as a request
the terminal answers by typing (sim/agent_app/terminal.py, TerminalText)."""

from __future__ import annotations

import tracemalloc

import pytest

from sim.agent_app.terminal import TerminalText


def shown(*writes: bytes) -> bytes:
    text = TerminalText()
    return b"".join(text.feed(write) for write in writes)


def test_text_colours_and_cursor_movement_pass():
    written = "héllo €\r\n\x1b[1;31mred\x1b[0m \x1b[2K\x1b[10;5H\x1b[?25l\x1b[?1049h\ttab\x07".encode()
    assert shown(written) == written


@pytest.mark.parametrize("sequence", [
    b"\x1b[6n",  # where is the cursor: answered as input
    b"\x1b[c", b"\x1b[0c", b"\x1b[>c",  # device attributes
    b"\x1b[21t", b"\x1b[14t",  # the window's title and size, reported
    b"\x1b]0;a title\x07", b"\x1b]52;c;cm0gLXJmIH4=\x1b\\",  # a title; the clipboard
    b"\x1bP$qm\x1b\\", b"\x1bP+q544e\x1b\\",  # DECRQSS, XTGETTCAP
    b"\x05", b"\x1bZ",  # ENQ (answerback), DECID
    "\x9b6n".encode(), "\x9d0;t\x07".encode(),  # C1 CSI and OSC, as UTF-8
    b"\x1b[?1000h", b"\x1b[?1004h",  # reports of the mouse and of focus
    b"\x1b(0",  # the line-drawing character set
])
def test_a_sequence_that_makes_the_terminal_answer_or_change_is_dropped(sequence):
    assert shown(b"a" + sequence + b"b") == b"ab"


def test_a_sequence_split_between_writes_is_held_until_whole():
    assert shown(b"x\x1b", b"[3", b"1mred") == b"x\x1b[31mred"
    assert shown(b"x\x1b]0;ti", b"tle\x07y") == b"xy"
    assert shown("é".encode()[:1], "é".encode()[1:]) == "é".encode()


def test_a_sequence_longer_than_its_bound_is_dropped_whole():
    assert shown(b"a\x1b[" + b"1;" * 10_000 + b"mb") == b"ab"
    assert shown(b"a\x1b[" + b"1;" * 50, b"1;" * 50, b"mb") == b"ab"
    assert shown(b"a\x1b" + b" " * 10_000 + b"0b") == b"ab"  # ESC, intermediates, a final
    assert shown(b"a\x1b" + b" " * 50, b" " * 50, b"0b") == b"ab"


def test_a_sequence_that_never_ends_is_not_held():
    """An app's agent wrote ESC, then spaces (intermediates) without end: the filter held all of
    them and scanned them again at each write, and the command spun on its relay. Past its bound
    a sequence is dropped as it comes."""
    text = TerminalText()
    tracemalloc.start()
    try:
        assert text.feed(b"\x1b") == b""
        for _ in range(16):
            assert text.feed(b" " * 65536) == b""
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 64 * 1024, f"{held} bytes held after 1 MiB of an unfinished sequence"
