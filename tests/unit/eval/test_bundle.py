"""The files a run's devices need travel with it (sim/eval/bundle.py): found in a DeviceSpec
wherever they are, packed, unpacked elsewhere, and the cases run on the copies."""

from __future__ import annotations

import dataclasses
import io
import shutil
import tarfile
from pathlib import Path

import pytest
from pydantic import BaseModel

from sim.eval.apps import DeviceSetupError
from sim.eval.bundle import local_spec, make_bundle, move_files, pack, spec_files, unpack
from sim.eval.devices import SYSTEM_APPS
from sim.eval.execution import Work, close_devices, execute
from sim.eval.run import EvalOptions, configs
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
class AppEntry:  # an app of a suite: a folder or an APK, and where its answers come from
    path: str
    responses: str | None = None
    double: str | None = None
    where: str = ""


class ModelEntry(BaseModel):
    apk: Path


@dataclasses.dataclass(frozen=True)
class Spec:  # a DeviceSpec's shape, whatever fields it grows: plain data naming files by absolute path
    apps: tuple[AppEntry, ...]
    agent: str
    system_apps_dir: str
    variant: str | None = None
    more: list[ModelEntry] = dataclasses.field(default_factory=list)


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
    spec = Spec((AppEntry(apk, cassette, where="suite.yaml:3"), AppEntry(str(tmp_path / "gone.apk"), double=double),
                 AppEntry("relative.apk")), "com.example.assistant", str(SYSTEM_APPS),
                variant=str(PROJECT_APPS / "orders"), more=[ModelEntry(apk=Path(other))])
    assert spec_files(spec) == sorted([str(SYSTEM_APPS), str(PROJECT_APPS / "orders"), apk, cassette, double, other])

    moved = move_files(spec, lambda path: "/elsewhere" + path)
    assert moved.apps[0] == AppEntry("/elsewhere" + apk, "/elsewhere" + cassette, where="suite.yaml:3")
    assert moved.apps[2].path == "relative.apk" and moved.agent == "com.example.assistant"
    assert moved.more[0].apk == Path("/elsewhere" + other) and type(moved) is Spec


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
    specs = dict(configs(suite, EvalOptions(variant=variant)))  # as run_eval makes them
    bundle = make_bundle(specs.values(), put=lambda data: data)

    (tmp_path / "suite").rename(tmp_path / "moved-away")
    variant.rename(tmp_path / "variant-moved-away")
    here = {label: local_spec(spec, bundle, fetch=lambda data: data) for label, spec in specs.items()}
    try:
        for label, spec in here.items():
            assert spec != specs[label] and all(not path.startswith(str(tmp_path)) for path in spec_files(spec))
            assert spec_files(spec) and all(Path(path).exists() for path in spec_files(spec))
        assert local_spec(specs["base"], bundle, fetch=pytest.fail) == here["base"]  # unpacked once per process
        records = [execute(suite, Work(label, spec, suite.cases[0], 0), RunSettings("scripted", RUN_DATE))
                   for label, spec in here.items()]
    finally:
        close_devices()
    assert [(r["config"], r["passed"], r["attempts"], r["retried"]) for r in records] == [
        ("base", True, 1, []), ("variant", True, 1, [])]


def test_a_folder_named_for_its_apps_ships_its_app_folders_and_nothing_beside_them(tmp_path):
    """J04: a suite with no code of its own names a folder holding one app folder (a home
    folder); the archive held the whole folder, ~/.ssh/id_ed25519 with it, and went to the cluster."""
    home = tmp_path / "home"
    shutil.copytree(PROJECT_APPS / "orders", home / "orders")
    _files(home, ".ssh/id_ed25519", "notes.txt", "projects/other/x.py")
    suite_dir = tmp_path / "downloaded"
    suite_dir.mkdir()
    suite = load_suite(write_suite(suite_dir, ORDER_CASE.replace("apps: apps", "apps: ../home")))
    specs = dict(configs(suite, EvalOptions()))
    archive = make_bundle(specs.values(), put=lambda data: data).archive[0]
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        members = [m.name for m in packed.getmembers()]
    assert not [m for m in members if "id_ed25519" in m or ".ssh" in m or "notes.txt" in m or "projects" in m]
    assert any(m.endswith("/home/orders/AndroidManifest.xml") for m in members)
    assert suite.warnings(ray=True) == [
        f"{suite.path}:3: apps: {home} is outside the suite's folder: its Python runs as code with your rights, "
        "and --ray uploads its app folders to the Ray cluster (docs/security.md, \"Eval suites\")"]


def test_a_file_named_as_a_cassette_that_is_none_never_leaves(tmp_path):
    """A suite names a key as an app's cassette: the driver reads it as a cassette before it
    packs anything, and refuses the run without a word of the key; nothing is put in the store."""
    key = tmp_path / "home" / ".ssh" / "id_ed25519"
    key.parent.mkdir(parents=True)
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n")
    suite_dir = tmp_path / "downloaded"
    suite_dir.mkdir()
    shutil.copyfile(Path(__file__).resolve().parents[2] / "apks" / "shop.apk", suite_dir / "shop.apk")
    suite = load_suite(write_suite(suite_dir, ORDER_CASE.replace("apps: apps", f"apps: [{{apk: shop.apk, responses: {key}}}]")))
    put = []
    with pytest.raises(DeviceSetupError) as refused:
        make_bundle(dict(configs(suite, EvalOptions())).values(), put=put.append)
    assert put == [] and "b3Blbn" not in str(refused.value)
    assert str(refused.value) == (f"{suite.path}:3: apps[0]: {key} is not a cassette, so it is not sent to the cluster: "
                                  "id_ed25519: a cassette is a mapping with `calls`: function -> list of recorded calls")


def test_an_app_folder_install_would_refuse_never_leaves(tmp_path):
    """An app folder holding a hard link to a key: install here refuses it, but the archive
    carried the key's bytes as a file of their own (one link on the node), which the node's
    install took. The driver reads each app folder as install does before it packs anything."""
    home = tmp_path / "home"
    shutil.copytree(PROJECT_APPS / "orders", home / "orders")
    _files(home, ".ssh/id_ed25519")
    (home / "orders" / "notes.txt").hardlink_to(home / ".ssh" / "id_ed25519")
    suite_dir = tmp_path / "downloaded"
    suite_dir.mkdir()
    suite = load_suite(write_suite(suite_dir, ORDER_CASE.replace("apps: apps", "apps: ../home")))
    put = []
    with pytest.raises(DeviceSetupError) as refused:
        make_bundle(dict(configs(suite, EvalOptions())).values(), put=put.append)
    assert put == []
    assert str(refused.value) == (
        f"{suite.path}:3: apps: {home / 'orders'} is not sent to the cluster: INSTALL_FAILED_INVALID_APK: "
        f"{home / 'orders' / 'notes.txt'} has 2 hard links: an app's file must be its own (another name may be a secret)")
