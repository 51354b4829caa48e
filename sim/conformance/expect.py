"""Checks that turn an observed outcome into a :class:`Mismatch` with readable expected/came text.

``attempt`` runs a call and keeps its result or exception, so a case states what should come
back (a value, an AppFunctionException code, a Java exception) in one line, and a report shows
both sides in the words of the spec.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable

from droid.appfunctions.exceptions import AppFunctionException, error_name
from sim.conformance.registry import Mismatch

_MAX_SHOWN = 120


@dataclass(frozen=True)
class Outcome:
    """What a call did: returned ``value`` or raised ``error``."""

    value: Any = None
    error: BaseException | None = None

    def describe(self) -> str:
        if self.error is None:
            return f"returned {show(self.value)}"
        if isinstance(self.error, AppFunctionException):
            return f"{self.error.error_name} ({self.error.error_code}): {self.error.error_message}"
        return f"{type(self.error).__name__}: {self.error}"


def attempt(call: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=call())
    except Exception as error:  # the outcome under test, whatever it is
        return Outcome(error=error)


def show(value: Any) -> str:
    """A short, exact-enough rendering: big bytes by size and digest, long text cut."""
    if isinstance(value, (bytes, bytearray)) and len(value) > 32:
        return f"<{len(value)} bytes, sha256 {hashlib.sha256(value).hexdigest()[:12]}>"
    if isinstance(value, str) and len(value) > _MAX_SHOWN:
        return f"<{len(value)}-character string {value[:24]!r}...>"
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def returns(outcome: Outcome, expected: Any) -> Any:
    """The call returned exactly ``expected`` (type included: 3 is not 3.0 nor True)."""
    if outcome.error is not None or type(outcome.value) is not type(expected) or outcome.value != expected:
        raise Mismatch(f"returned {show(expected)}", outcome.describe())
    return outcome.value


def fails_with(
    outcome: Outcome, code: int, contains: str | None = None, *, message: str | None = None
) -> AppFunctionException:
    """The call raised the AppFunctionException ``code``, its message containing ``contains``
    or, when the spec gives the whole text, being exactly ``message``."""
    expected = f"{error_name(code)} ({code})"
    if contains is not None:
        expected += f" with a message containing {contains!r}"
    if message is not None:
        expected += f" with the message {message!r}"
    error = outcome.error
    if not isinstance(error, AppFunctionException) or error.error_code != code:
        raise Mismatch(expected, outcome.describe())
    text = error.error_message or ""
    if (contains is not None and contains not in text) or (message is not None and text != message):
        raise Mismatch(expected, outcome.describe())
    return error


def raises(outcome: Outcome, exception: type[BaseException], contains: str | None = None) -> BaseException:
    """The call raised ``exception`` (a Java exception of droid.os), its message containing ``contains``."""
    expected = exception.__name__ + (f" with a message containing {contains!r}" if contains else "")
    error = outcome.error
    if not isinstance(error, exception) or (contains is not None and contains not in str(error)):
        raise Mismatch(expected, outcome.describe())
    return error


def equal(what: str, expected: Any, actual: Any) -> None:
    if type(actual) is not type(expected) or actual != expected:
        raise Mismatch(f"{what} {show(expected)}", f"{what} {show(actual)}")


def eventually(what: str, check: Callable[[], bool], within: float, describe_now: Callable[[], str]) -> None:
    """Wait until ``check()`` holds; ``within`` seconds is a deadline for a broken device, not a
    performance bound, so it should be generous."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise Mismatch(f"{what} (within {within:g} s)", describe_now())
        time.sleep(0.02)
