"""The bench's device process: ``python -m bench.device_process --data DIR``.

It does what ``droidsim device start`` does for an already-installed data
directory (restore every package, then serve on the Unix socket in it), and
times itself from the first line of this module, before any import, to
serving: the "boot to ready" of the issue, measured inside the process. The
CLI's own "device ready in N ms" starts after its imports, so it cannot be
used for this.
"""

import time

STARTED_NS = time.perf_counter_ns()

import argparse  # noqa: E402 - after the clock starts, on purpose
from pathlib import Path  # noqa: E402

from bench.child import announce_ready, wait_for_parent  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--profile", type=Path, help="Write a cProfile of every thread here at exit.")
    parser.add_argument("--timeline", type=Path, help="Write bench.timeline's notes of each call here at exit.")
    args = parser.parse_args()

    from sim.device import Device

    marks = None
    if args.timeline:
        from bench.timeline import Marks, instrument_device

        marks = Marks()
        instrument_device(marks)

    imported_ns = time.perf_counter_ns()
    device = Device(args.data)
    restored_ns = time.perf_counter_ns()
    address = device.serve()
    ready_ns = time.perf_counter_ns()
    announce_ready(
        address=address,
        boot_ns=ready_ns - STARTED_NS,
        phases_ns={
            "import": imported_ns - STARTED_NS,
            "restore": restored_ns - imported_ns,
            "serve": ready_ns - restored_ns,
        },
        packages=len(device.registry.all()),
    )
    profiles = None
    if args.profile:
        from bench.profiling import ThreadProfiles

        profiles = ThreadProfiles()
        profiles.install()
    try:
        wait_for_parent()
    finally:
        if profiles is not None:
            profiles.dump(args.profile)
        if marks is not None:
            marks.dump(args.timeline)
        device.shutdown()


if __name__ == "__main__":
    main()
