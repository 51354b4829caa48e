"""``droidsim eval SUITE``: run an agent through a suite of cases on fresh simulated devices."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from sim.cli.api_key import api_key_options
from sim.cli.eval_options import (exit_on_infra_errors, ray_options, server_went_down, show_summary,
                                  where_it_runs)
from sim.cli.model_options import model_server_options, split_model_options
from sim.eval.categories import CATEGORIES
from sim.platform_version import NEWEST, VERSIONS


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give distractor counts separated by commas, e.g. 0,10,50,200") from None
    if not counts or any(c < 0 for c in counts):
        raise click.BadParameter(f"{text!r}: counts are whole numbers >= 0")
    return counts


@click.command("eval")
@click.argument("suite_file", metavar="SUITE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--model", default="offline", show_default=True, metavar="offline|scripted|wrong|openai:NAME",
              help="offline: a keyword stand-in for smoke tests, not a measure of quality; scripted: the oracle "
                   "replaying each case's expectations; wrong: always wrong (the scorer's self-check); openai:NAME: "
                   "any chat-completions server.")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Chat-completions endpoint for openai:NAME.")
@api_key_options
@model_server_options
@click.option("--confirmation", "confirmation_mode", type=click.Choice(["runtime", "model"]), default="runtime",
              show_default=True,
              help="runtime: the HITL wrapper asks before destructive calls (tests the app's marking and the "
                   "policy); model: no wrapper, the model must ask in words and the user answers next turn.")
@click.option("--judge-model", metavar="openai:NAME",
              help="A model that reads the agent's replies (claims, denials, questions) instead of the phrase "
                   "rules, through the same --base-url and key; the report says how often they agree.")
@click.option("--allow-errors", is_flag=True,
              help="Exit 0 even when some cases met a server error, a timeout or a crash.")
@click.option("--trials", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run each case K times: pass@1 and pass^K.")
@click.option("--distractors", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Install N generated distractor apps from other domains.")
@click.option("--sweep", metavar="N,N,...", help="Run once per distractor count, e.g. 0,10,50,200.")
@click.option("--variant", type=click.Path(exists=True, path_type=Path), metavar="APP_DIR|APP.apk",
              help="Also run against another build of one of the suite's apps (an app folder or an APK of the "
                   "same package; it keeps that app's responses: and double:) and report the difference.")
@click.option("--device", "device_address", metavar="ADDRESS",
              help="Run on this running device (data directory) instead of in-process devices.")
@click.option("--sdk", type=click.Choice([str(v) for v in sorted(VERSIONS)]), default=None,
              help=f"The Android version of the devices: an APK's resources and enabled services resolve for it. "
                   f"Default: {NEWEST.sdk_int}; with --device, the device's own (which --sdk must then be).")
@where_it_runs
@click.option("--resume", is_flag=True, help="Skip the cases already in OUT/results.jsonl.")
@click.option("--date", "run_date", type=click.DateTime(formats=["%Y-%m-%d"]),
              help="The run date relative dates are matched against (default: today).")
@click.option("--case", "case_ids", multiple=True, metavar="ID", help="Only this case (repeatable).")
@click.option("--category", "categories", multiple=True, type=click.Choice(CATEGORIES),
              help="Only this category (repeatable).")
@click.option("--json", "json_output", is_flag=True, help="Print summary.json instead of the table.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as JUnit XML for CI: one test case per case and trial.")
def eval_command(suite_file: Path, model: str, base_url: str | None, api_key: str | None, trials: int,
                 distractors: int, sweep: str | None, variant: Path | None, device_address: str | None,
                 workers: int, ray_address: str | None, out: Path, resume: bool, run_date: dt.datetime | None,
                 case_ids: tuple[str, ...], categories: tuple[str, ...], json_output: bool, confirmation_mode: str,
                 judge_model: str | None, allow_errors: bool, junit: Path | None, sdk: str | None,
                 **server_options) -> None:
    """Score an agent on SUITE: every case on a fresh device, BFCL-style calls, state checks, and
    the agent's words against what happened; retrieval ranks each expected function among all
    installed ones by its descriptions, without a model. pass@1 is the share of cases where all
    of that held.

    Exit code 0 when the run finished, 1 when it was refused or stopped, 3 when cases met
    infrastructure errors (server errors after retries, timeouts, crashes) and --allow-errors
    was not given.
    """
    from sim.cli.output import console
    from sim.eval.devices import DeviceSetupError
    from sim.eval.ray_attach import RayUnreachable, UnprotectedRay
    from sim.eval.models import ModelSpecError
    from sim.eval.bounded_regex import PatternTimeout
    from sim.eval.progress import Progress
    from sim.eval.report import terminal_table
    from sim.eval.results import ResumeError
    from sim.eval.run import EvalOptions, run_eval
    from sim.eval.runner import ModelUnavailable
    from sim.eval.suite import SuiteError, load_suite, skipped_lines
    from sim.junit import JUnitPathError

    options = EvalOptions(
        model=model, base_url=base_url, api_key=api_key, trials=trials,
        distractors=_counts(sweep) if sweep else [distractors], variant=variant, device=device_address,
        workers=workers, **ray_options(ray_address), out=out, resume=resume,
        run_date=run_date.date() if run_date else None, cases=list(case_ids) or None,
        categories=list(categories) or None, confirmation_mode=confirmation_mode, judge_model=judge_model,
        junit=junit, sdk=int(sdk) if sdk else None,
    )
    options.model_options, options.agent_options = split_model_options(server_options)
    err = console(stderr=True)
    try:
        suite = load_suite(suite_file)
        for warning in suite.warnings(ray=options.ray):
            err.print(f"warning: {warning}", style="yellow", markup=False, soft_wrap=True)
        with Progress(err) as progress:
            summary = run_eval(suite, options, progress.update, progress.nodes)
    except (SuiteError, ModelSpecError, DeviceSetupError, ResumeError, UnprotectedRay, RayUnreachable, JUnitPathError) as error:
        raise click.ClickException(str(error)) from None
    except PatternTimeout as error:
        raise click.ClickException(f"{suite_file}: {error}") from None
    except ModelUnavailable as error:
        raise server_went_down(error, out) from None
    show_summary(summary, json_output, out, terminal_table, err)
    _warn_unanswered(summary, err)
    for line in skipped_lines(summary):
        err.print(line, style="yellow", markup=False, soft_wrap=True)
    exit_on_infra_errors(summary, allow_errors, err)


def _warn_unanswered(summary: dict, err) -> None:
    """Loudly, whatever the output: a score made of calls nothing could answer is no agent's score."""
    from sim.eval.unanswered import alarms

    for text in alarms(summary):
        err.print(f"warning: {text}", style="bold red", markup=False, soft_wrap=True)
