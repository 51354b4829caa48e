"""Parametrizes the XML tests over the reference files, so that new files are covered by themselves.

A test that takes one of the fixtures below runs once per matching file and receives its path.
When the reference folder is absent the test skips with the reason ``reference_dir`` gives; when
the folder holds no matching file the test fails rather than silently vanishing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import reference_root

REFERENCE_FILES = {
    "manifest_file": ("**/AndroidManifest*.xml",),
    "app_metadata_file": ("**/res/xml/app_metadata.xml",),
    "function_xml_file": ("**/assets/*.xml", "androidx-compiler-output/**/*.xml"),
    "dialect_xsd_file": ("**/*.xsd",),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for fixture, patterns in REFERENCE_FILES.items():
        if fixture in metafunc.fixturenames:
            root = reference_root()
            found = sorted({p.relative_to(root).as_posix() for pattern in patterns for p in root.glob(pattern)})
            metafunc.parametrize(fixture, found or [None], ids=found or ["none-found"], indirect=True)


def _reference_file(request: pytest.FixtureRequest, reference_dir: Path) -> Path:
    assert request.param is not None, f"no reference file matches {REFERENCE_FILES[request.fixturename]}"
    return reference_dir / request.param


manifest_file = pytest.fixture(_reference_file, name="manifest_file")
app_metadata_file = pytest.fixture(_reference_file, name="app_metadata_file")
function_xml_file = pytest.fixture(_reference_file, name="function_xml_file")
dialect_xsd_file = pytest.fixture(_reference_file, name="dialect_xsd_file")
