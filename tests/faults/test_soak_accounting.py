"""The soak's bookkeeping (bench/soak.py) catches what it must: a run passes only when no
answer is lost, duplicated or misdelivered, no call fails unexpectedly and memory stays
bounded. The soak itself runs in ``make soak``."""

from __future__ import annotations

import pytest

from bench.soak import summarize, verdict


def outcome(kind: str, result: str, value: str = "", right: bool = True, code: str = "") -> dict:
    return {"kind": kind, "result": result, "value": value, "right": right, "code": code, "message": ""}


CLEAN = [
    outcome("echo", "ok", "'0:1'"),
    outcome("add", "ok", "7"),
    outcome("crash", "error", code="ERROR_APP_UNKNOWN_ERROR"),
    outcome("echo", "error", code="ERROR_APP_UNKNOWN_ERROR"),  # in flight when the app died
]


def figures_of(outcomes: list[dict], growth_mb: float = 1.0) -> dict:
    figures = summarize([{"agent": 0, "outcomes": outcomes}])
    figures.update(rss_growth_mb=growth_mb, rss_growth_limit_mb=32)
    return figures


def test_a_clean_run_passes_and_counts_errors_by_code():
    figures = figures_of(CLEAN)
    assert verdict(figures) == []
    assert figures["errors_by_code"] == {"crash ERROR_APP_UNKNOWN_ERROR": 1, "echo ERROR_APP_UNKNOWN_ERROR": 1}
    assert (figures["calls"], figures["answered"], figures["crashes_injected"]) == (4, 2, 1)


@pytest.mark.parametrize(
    ("bad", "failure"),
    [
        (outcome("echo", "lost", code="RpcError"), "1 answers lost"),
        (outcome("echo", "ok", "'0:1'"), "1 answers duplicated"),
        (outcome("add", "ok", "8", right=False), "1 answers misdelivered"),
        (outcome("add", "error", code="ERROR_APP_UNKNOWN_ERROR"), "1 unexpected errors"),  # the helper never crashes
        (outcome("echo", "error", code="ERROR_SYSTEM_ERROR"), "1 unexpected errors"),
        (outcome("crash", "ok", "None"), "1 crash calls answered"),
    ],
    ids=["lost", "duplicated", "misdelivered", "other-app-failed", "other-code", "crash-survived"],
)
def test_each_kind_of_loss_fails_the_run(bad, failure):
    assert verdict(figures_of([*CLEAN, bad])) == [failure]


def test_memory_growth_beyond_the_limit_fails_the_run():
    assert verdict(figures_of(CLEAN, growth_mb=40.0)) == ["memory grew by 40.0 MB"]
