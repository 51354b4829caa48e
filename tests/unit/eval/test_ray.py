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
