"""--ray: the same cases as Ray tasks on a local Ray instance give exactly the local scores."""

from __future__ import annotations

import pytest

from sim.eval.run import EvalOptions, run_eval

from .conftest import RUN_DATE

ray = pytest.importorskip("ray", reason="ray is not installed (make test installs the 'ray' extra)")


def test_ray_and_local_give_identical_scores(shipped, tmp_path):
    ids = [c.id for c in shipped.cases[::12]]
    local = run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "local", run_date=RUN_DATE, cases=ids))
    # run_eval starts a local Ray instance itself (as `droidsim eval --ray` does) and stops it after.
    remote = run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "ray", run_date=RUN_DATE, cases=ids,
                                           ray=True))
    assert not ray.is_initialized()
    assert remote["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]
    assert remote["configs"]["base"]["scores"]["overall"]["cases"] == len(ids)


def test_a_local_ray_starts_only_with_its_token_and_keeps_it_private(shipped, tmp_path, monkeypatch):
    from pathlib import Path

    from sim.eval.execution import UnprotectedRay

    ids = [shipped.cases[0].id]
    # Ray's servers listen on every interface: without the token anyone who reaches them runs code.
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with pytest.raises(UnprotectedRay, match="RAY_AUTH_MODE=disabled: the local Ray listens on every interface"):
        run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "off", run_date=RUN_DATE, cases=ids, ray=True))
    assert not ray.is_initialized()
    monkeypatch.delenv("RAY_AUTH_MODE")
    run_eval(shipped, EvalOptions(model="offline", out=tmp_path / "on", run_date=RUN_DATE, cases=ids, ray=True))
    token = Path.home() / ".ray" / "auth_token"
    assert token.stat().st_mode & 0o777 == 0o600


def test_ray_gives_an_apk_suite_with_its_cassette_the_local_scores(tmp_path):
    from sim.eval.suite import load_suite
    from tests.helpers import REPO

    suite = load_suite(REPO / "docs" / "examples" / "shop.eval.yaml")
    local = run_eval(suite, EvalOptions(out=tmp_path / "local", run_date=RUN_DATE))
    remote = run_eval(suite, EvalOptions(out=tmp_path / "ray", run_date=RUN_DATE, ray=True))
    assert remote["configs"]["base"]["scores"] == local["configs"]["base"]["scores"]
    assert remote["configs"]["base"]["scores"]["overall"]["passed"] == 2  # the cassette answered
