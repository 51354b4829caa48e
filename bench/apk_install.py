"""APK install time against a folder install of the same app, in the same run.

The app is the test APK tests/apks/shop.apk and the folder ``droidsim apk extract`` writes of
it (docs/examples/kotlin-shop/shop): the same catalog, so the difference is what an APK adds,
reading the zip and decoding it in the verifier's child. Installs take turns, each an update
of the one package (a folder and an unsigned APK may update each other), after one of each
that starts the verifier and loads the APK reader there.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.report import Report, Row, Target
from bench.stats import Summary

ROOT = Path(__file__).resolve().parent.parent
APK = ROOT / "tests" / "apks" / "shop.apk"
FOLDER = ROOT / "docs" / "examples" / "kotlin-shop" / "shop"
TARGET_RATIO = 2.0


def run(report: Report, *, rounds: int) -> None:
    from sim.device import Device

    folder_ns: list[int] = []
    apk_ns: list[int] = []
    with tempfile.TemporaryDirectory(prefix="droidsim-bench-apk-") as scratch, Device(Path(scratch) / "data") as device:
        for source in (FOLDER, APK):  # warm: the verifier's zygote, androguard in it
            device.install(source)
        for _ in range(rounds):
            for source, durations in ((FOLDER, folder_ns), (APK, apk_ns)):
                start = time.perf_counter_ns()
                device.install(source)
                durations.append(time.perf_counter_ns() - start)
    folder, apk = Summary.of(folder_ns), Summary.of(apk_ns)
    baseline = report.baseline("folder install of the same app p50", folder.p50, "ns")
    report.add(Row("APK install p50", apk.p50, "ns", baseline, Target("ratio_at_most", TARGET_RATIO),
                   detail={"installs": apk.count, "apk": str(APK.relative_to(ROOT)), "folder_p99_ns": folder.p99,
                           "apk_p99_ns": apk.p99}))
