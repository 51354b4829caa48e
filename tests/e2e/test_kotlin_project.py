"""The Done-when of issue 34's pytest item: a Kotlin developer's own pytest file, written only from
docs/testing.md, passes in a pytest process of its own against an APK the docs do not ship
(tests/e2e/kotlin_project.py). tests/e2e/test_user_project.py runs the same project with droidsim
installed from a wheel."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.e2e import kotlin_project
from tests.helpers import REPO

pytestmark = pytest.mark.e2e


@pytest.fixture
def project(tmp_path):
    if (reason := kotlin_project.cannot_build()) is not None:
        pytest.skip(reason)
    return kotlin_project.write_project(tmp_path)


def test_the_developers_own_tests_pass_on_their_own_apk(project) -> None:
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=project,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith(f"{kotlin_project.TESTS_PASSING} passed"), result.stdout


def test_everything_those_tests_use_is_taught_by_the_docs() -> None:
    """The tests use only what docs/testing.md's Kotlin sections show."""
    page = (REPO / "docs" / "testing.md").read_text()
    kotlin = page[page.index("## Your Kotlin app"):page.index("## Calling a function")]
    assert [name for name in kotlin_project.TAUGHT if name not in kotlin] == []
    assert all(name in kotlin_project.TESTS for name in kotlin_project.TAUGHT)
    assert "tests.apks" not in kotlin_project.TESTS and not re.search(r"\bsim\.(?!testing\b)", kotlin_project.TESTS)
