"""What a person reads: the terminal table and report.html.

report.html is one self-contained file (no scripts, no network): the charts are
drawn by matplotlib and inlined as SVG — matplotlib because it is the
long-maintained standard for static plots, renders without a display (Agg/SVG
backend) and its SVG needs nothing at view time, unlike JavaScript chart
libraries that would have to be bundled into the page.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

from sim.eval.categories import CATEGORIES

CATEGORY_CHART = "accuracy-per-category.svg"


def terminal_table(summary: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    trials = summary["trials"]
    configs = summary["configs"]
    table = Table(title=f"{summary['model']} on {Path(summary['suite']).name} (run date {summary['run_date']})",
                  title_justify="left")
    table.add_column("category")
    for label in configs:
        table.add_column(f"{label} pass@1", justify="right")
        if trials > 1:
            table.add_column(f"{label} pass^{trials}", justify="right")
    rows = [c for c in CATEGORIES if any(c in configs[label]["scores"]["categories"] for label in configs)]
    for category in [*rows, "overall"]:
        cells = [category]
        for label in configs:
            scores = configs[label]["scores"]
            rates = scores["overall"] if category == "overall" else scores["categories"].get(category)
            if rates is None:
                cells += ["-"] * (2 if trials > 1 else 1)
                continue
            cells.append(f"{100 * rates['pass@1']:.1f}% ({rates['passed']}/{rates['trials_run']})")
            if trials > 1:
                cells.append(f"{100 * rates[f'pass^{trials}']:.1f}%")
        table.add_row(*cells, end_section=category == rows[-1] if rows else False)
    console.print(table)
    for label, config in configs.items():
        timing = config["timing"]
        if timing:
            console.print(f"{label}: {timing['mean_case_ms']} ms per case, of which the model "
                          f"{timing['mean_model_ms']} ms", style="dim", markup=False)
    for label, config in configs.items():
        found = config.get("warnings") or []
        if found:
            cases = sorted({w["case_id"] for w in found})
            console.print(f"warning: {label}: {len(cases)} case(s) got answers that look like tool calls no parser "
                          f"read ({', '.join(cases)}): {found[0]['warning']}", style="yellow", markup=False)
    variant = summary.get("variant")
    if variant:
        delta = variant["pass@1_delta"]["overall"]
        console.print(f"variant {variant['path']}: overall pass@1 {100 * delta:+.1f} points; newly failing: "
                      f"{', '.join(variant['newly_failing']) or 'none'}; newly passing: "
                      f"{', '.join(variant['newly_passing']) or 'none'}", markup=False)


def write_html(path: Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> None:
    configs = summary["configs"]
    accuracy = _svg(_category_chart(configs))
    # The chart on its own too, for a README or a slide.
    (path.parent / CATEGORY_CHART).write_text(accuracy, encoding="utf-8")
    parts = [f"<h1>droidsim eval: {_e(summary['model'])} on {_e(Path(summary['suite']).name)}</h1>",
             f"<p>Run date {_e(summary['run_date'])}, {summary['trials']} trial(s) per case.</p>",
             "<h2>Accuracy per category</h2>", accuracy, _score_table(summary)]
    sizes = _sizes(summary)
    if len(sizes) > 1:
        parts += ["<h2>Accuracy against catalog size</h2>", _svg(_size_chart(sizes))]
    if summary.get("variant"):
        variant = summary["variant"]
        parts += ["<h2>Variant</h2>", f"<p>{_e(variant['path'])}: overall pass@1 "
                  f"{100 * variant['pass@1_delta']['overall']:+.1f} points. Newly failing: "
                  f"{_e(', '.join(variant['newly_failing']) or 'none')}. Newly passing: "
                  f"{_e(', '.join(variant['newly_passing']) or 'none')}.</p>"]
    first = next(iter(configs))
    confusion = configs[first]["scores"]["confusion"]
    if confusion:
        parts += [f"<h2>Which function was called ({_e(first)})</h2>",
                  "<p>Rows: the function the case expected; columns: what the agent called.</p>",
                  _svg(_confusion_chart(confusion)),
                  f"<details><summary>The counts as a table</summary>{_confusion_table(confusion)}</details>"]
    parts += ["<h2>Cases that failed</h2>", _failures(records)]
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>droidsim eval</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
            "text-align:left;vertical-align:top}th{background:#f3f3f3}.n{text-align:right}"
            "details{overflow-x:auto}svg{max-width:100%;height:auto}"
            "</style></head><body>" + "\n".join(parts) + "</body></html>\n")
    path.write_text(page, encoding="utf-8")


def _sizes(summary: dict[str, Any]) -> list[tuple[int, float]]:
    counts = summary.get("distractors", {})
    return sorted((counts[label], config["scores"]["overall"]["pass@1"])
                  for label, config in summary["configs"].items() if label.startswith("base") and label in counts)


def _figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _category_chart(configs: dict[str, Any]):
    figure = _figure(10, 3.6)
    axes = figure.subplots()
    categories = [c for c in CATEGORIES if any(c in v["scores"]["categories"] for v in configs.values())] + ["overall"]
    width = 0.8 / max(len(configs), 1)
    for i, (label, config) in enumerate(configs.items()):
        scores = config["scores"]
        values = [100 * (scores["overall"] if c == "overall" else scores["categories"].get(c, {"pass@1": 0}))["pass@1"]
                  for c in categories]
        axes.bar([x + i * width for x in range(len(categories))], values, width, label=label)
    axes.set_xticks([x + width * (len(configs) - 1) / 2 for x in range(len(categories))], categories,
                    rotation=25, ha="right")
    axes.set_ylabel("pass@1 (%)")
    axes.set_ylim(0, 105)
    if len(configs) > 1:
        axes.legend(fontsize="small")
    return figure


def _size_chart(sizes: list[tuple[int, float]]):
    figure = _figure(6, 3.2)
    axes = figure.subplots()
    axes.plot([s for s, _ in sizes], [100 * a for _, a in sizes], marker="o")
    axes.set_xlabel("distractor apps installed")
    axes.set_ylabel("overall pass@1 (%)")
    axes.set_ylim(0, 105)
    return figure


def _confusion_chart(confusion: dict[str, dict[str, int]]):
    rows = list(confusion)
    columns = sorted({a for called in confusion.values() for a in called})
    figure = _figure(min(2 + 0.7 * len(columns), 12), 1 + 0.35 * len(rows))
    axes = figure.subplots()
    grid = [[confusion[r].get(c, 0) for c in columns] for r in rows]
    axes.imshow(grid, cmap="Blues", aspect="auto")
    axes.set_xticks(range(len(columns)), columns, rotation=35, ha="right", fontsize="small")
    axes.set_yticks(range(len(rows)), rows, fontsize="small")
    for y, row in enumerate(grid):
        for x, value in enumerate(row):
            if value:
                axes.text(x, y, str(value), ha="center", va="center", fontsize="small")
    return figure


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})  # the same run, the same page
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _score_table(summary: dict[str, Any]) -> str:
    trials = summary["trials"]
    head = "".join(f"<th>{_e(label)} pass@1</th>" + (f"<th>{_e(label)} pass^{trials}</th>" if trials > 1 else "")
                   for label in summary["configs"])
    rows = []
    for category in [*CATEGORIES, "overall"]:
        cells = []
        for config in summary["configs"].values():
            scores = config["scores"]
            rates = scores["overall"] if category == "overall" else scores["categories"].get(category)
            if rates is None:
                cells.append("<td>-</td>" * (2 if trials > 1 else 1))
                continue
            cells.append(f"<td class=n>{100 * rates['pass@1']:.1f}% ({rates['passed']}/{rates['trials_run']})</td>")
            if trials > 1:
                cells.append(f"<td class=n>{100 * rates[f'pass^{trials}']:.1f}%</td>")
        if any(c != "<td>-</td>" for c in cells):
            rows.append(f"<tr><td>{_e(category)}</td>{''.join(cells)}</tr>")
    return f"<table><tr><th>category</th>{head}</tr>{''.join(rows)}</table>"


def _confusion_table(confusion: dict[str, dict[str, int]]) -> str:
    columns = sorted({a for called in confusion.values() for a in called})
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = "".join(f"<tr><th>{_e(r)}</th>" + "".join(f"<td class=n>{called.get(c, '') or ''}</td>" for c in columns)
                   + "</tr>" for r, called in confusion.items())
    return f"<table><tr><th>expected \\ called</th>{head}</tr>{body}</table>"


def _failures(records: list[dict[str, Any]]) -> str:
    failed = sorted((r for r in records if not r["passed"]), key=lambda r: (r["config"], r["case_id"], r["trial"]))
    if not failed:
        return "<p>None.</p>"
    rows = "".join(f"<tr><td>{_e(r['config'])}</td><td>{_e(r['case_id'])}</td><td>{_e(r['category'])}</td>"
                   f"<td>{r['trial']}</td><td>{'<br>'.join(_e(f) for f in r['failures'])}</td></tr>" for r in failed)
    return f"<table><tr><th>config</th><th>case</th><th>category</th><th>trial</th><th>why</th></tr>{rows}</table>"


def _e(text: Any) -> str:
    return html.escape(str(text))
