"""What a person reads: the terminal table and report.html.

report.html is one self-contained file (no scripts, no network): the charts are
drawn by matplotlib and inlined as SVG — matplotlib because it is the
long-maintained standard for static plots, renders without a display (Agg/SVG
backend) and its SVG needs nothing at view time, unlike JavaScript chart
libraries that would have to be bundled into the page.
"""

from __future__ import annotations

import functools
import html
import io
from pathlib import Path
from typing import Any

from sim.eval.categories import CATEGORIES
from sim.eval.measured_error import BOUND, doubtful_reason, error_line, percent
from sim.eval.scoring import NO_CALL
from sim.eval.suite import skipped_lines
from sim.eval.unanswered import alarms

CATEGORY_CHART = "accuracy-per-category.svg"
CONFIRMATION_WHO = {"runtime": "the runtime's HITL wrapper asks before destructive calls",
                    "model": "the model must ask in words; the user answers next"}


def terminal_table(summary: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    trials = summary["trials"]
    configs = summary["configs"]
    errors = any(configs[label]["scores"]["overall"].get("infra_errors") for label in configs)
    table = Table(title=f"{summary['model']} on {Path(summary['suite']).name} (run date {summary['run_date']})",
                  title_justify="left")
    table.add_column("category")
    for label in configs:
        table.add_column(f"{label} task", justify="right")
        table.add_column(f"{label} words", justify="right")
        table.add_column(f"{label} pass@1", justify="right")
        if trials > 1:
            table.add_column(f"{label} pass^{trials}", justify="right")
        table.add_column(f"{label} recovered", justify="right")
        if errors:
            table.add_column(f"{label} infra errors", justify="right")
    rows = [c for c in CATEGORIES if any(c in configs[label]["scores"]["categories"] for label in configs)]
    for category in [*rows, "overall"]:
        cells = [category]
        for label in configs:
            scores = configs[label]["scores"]
            rates = scores["overall"] if category == "overall" else scores["categories"].get(category)
            if rates is None:
                cells += ["-"] * (4 + (trials > 1) + errors)
                continue
            cells += [_share(rates["task"], rates["trials_run"]), _share(rates["words"], rates["trials_run"]),
                      _share(rates, rates["trials_run"])]
            if trials > 1:
                cells.append(f"{100 * rates[f'pass^{trials}']:.1f}%")
            cells.append(f"{100 * rates['recovered_rate']:.1f}% ({rates['recovered']}/{rates['trials_run']})")
            if errors:
                cells.append(str(rates["infra_errors"]))
        table.add_row(*cells, end_section=category == rows[-1] if rows else False)
    console.print(table)
    console.print(VERDICTS_SAID, style="dim", markup=False)
    # Whole, however long: a line piped is read by scripts, and a terminal wraps it at its own width.
    console.print(error_line(summary["words"]), style="yellow" if summary["words"].get("doubtful_checks") else "dim",
                  markup=False, highlight=False, soft_wrap=True)
    mode = summary.get("confirmation_mode", "runtime")
    console.print(f"confirmation: {mode} ({CONFIRMATION_WHO[mode]})", style="dim", markup=False)
    for label, config in configs.items():
        found = config.get("retrieval")
        if found and found["expected"]:
            console.print(f"{label}: {retrieval_line(found)}", style="dim", markup=False)
        if config.get("judge_agreement"):
            console.print(f"{label}: {agreement_line(config['judge_agreement'])}", style="dim", markup=False)
    for label, config in configs.items():
        timing = config["timing"]
        if timing:
            console.print(f"{label}: {timing['mean_case_ms']} ms per case, of which the model "
                          f"{timing['mean_model_ms']} ms", style="dim", markup=False)
        if config["scores"]["overall"].get("infra_errors"):
            console.print(f"{label}: {config['scores']['overall']['infra_errors']} trial(s) met an infrastructure "
                          "error and are left out of the rates (summary.json: infra_errors)", markup=False)
    for label, config in configs.items():
        for warning, cases in warning_cases(config.get("warnings") or []).items():
            console.print(f"warning: {label}: {len(cases)} case(s) ({', '.join(cases)}): {warning}", style="yellow",
                          markup=False)
    variant = summary.get("variant")
    if variant:
        console.print(f"variant {variant['path']}: {_variant_text(variant)}", markup=False)


def warning_cases(found: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each thing the backend warned about, in its own words, with the cases it came up in."""
    cases: dict[str, set[str]] = {}
    for entry in found:
        cases.setdefault(entry["warning"], set()).add(entry["case_id"])
    return {warning: sorted(ids) for warning, ids in cases.items()}


VERDICTS_SAID = ("task: the calls, the device's answers and state; words: what the agent told the user; pass@1: "
                 "both (a doubtful words verdict is no pass)")


def _share(rates: dict[str, Any], trials: int) -> str:
    """A pass rate with its count, and the doubtful ones where there are any."""
    doubtful = rates.get("doubtful") or 0
    return f"{100 * rates['pass@1']:.1f}% ({rates['passed']}/{trials}" + (f", {doubtful} doubtful)" if doubtful else ")")


def retrieval_line(found: dict[str, Any]) -> str:
    """The retrieval scores in words: what share of the expected functions BM25 ranks first and in its top 3."""
    return (f"retrieval (BM25 over names and descriptions, no model): top 1 {100 * found['recall_at_1']:.1f}%, "
            f"top 3 {100 * found['recall_at_3']:.1f}%, MRR {found['mrr']:.2f}, over {found['expected']} expected "
            f"function(s) among {found['catalog']}")


def agreement_line(agreement: dict[str, Any]) -> str:
    """How often the judge model and the phrase rules give a reply the same words verdict."""
    return (f"judge and phrase rules give the same words verdict on {100 * agreement['same_verdict']:.1f}% of "
            f"{agreement['turns']} replies (the same failing checks on {100 * agreement['same_checks']:.1f}%; "
            f"{len(agreement['disagreements'])} disagreement(s) listed); the judge confirmed "
            f"{agreement['confirmed_by_judge']} of the rules' {agreement['rules_doubtful']} doubtful failure(s); "
            "the judge's reading decides")


def _variant_text(variant: dict[str, Any]) -> str:
    delta = variant["pass@1_delta"]["overall"]
    found = variant.get("retrieval_delta") or {}
    moved = (f"; retrieval top 3 {100 * found['recall_at_3']:+.1f} points, MRR {found['mrr']:+.2f}"
             if "recall_at_3" in found else "")
    return (f"overall pass@1 {100 * delta:+.1f} points{moved}; newly failing: "
            f"{', '.join(variant['newly_failing']) or 'none'}; newly passing: "
            f"{', '.join(variant['newly_passing']) or 'none'}")


def write_html(path: Path, summary: dict[str, Any], records: list[dict[str, Any]], extra: str = "") -> None:
    """``extra``: more sections (HTML), before the failed cases: a benchmark's own (sim/eval/tau2/report.py)."""
    configs = summary["configs"]
    accuracy = _category_svg(*_category_bars(configs))
    # The chart on its own too, for a README or a slide.
    (path.parent / CATEGORY_CHART).write_text(accuracy, encoding="utf-8")
    parts = [f"<h1>droidsim eval: {_e(summary['model'])} on {_e(Path(summary['suite']).name)}</h1>",
             f"<p>Run date {_e(summary['run_date'])}, {summary['trials']} trial(s) per case; {_mode(summary)}. "
             "Intervals are 95 % Wilson score intervals; trials that met an infrastructure error are left out "
             "of the rates and counted apart.</p>",
             *_verdicts_header(summary.get("words")),
             *(f"<p class='why'><strong>Warning: {_e(text)}</strong></p>" for text in alarms(summary)),
             *(f"<p class='why'>{_e(text)}</p>" for text in skipped_lines(summary)),
             "<h2>Accuracy per category</h2>", accuracy, _score_table(summary)]
    if summary["trials"] > 1:
        parts += [f"<h2>pass^k: all of k trials pass (k = 1…{summary['trials']})</h2>",
                  "<p>The chance that k trials of a case, drawn from those that ran, all pass (τ-bench's "
                  "estimator), averaged over the cases. A flat line is a reliable agent.</p>",
                  _svg(_pass_hat_chart(configs))]
    sizes = _sizes(summary)
    if len(sizes) > 1:
        parts += ["<h2>Accuracy against catalog size</h2>", _svg(_size_chart(sizes))]
    if summary.get("variant"):
        variant = summary["variant"]
        parts += ["<h2>Variant</h2>", f"<p>{_e(variant['path'])}: {_e(_variant_text(variant))}.</p>"]
    parts += ["<h2>Why turns failed</h2>", _kinds_table(configs)]
    for label, config in configs.items():
        if config.get("judge_agreement"):
            parts += [f"<h2>Where the judge and the rules disagree ({_e(label)})</h2>",
                      f"<p>{_e(agreement_line(config['judge_agreement']))}.</p>",
                      _disagreements(config["judge_agreement"]["disagreements"])]
    for label, config in configs.items():
        found = config.get("retrieval") or {}
        parts += [f"<h2>Per function ({_e(label)})</h2>",
                  f"<p>{_e(retrieval_line(found))}. Retrieval ranks each function a case expects among all "
                  "installed ones by what its name and descriptions share with the user's words: it measures "
                  "the descriptions, not the model.</p>" if found.get("expected") else "",
                  _functions_table(config["scores"].get("functions") or [], found.get("functions") or {})]
    for label, config in configs.items():
        confusion = config["scores"]["confusion"]
        if confusion:
            parts += [f"<h2>Which function was called ({_e(label)})</h2>",
                      "<p>Rows: the function the case expected; columns: what the agent called. The same "
                      "functions on both axes, so the diagonal is the right choice.</p>",
                      _confusion_svg(tuple((row, tuple(sorted(called.items())))
                                           for row, called in sorted(confusion.items()))),
                      f"<details><summary>The counts as a table</summary>{_confusion_table(confusion)}</details>"]
    parts += ["<h2>Time and tokens</h2>", _timing_table(configs)]
    warnings = [(label, w) for label, c in configs.items() for w in c.get("warnings") or []]
    if warnings:
        parts += ["<h2>Warnings</h2>", "<ul>" + "".join(
            f"<li>{_e(label)} {_e(w['case_id'])}: {_e(w['warning'])}</li>" for label, w in warnings) + "</ul>"]
    parts += [extra, "<h2>Cases that did not pass (failed, or doubtful)</h2>", _failures(records)]
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>droidsim eval</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222;line-height:1.4}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
            "text-align:left;vertical-align:top}th{background:#f3f3f3}.n{text-align:right}.ci{color:#666}"
            "details{overflow-x:auto;margin:.4em 0}svg{max-width:100%;height:auto}"
            ".turn{border-left:3px solid #ccc;padding-left:.8em;margin:.5em 0}.user{font-weight:600}"
            ".call{font-family:ui-monospace,monospace;font-size:90%;white-space:pre-wrap}.why{color:#b00020}"
            ".say{background:#f7f7f7;padding:.3em .5em}"
            "</style></head><body>" + "\n".join(parts) + "</body></html>\n")
    path.write_text(page, encoding="utf-8")


# Okabe-Ito: told apart by every kind of colour vision, and in greyscale by lightness.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _mode(summary: dict[str, Any]) -> str:
    mode = summary.get("confirmation_mode", "runtime")
    return f"confirmation mode <b>{_e(mode)}</b> ({_e(CONFIRMATION_WHO.get(mode, ''))})"


def _sizes(summary: dict[str, Any]) -> list[tuple[int, float]]:
    counts = summary.get("distractors", {})
    return sorted((counts[label], config["scores"]["overall"]["pass@1"])
                  for label, config in summary["configs"].items() if label.startswith("base") and label in counts)


def _figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _categories(configs: dict[str, Any]) -> list[str]:
    return [c for c in CATEGORIES if any(c in v["scores"]["categories"] for v in configs.values())] + ["overall"]


def _rates_of(scores: dict[str, Any], category: str) -> dict[str, Any] | None:
    return scores["overall"] if category == "overall" else scores["categories"].get(category)


def _category_bars(configs: dict[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, tuple], ...]]:
    """What the category chart shows: the categories, and per config each one's pass@1 with its
    95 % interval, in %, as (category's index, value, low, high)."""
    categories = _categories(configs)
    bars = []
    for label, config in configs.items():
        shown = []
        for x, category in enumerate(categories):
            rates = _rates_of(config["scores"], category)
            if rates is not None:
                low, high = rates.get("wilson_95") or [rates["pass@1"]] * 2
                shown.append((x, 100 * rates["pass@1"], 100 * low, 100 * high))
        bars.append((label, tuple(shown)))
    return tuple(categories), tuple(bars)


@functools.lru_cache(maxsize=64)
def _category_svg(categories: tuple[str, ...], bars: tuple[tuple[str, tuple], ...]) -> str:
    """Drawn once per process for the same figures: matplotlib takes ~0.2 s a chart, and a test
    suite or a notebook runs small suites of the same shape again and again."""
    return _svg(_category_chart(categories, bars))


def _category_chart(categories: tuple[str, ...], bars: tuple[tuple[str, tuple], ...]):
    """Bars with their 95 % intervals and a value label on each, so that 0 % reads as 0 %, not as a gap."""
    figure = _figure(10, 4.2)
    axes = figure.subplots()
    width = 0.8 / max(len(bars), 1)
    for i, (label, shown) in enumerate(bars):
        xs = [x + i * width for x, *_ in shown]
        values = [value for _, value, _, _ in shown]
        below = [value - low for _, value, low, _ in shown]
        above = [high - value for _, value, _, high in shown]
        colour = PALETTE[i % len(PALETTE)]
        axes.bar(xs, values, width, label=label, color=colour, yerr=[below, above], capsize=3,
                 error_kw={"ecolor": "#555", "elinewidth": 1})
        for x, value, over in zip(xs, values, above):
            axes.text(x, value + over + 1.5, f"{value:.0f}%", ha="center", va="bottom", fontsize="x-small",
                      color="#222", rotation=90 if len(bars) > 2 else 0)
    axes.set_xticks([x + width * (len(bars) - 1) / 2 for x in range(len(categories))], categories,
                    rotation=25, ha="right")
    axes.set_ylabel("pass@1 (%)")
    axes.set_ylim(0, 118)
    axes.set_yticks(range(0, 101, 20))
    axes.spines[["top", "right"]].set_visible(False)
    if len(bars) > 1:
        axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    return figure


def _pass_hat_chart(configs: dict[str, Any]):
    figure = _figure(6, 3.4)
    axes = figure.subplots()
    for i, (label, config) in enumerate(configs.items()):
        curve = config["scores"]["overall"].get("pass^k") or {}
        ks = [int(k) for k in curve]
        values = [100 * curve[str(k)] for k in ks]
        axes.plot(ks, values, marker="o", color=PALETTE[i % len(PALETTE)], label=label)
        for k, value in zip(ks, values):
            axes.annotate(f"{value:.0f}%", (k, value), textcoords="offset points", xytext=(0, 6), ha="center",
                          fontsize="x-small")
    axes.set_xlabel("k (trials that must all pass)")
    axes.set_ylabel("pass^k (%)")
    axes.set_ylim(0, 110)
    axes.set_xticks(sorted({int(k) for c in configs.values() for k in c["scores"]["overall"].get("pass^k") or {}}))
    axes.spines[["top", "right"]].set_visible(False)
    if len(configs) > 1:
        axes.legend(fontsize="small")
    return figure


def _size_chart(sizes: list[tuple[int, float]]):
    figure = _figure(6, 3.2)
    axes = figure.subplots()
    axes.plot([s for s, _ in sizes], [100 * a for _, a in sizes], marker="o", color=PALETTE[0])
    for size, value in sizes:
        axes.annotate(f"{100 * value:.0f}%", (size, 100 * value), textcoords="offset points", xytext=(0, 6),
                      ha="center", fontsize="x-small")
    axes.set_xlabel("distractor apps installed")
    axes.set_ylabel("overall pass@1 (%)")
    axes.set_ylim(0, 110)
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def confusion_labels(confusion: dict[str, dict[str, int]]) -> list[str]:
    """Every function expected or called, "(no call)" last: the same list on both axes."""
    names = set(confusion) | {a for called in confusion.values() for a in called}
    return sorted(names - {NO_CALL}) + ([NO_CALL] if NO_CALL in names else [])


@functools.lru_cache(maxsize=64)
def _confusion_svg(confusion: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]) -> str:
    """Drawn once per process for the same counts, as the category chart is."""
    return _svg(_confusion_chart({row: dict(called) for row, called in confusion}))


def _confusion_chart(confusion: dict[str, dict[str, int]]):
    labels = confusion_labels(confusion)
    size = min(2.5 + 0.45 * len(labels), 14)
    figure = _figure(size + 1.5, size)
    axes = figure.subplots()
    grid = [[confusion.get(r, {}).get(c, 0) for c in labels] for r in labels]
    top = max((v for row in grid for v in row), default=0) or 1
    axes.imshow(grid, cmap="Blues", vmin=0, vmax=top, aspect="equal")
    axes.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize="small")
    axes.set_yticks(range(len(labels)), labels, fontsize="small")
    axes.set_xlabel("called")
    axes.set_ylabel("expected")
    for y, row in enumerate(grid):
        for x, value in enumerate(row):
            if value or x == y:  # the diagonal shows its 0: expected and never chosen
                axes.text(x, y, str(value), ha="center", va="center", fontsize="small",
                          color="white" if value > top / 2 else ("#b00020" if x != y else "#222"),
                          fontweight="bold" if x != y else "normal")
    return figure


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})  # the same run, the same page
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _score_table(summary: dict[str, Any]) -> str:
    trials = summary["trials"]
    errors = any(c["scores"]["overall"].get("infra_errors") for c in summary["configs"].values())
    columns = 4 + (trials > 1) + errors
    head = "".join(f"<th>{_e(label)} task</th><th>{_e(label)} words</th><th>{_e(label)} pass@1 (95 % interval)</th>"
                   + (f"<th>{_e(label)} pass^{trials}</th>" if trials > 1 else "")
                   + f"<th>{_e(label)} recovered</th>" + (f"<th>{_e(label)} infra errors</th>" if errors else "")
                   for label in summary["configs"])
    rows = []
    for category in [*CATEGORIES, "overall"]:
        cells = []
        for config in summary["configs"].values():
            rates = _rates_of(config["scores"], category)
            if rates is None:
                cells.append("<td>-</td>" * columns)
                continue
            low, high = rates.get("wilson_95") or [rates["pass@1"]] * 2
            cells += [f"<td class=n>{_e(_share(rates[part], rates['trials_run']))}</td>" for part in ("task", "words")]
            cells.append(f"<td class=n>{_e(_share(rates, rates['trials_run']))} "
                         f"<span class=ci>[{100 * low:.0f}–{100 * high:.0f}]</span></td>")
            if trials > 1:
                cells.append(f"<td class=n>{100 * rates[f'pass^{trials}']:.1f}%</td>")
            cells.append(f"<td class=n>{100 * rates.get('recovered_rate', 0):.1f}% "
                         f"({rates.get('recovered', 0)}/{rates['trials_run']})</td>")
            if errors:
                cells.append(f"<td class=n>{rates.get('infra_errors', 0)}</td>")
        if any(not c.startswith("<td>-</td>") for c in cells):
            rows.append(f"<tr><td>{_e(category)}</td>{''.join(cells)}</tr>")
    return f"<table><tr><th>category</th>{head}</tr>{''.join(rows)}</table>"


def _verdicts_header(words: dict[str, Any] | None) -> list[str]:
    """The two verdicts, and who read the words with its measured error (a benchmark's own summary
    may say nothing of a reader: its records name theirs)."""
    said = f" {_e(_sentence(error_line(words)))}." if words else ""
    return [f"<p>Each trial has two verdicts: the <b>task</b> (the calls, the device's answers and state) and the "
            f"<b>words</b> (what the agent told the user); pass@1 needs both, and a doubtful words verdict is no "
            f"pass.{said}</p>", _error_table(words) if words else ""]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _error_table(words: dict[str, Any]) -> str:
    """Each word check's measured error (misses and false alarms) and whether it decides alone."""
    checks = words.get("checks")
    if not checks:
        return ""

    def shown(error: dict[str, Any] | None) -> str:
        return "not measured" if error is None else f"{error['wrong']} of {error['of']:,} ({percent(error)})"

    rows = "".join(f"<tr><td>{_e(check.replace('_', ' '))}</td><td class=n>{_e(shown(e['misses']))}</td>"
                   f"<td class=n>{_e(shown(e['false_alarms']))}</td>"
                   f"<td>{'decisive' if e['decisive'] else f'doubtful: above {100 * BOUND:g} %'}</td></tr>"
                   for check, e in checks.items())
    return ("<details><summary>The word checks' measured error</summary><table><tr><th>check</th>"
            "<th>misbehaving replies passed</th><th>truthful replies failed</th><th>its failures</th></tr>"
            f"{rows}</table></details>")


def _disagreements(found: list[dict[str, Any]]) -> str:
    """Each reply the two readers read apart, with both readings claim by claim."""
    if not found:
        return "<p>None.</p>"

    def reading(side: dict[str, Any]) -> str:
        claims = "".join(f"<li>{_e(c['kind'].replace('_', ' '))} {_e(c['text'])!s}"
                         + (f" (of {_e(c['about'])})" if c["about"] else "")
                         + {True: ": true", False: ": false", None: ""}[c["true"]]
                         + (f" — {_e(c['why'])}" if c["why"] else "") + "</li>" for c in side["claims"])
        untold = "".join(f"<li>untold: {_e(u['about'])} — {_e(u['why'])}</li>" for u in side["untold"])
        return f"<b>fails: {_e(', '.join(side['fails']) or 'nothing')}</b><ul>{claims}{untold}</ul>"

    rows = "".join(f"<tr><td>{_e(d['case_id'])} (trial {d['trial']}, turn {d['turn'] + 1})</td>"
                   f"<td>{_e(d['reply'])}</td><td>{reading(d['judge'])}</td><td>{reading(d['rules'])}</td></tr>"
                   for d in found)
    return f"<table><tr><th>case</th><th>reply</th><th>the judge read</th><th>the rules read</th></tr>{rows}</table>"


def _kinds_table(configs: dict[str, Any]) -> str:
    kinds = list(dict.fromkeys(k for c in configs.values() for k in c["scores"].get("failure_kinds") or {}))
    if not kinds:
        return "<p>No failure kinds recorded.</p>"
    head = "".join(f"<th>{_e(label)}</th>" for label in configs)
    body = "".join(f"<tr><td>{_e(kind.replace('_', ' '))}</td>" + "".join(
        f"<td class=n>{(c['scores'].get('failure_kinds') or {}).get(kind, 0)}</td>" for c in configs.values()) + "</tr>"
        for kind in kinds)
    return f"<p>Turn failures by kind (one turn may fail in several ways).</p><table><tr><th>kind</th>{head}</tr>{body}</table>"


def _functions_table(functions: list[dict[str, Any]], retrieved: dict[str, dict[str, Any]]) -> str:
    if not functions:
        return "<p>No case expected a call.</p>"
    rows = []
    for entry in functions:
        wrong = (f"{_e(entry['most_wrong_argument'])} ({entry['most_wrong_argument_count']}×)"
                 if entry["most_wrong_argument"] else "—")
        instead = ", ".join(f"{_e(name)} ({n}×)" for name, n in entry["called_instead"]) or "—"
        found = retrieved.get(entry["function"])
        top = (f"<td class=n>{100 * found['recall_at_3']:.0f}% of {found['expected']}</td>"
               f"<td class=n>{found['mrr']:.2f}</td>") if found else "<td>—</td><td>—</td>"
        rows.append(f"<tr><td>{_e(entry['function'])}</td>"
                    f"<td class=n>{entry['chosen_right']}/{entry['expected']}</td>"
                    f"<td class=n>{entry['arguments_right']}/{entry['chosen_right']}</td><td>{wrong}</td><td>{instead}</td>"
                    f"{top}</tr>")
    return ("<table><tr><th>function</th><th>chosen right</th><th>arguments right (when chosen)</th>"
            "<th>argument most often wrong</th><th>called instead</th><th>retrieval: in the top 3</th>"
            f"<th>retrieval: MRR</th></tr>{''.join(rows)}</table>")


def _confusion_table(confusion: dict[str, dict[str, int]]) -> str:
    labels = confusion_labels(confusion)
    head = "".join(f"<th>{_e(c)}</th>" for c in labels)
    body = "".join(f"<tr><th>{_e(r)}</th>" + "".join(
        f"<td class=n>{confusion.get(r, {}).get(c, 0)}</td>" for c in labels) + "</tr>" for r in labels)
    return f"<table><tr><th>expected \\ called</th>{head}</tr>{body}</table>"


def _timing_table(configs: dict[str, Any]) -> str:
    rows = []
    for label, config in configs.items():
        t = config["timing"]
        if not t:
            continue
        tokens = t.get("tokens_per_case")
        said = (", ".join(f"{k.replace('_tokens', '')} {v:g}" for k, v in tokens.items())
                if tokens else "not reported by the backend")
        rows.append(f"<tr><td>{_e(label)}</td><td class=n>{t['mean_case_ms']}</td><td class=n>{t.get('case_ms_p50', '-')}</td>"
                    f"<td class=n>{t.get('case_ms_p90', '-')}</td><td class=n>{t['mean_model_ms']}</td>"
                    f"<td>{_e(said)}</td></tr>")
    return ("<table><tr><th>configuration</th><th>ms per case, mean</th><th>p50</th><th>p90</th>"
            f"<th>model ms per case, mean</th><th>tokens per case</th></tr>{''.join(rows)}</table>")


def _failures(records: list[dict[str, Any]]) -> str:
    failed = sorted((r for r in records if not r["passed"]), key=lambda r: (r["config"], r["case_id"], r["trial"]))
    if not failed:
        return "<p>None.</p>"
    return "".join(_transcript(r) for r in failed)


def _transcript(record: dict[str, Any]) -> str:
    """One failed case as it went: each turn's user words, calls with their responses, the agent's reply."""
    turns = []
    for turn in record.get("turns") or []:
        if "user" not in turn:  # a crash's traceback
            turns.append(f"<pre class=call>{_e(turn.get('traceback', ''))}</pre>")
            continue
        calls = "".join(
            f"<div class=call>→ {_e(c['name'])} {_e(_json(c.get('args')))}"
            + (f" (user {'approved' if c['confirmation'] else 'declined'})" if c.get("confirmation") is not None else "")
            + f"\n← {_e(_json(c.get('response')))}</div>" for c in turn.get("calls") or [])
        why = "".join(f"<div class=why>✗ {_e(_failure_text(f))}</div>" for f in turn.get("failures") or [])
        turns.append(f"<div class=turn><div class=user>User: {_e(turn['user'])}</div>{calls}"
                     f"<div class=say>Agent: {_e(turn.get('text') or '(said nothing)')}</div>{why}</div>")
    said = {f.get("detail") if isinstance(f, dict) else f for t in record.get("turns") or [] for f in t.get("failures") or []}
    case_level = [f for f in record.get("failures") or [] if f not in said]  # state checks, "something else changed"
    extra = "".join(f"<div class=why>✗ {_e(_failure_text(f))}</div>" for f in case_level)
    return (f"<details><summary>{_e(record['config'])} · {_e(record['case_id'])} · {_e(record['category'])} · "
            f"trial {record['trial']} · {_e(_verdicts_text(record))}</summary>{''.join(turns)}{extra}"
            f"{_doubtful(record)}</details>")


def _verdicts_text(record: dict[str, Any]) -> str:
    task, words = record.get("task"), record.get("words")
    if task is None:
        return "no verdict (infrastructure error)" if record.get("infra_error") else "failed"
    return (f"task {'pass' if task['passed'] else 'fail'}, words {words['verdict']} (read by {words['reader']}): "
            f"{record.get('verdict', 'fail')}")


def _doubtful(record: dict[str, Any]) -> str:
    """The doubtful word failures with their evidence: the clause, and what the results say."""
    found = (record.get("words") or {}).get("doubtful") or []
    return "".join(f"<div class=why>? {_e(doubtful_reason(d))}, turn {d['turn'] + 1}: the agent said "
                   f"{_e(repr(d['clause']))}; the results say: {_e(d['results'])}</div>" for d in found)


def _failure_text(failure: Any) -> str:
    if not isinstance(failure, dict):
        return str(failure)
    where = ".".join(p for p in (failure.get("function"), failure.get("argument")) if p)
    return f"{failure.get('kind', '').replace('_', ' ')}{' ' + where if where else ''}: {failure.get('detail', '')}"


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def _e(text: Any) -> str:
    return html.escape(str(text))
