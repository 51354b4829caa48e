"""The files a run's devices need travel with it (sim/eval/bundle.py): found in a DeviceSpec
wherever they are, packed, unpacked elsewhere, and the cases run on the copies."""

from __future__ import annotations

import dataclasses
import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from pydantic import BaseModel

from sim.eval.bundle import local_spec, make_bundle, pack, unpack
from sim.eval.devices import SYSTEM_APPS, DeviceSpec, move_files, spec_files
from sim.eval.execution import Work, close_devices, execute
from sim.eval.runner import RunSettings
from sim.eval.suite import PROJECT_APPS, load_suite

from .conftest import RUN_DATE, write_suite

ORDER_CASE = """
suite: t
apps: apps
cases:
  - {id: where, category: simple, user: "Where is order ORD-8492?",
     calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]}
"""


@dataclasses.dataclass(frozen=True)
class ApkEntry:  # the shape of an APK app of a suite: the APK, and where its answers come from
    apk: str
    responses: str | None = None
    double: str | None = None


class ApkModel(BaseModel):
    apk: Path


@dataclasses.dataclass(frozen=True)
class SpecWithApks(DeviceSpec):
    apks: tuple[ApkEntry, ...] = ()
    more: list[ApkModel] = dataclasses.field(default_factory=list)

    def key(self) -> tuple:
        return (*super().key(), self.apks, tuple(m.apk for m in self.more))


def _files(root: Path, *names: str) -> list[str]:
    for name in names:
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True)
            (path / "double.py").write_text("x = 1\n")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(name)
    return [str(root / name.rstrip("/")) for name in names]


def test_every_absolute_path_a_spec_names_is_found_at_any_depth_and_nothing_else(tmp_path):
    apk, cassette, double, other = _files(tmp_path, "a.apk", "a.cassette.yaml", "double/", "b.apk")
    spec = SpecWithApks(str(PROJECT_APPS), "com.example.assistant", variant=str(tmp_path / "double"),
                        apks=(ApkEntry(apk, cassette), ApkEntry(str(tmp_path / "gone.apk"), double=double),
                              ApkEntry("relative.apk")),
                        more=[ApkModel(apk=Path(other))])
    assert spec_files(spec) == sorted([str(PROJECT_APPS), str(SYSTEM_APPS), apk, cassette, double, other])

    moved = move_files(spec, lambda path: "/elsewhere" + path)
    assert moved.apks[0] == ApkEntry("/elsewhere" + apk, "/elsewhere" + cassette)
    assert moved.apks[2].apk == "relative.apk" and moved.agent == "com.example.assistant"
    assert moved.more[0].apk == Path("/elsewhere" + other) and type(moved) is SpecWithApks


def test_a_path_inside_another_travels_with_it_once_and_caches_stay_behind(tmp_path):
    apps = tmp_path / "apps"
    _files(apps, "one/app.py", "one/__pycache__/app.cpython-311.pyc", "two/res/x.xml")
    data, names = pack([str(apps / "two"), str(apps), str(apps / "one" / "app.py")])
    assert names == ((str(apps), "0/apps"),)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        packed = sorted(m.name for m in archive.getmembers() if m.isfile())
    assert packed == ["0/apps/one/app.py", "0/apps/two/res/x.xml"]


def test_unpacking_refuses_a_link_out_of_its_folder_and_keeps_one_inside(tmp_path):
    app = tmp_path / "app"
    _files(app, "res/a.xml")
    (app / "inside").symlink_to("res/a.xml")
    data, _ = pack([str(app)])
    unpack(data, tmp_path / "ok")
    assert (tmp_path / "ok" / "0" / "app" / "inside").read_text() == "res/a.xml"

    (app / "secret").symlink_to("/etc/hostname")
    data, _ = pack([str(app)])
    with pytest.raises(tarfile.AbsoluteLinkError):
        unpack(data, tmp_path / "refused")


def test_a_case_runs_on_the_unpacked_copies_after_the_originals_are_gone(tmp_path):
    shutil.copytree(PROJECT_APPS / "orders", tmp_path / "suite" / "apps" / "orders")
    variant = shutil.copytree(PROJECT_APPS / "orders", tmp_path / "variant")
    suite = load_suite(write_suite(tmp_path / "suite", ORDER_CASE))
    spec = DeviceSpec(str(suite.apps_dir()), suite.agent, variant=str(variant))
    bundle = make_bundle([spec], put=lambda data: data)

    (tmp_path / "suite").rename(tmp_path / "moved-away")
    variant.rename(tmp_path / "variant-moved-away")
    here = local_spec(spec, bundle, fetch=lambda data: data)
    try:
        assert here.apps_dir != spec.apps_dir and Path(here.apps_dir, "orders", "AndroidManifest.xml").exists()
        assert Path(here.variant, "AndroidManifest.xml").exists() and Path(here.system_apps_dir).name == "system"
        assert os.path.commonpath([here.apps_dir, here.variant, here.system_apps_dir]) != "/"
        assert local_spec(spec, bundle, fetch=pytest.fail) == here  # unpacked once per process
        record = execute(suite, Work("base", here, suite.cases[0], 0), RunSettings("scripted", RUN_DATE))
    finally:
        close_devices()
    assert record["passed"] is True and record["attempts"] == 1 and record["retried"] == []
