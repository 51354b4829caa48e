"""The τ² part of summary.json: rewards, pass^k per task and overall, do-nothing tasks, what was not judged.

Two scores are kept apart, each with pass^k by τ's estimator (C(c,k)/C(n,k) for a task with c of
n trials successful, averaged over tasks; sim/eval/figures.py):

- ``tau2``: τ²'s own reward, comparable with published τ² results;
- ``droidsim``: that reward and, on tasks a do-nothing agent passes, the agent's words (a
  claimed change that did not happen fails).

Trials whose natural-language assertions were not judged (no ``--judge-model``) have no reward;
they are counted under ``not_judged`` and left out of both, never counted as passes (unless the
agent's words failed one: that is droidsim's verdict, with no τ² reward). Trials
that met an infrastructure error are left out too (``infra_errors``, as in eval's summary).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Iterable

from sim.eval.figures import pass_hat_curve
from sim.eval.outcome import NOT_JUDGED


def is_not_judged(record: dict[str, Any]) -> bool:
    return not record.get("infra_error") and (record.get("outcome") or {}).get("verdict") == NOT_JUDGED


def tau2_summary(records: Iterable[dict[str, Any]], trials: int) -> dict[str, Any]:
    records = sorted(records, key=lambda r: (_order(r["case_id"]), r["trial"]))
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_task[record["case_id"]].append(record)
    tasks = []
    for task_id, runs in by_task.items():
        decided = [r for r in runs if _scored(r)]
        rewarded = [r for r in runs if _rewarded(r)]
        outcome = next((r["outcome"] for r in runs if r.get("outcome")), None) or {}
        tasks.append({
            "task_id": task_id,
            "trials": len(decided),
            "passed": sum(bool(r["passed"]) for r in decided),
            "rewarded": sum(r["reward"] == 1.0 for r in rewarded),
            "pass^k": pass_hat_curve({task_id: [bool(r["passed"]) for r in decided]}, trials),
            "tau2_pass^k": pass_hat_curve({task_id: [r["reward"] == 1.0 for r in rewarded]}, trials),
            "do_nothing_passes": bool(outcome.get("do_nothing_passes")),
            "not_judged": sum(is_not_judged(r) for r in runs),
            "infra_errors": sum(bool(r.get("infra_error")) for r in runs),
        })
    verdicts = {task_id: [bool(r["passed"]) for r in runs if _scored(r)] for task_id, runs in by_task.items()}
    rewards = {task_id: [r["reward"] == 1.0 for r in runs if _rewarded(r)] for task_id, runs in by_task.items()}
    paid = [r["reward"] for r in records if _rewarded(r)]
    idle = [t["task_id"] for t in tasks if t["do_nothing_passes"]]
    return {
        "tasks": tasks,
        "droidsim": {"pass^k": pass_hat_curve({k: v for k, v in verdicts.items() if v}, trials)},
        "tau2": {"pass^k": pass_hat_curve({k: v for k, v in rewards.items() if v}, trials),
                 "average_reward": round(sum(paid) / len(paid), 4) if paid else 0.0},
        "do_nothing_tasks": idle,
        "do_nothing_share": round(len(idle) / len(tasks), 4) if tasks else 0.0,
        "not_judged": sorted({r["case_id"] for r in records if is_not_judged(r)}, key=_order),
        "endings": dict(sorted(Counter((r.get("outcome") or {}).get("ending", "infra_error")
                                       for r in records).items())),
        "words_failed": sorted({r["case_id"] for r in records if (r.get("outcome") or {}).get("false_claims")},
                               key=_order),
    }


def _scored(record: dict[str, Any]) -> bool:
    """droidsim's verdict was reached (passed or failed)."""
    return not record.get("infra_error") and not is_not_judged(record)


def _rewarded(record: dict[str, Any]) -> bool:
    """τ²'s reward was reached (a false claim may fail a trial whose assertions were not judged)."""
    return not record.get("infra_error") and record.get("reward") is not None


def _order(task_id: str) -> tuple[int, Any]:
    """Task ids in their natural order: "2" before "10"."""
    return (0, int(task_id)) if task_id.isdigit() else (1, task_id)
