"""Fixtures for the lint tests: small app folders written on the fly."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from droid.appfunctions.compiler import generate

CORPUS = Path(__file__).resolve().parent / "corpus"

_MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">
    <application android:label="{name}">
        <property android:name="android.app.appfunctions.app_metadata" android:resource="@xml/app_metadata" />
        <service android:name="{package}.FunctionService"
            android:permission="android.permission.BIND_APP_FUNCTION_SERVICE" android:exported="true">
            <intent-filter><action android:name="android.app.appfunctions.AppFunctionService" /></intent-filter>
            <property android:name="android.app.appfunctions.v2" android:value="functions.xml" />
        </service>
    </application>
</manifest>
"""
_METADATA = """<?xml version="1.0" encoding="utf-8"?>
<AppFunctionAppMetadata xmlns:appfn="http://schemas.android.com/apk/res-auto"
    appfn:description="{description}" />
"""
_PRELUDE = '''from __future__ import annotations

from droid.appfunctions import *  # noqa: F403

SERVICE = "{package}.FunctionService"
'''

WriteApp = Callable[..., Path]


@pytest.fixture
def write_app(tmp_path: Path) -> WriteApp:
    """``write_app(name, source, description=...)``: an app whose module ``<name>.py``
    is the prelude (``from droid.appfunctions import *``, ``SERVICE``) plus
    ``source``, which defines ``class FunctionService`` with ``service_name = SERVICE``.
    Its function XML is generated, as for a real app."""

    def write(name: str, source: str, *, description: str) -> Path:
        package = f"com.example.lint.{name}"
        app_dir = tmp_path / name
        (app_dir / "res" / "xml").mkdir(parents=True)
        (app_dir / "AndroidManifest.xml").write_text(_MANIFEST.format(package=package, name=name))
        (app_dir / "res" / "xml" / "app_metadata.xml").write_text(_METADATA.format(description=description))
        (app_dir / "__init__.py").write_text("")
        (app_dir / f"{name}.py").write_text(_PRELUDE.format(package=package) + textwrap.dedent(source))
        generate(app_dir)
        return app_dir

    return write


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A private copy of a corpus app that a test may edit."""

    def copy(name: str) -> Path:
        target = tmp_path / "copies" / name
        shutil.copytree(CORPUS / name, target, ignore=shutil.ignore_patterns("__pycache__"))
        return target

    return copy
