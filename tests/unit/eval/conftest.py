from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from droid.agent import ScriptedModel, tool_call
from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import load_suite

SHIPPED = Path(__file__).resolve().parents[3] / "sim" / "eval" / "suites" / "sample-apps.yaml"
RUN_DATE = dt.date(2026, 3, 14)


@pytest.fixture(scope="session")
def shipped():
    return load_suite(SHIPPED)


def write_suite(tmp_path: Path, text: str, name: str = "suite.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def play(monkeypatch, tmp_path):
    """Run a suite with a model that follows ``steps`` in every case; the records and summary."""

    def run(suite_text: str, steps: list, **options):
        tools = {}

        def scripted(spec, case, catalog, tool_names, *args, **kwargs):
            tools.update({catalog.short(f): name for f, name in tool_names.items()})
            return ScriptedModel([s(tools) if callable(s) else s for s in steps])

        monkeypatch.setattr("sim.eval.runner.case_model", scripted)
        out = tmp_path / "out"
        summary = run_eval(load_suite(write_suite(tmp_path, suite_text)),
                           EvalOptions(model="scripted", out=out, run_date=RUN_DATE, **options))
        records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
        return records, summary["configs"]["base"]["scores"]

    return run


def call(function: str, **args):
    """A step that calls ``function`` by the tool name the model sees."""
    return lambda tools: tool_call(tools[function], args)


def kinds(record) -> list[str]:
    return [f["kind"] for turn in record["turns"] for f in turn.get("failures", [])]
