"""CPU accounting from /proc: a process tree's CPU is what the throughput rows divide by calls."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.cpu import PROC, descendants, parent_of, process_cpu_ns, tree_cpu_ns

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="needs /proc (Linux)")


def test_a_tree_holds_the_process_and_its_children():
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert parent_of(child.pid) == os.getpid()
        assert {os.getpid(), child.pid} <= set(descendants(os.getpid()))
        assert descendants(child.pid) == [child.pid]
    finally:
        child.communicate(b"")


def test_cpu_time_is_counted_for_a_live_process_and_none_for_a_gone_one():
    sum(range(2_000_000))  # spend some CPU
    own = process_cpu_ns(os.getpid())
    assert own is not None and own > 0
    assert tree_cpu_ns(os.getpid()) >= own
    assert process_cpu_ns(2**22 + 12345) is None  # beyond the largest pid_max: no such process
