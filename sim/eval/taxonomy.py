"""Why a turn failed, as data: the failure taxonomy of results.jsonl.

Every turn verdict carries ``failures``, a list of ``Failure`` records (empty
when the turn passed). The kinds are fixed, so reports can count them across
runs and models:

=====================  =========================================================
``wrong_function``     an expected call was answered by a call to another function
``wrong_value``        the right function, an argument the matcher refuses (or missing)
``wrong_type``         the right function, an argument of the wrong JSON type or unknown
``missing_call``       an expected call was not made
``extra_call``         a call the turn did not expect (or a confirmation it did not need)
``rejected_by_device`` the device answered an expected call with an error the case
                       does not expect
``false_claim``        the agent's words say an action happened that did not, or that
                       one did not happen (failed, was not done) that did
``wrong_answer``       the reply misses what the user asked for, or states a value
                       no call returned (another status, a made-up booking code)
``no_question``        the agent acted, or said nothing, where it had to ask first
``context_overflow``   the model's own output filled its context: the conversation
                       could not go on (an overflow before the model said anything is
                       the run's, an ``infra_error``)
=====================  =========================================================

A failure of what the agent told the user (``false_claim``, ``wrong_answer``, a missing
question) names the word ``check`` it comes from (sim/eval/words_verdict.py); the others
(calls, the device's answers, state) are the task's, and have none.

Crashes, server errors and timeouts are no verdict on the model: they are a
record's ``infra_error`` (``infra_error`` below), never a failure here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

KINDS = ("wrong_function", "wrong_value", "wrong_type", "missing_call", "extra_call", "rejected_by_device",
         "false_claim", "wrong_answer", "no_question", "context_overflow")
INFRA_KINDS = ("server_error", "timeout", "crash")


@dataclass(frozen=True)
class Failure:
    kind: str
    detail: str
    function: str | None = None
    argument: str | None = None
    expected: Any = None
    got: Any = None
    check: str | None = None  # a words failure's check (sim/eval/words_verdict.py); None: the task's

    @property
    def of_words(self) -> bool:
        return self.check is not None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown failure kind {self.kind!r}; the kinds are {', '.join(KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def infra_error(error: BaseException) -> dict[str, str]:
    """What kind of infrastructure failure ``error`` is: the model server's (HTTP status after the
    client's retries), a timeout (no connection, or a stalled answer), or a crash (anything else:
    the agent runtime, a tool or the harness raised)."""
    detail = f"{type(error).__name__}: {error}"
    for cause in _chain(error):
        name = type(cause).__name__
        if "Timeout" in name:
            return {"kind": "timeout", "detail": detail}
        if isinstance(getattr(cause, "status_code", None), int):
            return {"kind": "server_error", "detail": detail}
    return {"kind": "crash", "detail": detail}


def _chain(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while error is not None and error not in seen:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return seen
