"""APK install time against a folder install of the same app, in the same run.

The app is the test APK tests/apks/shop.apk and the folder ``droidsim apk extract`` writes of
it (docs/examples/kotlin-shop/shop): the same catalog, so the difference is what an APK adds,
reading the zip and decoding it in the verifier's child. Installs take turns, each an update
of the one package (a folder and an unsigned APK may update each other), after one of each
that starts the verifier and loads the APK reader there.

The shop's resources.arsc is 1.7 kB; an app built with AndroidX ships the libraries' strings
in some eighty locales, a table of the order of 1 MB (an estimate: no real app was at hand). So
a second pair installs the shop built with such a table (150 strings in its default and 82 other
locales, none of them read by droidsim), against its extracted folder: built here with aapt2
where the machine has Debian's Android tools, else left out with a note that says so.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bench.report import Report, Row, Target
from bench.stats import Summary

ROOT = Path(__file__).resolve().parent.parent
APK = ROOT / "tests" / "apks" / "shop.apk"
FOLDER = ROOT / "docs" / "examples" / "kotlin-shop" / "shop"
TARGET_RATIO = 2.0
# An app built with AndroidX: its first install pays for reading its resource table (information,
# the reader's cost); what users repeat, installing the same build again, has the target.
SAME_BUILD_AGAIN_RATIO = 1.5
# The locales AndroidX's resources come in (values-<qualifier>), and strings per locale.
LOCALES = ("af am ar as az be bg bn bs ca cs da de el en-rAU en-rCA en-rGB en-rIN es es-rUS et eu fa fi "
           "fr-rCA gl gu hi hr hu hy in is it iw ja ka kk km kn ko ky lo lt lv mk ml mn mr ms my nb ne nl or "
           "pa pl pt pt-rBR pt-rPT ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh-rCN zh-rHK zh-rTW "
           "zu").split()
LIBRARY_STRINGS = 150


def run(report: Report, *, rounds: int, large_table_rounds: int) -> None:
    from sim.pm.apk_tools import extracted
    from sim.platform_version import NEWEST
    from tests.apks.build import missing_tools

    _pair(report, APK, FOLDER, rounds, "", f"{APK.relative_to(ROOT)}, resources.arsc {_table_bytes(APK):,} bytes",
          again=False)
    if missing := missing_tools():
        report.notes.append(f"APK install with an AndroidX-sized resource table: not measured, this machine lacks "
                            f"{', '.join(missing)} to build it (Debian: aapt, zipalign, apksigner, android-framework-res)")
        return
    with tempfile.TemporaryDirectory(prefix="droidsim-bench-apk-") as scratch:
        apk = _large_table_shop(Path(scratch))
        with extracted(apk, NEWEST.sdk_int) as (folder, _):
            _pair(report, apk, folder, large_table_rounds, ", AndroidX-sized resource table",
                  f"the shop with {LIBRARY_STRINGS} strings in {len(LOCALES) + 1} locales, "
                  f"resources.arsc {_table_bytes(apk):,} bytes", again=True)


def _pair(report: Report, apk: Path, folder: Path, rounds: int, label: str, about: str, *, again: bool) -> None:
    """The first row installs an APK the device has not decoded (its decodes are forgotten
    first, outside the time); ``again``: also the same build installed once more, its decode
    kept (sim/pm/decoded_apks.py), which then has the target and the first install none."""
    from sim.device import Device
    from sim.pm.decoded_apks import DecodedApks

    decoded_apks = DecodedApks()
    turns = [(folder, "folder"), (apk, "apk")] + ([(apk, "again")] if again else [])
    series: dict[str, list[int]] = {kind: [] for _, kind in turns}
    with tempfile.TemporaryDirectory(prefix="droidsim-bench-apk-") as scratch, \
            Device(Path(scratch) / "data", decoded_apks=decoded_apks) as device:
        for source in (folder, apk):  # warm: the verifier's zygote, androguard in it
            device.install(source)
        for _ in range(rounds):
            for source, kind in turns:
                if kind == "apk":
                    decoded_apks.clear()
                start = time.perf_counter_ns()
                device.install(source)
                series[kind].append(time.perf_counter_ns() - start)
    folder_installs, apk_installs = Summary.of(series["folder"]), Summary.of(series["apk"])
    baseline = report.baseline(f"folder install of the same app{label} p50", folder_installs.p50, "ns")
    report.add(Row(f"APK install{label} p50", apk_installs.p50, "ns", baseline,
                   None if again else Target("ratio_at_most", TARGET_RATIO),
                   detail={"installs": apk_installs.count, "apk": about, "folder_p99_ns": folder_installs.p99,
                           "apk_p99_ns": apk_installs.p99}))
    if again:
        report.add(Row(f"APK install{label}, the same build again p50", Summary.of(series["again"]).p50, "ns",
                       baseline, Target("ratio_at_most", SAME_BUILD_AGAIN_RATIO),
                       detail={"installs": len(series["again"]), "apk": about}))


def _large_table_shop(scratch: Path) -> Path:
    """tests/apks/shop with AndroidX-sized string resources, built by aapt2 into ``scratch``."""
    from tests.apks.build import build_unsigned

    source = scratch / "shop"
    shutil.copytree(ROOT / "tests" / "apks" / "shop", source)
    for qualifier in ("", *LOCALES):
        values = source / "res" / ("values" + (f"-{qualifier}" if qualifier else ""))
        values.mkdir(exist_ok=True)
        strings = "".join(f'    <string name="library_string_{i}">Text {i} of a library ({qualifier or "default"})</string>\n'
                          for i in range(LIBRARY_STRINGS))
        (values / "library_strings.xml").write_text(f"<resources>\n{strings}</resources>\n")
    apk = scratch / "shop-large-table.apk"
    build_unsigned(source, apk)
    return apk


def _table_bytes(apk: Path) -> int:
    import zipfile

    with zipfile.ZipFile(apk) as archive:
        return archive.getinfo("resources.arsc").file_size
