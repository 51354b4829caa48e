"""Retrieval: can an agent even find the function a case expects among all those on the device?

The first step a real agent takes when hundreds of functions are installed is to narrow
them down by what their names and descriptions say. This measures that step without a
model: for every case and every function it expects, the function's rank among all the
functions the agent may call (distractor apps included) by BM25 over each function's name,
description and parameter descriptions, the request being the user's words so far in the
conversation. The index is the offline model's (droid.agent.models.offline.relevance), read
without the offline model's own lexicon, so that a description is measured as its author
wrote it. Ties rank last among equals, and a function that shares no word with the request
ranks last of all (its reciprocal rank is 0): a gutted description finds nothing.

BM25 is lexical: a request in a language the descriptions are not written in (a Thai
request, English descriptions) shares no word with them and ranks the function last.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Sequence

from droid.agent.models.offline.relevance import terms, tool_index
from sim.eval.catalog import Catalog
from sim.eval.suite import Case

TOP = (1, 3)


def rank_expected(case: Case, tools: Sequence[Any], catalog: Catalog) -> list[dict[str, Any]]:
    """Each function the case expects (once per case, at the turn that first expects it), with its
    rank among ``tools`` (the agent's: name, description, parameters) and how many there are."""
    index = tool_index(tools, translate=False)
    by_id = {t.function_id: t.name for t in tools if getattr(t, "function_id", None)}
    said: list[str] = []
    ranks: list[dict[str, Any]] = []
    for number, turn in enumerate(case.turns):
        said.append(turn.user)
        scores = index.scores(terms(" ".join(said)))
        for call in turn.calls or []:
            function_id = catalog.resolve(call.function).function_id
            short = catalog.short(function_id)
            if short in (r["function"] for r in ranks) or function_id not in by_id:
                continue
            name = by_id[function_id]
            ranks.append({"function": short, "turn": number, "rank": _rank(scores, name), "of": len(tools),
                          "matched": scores[name] > 0})
    return ranks


def _rank(scores: dict[str, float], name: str) -> int:
    """1 + every other function scored at least as high; last of all when nothing matched."""
    mine = scores[name]
    if mine <= 0:
        return len(scores)
    return 1 + sum(1 for other, score in scores.items() if other != name and score >= mine)


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """recall@1, recall@3 and MRR over the expected functions of a configuration's cases (each case
    once, whatever its trials), overall and per function."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("retrieval") is not None:
            rows.setdefault(record["case_id"], record["retrieval"])
    ranks = [r for case_rows in rows.values() for r in case_rows]
    per_function: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in ranks:
        per_function[row["function"]].append(row)
    return {**_scores(ranks), "catalog": max((r["of"] for r in ranks), default=0),
            "functions": {name: _scores(found) for name, found in sorted(per_function.items())}}


def _scores(ranks: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(ranks)
    scores: dict[str, Any] = {"expected": n}
    for k in TOP:
        scores[f"recall_at_{k}"] = round(sum(r["rank"] <= k for r in ranks) / n, 4) if n else 0.0
    scores["mrr"] = round(sum(_reciprocal(r) for r in ranks) / n, 4) if n else 0.0
    return scores


def _reciprocal(row: dict[str, Any]) -> float:
    return 1 / row["rank"] if row["matched"] else 0.0


def differences(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """The change in each retrieval score from ``base`` to ``other``, overall and per function both have."""
    keys = [f"recall_at_{k}" for k in TOP] + ["mrr"]
    delta = {key: round(other.get(key, 0.0) - base.get(key, 0.0), 4) for key in keys}
    functions = {name: {key: round(other["functions"][name][key] - scores[key], 4) for key in keys}
                 for name, scores in base.get("functions", {}).items() if name in other.get("functions", {})}
    return {**delta, "functions": functions}
