"""A trial's two verdicts and what they make together.

- The **task** verdict: did the agent do the job? The suite's checks of the calls (function,
  arguments, confirmations), the device's answers and the state after the conversation. Its
  ``by`` names the scorer, so another kind of run can bring its own (an outcome-scored
  benchmark sets ``by`` and its own ``failures``).
- The **words** verdict: was what the agent told the user true and complete? It names its
  reader (the phrase rules, or a judge model), and each failure its check; a failure whose
  check was measured above 2 % error either way (sim/eval/measured_error.py) is "doubtful":
  it does not decide alone, and is kept with its evidence until a judge confirms it.

The **combined** verdict: fail if the task failed or a decisive word check failed;
doubtful if the task passed and only doubtful word failures remain; else pass. A record's
``passed`` is the combined verdict being a pass.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

PASS, FAIL, DOUBTFUL = "pass", "fail", "doubtful"
SUITE_CHECKS = "suite checks"


@dataclass
class TaskVerdict:
    passed: bool
    failures: list[str] = field(default_factory=list)
    by: str = SUITE_CHECKS  # what scored it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class WordsVerdict:
    reader: str
    failures: list[str] = field(default_factory=list)  # decisive
    doubtful: list[dict[str, Any]] = field(default_factory=list)  # each {turn, check, detail, clause, results}

    @property
    def verdict(self) -> str:
        return FAIL if self.failures else DOUBTFUL if self.doubtful else PASS

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, **asdict(self)}


def combine(task: TaskVerdict, words: WordsVerdict) -> str:
    return FAIL if not task.passed else words.verdict


def split_turns(turns: Iterable[dict[str, Any]], state_failures: list[str], reader: str,
                doubtful_checks: frozenset[str]) -> tuple[TaskVerdict, WordsVerdict]:
    """The task's failures and the words' from a trial's turn records (each failure a dict, a
    words one with its ``check``) and its state checks."""
    task, words = TaskVerdict(True), WordsVerdict(reader)
    for index, turn in enumerate(turns):
        for failure in turn.get("failures") or []:
            check = failure.get("check")
            if check is None:
                task.failures.append(failure["detail"])
            elif check in doubtful_checks:
                words.doubtful.append({"turn": index, "check": check, "detail": failure["detail"],
                                       "clause": failure.get("got"), "results": failure.get("expected")})
            else:
                words.failures.append(failure["detail"])
    task.failures += state_failures
    task.passed = not task.failures
    return task, words
