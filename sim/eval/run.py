"""A whole eval run: check the suite against the device, run every case, write the outputs.

The order is the promise of the issue: a malformed suite, an unknown model or a
function no installed app has is refused before any model call; then the
cases run (resumed ones skipped), each record is written as it finishes; a
model server that goes down stops the run with ModelUnavailable after what is
done has been written; summary.json and report.html are written at the end of
every run that got that far.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from sim.eval.catalog import Catalog, check_suite
from sim.eval.devices import DeviceSetupError, DeviceSpec
from sim.eval.execution import Work, close_devices, local_device, run_local, run_ray, run_workers, write_each
from sim.eval.measured_error import RULES, words_summary
from sim.eval.models import ModelSpecError, check_model_options, check_model_spec
from sim.eval.results import ResultWriter, junit_cases, load_done, start_run
from sim.eval.runner import CONFIRMATION_MODES, RunSettings
from sim.eval.suite import Suite
from sim.eval.summary import differences, summarize
from sim.eval.unanswered import unanswered, variant_warning
from sim.junit import check_writable, write_junit
from sim.pm.unindexed import unindexed_functions

SUMMARY = "summary.json"
REPORT = "report.html"


@dataclass
class EvalOptions:
    model: str = "offline"
    base_url: str | None = None
    api_key: str | None = None
    trials: int = 1
    distractors: list[int] = field(default_factory=lambda: [0])
    variant: Path | None = None
    device: str | None = None
    workers: int = 1
    ray: bool = False
    ray_address: str | None = None
    out: Path = Path("eval-out")
    resume: bool = False
    run_date: dt.date | None = None
    cases: list[str] | None = None
    categories: list[str] | None = None
    confirmation_mode: str = "runtime"
    model_options: dict[str, Any] = field(default_factory=dict)  # OpenAICompatibleModel settings
    agent_options: dict[str, Any] = field(default_factory=dict)  # Agent fields: tool_choice...
    judge_model: str | None = None  # openai:NAME, through the same --base-url
    junit: Path | None = None  # JUnit XML for CI, one test case per case and trial
    sdk: int | None = None  # the devices' Android version (None: the newest in-process, a running device's own)


def configs(suite: Suite, options: EvalOptions) -> list[tuple[str, DeviceSpec]]:
    """(label, device) per configuration: each distractor count, and each again with the variant."""
    if options.device:
        refuse_on_device(options)
    variants = [None] + ([str(options.variant.resolve())] if options.variant else [])
    sweep = len(options.distractors) > 1
    apps = suite.app_sources()
    out = []
    for variant in variants:
        for count in options.distractors:
            label = "variant" if variant else "base"
            if sweep or count:
                label += f"+{count}"
            out.append((label, DeviceSpec(apps, suite.agent, distractors=count, variant=variant,
                                          address=options.device, sdk=options.sdk)))
    return out


def refuse_on_device(options: EvalOptions) -> None:
    """What a run on a running device cannot do, why, and where it can be done: the in-process
    devices, which install the suite's apps with their responses:/double: as the device holds them."""
    instead = ("run without --device: eval's own in-process devices install the suite's apps with their "
               "responses:/double: (docs/eval.md, \"Apps\"), and answer as the device does")
    if options.variant:
        raise DeviceSetupError("--variant installs another build in place of the suite's app, and eval installs "
                               "nothing on a running device (its apps and their data are yours); " + instead
                               + ", or run the suite on the device once per build and compare the two runs "
                               "with `droidsim eval compare`")
    if any(options.distractors):
        raise DeviceSetupError("--distractors and --sweep install generated apps, and eval installs nothing on a "
                               "running device (its apps and their data are yours); " + instead)
    if options.workers > 1 or options.ray:
        raise DeviceSetupError("one running device cannot hold several cases at once (each resets its apps), so "
                               "--workers and --ray have nothing to share out; " + instead
                               + " (each worker boots its own)")


def run_eval(suite: Suite, options: EvalOptions, progress: Callable[[dict[str, Any], int, int], None] | None = None,
             on_nodes: Callable[[list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """``on_nodes``: told the Ray cluster's nodes before the cases run (with ``ray``)."""
    check_model_spec(options.model)
    check_model_options(options.model, options.model_options)
    if options.confirmation_mode not in CONFIRMATION_MODES:
        raise ModelSpecError(f"unknown confirmation mode {options.confirmation_mode!r}: use "
                             f"{' or '.join(CONFIRMATION_MODES)}")
    if options.judge_model is not None and not options.judge_model.startswith("openai:"):
        raise ModelSpecError(f"the judge model is a chat-completions model (openai:NAME), not {options.judge_model!r}")
    if options.junit is not None:
        check_writable(options.junit)
    cases = suite.select(options.cases, options.categories)
    plan = configs(suite, options)
    try:
        return _run(suite, cases, plan, options, progress, on_nodes)
    finally:
        close_devices()


def _run(suite: Suite, cases: list, plan: list[tuple[str, DeviceSpec]], options: EvalOptions,
         progress: Callable[[dict[str, Any], int, int], None] | None,
         on_nodes: Callable[[list[dict[str, Any]]], None] | None) -> dict[str, Any]:
    # The up-front check, on the apps the suite runs against (distractors add none of its functions);
    # what is not for the devices' SDK is left out, each skipped case with why.
    skipped: dict[str, str] = {}
    # A variant's arguments are not checked: renaming a parameter is a change a variant may measure.
    for n, (_label, spec) in enumerate(plan[:1] + ([plan[len(options.distractors)]] if options.variant else [])):
        context = local_device(replace(spec, distractors=0)).shell
        catalog = Catalog(_discover(context), unindexed_functions(context), context.sdk_int)
        skipped = {**check_suite(suite, catalog, arguments=n == 0), **suite.sdk_skips(context.sdk_int), **skipped}
    suite = suite.for_sdk(context.sdk_int, skipped)
    cases = [case for case in suite.cases if case.id in {c.id for c in cases}]
    meta = start_run(options.out, {
        "suite": str(suite.path), "model": options.model, "trials": options.trials,
        "configs": [label for label, _ in plan],
        "run_date": (options.run_date or dt.date.today()).isoformat(),
        "confirmation_mode": options.confirmation_mode,
        "judge_model": options.judge_model,
        "sdk": options.sdk,
        "model_options": {k: v for k, v in options.model_options.items() if v is not None},
        "agent_options": {k: v for k, v in options.agent_options.items() if v is not None},
        "skipped": skipped,
    }, options.resume)
    settings = RunSettings(options.model, dt.date.fromisoformat(meta["run_date"]), options.base_url, options.api_key,
                           options.confirmation_mode, meta.get("model_options", {}), meta.get("agent_options", {}),
                           meta.get("judge_model"))
    done = load_done(options.out) if options.resume else []
    finished = {(r["config"], r["case_id"], r["trial"]) for r in done}
    works = [Work(label, spec, case, trial) for label, spec in plan for case in cases
             for trial in range(options.trials) if (label, case.id, trial) not in finished]
    writer = ResultWriter(options.out, done)
    try:
        write_each(_executor(suite, works, settings, options, on_nodes), writer, progress, len(works) + len(done))
    finally:
        writer.close()
        summary = write_summary(options.out, writer.records, [label for label, _ in plan], options, meta)
        if options.junit is not None:
            write_junit(options.junit, suite.suite, junit_cases(writer.records, suite.suite, options.trials))
    return summary


def write_summary(out: Path, records: list[dict[str, Any]], labels: list[str], options: EvalOptions,
                  meta: dict[str, Any]) -> dict[str, Any]:
    from sim.eval.report import write_html

    summary = summarize(records, labels, options.trials)
    reader = f"judge {meta['judge_model']}" if meta.get("judge_model") else RULES
    summary.update({"suite": meta["suite"], "model": meta["model"], "run_date": meta["run_date"],
                    "confirmation_mode": meta.get("confirmation_mode", "runtime"), "skipped": meta.get("skipped", {}),
                    "words": words_summary(reader)})
    summary["distractors"] = {label: count for label, count in zip(labels, options.distractors * 2)}
    for label in labels:
        summary["configs"][label]["unanswered"] = unanswered(r for r in records if r["config"] == label)
    if options.variant:
        base, other = labels[0], labels[len(options.distractors)]
        summary["variant"] = {"path": str(options.variant), **differences(summary, base, other),
                              "warning": variant_warning(summary["configs"][base]["unanswered"],
                                                         summary["configs"][other]["unanswered"])}
    (out / SUMMARY).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_html(out / REPORT, summary, records)
    return summary


def _executor(suite: Suite, works: list[Work], settings: RunSettings, options: EvalOptions, on_nodes):
    if options.ray:
        return run_ray(suite, works, settings, options.ray_address, on_nodes)
    if options.workers > 1:
        return run_workers(suite, works, settings, options.workers)
    return run_local(suite, works, settings)


def _discover(context: Any) -> list[Any]:
    from droid.agent import AppFunctionAgentTools

    return AppFunctionAgentTools.discover(context)
