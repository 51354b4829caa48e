"""A whole ``droidsim eval tau2`` run: choose the tasks, hold every conversation, write the outputs.

It is eval's run with τ²'s tasks in place of a suite's cases. Everything that can be refused is
refused before any model call: an unknown domain, a data folder missing a file or holding a
malformed task, an unknown split or task id, a model or user model that names no backend, a
script that names no task. Then each (task, trial) is a unit of work for eval's executors
(sim/eval/execution.py: in this process, on local workers, or as Ray tasks), each on a device
of its own reset before every task; each record is written as it finishes (eval's results.jsonl
and run.json, ``--resume``); summary.json, report.html and the JUnit file come at the end, with
eval's scores beside τ²'s (sim/eval/tau2/summary.py).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sim.eval.devices import DeviceSpec
from sim.eval.execution import Work, close_devices, write_each
from sim.eval.models import ModelSpecError, check_model_options
from sim.eval.results import RUN, ResultWriter, ResumeError, junit_cases, load_done, start_run
from sim.eval.run import REPORT, SUMMARY, _executor  # eval's: local, workers or Ray, as options say
from sim.eval.runner import RunSettings
from sim.eval.summary import summarize
from sim.eval.tau2.conversation import MAX_ERRORS, MAX_STEPS, run_task
from sim.eval.tau2.domain import Domain, open_domain
from sim.eval.tau2.summary import is_not_judged, tau2_summary
from sim.eval.tau2.tasks import Tau2Case, TaskScriptError, criteria_of, load_agent_steps, load_user_turns, scenario_text
from sim.junit import check_writable, write_junit

AGENT = "com.example.assistant"  # the eval devices' agent app (sim/eval/system_apps)
SPLITS = ("train", "test", "base")


@dataclass
class Tau2Options:
    domain: str
    data: Path
    split: str | None = None  # None: every task
    tasks_from: Path | None = None  # τ-bench v1's layout: the historical trajectories that carry its tasks
    tasks: list[str] | None = None
    trials: int = 1
    model: str = "scripted"
    base_url: str | None = None
    api_key: str | None = None
    user_model: str = "scripted"
    user_base_url: str | None = None
    judge_model: str | None = None
    max_steps: int = MAX_STEPS
    max_errors: int = MAX_ERRORS
    workers: int = 1
    ray: bool = False
    ray_address: str | None = None
    out: Path = Path("eval-out")
    resume: bool = False
    junit: Path | None = None
    sdk: int | None = None
    model_options: dict[str, Any] = field(default_factory=dict)
    agent_options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tau2Suite:
    """What every unit of work shares (sent once to each worker): the domain and how to talk."""

    domain: Domain
    user_model: str
    user_base_url: str | None
    max_steps: int
    max_errors: int
    agent: str = AGENT

    @property
    def suite(self) -> str:
        return f"tau2-{self.domain.name}"

    def run_case(self, case: Tau2Case, device: Any, settings: RunSettings, trial: int) -> Any:
        return run_task(self, case, device, settings, trial)


def check_specs(options: Tau2Options) -> None:
    for what, spec in (("--model", options.model), ("--user-model", options.user_model)):
        if spec != "scripted" and not spec.startswith(("scripted:", "openai:")):
            raise ModelSpecError(f"{what} {spec!r}: use openai:NAME (any chat-completions server), scripted or "
                                 "scripted:FILE")
    check_model_options(options.model, options.model_options)
    if options.judge_model is not None and not options.judge_model.startswith("openai:"):
        raise ModelSpecError(f"the judge model is a chat-completions model (openai:NAME), not {options.judge_model!r}")
    if options.split is not None and options.split not in SPLITS:
        raise ModelSpecError(f"unknown split {options.split!r}: use {', '.join(SPLITS)}")


def select_cases(domain: Domain, options: Tau2Options) -> list[Tau2Case]:
    """The tasks of the split (or all), narrowed to ``--tasks``, with their scripts."""
    ids = [task["id"] for task in domain.tasks]
    if options.split is not None:
        chosen = domain.splits.get(options.split)
        if chosen is None:
            raise TaskScriptError(f"{domain.data} has no split {options.split!r} (it has "
                                  f"{', '.join(sorted(domain.splits)) or 'none: τ-bench v1 names no splits'})")
        ids = [i for i in ids if i in set(chosen)]
    if options.tasks:
        unknown = [t for t in options.tasks if t not in set(ids)]
        if unknown:
            where = f"the {options.split} split" if options.split else f"the {domain.name} tasks"
            raise TaskScriptError(f"--tasks: {', '.join(unknown)} is not among {where}")
        ids = [i for i in ids if i in set(options.tasks)]
    everyone = {task["id"] for task in domain.tasks}
    scripted = "scripted:"
    turns = load_user_turns(Path(options.user_model[len(scripted):]), everyone) \
        if options.user_model.startswith(scripted) else {}
    steps = load_agent_steps(Path(options.model[len(scripted):]), everyone) \
        if options.model.startswith(scripted) else {}
    cases = []
    for task in domain.tasks:
        if task["id"] not in ids:
            continue
        scenario, reason = scenario_text(task.get("user_scenario") or {})
        cases.append(Tau2Case(task["id"], domain.name, scenario, reason,
                              criteria_of(task["id"], task.get("evaluation_criteria") or {}),
                              turns.get(task["id"], {}), steps.get(task["id"], ())))
    return cases


def run_tau2(options: Tau2Options, progress: Callable[[dict[str, Any], int, int], None] | None = None,
             on_nodes: Callable[[list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    check_specs(options)
    if options.junit is not None:
        check_writable(options.junit)
    domain = open_domain(options.domain, options.data, options.tasks_from)
    cases = select_cases(domain, options)
    suite = Tau2Suite(domain, options.user_model, options.user_base_url, options.max_steps, options.max_errors)
    spec = DeviceSpec(domain.app_sources(), suite.agent, sdk=options.sdk)
    meta = {
        "suite": suite.suite, "data": str(options.data), "tasks_from": str(options.tasks_from or "") or None,
        "model": options.model, "trials": options.trials,
        "configs": [domain.name], "run_date": dt.date.today().isoformat(), "confirmation_mode": "model",
        "judge_model": options.judge_model, "user_model": options.user_model, "sdk": options.sdk,
        "max_steps": options.max_steps, "max_errors": options.max_errors,
        "model_options": {k: v for k, v in options.model_options.items() if v is not None},
        "agent_options": {k: v for k, v in options.agent_options.items() if v is not None},
    }
    if options.resume:
        _check_resume(options.out, meta)
    meta = start_run(options.out, meta, options.resume)
    settings = RunSettings(options.model, dt.date.fromisoformat(meta["run_date"]), options.base_url, options.api_key,
                           "model", meta["model_options"], meta["agent_options"], options.judge_model)
    done = load_done(options.out) if options.resume else []
    finished = {(r["case_id"], r["trial"]) for r in done}
    works = [Work(domain.name, spec, case, trial) for case in cases for trial in range(options.trials)
             if (case.id, trial) not in finished]
    writer = ResultWriter(options.out, done)
    try:
        write_each(_executor(suite, works, settings, options, on_nodes), writer, progress, len(works) + len(done))
    finally:
        close_devices()
        writer.close()
        summary = write_summary(options.out, writer.records, suite, options, meta)
        if options.junit is not None:
            write_junit(options.junit, suite.suite,
                        junit_cases([_for_junit(r) for r in writer.records], suite.suite, options.trials))
    return summary


def write_summary(out: Path, records: list[dict[str, Any]], suite: Tau2Suite, options: Tau2Options,
                  meta: dict[str, Any]) -> dict[str, Any]:
    from sim.eval.report import write_html
    from sim.eval.tau2.report import html_sections

    judged = [r for r in records if not is_not_judged(r)]  # no verdict is no failure: kept out of the rates
    summary = summarize(judged, [suite.domain.name], options.trials)
    summary.update({"suite": suite.suite, "model": meta["model"], "run_date": meta["run_date"],
                    "confirmation_mode": "model", "user_model": meta.get("user_model"),
                    "judge_model": meta.get("judge_model"), "data": meta.get("data"),
                    "tau2": tau2_summary(records, options.trials)})
    (out / SUMMARY).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_html(out / REPORT, summary, judged, extra=html_sections(summary, records))
    return summary



def _check_resume(out: Path, meta: dict[str, Any]) -> None:
    """What a τ² run adds to what eval's --resume holds the same: the data, the customer and the limits."""
    stored = json.loads((out / RUN).read_text(encoding="utf-8")) if (out / RUN).exists() else meta
    for key in ("data", "tasks_from", "user_model", "max_steps", "max_errors"):
        if stored.get(key) != meta[key]:
            raise ResumeError(f"{out} holds a run with another {key} ({stored.get(key)!r}, now {meta[key]!r}); use "
                              "another --out or drop --resume")


def _for_junit(record: dict[str, Any]) -> dict[str, Any]:
    """A trial without a verdict is in error in CI's eyes (it could not be checked), never passed."""
    if not is_not_judged(record):
        return record
    return {**record, "infra_error": {"kind": "not judged", "detail": "its natural-language assertions decide it "
                                      "and no --judge-model was given"}}
