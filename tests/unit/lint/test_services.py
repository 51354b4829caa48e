"""R1: a function a second AppFunctionService declares reaches the wrong service on Android 16,
unless Android 16 does not index that service (an APK's android:enabled="@bool/..." with a
-v37 override: the fix R1 itself proposes)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sim.cli.main import cli
from sim.lint import lint_apps
from sim.lint.reader import read_app

REPO = Path(__file__).resolve().parents[3]
R1_APP = REPO / "tests" / "unit" / "lint" / "corpus" / "r1_second_service"
SHOP_APK = REPO / "tests" / "apks" / "shop.apk"


def _r1(app_dir: Path, **options) -> list[str]:
    (app,) = lint_apps([app_dir], **options).apps
    return [f.message for f in app.findings if f.rule == "R1"]


def test_a_second_services_function_is_reported():
    assert _r1(R1_APP) != []


def test_a_second_service_android_16_does_not_index_is_not_reported():
    first, *others = read_app(R1_APP, import_code=False).services
    assert others
    assert _r1(R1_APP, android16_services={R1_APP: [first]}) == []


def test_an_apk_whose_second_service_is_off_below_v37_gets_no_r1():
    result = CliRunner().invoke(cli, ["lint", str(SHOP_APK), "--json"])
    rules = [f["rule"] for app in json.loads(result.output)["apps"] for f in app["findings"]]
    assert "R1" not in rules and "D1" in rules

