"""results.jsonl (one record per finished case, written as it finishes), run.json, and the
records as JUnit test cases for CI (``--junit``).

run.json holds what a rerun must share with the first run (suite, model, run
date, trials, configurations), so ``--resume`` continues the same run: the same
run date, and the unfinished cases only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from sim.eval.measured_error import doubtful_reason
from sim.junit import JUnitCase

RESULTS = "results.jsonl"
RUN = "run.json"
# What must not change between a run and its --resume.
_SAME_ON_RESUME = ("suite", "model", "trials", "configs", "confirmation_mode", "judge_model", "sdk")


class ResumeError(ValueError):
    """--resume on an output folder that holds another run."""


def load_done(out: Path) -> list[dict[str, Any]]:
    """The records already written, for --resume. A line cut short by a crash is dropped, and so is
    a record of an infrastructure error (a server error, a timeout): those cases run again."""
    path = out / RESULTS
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not record.get("infra_error"):
            records.append(record)
    path.write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in records), encoding="utf-8")
    return records


def start_run(out: Path, meta: dict[str, Any], resume: bool) -> dict[str, Any]:
    """Write run.json (or, resuming, check it and return the stored one, run date included)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / RUN
    if resume and path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
        for key in _SAME_ON_RESUME:
            if stored.get(key) != meta.get(key):
                raise ResumeError(f"{out} holds a run with another {key} ({stored.get(key)!r}, now "
                                  f"{meta.get(key)!r}); use another --out or drop --resume")
        return stored
    (out / RESULTS).write_text("", encoding="utf-8")
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return meta


class ResultWriter:
    def __init__(self, out: Path, records: Iterable[dict[str, Any]] = ()) -> None:
        self._file = open(out / RESULTS, "a", encoding="utf-8")
        self.records = list(records)

    def add(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._file.flush()
        self.records.append(record)

    def close(self) -> None:
        self._file.close()


def junit_cases(records: Iterable[dict[str, Any]], suite: str, trials: int) -> list[JUnitCase]:
    """One test case per configuration, case and trial: failed with the first reason (the task's
    first, then the words'; a doubtful one says so), with both verdicts, every reason and the
    conversation in its text and the verdicts as properties; or in error when it met an
    infrastructure error."""
    cases = []
    for record in sorted(records, key=lambda r: (r["config"], r["case_id"], r["trial"])):
        name = record["case_id"] + (f" (trial {record['trial'] + 1})" if trials > 1 else "")
        infra = record.get("infra_error")
        task, words = record.get("task"), record.get("words")
        reasons = [f"{infra['kind']}: {infra['detail']}"] if infra else _reasons(record)
        failed = bool(infra) or not record["passed"]
        verdicts = [] if infra or task is None else [f"task: {'pass' if task['passed'] else 'fail'} ({task['by']})",
                                                     f"words: {words['verdict']} (read by {words['reader']})", ""]
        properties = () if infra or task is None else (
            ("verdict", record["verdict"]), ("task", "pass" if task["passed"] else "fail"),
            ("words", words["verdict"]), ("words.reader", words["reader"]))
        cases.append(JUnitCase(f"{suite}.{record['config']}", name, record.get("seconds", 0.0),
                               failure=(reasons[0] if reasons else "failed") if failed else None,
                               details="\n".join([*verdicts, *reasons, "", *_transcript(record)]) if failed else "",
                               error=bool(infra), properties=properties))
    return cases


def _reasons(record: dict[str, Any]) -> list[str]:
    """Why it did not pass: the task's failures, the words' decisive ones, then the doubtful ones."""
    task, words = record.get("task"), record.get("words")
    if task is None:
        return record["failures"]
    return [*task["failures"], *words["failures"],
            *(f"{doubtful_reason(d)}: {d['detail']}" for d in words["doubtful"])]


def _transcript(record: dict[str, Any]) -> list[str]:
    lines = []
    for turn in record.get("turns", []):
        if "user" not in turn:
            continue
        lines.append(f"user: {turn['user']}")
        for call in turn.get("calls", []):
            lines.append(f"call: {call['name']} {json.dumps(call['args'], ensure_ascii=False)} -> "
                         f"{json.dumps(call['response'], ensure_ascii=False, default=str)}")
        lines.append(f"agent: {turn.get('text', '')}")
    return lines
