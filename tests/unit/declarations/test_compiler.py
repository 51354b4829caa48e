"""The compiler over app folders: generate, check (stale XML), byte stability, the CLI helper."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from droid.appfunctions.assets import APP_FUNCTIONS_SCHEMA
from droid.appfunctions.compiler import check, generate, manifest_services, run_generate
from tests.helpers import COMMAND_BOUND

REPO = Path(__file__).resolve().parents[3]
APPS = REPO / "apps"
# The ordinary sample apps, then the system image's (apps/system: the preinstalled agent).
SAMPLE_APPS = [
    p for root in (APPS, APPS / "system") for p in sorted(root.iterdir()) if (p / "AndroidManifest.xml").is_file()
]


def test_there_are_sample_apps():
    assert {p.name for p in SAMPLE_APPS} >= {"orders", "notes", "lights", "booking", "weather"}


@pytest.mark.parametrize("app", SAMPLE_APPS, ids=[p.name for p in SAMPLE_APPS])
def test_every_sample_app_xml_is_up_to_date(app):
    assert check(app) == [], f"run: droidsim appfunctions generate {app}"


@pytest.mark.parametrize("app", SAMPLE_APPS, ids=[p.name for p in SAMPLE_APPS])
def test_every_sample_app_has_described_functions(app):
    # Agents choose by description: every function and parameter of a sample app has one.
    for path, content in generate(app, write=False).items():
        root = etree.fromstring(content)
        for fn in root.findall("appfunction"):
            assert fn.findtext("description"), f"{path}: {fn.findtext('id')} has no description"
            for param in fn.findall("parameters"):
                assert param.findtext("description"), f"{fn.findtext('id')}: {param.findtext('name')}"
        metadata = etree.parse(str(app / "res/xml/app_metadata.xml")).getroot()
        assert metadata.get("{http://schemas.android.com/apk/res-auto}description")


@pytest.fixture
def orders_copy(tmp_path: Path) -> Path:
    target = tmp_path / "orders"
    shutil.copytree(APPS / "orders", target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_generate_is_byte_stable(orders_copy: Path):
    first = generate(orders_copy, write=False)
    second = generate(orders_copy, write=False)
    assert first == second
    path, schema = orders_copy / "assets" / "order_functions.xml", orders_copy / "assets" / "app_functions_schema.xsd"
    assert set(first) == {path, schema}
    assert first[schema] == APP_FUNCTIONS_SCHEMA.read_bytes()  # the library's app schema, as an AAR merges it
    # Same input, same bytes, also across a fresh import of the app's code.
    assert generate(orders_copy, write=False)[path] == (APPS / "orders/assets/order_functions.xml").read_bytes()


def test_generate_writes_missing_files_and_leaves_equal_ones_alone(orders_copy: Path):
    asset = orders_copy / "assets" / "order_functions.xml"
    asset.unlink()
    assert check(orders_copy) == [asset]
    generate(orders_copy)
    assert asset.is_file() and check(orders_copy) == []
    stamp = asset.stat().st_mtime_ns
    generate(orders_copy)
    assert asset.stat().st_mtime_ns == stamp


def test_check_finds_an_edited_xml(orders_copy: Path):
    asset = orders_copy / "assets" / "order_functions.xml"
    asset.write_bytes(asset.read_bytes().replace(b"ORD-8492", b"ORD-0000"))
    assert check(orders_copy) == [asset]


def test_check_finds_xml_made_stale_by_a_code_change(orders_copy: Path):
    source = orders_copy / "orders.py"
    source.write_text(source.read_text().replace("Fetches the status", "Looks up the status"))
    asset = orders_copy / "assets" / "order_functions.xml"
    assert check(orders_copy) == [asset]
    generate(orders_copy)
    assert b"Looks up the status" in asset.read_bytes()
    assert check(orders_copy) == []


def test_run_generate_reports_and_sets_the_exit_status(orders_copy: Path):
    out = io.StringIO()
    assert run_generate([orders_copy], check=True, out=out) == 0
    assert "up to date" in out.getvalue()

    asset = orders_copy / "assets" / "order_functions.xml"
    asset.write_text("<appfunctions/>")
    out = io.StringIO()
    assert run_generate([orders_copy], check=True, out=out) == 1
    assert f"stale: {asset}" in out.getvalue()
    assert "droidsim appfunctions generate" in out.getvalue()

    out = io.StringIO()
    assert run_generate([orders_copy], out=out) == 0
    assert f"wrote: {asset}" in out.getvalue()
    out = io.StringIO()
    assert run_generate([orders_copy], out=out) == 0
    assert f"unchanged: {asset}" in out.getvalue()


def test_compile_errors_are_reported_with_status_2(orders_copy: Path):
    source = orders_copy / "orders.py"
    source.write_text(
        source.read_text().replace("async def fetch_order_details(self, order_id: str)", "async def fetch_order_details(self, order_id: dict[str, str])")
    )
    err = io.StringIO()
    assert run_generate([orders_copy], out=io.StringIO(), err=err) == 2
    assert "fetch_order_details: parameter 'order_id': dict[str, str] is not supported" in err.getvalue()


def test_manifest_and_class_must_agree(orders_copy: Path):
    manifest = orders_copy / "AndroidManifest.xml"
    manifest.write_text(manifest.read_text().replace('android:value="order_functions.xml"', 'android:value="orders.xml"'))
    err = io.StringIO()
    assert run_generate([orders_copy], err=err) == 2
    assert "names the asset 'orders.xml' but its xml_file_name is 'order_functions'" in err.getvalue()


def test_service_name_must_match_the_manifest(orders_copy: Path):
    source = orders_copy / "orders.py"
    source.write_text(source.read_text().replace(
        'service_name = "com.example.orders.OrderFunctionService"', 'service_name = "com.example.orders.Other"'
    ))
    err = io.StringIO()
    assert run_generate([orders_copy], err=err) == 2
    assert "service_name is 'com.example.orders.Other' but the manifest names" in err.getvalue()


def test_manifest_services_reads_relative_names(tmp_path: Path):
    (tmp_path / "AndroidManifest.xml").write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.x">'
        "<application><service android:name=\".Svc\">"
        '<intent-filter><action android:name="android.app.appfunctions.AppFunctionService"/></intent-filter>'
        '<property android:name="android.app.appfunctions.v2" android:value="f.xml"/>'
        "</service></application></manifest>"
    )
    (service,) = manifest_services(tmp_path)
    assert (service.name, service.xml_asset) == ("com.x.Svc", "f.xml")


@pytest.mark.parametrize("app", SAMPLE_APPS, ids=[p.name for p in SAMPLE_APPS])
def test_the_device_reads_back_what_the_compiler_means(app):
    """The generated XML passes the device's validation (schemas/) and its reader gives the
    same metadata as the declarations."""
    function_xml = pytest.importorskip("sim.pm.function_xml")
    from droid.appfunctions.compiler import build_metadata, entry_points
    from droid.appfunctions.loader import manifest_package

    package = manifest_package(app)
    for service, spec in entry_points(app, reload=False):
        document = function_xml.parse_function_xml(app / "assets" / service.xml_asset, package, service.name)
        functions, components = build_metadata(spec, package)
        assert document.components == components
        assert [f.id for f in document.functions] == [f.id for f in functions]
        for parsed, built in zip(document.functions, functions):
            # The reader may not know droidsim's <isDestructive> yet; it must not invent it.
            assert parsed.is_destructive in (built.is_destructive, False)
            for message in (parsed, built):
                message.is_destructive = False
                message.is_enabled = False
            assert parsed == built


def test_output_does_not_depend_on_the_process(tmp_path: Path):
    """Byte stability across interpreters: different hash seeds give the same bytes."""
    script = (
        "import sys; from pathlib import Path; from droid.appfunctions.compiler import generate\n"
        "for app in sys.argv[1:]:\n"
        "    for path, content in sorted(generate(Path(app), write=False).items()):\n"
        "        sys.stdout.buffer.write(content)\n"
    )
    apps = [str(p) for p in SAMPLE_APPS]
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script, *apps], capture_output=True, env=env, timeout=COMMAND_BOUND)
        assert done.returncode == 0, done.stderr.decode()
        outputs.append(done.stdout)
    committed = b"".join(
        path.read_bytes() for app in SAMPLE_APPS for path in sorted(generate(app, write=False))
    )
    assert outputs[0] == outputs[1] == committed


def test_generate_warns_of_what_lint_reports_as_undescribed(orders_copy: Path):
    source = orders_copy / "orders.py"
    text = source.read_text()
    docstring = text[text.index('        """Fetches the status'):text.index("        return _details(self._order(order_id))")]
    source.write_text(text.replace(docstring, ""))
    out, err = io.StringIO(), io.StringIO()
    assert run_generate([orders_copy], out=out, err=err) == 0  # written all the same: lint decides
    assert err.getvalue().splitlines() == [
        "warning: com.example.orders.OrderFunctionService#fetch_order_details has no description: write its "
        "docstring (with described_by_docstring=True) or an instruction (droidsim lint: F1)",
        "warning: com.example.orders.OrderFunctionService#fetch_order_details: parameter 'orderId' has no "
        "description: document it under Args: (droidsim lint: F6)",
        "warning: com.example.orders.OrderFunctionService#fetch_order_details: the return value has no "
        "description: say what it is under Returns: (droidsim lint: F6)",
    ]
    assert f"wrote: {orders_copy / 'assets' / 'order_functions.xml'}" in out.getvalue()
    from sim.lint import lint_apps

    rules = {f.rule for f in lint_apps([orders_copy]).apps[0].findings if "fetch_order_details" in (f.function_id or "")}
    assert {"F1", "F6"} <= rules


def test_generate_writes_the_library_schema_the_manifest_names_and_warns_without_one(orders_copy: Path):
    """The app schema is the library's asset (androidx's AAR merges it into every APK): generate
    writes droid's under the name the manifest gives it; a manifest without it is warned of,
    since a phone would then index little or nothing (lint I2)."""
    schema = orders_copy / "assets" / "app_functions_schema.xsd"
    schema.unlink()
    out = io.StringIO()
    assert run_generate([orders_copy], out=out, err=io.StringIO()) == 0
    assert schema.read_bytes() == APP_FUNCTIONS_SCHEMA.read_bytes()
    assert f"wrote: {schema}" in out.getvalue() and "unchanged: " in out.getvalue()

    manifest = orders_copy / "AndroidManifest.xml"
    text = manifest.read_text()
    manifest.write_text(text.replace('android:value="app_functions_schema.xsd"', 'android:value="own_schema.xsd"'))
    assert all(path.name != "own_schema.xsd" for path in generate(orders_copy, write=False))  # the app's own: not touched

    manifest.write_text(re.sub(r'\s*<property\s+android:name="android.app.appfunctions.schema"[^>]*/>', "", text))
    err = io.StringIO()
    assert run_generate([orders_copy], out=io.StringIO(), err=err) == 0
    assert err.getvalue().splitlines() == [
        'warning: com.example.orders.OrderFunctionService declares no <property android:name='
        '"android.app.appfunctions.schema" android:value="app_functions_schema.xsd" />: Android 16 indexes none of '
        "its functions and Android 17 only their ids, without descriptions, parameters or response; add it to the "
        "<service> (droidsim lint: I2)"]
