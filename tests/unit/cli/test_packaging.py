"""pyproject.toml as pip reads it: no setuptools deprecation banner, the plugin registered."""

from __future__ import annotations

import re
import tomllib

from tests.helpers import REPO


def test_the_license_is_an_spdx_string_for_a_setuptools_that_reads_it() -> None:
    """A license table makes setuptools (>= 77) print its deprecation banner at every install."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert project["project"]["license"] == "Apache-2.0"
    [setuptools] = [r for r in project["build-system"]["requires"] if r.startswith("setuptools")]
    assert int(re.search(r">=(\d+)", setuptools).group(1)) >= 77
    assert project["project"]["entry-points"]["pytest11"] == {"droidsim": "sim.testing.plugin"}
