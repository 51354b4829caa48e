"""summary.json: the scores of a run, per configuration, from the result records.

pass@1 is the share of all trials whose combined verdict passed (sim/eval/verdicts.py), with
its 95 % Wilson interval; beside it, the task verdict's and the words verdict's own pass@1
and the trials whose words verdict is doubtful (``pass@1_if_doubtful_pass`` is what pass@1
would be if every doubtful one passed);
pass^k (τ-bench) the share of cases whose k trials all passed, and ``pass^k`` the
curve for k = 1..K (sim/eval/figures.py, which also counts the failure kinds and
makes the per-function table). Trials that met an infrastructure error
(``infra_error``: the server's, a timeout, a crash) are no verdict: they are left
out of the rates and counted under ``infra_errors``. ``recovered`` is the share
of scored trials whose final state was right, whatever the strict verdict.
``retrieval`` says whether the functions the cases expect can be found among all
installed ones by their descriptions (sim/eval/retrieval.py), whatever the model.
Records are sorted first, so the summary of a run does not depend on the order in
which workers finished: a Ray run and a local run of the same suite give equal
``scores`` (timings differ, of course).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from sim.eval import retrieval
from sim.eval.categories import CATEGORIES
from sim.eval.figures import failure_kinds, latency, pass_hat_curve, per_function, wilson
from sim.eval.measured_error import RULES, doubtful_checks
from sim.eval.verdicts import DOUBTFUL, PASS


def summarize(records: Iterable[dict[str, Any]], configs: list[str], trials: int) -> dict[str, Any]:
    by_config: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_config[record["config"]].append(record)
    out = {"trials": trials, "configs": {}}
    for config in configs:
        rows = sorted(by_config.get(config, []), key=lambda r: (r["case_id"], r["trial"]))
        out["configs"][config] = {"scores": scores(rows, trials), "retrieval": retrieval.summarize(rows),
                                  "timing": timing(rows), "warnings": warnings(rows)}
        agreement = judge_agreement(rows)
        if agreement:
            out["configs"][config]["judge_agreement"] = agreement
    return out


def warnings(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the backend warned about, per case, in its own words: an answer that looks like a tool
    call nobody parsed, tool results the server's prompt never held, an answer past max_tokens..."""
    return [{"case_id": r["case_id"], "trial": r["trial"], "warning": w} for r in rows for w in r.get("warnings") or []]


def judge_agreement(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """With --judge-model: how often the judge's claim list and the rules' give a turn's reply the
    same words verdict (pass or fail) and the same failing checks, how many of the rules' doubtful
    failures the judge confirmed, and every turn where they differ, with both readings."""
    doubtful = doubtful_checks(RULES)
    turns, disagreements, confirmed, rules_doubtful = 0, [], 0, 0
    for row in rows:
        for index, turn in enumerate(row.get("turns") or []):
            if "rules" not in turn:
                continue
            turns += 1
            judge, rules = _checks(turn["failures"]), _checks(turn["rules"]["failures"])
            for check in doubtful.intersection(rules):
                rules_doubtful += 1
                confirmed += check in judge
            if judge != rules:
                disagreements.append({"case_id": row["case_id"], "trial": row["trial"], "turn": index,
                                      "reply": turn.get("text", ""), "judge": {"fails": judge, **_shown(turn["words"])},
                                      "rules": {"fails": rules, **_shown(turn["rules"])}})
    if not turns:
        return None
    same_verdict = turns - sum(bool(d["judge"]["fails"]) != bool(d["rules"]["fails"]) for d in disagreements)
    return {"turns": turns, "same_verdict": round(same_verdict / turns, 4),
            "same_checks": round((turns - len(disagreements)) / turns, 4),
            "rules_doubtful": rules_doubtful, "confirmed_by_judge": confirmed, "disagreements": disagreements}


def _checks(failures: list[dict[str, Any]]) -> list[str]:
    return sorted({f["check"] for f in failures if f.get("check")})


def _shown(reading: dict[str, Any]) -> dict[str, Any]:
    """A reading's claims as a person compares them: kind, words, what of, and held true or not."""
    return {"claims": [{k: c[k] for k in ("kind", "text", "about", "true", "why")} for c in reading.get("claims") or []],
            "untold": reading.get("untold") or []}


def scores(rows: list[dict[str, Any]], trials: int) -> dict[str, Any]:
    infra = [r for r in rows if r.get("infra_error")]
    rows = [r for r in rows if not r.get("infra_error")]
    confusion: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        for expected, actual in row["confusion"]:
            confusion[expected][actual] += 1
    categories = {}
    for category in CATEGORIES:
        if any(r["category"] == category for r in rows + infra):
            categories[category] = _rates([r for r in rows if r["category"] == category],
                                          [r for r in infra if r["category"] == category], trials)
    per_case = _per_case(rows)
    return {
        "overall": _rates(rows, infra, trials),
        "categories": categories,
        "confusion": {e: dict(sorted(a.items())) for e, a in sorted(confusion.items())},
        "failure_kinds": failure_kinds(rows),
        "functions": per_function(rows),
        "failed": sorted(c for c, runs in per_case.items() if not all(runs)),
        "infra_errors": [{"case_id": r["case_id"], "trial": r["trial"], **r["infra_error"]} for r in infra],
    }


def _verdict(row: dict[str, Any]) -> str:
    return row.get("verdict") or (PASS if row["passed"] else "fail")


def _per_case(rows: list[dict[str, Any]]) -> dict[str, list[bool]]:
    per_case: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        per_case[row["case_id"]].append(bool(row["passed"]))
    return per_case


def _rates(rows: list[dict[str, Any]], infra: list[dict[str, Any]], trials: int) -> dict[str, Any]:
    per_case = _per_case(rows)
    runs = [p for results in per_case.values() for p in results]
    complete = [results for results in per_case.values() if len(results) >= trials]
    recovered = sum(bool(r.get("recovered")) for r in rows)
    doubtful = sum(_verdict(r) == DOUBTFUL for r in rows)
    task = sum(bool((r.get("task") or {"passed": r["passed"]})["passed"]) for r in rows)
    words = sum((r.get("words") or {"verdict": _verdict(r)})["verdict"] == PASS for r in rows)
    return {
        "cases": len(per_case),
        "trials_run": len(runs),
        "passed": sum(runs),
        "pass@1": _share(sum(runs), len(runs)),
        "doubtful": doubtful,
        "pass@1_if_doubtful_pass": _share(sum(runs) + doubtful, len(runs)),
        "task": {"passed": task, "pass@1": _share(task, len(rows))},
        "words": {"passed": words, "doubtful": sum((r.get("words") or {}).get("verdict") == DOUBTFUL for r in rows),
                  "pass@1": _share(words, len(rows))},
        "wilson_95": wilson(sum(runs), len(runs)),
        f"pass^{trials}": round(sum(all(r) for r in complete) / len(complete), 4) if complete else 0.0,
        "pass^k": pass_hat_curve(per_case, trials),
        "recovered": recovered,
        "recovered_rate": round(recovered / len(rows), 4) if rows else 0.0,
        "infra_errors": len(infra),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def timing(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {}
    seconds = [r["seconds"] for r in rows]
    model = [r["model_seconds"] for r in rows]
    tokens: dict[str, int] = defaultdict(int)
    for row in rows:
        for key, value in (row.get("tokens") or {}).items():
            tokens[key] += value
    return {
        "mean_case_ms": round(1000 * sum(seconds) / len(rows), 2),
        "mean_model_ms": round(1000 * sum(model) / len(rows), 2),
        "mean_overhead_ms": round(1000 * (sum(seconds) - sum(model)) / len(rows), 2),
        "tokens": dict(tokens) or None,
        **latency(rows),
    }


def differences(summary: dict[str, Any], base: str, other: str) -> dict[str, Any]:
    """What changed from ``base`` to ``other`` (a --variant): accuracy deltas and the cases that flipped."""
    a, b = summary["configs"][base]["scores"], summary["configs"][other]["scores"]
    deltas = {"overall": round(b["overall"]["pass@1"] - a["overall"]["pass@1"], 4)}
    for category in a["categories"]:
        if category in b["categories"]:
            deltas[category] = round(b["categories"][category]["pass@1"] - a["categories"][category]["pass@1"], 4)
    failed_a, failed_b = set(a["failed"]), set(b["failed"])
    return {"base": base, "other": other, "pass@1_delta": deltas,
            "newly_failing": sorted(failed_b - failed_a), "newly_passing": sorted(failed_a - failed_b),
            "retrieval_delta": retrieval.differences(summary["configs"][base]["retrieval"],
                                                     summary["configs"][other]["retrieval"])}
