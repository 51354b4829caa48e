"""``droidsim eval compare RUN_A RUN_B …``: finished runs side by side.

Each run is an output folder of ``droidsim eval`` (its ``summary.json`` and
``results.jsonl``); two models, two description variants, two dates. The comparison
gives, per category and overall, each run's pass@1 with its counts and 95 % interval;
the retrieval scores (sim/eval/retrieval.py); per function, how often each run chose it
right, got its arguments right and ranked it in retrieval's top 3; and
the cases whose verdict differs between runs (a case "flipped"), with each run's
verdict. Runs of different suites are compared on the cases they share, and the
others are named. Configurations of a run (``base``, ``variant``, ``base+50``) each
count as a run of their own, labelled ``RUN/CONFIG`` when a run has several.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.eval.categories import CATEGORIES
from sim.eval.results import RESULTS
from sim.eval.run import SUMMARY


class CompareError(ValueError):
    """A folder that holds no finished run."""


def load_runs(folders: list[Path]) -> list[dict[str, Any]]:
    """One entry per configuration of each run: label, summary scores, and the verdict of each case."""
    if len(folders) < 2:
        raise CompareError("give at least two run folders to compare")
    names = [f.name for f in folders]
    runs = []
    for folder in folders:
        name = folder.name if names.count(folder.name) == 1 else str(folder)
        summary_path, results_path = folder / SUMMARY, folder / RESULTS
        for path in (summary_path, results_path):
            if not path.is_file():
                raise CompareError(f"{folder}: no {path.name}; is it the --out folder of a finished droidsim eval run?")
        try:
            summary = json.loads(summary_path.read_text(encoding="utf-8"))
            records = [json.loads(line) for line in results_path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise CompareError(f"{folder}: {error.msg} in {summary_path.name} or {results_path.name} "
                               f"(line {error.lineno})") from None
        configs = summary.get("configs") or {}
        for config, data in configs.items():
            label = name if len(configs) == 1 else f"{name}/{config}"
            verdicts: dict[str, list[bool]] = {}
            for record in records:
                if record.get("config") == config and not record.get("infra_error"):
                    verdicts.setdefault(record["case_id"], []).append(bool(record["passed"]))
            runs.append({"label": label, "path": str(folder), "model": summary.get("model"),
                         "suite": summary.get("suite"), "scores": data["scores"],
                         "retrieval": data.get("retrieval") or {},
                         "verdicts": {case: all(v) for case, v in verdicts.items()},
                         "categories_of": {r["case_id"]: r["category"] for r in records if r.get("config") == config}})
    return runs


def compare(runs: list[dict[str, Any]]) -> dict[str, Any]:
    labels = [r["label"] for r in runs]
    categories = [c for c in [*CATEGORIES, "overall"]
                  if c == "overall" or any(c in r["scores"]["categories"] for r in runs)]
    per_category = {c: {r["label"]: _rates(r["scores"], c) for r in runs} for c in categories}
    functions = sorted({f["function"] for r in runs for f in r["scores"].get("functions") or []})
    per_function = {}
    for name in functions:
        per_function[name] = {}
        for run in runs:
            entry = next((f for f in run["scores"].get("functions") or [] if f["function"] == name), None)
            found = (run["retrieval"].get("functions") or {}).get(name)
            per_function[name][run["label"]] = None if entry is None else {
                "expected": entry["expected"], "chosen_right": entry["chosen_right"],
                "arguments_right": entry["arguments_right"], "most_wrong_argument": entry["most_wrong_argument"],
                "retrieval_recall_at_3": found["recall_at_3"] if found else None}
    retrieval = {r["label"]: {k: v for k, v in r["retrieval"].items() if k != "functions"} for r in runs}
    shared = set.intersection(*(set(r["verdicts"]) for r in runs))
    flipped = []
    for case in sorted(shared):
        verdicts = {r["label"]: r["verdicts"][case] for r in runs}
        if len(set(verdicts.values())) > 1:
            category = next(r["categories_of"].get(case) for r in runs)
            flipped.append({"case_id": case, "category": category, "passed": verdicts})
    only = {r["label"]: sorted(set(r["verdicts"]) - shared) for r in runs if set(r["verdicts"]) - shared}
    return {"runs": [{"label": r["label"], "path": r["path"], "model": r["model"], "suite": r["suite"]} for r in runs],
            "labels": labels, "categories": per_category, "functions": per_function, "retrieval": retrieval,
            "flipped": flipped,
            "not_shared": only, "shared_cases": len(shared)}


def _rates(scores: dict[str, Any], category: str) -> dict[str, Any] | None:
    rates = scores["overall"] if category == "overall" else scores["categories"].get(category)
    if rates is None:
        return None
    return {"passed": rates["passed"], "trials_run": rates["trials_run"], "pass@1": rates["pass@1"],
            "wilson_95": rates.get("wilson_95")}


def terminal(comparison: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    labels = comparison["labels"]
    table = Table(title="pass@1 per category", title_justify="left")
    table.add_column("category")
    for label in labels:
        table.add_column(label, justify="right")
    if len(labels) == 2:
        table.add_column("change", justify="right")
    for category, by_run in comparison["categories"].items():
        cells = [category] + [_cell(by_run[label]) for label in labels]
        if len(labels) == 2:
            cells.append(_delta(by_run[labels[0]], by_run[labels[1]]))
        table.add_row(*cells, end_section=category == list(comparison["categories"])[-2])
    console.print(table)
    console.print(_retrieval_table(comparison, Table))
    functions = Table(title="per function: chosen right / arguments right (when chosen), retrieval in the top 3",
                      title_justify="left")
    functions.add_column("function")
    for label in labels:
        functions.add_column(label, justify="right")
    for name, by_run in comparison["functions"].items():
        functions.add_row(name, *[_function_cell(by_run[label]) for label in labels])
    console.print(functions)
    flipped = Table(title=f"cases that flipped ({len(comparison['flipped'])} of {comparison['shared_cases']} shared)",
                    title_justify="left")
    flipped.add_column("case")
    flipped.add_column("category")
    for label in labels:
        flipped.add_column(label)
    for case in comparison["flipped"]:
        flipped.add_row(case["case_id"], case["category"] or "",
                        *["pass" if case["passed"][label] else "FAIL" for label in labels])
    console.print(flipped)
    for label, cases in comparison["not_shared"].items():
        console.print(f"only in {label}: {', '.join(cases)}", markup=False)


RETRIEVAL_ROWS = (("recall_at_1", "in the top 1"), ("recall_at_3", "in the top 3"), ("mrr", "MRR"))


def _retrieval_table(comparison: dict[str, Any], table_class: Any) -> Any:
    labels = comparison["labels"]
    table = table_class(title="retrieval: the expected functions by BM25 over their descriptions (no model)",
                        title_justify="left")
    table.add_column("score")
    for label in labels:
        table.add_column(label, justify="right")
    if len(labels) == 2:
        table.add_column("change", justify="right")
    for key, name in RETRIEVAL_ROWS:
        cells = [_retrieval_cell(comparison["retrieval"][label], key) for label in labels]
        if len(labels) == 2:
            cells.append(_retrieval_delta(*(comparison["retrieval"][label] for label in labels), key))
        table.add_row(name, *cells)
    return table


def _retrieval_cell(scores: dict[str, Any], key: str) -> str:
    if key not in scores:
        return "-"
    return f"{scores[key]:.2f}" if key == "mrr" else f"{100 * scores[key]:.1f}% of {scores['expected']}"


def _retrieval_delta(a: dict[str, Any], b: dict[str, Any], key: str) -> str:
    if key not in a or key not in b:
        return "-"
    return f"{b[key] - a[key]:+.2f}" if key == "mrr" else f"{100 * (b[key] - a[key]):+.1f} pts"


def _cell(rates: dict[str, Any] | None) -> str:
    if rates is None:
        return "-"
    return f"{100 * rates['pass@1']:.1f}% ({rates['passed']}/{rates['trials_run']})"


def _delta(a: dict[str, Any] | None, b: dict[str, Any] | None) -> str:
    if a is None or b is None:
        return "-"
    return f"{100 * (b['pass@1'] - a['pass@1']):+.1f} pts"


def _function_cell(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "-"
    found = entry.get("retrieval_recall_at_3")
    top = f", top 3 {100 * found:.0f}%" if found is not None else ""
    return f"{entry['chosen_right']}/{entry['expected']}, {entry['arguments_right']}/{entry['chosen_right']}{top}"


def write_html(path: Path, comparison: dict[str, Any]) -> None:
    from html import escape

    labels = comparison["labels"]
    e = lambda text: escape(str(text))  # noqa: E731 - the page's one escaping rule
    head = "".join(f"<th>{e(label)}</th>" for label in labels)
    change = "<th>change</th>" if len(labels) == 2 else ""
    rows = []
    for category, by_run in comparison["categories"].items():
        cells = "".join(f"<td class=n>{e(_cell(by_run[label]))}{_interval(by_run[label])}</td>" for label in labels)
        delta = f"<td class=n>{e(_delta(by_run[labels[0]], by_run[labels[1]]))}</td>" if len(labels) == 2 else ""
        rows.append(f"<tr><td>{e(category)}</td>{cells}{delta}</tr>")
    functions = "".join(f"<tr><td>{e(name)}</td>" + "".join(
        f"<td class=n>{e(_function_cell(by_run[label]))}</td>" for label in labels) + "</tr>"
        for name, by_run in comparison["functions"].items())
    flipped = "".join(f"<tr><td>{e(c['case_id'])}</td><td>{e(c['category'] or '')}</td>" + "".join(
        f"<td class={'pass' if c['passed'][label] else 'fail'}>{'pass' if c['passed'][label] else 'FAIL'}</td>"
        for label in labels) + "</tr>" for c in comparison["flipped"]) or f"<tr><td colspan={2 + len(labels)}>none</td></tr>"
    retrieval_rows = "".join(
        f"<tr><td>{e(name)}</td>" + "".join(f"<td class=n>{e(_retrieval_cell(comparison['retrieval'][label], key))}</td>"
                                             for label in labels)
        + (f"<td class=n>{e(_retrieval_delta(*(comparison['retrieval'][label] for label in labels), key))}</td>"
           if len(labels) == 2 else "") + "</tr>" for key, name in RETRIEVAL_ROWS)
    runs = "".join(f"<li><b>{e(r['label'])}</b>: {e(r['model'])} on {e(Path(r['suite'] or '').name)} ({e(r['path'])})</li>"
                   for r in comparison["runs"])
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>droidsim eval compare</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
            "th{background:#f3f3f3}.n{text-align:right}.ci{color:#666}.pass{background:#e6f4ea}"
            ".fail{background:#fde7e9;color:#b00020;font-weight:600}</style></head><body>"
            f"<h1>droidsim eval compare</h1><ul>{runs}</ul>"
            f"<h2>pass@1 per category</h2><table><tr><th>category</th>{head}{change}</tr>{''.join(rows)}</table>"
            f"<h2>Retrieval</h2><p>Each expected function's rank among all installed ones by BM25 over names and "
            f"descriptions: it measures the descriptions, not the model.</p><table><tr><th>score</th>{head}{change}</tr>"
            f"{retrieval_rows}</table>"
            "<h2>Per function</h2><p>chosen right / expected, then arguments right / chosen right, then the share "
            "of its cases where retrieval ranks it in the top 3.</p>"
            f"<table><tr><th>function</th>{head}</tr>{functions}</table>"
            f"<h2>Cases that flipped ({len(comparison['flipped'])} of {comparison['shared_cases']} shared)</h2>"
            f"<table><tr><th>case</th><th>category</th>{head}</tr>{flipped}</table></body></html>\n")
    path.write_text(page, encoding="utf-8")


def _interval(rates: dict[str, Any] | None) -> str:
    if not rates or not rates.get("wilson_95"):
        return ""
    low, high = rates["wilson_95"]
    return f" <span class=ci>[{100 * low:.0f}–{100 * high:.0f}]</span>"
