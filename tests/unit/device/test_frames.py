"""The device <-> app framing: whole payloads out, however the bytes arrive."""

from __future__ import annotations

import struct

import pytest

from sim.zygote.wire import MAX_FRAME_BYTES, FrameDecoder


def frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


def test_one_whole_frame_per_read():
    decoder = FrameDecoder()
    assert decoder.feed(frame(b"abc")) == [b"abc"]
    assert decoder.feed(frame(b"")) == [b""]


def test_frames_split_across_reads_and_several_in_one():
    decoder = FrameDecoder()
    data = frame(b"first") + frame(b"second") + frame(b"third")
    assert decoder.feed(data[:3]) == []  # not even a whole header
    assert decoder.feed(data[3:12]) == [b"first"]
    assert decoder.feed(data[12:]) == [b"second", b"third"]
    assert decoder.feed(frame(b"next")) == [b"next"]


def test_a_frame_longer_than_the_limit_is_refused():
    with pytest.raises(ConnectionError, match=f"exceeds {MAX_FRAME_BYTES}"):
        FrameDecoder().feed(struct.pack(">I", MAX_FRAME_BYTES + 1) + b"x")
