"""Calls refused for want of an answer: a run that measures a missing cassette, not the agent.

A code-less app (an APK, a Kotlin build's folder) answers only what its cassette recorded or
its double implements; any other call, the agent's or a state check's, is refused with
ERROR_NOT_SUPPORTED, saying the app "has no answer for" it (sim/responses/service.py). A case
whose calls were refused so fails whatever the agent did. When such cases are most of a run's
failures, its score, and a --variant's difference of two such scores, says little about the
agent or the descriptions, and the run says so.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

_NO_ANSWER = re.compile(r"has no answer for (\S+) with parameters")  # sim/responses/service.py not_supported
_REFUSED = "ERROR_NOT_SUPPORTED"


def unanswered(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Of one configuration's failed trials, how many met a call refused for want of an answer,
    and which functions had none; ``dominated`` when they are at least half of the failures."""
    failed = [r for r in rows if not r.get("infra_error") and not r["passed"]]
    functions: Counter[str] = Counter()
    hit = 0
    for row in failed:
        found = _unanswered_functions(row)
        hit += bool(found)
        functions.update(found)
    return {"failed": len(failed), "unanswered": hit, "functions": dict(sorted(functions.items())),
            "dominated": bool(failed) and 2 * hit >= len(failed)}


def _unanswered_functions(row: dict[str, Any]) -> set[str]:
    texts = [c["response"]["error"].get("message", "") for t in row.get("turns", []) for c in t.get("calls", [])
             if isinstance(c.get("response"), dict) and isinstance(c["response"].get("error"), dict)
             and c["response"]["error"].get("code_name") == _REFUSED]
    texts += [f for f in row.get("state_failures", []) if _REFUSED in f]
    return {match[1] for text in texts for match in _NO_ANSWER.finditer(text)}


def warning(label: str, found: dict[str, Any]) -> str | None:
    """What to tell the user about a configuration whose failures are mostly unanswered calls."""
    if not found["dominated"]:
        return None
    return (f"{label}: {found['unanswered']} of {found['failed']} failed trial(s) met calls refused for want of an "
            f"answer (ERROR_NOT_SUPPORTED, nothing recorded for {', '.join(found['functions'])}): this run "
            "measures the missing answers, not the agent. Give the app the answers in the suite's apps: entry "
            "(responses: a cassette with those calls, `droidsim responses record`; or double: a Python double)")


def variant_warning(base: dict[str, Any], other: dict[str, Any]) -> str | None:
    """What to tell the user about a --variant difference where either side is such a run."""
    sides = [name for name, found in (("the base", base), ("the variant", other)) if found["dominated"]]
    if not sides:
        return None
    return (f"the --variant difference is not a measure of the descriptions: most failures of {' and '.join(sides)} "
            "are calls refused for want of an answer, which fail whatever the agent or the descriptions do")


def alarms(summary: dict[str, Any]) -> list[str]:
    """Every such warning of a run's summary, for the terminal and the report."""
    found = [warning(label, config["unanswered"]) for label, config in summary["configs"].items()
             if "unanswered" in config]
    found.append((summary.get("variant") or {}).get("warning"))
    return [text for text in found if text]
