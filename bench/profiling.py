"""CPU profiles of every thread of a process (py-spy is not available here).

``cProfile`` follows one thread; a device call crosses several (gRPC's
workers, the reply reader, the app's loop), so each thread that starts after
``ThreadProfiles.install()`` gets its own profiler, and ``dump`` merges them.
The clock is the thread's CPU time, so a thread blocked waiting for another
costs nothing and the profile says where the CPU goes, which is what limits
throughput on a small machine.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import threading
import time
from pathlib import Path


class ThreadProfiles:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._profiles: list[cProfile.Profile] = []

    def install(self) -> None:
        """Profile this thread and every thread started from now on."""
        threading.setprofile(self._start_thread)
        self._enable_here()

    def _start_thread(self, frame, event, arg) -> None:  # sys.setprofile's signature
        sys.setprofile(None)
        self._enable_here()

    def _enable_here(self) -> None:
        profile = cProfile.Profile(time.thread_time_ns, 1e-9)
        with self._lock:
            self._profiles.append(profile)
        profile.enable()

    def dump(self, path: Path) -> None:
        """Merge every thread's profile into one pstats file."""
        threading.setprofile(None)
        with self._lock:
            profiles = list(self._profiles)
        merged: pstats.Stats | None = None
        for profile in profiles:
            profile.disable()
            profile.create_stats()
            if not profile.stats:  # a thread that never ran a profiled call
                continue
            if merged is None:
                merged = pstats.Stats(profile)
            else:
                merged.add(profile)
        if merged is not None:
            merged.dump_stats(str(path))
