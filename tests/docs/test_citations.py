"""The docs cite what a reader can open: files of this repository, or public sources; never
the private notes (spec/, seeds/) the project was written from."""

from __future__ import annotations

import re

import pytest

from tests.docs.test_docs import DOCS
from tests.helpers import REPO

PRIVATE = re.compile(r"\bspec/|\bseeds?/|\bseeds? \d|platform-android\.md|jetpack-androidx\.md|quality-guidelines\.md"
                     r"|agent-runtime\.md")
# A file (name.ext) or a folder (a trailing /) under a top-level folder; `tools/call` is MCP's.
REPO_PATH = re.compile(r"`((?:docs|tests|sim|apps|bench|platform|schemas|proto|tools)/(?:[\w./-]*\.\w+|[\w./-]*/))`")


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_no_private_sources_are_cited(path) -> None:
    hits = [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(path.read_text().splitlines(), 1)
            if PRIVATE.search(line)]
    assert hits == []


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_repository_path_cited_exists(path) -> None:
    missing = sorted({m for m in REPO_PATH.findall(path.read_text()) if not (REPO / m).exists()})
    assert missing == []
