"""The APK rows of make bench: the shop against its folder, and the shop with an AndroidX-sized
resource table, first decoded and then installed again; left out, saying why, without the tools."""

from __future__ import annotations

import pytest

from bench import apk_install
from bench.report import Report
from tests.apks.build import missing_tools

pytest.importorskip("androguard", reason="reading APKs needs androguard (a dependency of droidsim)")


@pytest.mark.skipif(bool(missing_tools()), reason=f"building the large-table APK needs {', '.join(missing_tools())}")
def test_each_row_is_against_the_folder_of_the_same_app() -> None:
    report = Report()
    apk_install.run(report, rounds=2, large_table_rounds=1)
    assert [(row.figure, row.baseline.name, row.target and row.target.limit) for row in report.rows] == [
        ("APK install p50", "folder install of the same app p50", 2.0),
        ("APK install, AndroidX-sized resource table p50",  # information: the resource reader's cost
         "folder install of the same app, AndroidX-sized resource table p50", None),
        ("APK install, AndroidX-sized resource table, the same build again p50",  # what users repeat
         "folder install of the same app, AndroidX-sized resource table p50", 1.5),
    ]
    large = report.rows[1]
    assert large.detail["apk"].startswith("the shop with 150 strings in 83 locales, resources.arsc ")
    # the table is what an install of it pays for, and a kept decode is what it saves
    assert large.value > report.rows[0].value and report.rows[2].value < large.value


def test_without_the_build_tools_the_large_table_row_says_what_is_missing(monkeypatch) -> None:
    monkeypatch.setattr("tests.apks.build.missing_tools", lambda: ["aapt2"])
    report = Report()
    apk_install.run(report, rounds=1, large_table_rounds=1)
    assert [row.figure for row in report.rows] == ["APK install p50"]
    assert report.notes == ["APK install with an AndroidX-sized resource table: not measured, this machine lacks "
                            "aapt2 to build it (Debian: aapt, zipalign, apksigner, android-framework-res)"]
