"""load_app_service_class: the manifest's service class from an app folder, isolated per app."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from droid.appfunctions import AppLoadError, load_app_service_class
from droid.appfunctions.loader import app_package_name, candidate_modules

MANIFEST = """<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">
  <application/>
</manifest>
"""


def make_app(root: Path, name: str, package: str, files: dict[str, str]) -> Path:
    app = root / name
    app.mkdir()
    (app / "AndroidManifest.xml").write_text(MANIFEST.format(package=package))
    for rel, text in files.items():
        path = app / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return app


SERVICE = """
from droid.appfunctions import AppFunctionServiceEntryPoint, app_function
from .testutils import LABEL

class {cls}(AppFunctionServiceEntryPoint):
    service_name = "{service}"
    xml_file_name = "f"
    label = LABEL

    @app_function
    def hello(self) -> str:
        return LABEL
"""


def test_two_apps_with_the_same_module_names_load_side_by_side(tmp_path: Path):
    a = make_app(tmp_path, "a", "com.a", {
        "__init__.py": "",
        "testutils.py": "LABEL = 'from a'\n",
        "a.py": SERVICE.format(cls="Svc", service="com.a.Svc"),
    })
    b = make_app(tmp_path, "b", "com.b", {
        "__init__.py": "",
        "testutils.py": "LABEL = 'from b'\n",
        "b.py": SERVICE.format(cls="Svc", service="com.b.Svc"),
    })
    cls_a = load_app_service_class(a, "com.a.Svc")
    cls_b = load_app_service_class(b, "com.b.Svc")
    assert (cls_a.label, cls_b.label) == ("from a", "from b")
    assert cls_a.implemented_function_ids() == {"com.a.Svc#hello"}
    assert app_package_name(a) != app_package_name(b)
    assert cls_a.__module__.startswith(app_package_name(a))
    # Loading again gives the same class (one import per process) ...
    assert load_app_service_class(a, "com.a.Svc") is cls_a
    # ... unless asked to read the files again.
    (a / "testutils.py").write_text("LABEL = 'from a, edited'\n")
    assert load_app_service_class(a, "com.a.Svc", reload=True).label == "from a, edited"


def test_the_longest_existing_package_suffix_wins(tmp_path: Path):
    app = make_app(tmp_path, "shop", "com.example.shop", {
        "testutils.py": "LABEL = 'x'\n",
        "shop.py": SERVICE.format(cls="ShopService", service="com.example.shop.ShopService").replace("LABEL\n", "'short'\n"),
        "example/__init__.py": "",
        "example/shop.py": "from droid.appfunctions import AppFunctionService\nclass ShopService(AppFunctionService):\n    where = 'long'\n",
    })
    assert candidate_modules("com.example.shop.ShopService") == ["com.example.shop", "example.shop", "shop"]
    cls = load_app_service_class(app, "com.example.shop.ShopService")
    assert cls.where == "long"


def test_a_relative_service_name_is_expanded_with_the_manifest_package(tmp_path: Path):
    app = make_app(tmp_path, "rel", "com.rel", {
        "__init__.py": "",
        "testutils.py": "LABEL = 'rel'\n",
        "rel.py": SERVICE.format(cls="RelService", service="com.rel.RelService"),
    })
    assert load_app_service_class(app, ".RelService").label == "rel"


def test_no_module_names_the_files_looked_for(tmp_path: Path):
    app = make_app(tmp_path, "empty", "com.example.empty", {"__init__.py": ""})
    with pytest.raises(AppLoadError) as caught:
        load_app_service_class(app, "com.example.empty.EmptyService")
    message = str(caught.value)
    assert "no module for service com.example.empty.EmptyService" in message
    assert str(app / "empty.py") in message and str(app / "com/example/empty.py") in message


def test_a_missing_class_names_the_file_and_class(tmp_path: Path):
    app = make_app(tmp_path, "nocls", "com.nocls", {"nocls.py": "X = 1\n"})
    with pytest.raises(AppLoadError, match=r"nocls\.py: defines no class Service \(the service com\.nocls\.Service\)"):
        load_app_service_class(app, "com.nocls.Service")


def test_a_class_that_is_not_a_service_is_refused(tmp_path: Path):
    app = make_app(tmp_path, "notsvc", "com.notsvc", {"notsvc.py": "class Service:\n    pass\n"})
    with pytest.raises(AppLoadError, match="must subclass AppFunctionService"):
        load_app_service_class(app, "com.notsvc.Service")


def test_an_import_error_names_the_file(tmp_path: Path):
    app = make_app(tmp_path, "broken", "com.broken", {"broken.py": "import does_not_exist_anywhere\n"})
    with pytest.raises(AppLoadError, match=r"broken\.py: importing it for service com\.broken\.Service failed: ModuleNotFoundError"):
        load_app_service_class(app, "com.broken.Service")


def test_a_failing_package_init_is_reported(tmp_path: Path):
    app = make_app(tmp_path, "badinit", "com.badinit", {"__init__.py": "raise RuntimeError('boom')\n"})
    with pytest.raises(AppLoadError, match=r"__init__\.py: importing the app failed: RuntimeError: boom"):
        load_app_service_class(app, "com.badinit.Service")


def test_not_a_folder(tmp_path: Path):
    with pytest.raises(AppLoadError, match="not an app folder"):
        load_app_service_class(tmp_path / "missing", "com.x.Y")
