"""What a person reads of a τ² run: a table per task on the terminal, and report.html's τ² sections.

Per task: its trials, how many passed (droidsim's verdict) and earned reward 1 (τ²'s), pass^k,
whether a do-nothing agent passes it, and how many trials were not judged. Then, in the report,
each trial that did not pass with why: the gold actions matched or not, the writes no gold
action asks for, and the records that changed when they should not have (or did not change
when they should), field by field.
"""

from __future__ import annotations

import html
import json
from typing import Any

from sim.eval.outcome import PASSED


def terminal(summary: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    tau2 = summary["tau2"]
    trials = summary["trials"]
    table = Table(title=f"{summary['model']} on {summary['suite']} (user: {summary.get('user_model')})",
                  title_justify="left")
    for column in ("task", "passed", "τ² reward 1", f"pass^{trials}", "do-nothing passes", "not judged"):
        table.add_column(column, justify="left" if column == "task" else "right")
    for task in tau2["tasks"]:
        table.add_row(task["task_id"], f"{task['passed']}/{task['trials']}", f"{task['rewarded']}/{task['trials']}",
                      _pct(task["pass^k"].get(str(trials))), "yes" if task["do_nothing_passes"] else "",
                      str(task["not_judged"] or ""))
    console.print(table)
    for line in lines(summary):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def lines(summary: dict[str, Any]) -> list[str]:
    """The run's figures in sentences: both scores' pass^k, the do-nothing share, what was not judged."""
    tau2 = summary["tau2"]
    out = [f"droidsim pass^k: {_curve(tau2['droidsim']['pass^k'])}",
           f"τ² pass^k: {_curve(tau2['tau2']['pass^k'])} (average reward {tau2['tau2']['average_reward']:.3f})"]
    if tau2["do_nothing_tasks"]:
        out.append(f"{len(tau2['do_nothing_tasks'])} of {len(tau2['tasks'])} tasks "
                   f"({100 * tau2['do_nothing_share']:.0f} %)"
                   f" are passed by an agent that does nothing: {', '.join(tau2['do_nothing_tasks'])}")
    if tau2["words_failed"]:
        out.append(f"failed on the agent's words (a change claimed that did not happen): "
                   f"{', '.join(tau2['words_failed'])}")
    if tau2["not_judged"]:
        out.append(f"not judged (natural-language assertions and no --judge-model; left out of the scores): "
                   f"{', '.join(tau2['not_judged'])}")
    return out


def html_sections(summary: dict[str, Any], records: list[dict[str, Any]]) -> str:
    tau2 = summary["tau2"]
    trials = summary["trials"]
    rows = "".join(
        f"<tr><td>{_e(t['task_id'])}</td><td class=n>{t['passed']}/{t['trials']}</td>"
        f"<td class=n>{t['rewarded']}/{t['trials']}</td><td class=n>{_pct(t['pass^k'].get(str(trials)))}</td>"
        f"<td>{'yes' if t['do_nothing_passes'] else ''}</td><td class=n>{t['not_judged'] or ''}</td></tr>"
        for t in tau2["tasks"])
    parts = ["<h2>τ² tasks</h2>",
             "<p>" + "<br>".join(_e(line) for line in lines(summary)) + "</p>",
             "<p>droidsim's verdict is τ²'s reward and, on tasks a do-nothing agent passes, the agent's words. "
             "pass^k is τ's estimator: the chance that k trials of a task, drawn from those run, all pass.</p>",
             f"<table><tr><th>task</th><th>passed</th><th>τ² reward 1</th><th>pass^{trials}</th>"
             f"<th>do-nothing passes</th><th>not judged</th></tr>{rows}</table>",
             "<h2>Why τ² trials did not pass</h2>"]
    failing = [r for r in records if r.get("outcome") and r["outcome"]["verdict"] != PASSED]
    parts += [_why(r) for r in failing] or ["<p>None.</p>"]
    return "\n".join(parts)


def _why(record: dict[str, Any]) -> str:
    outcome = record["outcome"]
    gold = "".join(f"<li>{'✓' if g['matched'] else '✗'} {_e(g['name'])} {_e(_json(g['arguments']))}</li>"
                   for g in outcome["path"]["gold"]) or "<li>(no gold actions)</li>"
    extra = "".join(f"<li>{_e(w['name'])} {_e(_json(w['arguments']))}</li>" for w in outcome["path"]["extra_writes"])
    findings = "".join(
        f"<tr><td>{_e(f['kind'])}</td><td>{_e(f['table'])} {_e(f['key'])}</td><td>{_e(f['change'])}</td>"
        f"<td>{_COMPARED[f['kind']]}</td><td>"
        + "<br>".join(f"{_e(c['path'] or '(record)')}: {_e(_json(c['before']))} → {_e(_json(c['after']))}"
                      for c in f["fields"]) + "</td></tr>"
        for f in outcome["diff"]["findings"])
    reasons = "".join(f"<div class=why>✗ {_e(reason)}</div>" for reason in record.get("failures") or [])
    return (f"<details><summary>task {_e(record['case_id'])} · trial {record['trial']} · {_e(outcome['verdict'])} · "
            f"reward {outcome['reward']} · ended by {_e(outcome['ending'])}</summary>{reasons}"
            f"<p>Gold actions (✓ matched by a call):</p><ul>{gold}</ul>"
            + (f"<p>Writes no gold action asks for:</p><ul>{extra}</ul>" if extra else "")
            + (f"<table><tr><th>finding</th><th>record</th><th>change</th><th>compared</th><th>fields</th>"
               f"</tr>{findings}</table>" if findings else "<p>The database matched the gold end state.</p>")
            + "</details>")


# What each kind of finding's fields compare (sim/eval/state_diff.py).
_COMPARED = {"unexpected": "start → run", "missed": "start → gold", "different": "gold → run"}


def _curve(curve: dict[str, float]) -> str:
    return ", ".join(f"k={k}: {100 * v:.1f}%" for k, v in curve.items()) or "no trial scored"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _e(text: Any) -> str:
    return html.escape(str(text))
