"""The rule catalogue: every id of spec/quality-guidelines.md the lint checks.

One place lists the ids, their default severity and a title, so the checks,
the suppression directives, the report and docs/lint-rules.md agree on them.
Severity is "error" where a finding misleads agents, leaks data or is a bug,
"warning" where it makes agents choose or call less well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
ERROR: Severity = "error"
WARNING: Severity = "warning"


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    title: str


_CATALOGUE = [
    Rule("A1", ERROR, "App description missing"),
    Rule("A2", WARNING, "App description does not start with the domain and list the tasks"),
    Rule("A3", WARNING, "Call ordering belongs in the app description"),
    Rule("F1", ERROR, "Function description missing or too long"),
    Rule("F2", ERROR, "Description is a prompt, not a description"),
    Rule("F3", WARNING, "Filler opening"),
    Rule("F4", WARNING, "Shouting"),
    Rule("F5", ERROR, "Refers to or steers other functions"),
    Rule("F6", WARNING, "Parameter or return value not described"),
    Rule("F7", ERROR, "Name says read-only, function writes"),
    Rule("F8", WARNING, "Unclear name or purpose"),
    Rule("F9", WARNING, "Near-duplicate of another function"),
    Rule("D1", ERROR, "Destructive function not marked destructive"),
    Rule("D2", ERROR, "Highly sensitive data in parameters or results"),
    Rule("D3", ERROR, "Broad access to data or system resources"),
    Rule("D4", WARNING, "Work the user did not request"),
    Rule("P1", WARNING, "Parameter not used"),
    Rule("P2", ERROR, "Parameter name invites the agent's context"),
    Rule("P3", WARNING, "Date, time or link as a string"),
    Rule("P4", ERROR, "Declared default the function never receives"),
    Rule("P5", WARNING, "Update cannot tell 'set to null' from 'leave unchanged'"),
    Rule("P6", WARNING, "Screen not opened through an explicit, immutable PendingIntent"),
    Rule("P7", WARNING, "Result returns more than the answer needs"),
    Rule("E1", WARNING, "Failure not raised as an AppFunctionException"),
    Rule("S1", WARNING, "Action space too large"),
    Rule("S2", WARNING, "Blocking call in an async function"),
    Rule("L1", WARNING, "Invalid suppression directive"),
    Rule("R1", ERROR, "Function not indexed or not reached on Android 16"),
    Rule("I1", ERROR, "Install would refuse the app"),
    Rule("I2", ERROR, "A phone indexes less than the app declares"),
    Rule("I3", ERROR, "No phone indexes any AppFunction of the app"),
]

RULES: dict[str, Rule] = {rule.id: rule for rule in _CATALOGUE}
