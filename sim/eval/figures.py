"""The report's figures from the result records: intervals, pass^k, failure kinds, per function.

- **Wilson intervals** (95 %) on every pass rate: with tens of cases a rate of 90 % may
  be anything from 75 % to 97 %, and the report says so.
- **pass^k for k = 1…K** (τ-bench's estimator): for a case with n trials of which c
  passed, the chance that k trials drawn from them all pass, C(c,k)/C(n,k), averaged
  over the cases; pass^1 is pass@1, and the curve shows how fast reliability decays.
- **Failure kinds**: the taxonomy every turn verdict carries (``failures``: wrong
  function, wrong value, wrong type, missing or extra call, rejected by the device,
  false claim, no question), counted per configuration.
- **Per function**: for each function a case expected, how often it was chosen, how
  often its arguments were then right, the argument most often wrong and what was
  called instead: the app developer's "which of my functions do agents get wrong, and why".
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Iterable

from sim.eval.scoring import NO_CALL
from sim.eval.taxonomy import KINDS as FAILURE_KINDS
ARGUMENT_KINDS = frozenset({"wrong_value", "wrong_type"})
_Z95 = 1.959964


def wilson(passed: int, total: int) -> list[float]:
    """The 95 % Wilson score interval of passed/total, as [low, high] (rounded to 4 places)."""
    if total == 0:
        return [0.0, 0.0]
    p, z2 = passed / total, _Z95 ** 2
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = _Z95 * math.sqrt(p * (1 - p) / total + z2 / (4 * total ** 2)) / (1 + z2 / total)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def pass_hat_curve(per_case: dict[str, list[bool]], trials: int) -> dict[str, float]:
    """pass^k for k = 1..trials over the cases that ran at least k trials."""
    curve = {}
    for k in range(1, trials + 1):
        cases = [runs for runs in per_case.values() if len(runs) >= k]
        if cases:
            curve[str(k)] = round(sum(math.comb(sum(r), k) / math.comb(len(r), k) for r in cases) / len(cases), 4)
    return curve


def turn_failures(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Every structured failure of a record's turns (the eval contract's ``failures`` items)."""
    return [f for turn in row.get("turns") or [] for f in turn.get("failures") or [] if isinstance(f, dict)]


def failure_kinds(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = Counter(f.get("kind") for row in rows for f in turn_failures(row))
    out = {kind: counts.get(kind, 0) for kind in FAILURE_KINDS}
    out.update({kind: n for kind, n in sorted(counts.items(), key=lambda kv: str(kv[0])) if kind not in out})
    return out


def per_function(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per expected function, most often missed first.

    A call counts as having its arguments right when it was the expected function and
    no value or type failure names that function in the same case trial (two calls of
    one function in a trial, one with a wrong value: one right, one wrong)."""
    stats: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"expected": 0, "chosen": 0, "argument_problems": 0, "wrong": Counter(), "instead": Counter()})
    for row in rows:
        chosen: Counter[str] = Counter()
        for expected, actual in row.get("confusion") or []:
            if expected == NO_CALL:
                continue
            entry = stats[expected]
            entry["expected"] += 1
            if actual == expected:
                entry["chosen"] += 1
                chosen[expected] += 1
            else:
                entry["instead"][actual] += 1
        wrong_calls: Counter[str] = Counter()
        for failure in turn_failures(row):
            function = failure.get("function")
            if failure.get("kind") in ARGUMENT_KINDS and function in chosen:
                stats[function]["wrong"][failure.get("argument") or "?"] += 1
                wrong_calls[function] += 1
        for function, count in chosen.items():
            stats[function]["argument_problems"] += min(count, wrong_calls[function])
    table = []
    for function, entry in stats.items():
        most = entry["wrong"].most_common(1)
        table.append({
            "function": function,
            "expected": entry["expected"],
            "chosen_right": entry["chosen"],
            "arguments_right": entry["chosen"] - entry["argument_problems"],
            "most_wrong_argument": most[0][0] if most else None,
            "most_wrong_argument_count": most[0][1] if most else 0,
            "called_instead": [[name, n] for name, n in sorted(entry["instead"].items(), key=lambda kv: (-kv[1], kv[0]))],
        })
    return sorted(table, key=lambda e: (e["arguments_right"] / e["expected"], e["function"]))


def latency(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-case time (median and 90th percentile) and tokens per case, where the server reports them."""
    if not rows:
        return {}
    seconds = sorted(r["seconds"] for r in rows)
    model = sorted(r["model_seconds"] for r in rows)
    reported = [r["tokens"] for r in rows if r.get("tokens")]
    tokens = Counter()
    for usage in reported:
        tokens.update({k: v for k, v in usage.items() if isinstance(v, int)})
    return {
        "case_ms_p50": round(1000 * _quantile(seconds, 0.5), 2),
        "case_ms_p90": round(1000 * _quantile(seconds, 0.9), 2),
        "model_ms_p50": round(1000 * _quantile(model, 0.5), 2),
        "tokens_per_case": {k: round(v / len(reported), 1) for k, v in sorted(tokens.items())} if reported else None,
        "cases_with_tokens": len(reported),
    }


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]
