"""--ray: the same cases as Ray tasks on a local Ray instance give exactly the local scores."""

from __future__ import annotations

import pytest

from sim.eval.run import EvalOptions, run_eval

from .conftest import RUN_DATE

pytestmark = pytest.mark.slow

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

    from sim.eval.ray_attach import UnprotectedRay

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


def test_an_address_nothing_answers_at_is_refused_at_once_naming_it(shipped, tmp_path):
    import socket

    from tests.helpers import droidsim

    with socket.socket() as closed:  # bound, never listening: a connection is refused
        closed.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{closed.getsockname()[1]}"
        result = droidsim("eval", str(shipped.path), "--ray", address, "--case", shipped.cases[0].id, "--out",
                          str(tmp_path / "o"), timeout=120)
    assert result.returncode == 1
    assert (f"Error: nothing answers at {address} (Connection refused): is the cluster's head running there "
            f"(ray start --head --port={address.rsplit(':', 1)[1]})?") in result.stderr


def test_a_cluster_that_refuses_the_driver_is_reported_with_how_to_send_its_token(monkeypatch):
    import socket

    from sim.eval.ray_attach import RayUnreachable, connect

    class RefusingRay:  # what ray.init raises when the head refuses a driver without the token
        @staticmethod
        def init(**options):
            raise ConnectionError(f"Failed to connect to Ray cluster at {options['address']}\nmore lines")

    with socket.socket() as head:
        head.bind(("127.0.0.1", 0))
        head.listen()
        address = f"127.0.0.1:{head.getsockname()[1]}"
        monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
        with pytest.raises(RayUnreachable) as refused:
            connect(RefusingRay, address)
        assert str(refused.value) == (
            f"cannot attach to the Ray cluster at {address}: ConnectionError: Failed to connect to Ray cluster at "
            f"{address}; a cluster that checks tokens refuses a driver that sends none: set RAY_AUTH_MODE=token, "
            "with the cluster's token in ~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN")
        monkeypatch.setenv("RAY_AUTH_MODE", "token")  # it sent one: the hint would mislead
        with pytest.raises(RayUnreachable, match=r"Failed to connect to Ray cluster at [0-9.:]+$"):
            connect(RefusingRay, address)


def test_progress_lists_the_nodes_and_names_the_node_of_each_case():
    import io

    from rich.console import Console

    from sim.eval.progress import Progress

    out = io.StringIO()
    with Progress(Console(file=out, force_terminal=False, width=300)) as progress:
        progress.nodes([{"node": "a1b2c3d4e5f6", "address": "10.0.0.1", "cpus": 4.0},
                        {"node": "ffee0011aabb", "address": "10.0.0.2", "cpus": 2.0}])
        progress.update({"passed": True, "config": "base", "case_id": "c1", "trial": 0, "node": "a1b2c3d4e5f6"}, 1, 2)
        progress.update({"passed": False, "infra_error": {"kind": "crash"}, "config": "base", "case_id": "c2",
                         "trial": 0}, 2, 2)
    assert out.getvalue().splitlines() == [
        "ray: 2 nodes, 6 CPUs: a1b2c3d4 at 10.0.0.1 (4 CPU), ffee0011 at 10.0.0.2 (2 CPU)",
        "[1/2] pass base c1 #0 on a1b2c3d4",
        "[2/2] ERROR base c2 #0",
    ]

