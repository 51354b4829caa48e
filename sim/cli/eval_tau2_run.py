"""``droidsim eval tau2 --domain retail|airline --data DIR``: τ²-bench's tasks, an agent, a device.

The ``tau2`` group (sim/cli/eval_tau2.py) runs this command unless its first word names one of
its subcommands.
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.api_key import api_key_options
from sim.cli.eval_options import (exit_on_infra_errors, ray_options, server_went_down, show_summary,
                                  where_it_runs)
from sim.cli.model_options import model_server_options, split_model_options
from sim.platform_version import NEWEST, VERSIONS

DOMAINS = ("retail", "airline")


def _ids(text: str | None) -> list[str] | None:
    if text is None:
        return None
    ids = [part.strip() for part in text.split(",") if part.strip()]
    if not ids:
        raise click.BadParameter(f"{text!r}: give task ids separated by commas, e.g. 0,3,17")
    return ids


@click.command("run")
@click.option("--domain", required=True, type=click.Choice(DOMAINS), help="The τ² domain.")
@click.option("--data", required=True, type=click.Path(path_type=Path), metavar="DIR",
              help="The domain's files: τ²'s layout (db.json, tasks.json, split_tasks.json, policy.md) or τ-bench "
                   "v1's airline layout (flights.json, reservations.json, users.json).")
@click.option("--tasks-from", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="With τ-bench v1's airline layout, whose tasks are code: its historical-trajectories file, "
                   "whose runs carry their tasks (and the policy their agent read).")
@click.option("--split", type=click.Choice(("train", "test", "base")), help="Only the tasks of this split.")
@click.option("--tasks", "task_ids", metavar="ID,...", help="Only these tasks.")
@click.option("--trials", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run each task K times: pass^k for k = 1..K, per task and overall.")
@click.option("--model", default="scripted", show_default=True, metavar="openai:NAME|scripted|scripted:FILE",
              help="The agent's model: any chat-completions server; scripted: the oracle (the task's gold calls, "
                   "then what must be told); scripted:FILE: the steps FILE gives each task.")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Chat-completions endpoint for openai:NAME.")
@api_key_options
@model_server_options
@click.option("--user-model", required=True, metavar="openai:NAME|scripted|scripted:FILE",
              help="Who plays the user: a chat model playing the task's scenario with τ²'s stop rules; scripted: "
                   "says the scenario's reason for calling, then stops; scripted:FILE: the turns FILE gives each "
                   "task (a mapping of task id to turns, or an earlier run's results.jsonl).")
@click.option("--user-base-url", help="Chat-completions endpoint of the user model (default: --base-url).")
@click.option("--judge-model", metavar="openai:NAME",
              help="Judges the tasks' natural-language assertions, through --base-url; without it they are "
                   "reported as not judged.")
@click.option("--max-steps", type=click.IntRange(min=2), default=200, show_default=True,
              help="Messages (user, agent, a batch of call results) before the conversation is cut off: reward 0.")
@click.option("--max-errors", type=click.IntRange(min=1), default=10, show_default=True,
              help="Failed calls before the conversation is cut off: reward 0.")
@click.option("--sdk", type=click.Choice([str(v) for v in sorted(VERSIONS)]), default=None,
              help=f"The Android version of the devices (default: {NEWEST.sdk_int}).")
@where_it_runs
@click.option("--resume", is_flag=True, help="Skip the trials already in OUT/results.jsonl.")
@click.option("--json", "json_output", is_flag=True, help="Print summary.json instead of the table.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the results as JUnit XML for CI: one test case per task and trial.")
@click.option("--allow-errors", is_flag=True, help="Exit 0 even when some trials met an infrastructure error.")
def tau2_run_command(domain: str, data: Path, tasks_from: Path | None, split: str | None, task_ids: str | None,
                     trials: int, model: str,
                     base_url: str | None, api_key: str | None, user_model: str, user_base_url: str | None,
                     judge_model: str | None, max_steps: int, max_errors: int, sdk: str | None, workers: int,
                     ray_address: str | None, out: Path, resume: bool, json_output: bool, junit: Path | None,
                     allow_errors: bool, **server_options) -> None:
    """Run an agent on τ²-bench's retail or airline tasks on simulated devices, judged by outcome: the
    database against the one the gold actions leave, what it had to tell the user, and the tasks'
    assertions (with --judge-model); pass^k over --trials.

    Exit code 0 when the run finished, 1 when it was refused or stopped, 3 when trials met
    infrastructure errors and --allow-errors was not given.
    """
    from sim.cli.output import console
    from sim.eval.devices import DeviceSetupError
    from sim.eval.models import ModelSpecError
    from sim.eval.progress import Progress
    from sim.eval.ray_attach import RayUnreachable, UnprotectedRay
    from sim.eval.results import ResumeError
    from sim.eval.runner import ModelUnavailable
    from sim.eval.tau2.domain import DomainError
    from sim.eval.tau2.report import terminal
    from sim.eval.tau2.run import Tau2Options, run_tau2
    from sim.eval.tau2.tasks import TaskScriptError
    from sim.junit import JUnitPathError

    options = Tau2Options(
        domain=domain, data=data, tasks_from=tasks_from, split=split, tasks=_ids(task_ids), trials=trials, model=model,
        base_url=base_url,
        api_key=api_key, user_model=user_model, user_base_url=user_base_url, judge_model=judge_model,
        max_steps=max_steps, max_errors=max_errors, workers=workers, **ray_options(ray_address), out=out,
        resume=resume, junit=junit, sdk=int(sdk) if sdk else None)
    options.model_options, options.agent_options = split_model_options(server_options)
    err = console(stderr=True)
    try:
        with Progress(err) as progress:
            summary = run_tau2(options, progress.update, progress.nodes)
    except (DomainError, TaskScriptError, ModelSpecError, DeviceSetupError, ResumeError, UnprotectedRay,
            RayUnreachable, JUnitPathError) as error:
        raise click.ClickException(str(error)) from None
    except ModelUnavailable as error:
        raise server_went_down(error, out) from None
    show_summary(summary, json_output, out, terminal, err)
    exit_on_infra_errors(summary, allow_errors, err)
