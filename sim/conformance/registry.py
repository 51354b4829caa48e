"""The case registry: every conformance case, with its id and the checklist row it holds us to.

A case is a plain function of a :class:`~sim.conformance.target.ConformanceTarget`; it passes
by returning and fails by raising :class:`Mismatch` (what was expected, what came). Cases
register themselves with :func:`case` when ``sim.conformance.cases`` is imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from sim.conformance.checklist import row

if TYPE_CHECKING:
    from sim.conformance.target import ConformanceTarget

Body = Callable[["ConformanceTarget"], None]

_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_REGISTRY: dict[str, "Case"] = {}


class Mismatch(AssertionError):
    """A case saw something other than the platform's behaviour."""

    def __init__(self, expected: str, actual: str) -> None:
        super().__init__(f"expected {expected}; came {actual}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Case:
    id: str
    row_key: str
    summary: str
    body: Body
    # The SDKs (Build.VERSION.SDK_INT) whose behaviour the case checks; None for every one.
    sdks: frozenset[int] | None = None

    def applies_to(self, sdk_int: int) -> bool:
        return self.sdks is None or sdk_int in self.sdks

    @property
    def spec(self) -> str:
        """The spec reference shown in reports, e.g. "CTS AccessEnabledTest: …"."""
        return row(self.row_key).reference


def register(new: Case) -> Case:
    if not _ID.fullmatch(new.id):
        raise ValueError(f"case id {new.id!r} must be lower-case words joined by '-'")
    if new.id in _REGISTRY:
        raise ValueError(f"case {new.id} is registered twice")
    if not callable(new.body):
        raise ValueError(f"case {new.id} has no body")
    row(new.row_key)  # an unknown checklist row fails at import, not in a report
    _REGISTRY[new.id] = new
    return new


def case(case_id: str, row_key: str, sdks: frozenset[int] | None = None) -> Callable[[Body], Body]:
    """Register the decorated function as case ``case_id`` of checklist row ``row_key``, for the
    SDKs ``sdks`` (None: every one); its docstring's first paragraph is the case's summary."""

    def decorate(body: Body) -> Body:
        summary = " ".join((body.__doc__ or case_id).strip().split("\n\n")[0].split())
        register(Case(case_id, row_key, summary, body, sdks))
        return body

    return decorate


def all_cases() -> list[Case]:
    """Every registered case, in registration order (the order of the checklist's files)."""
    import sim.conformance.cases  # noqa: F401 - importing registers the cases

    return list(_REGISTRY.values())


def for_sdk(cases: list[Case], sdk_int: int) -> list[Case]:
    """The cases that check what a device of ``sdk_int`` should do."""
    return [c for c in cases if c.applies_to(sdk_int)]


def select(case_ids: list[str] | tuple[str, ...]) -> list[Case]:
    """The named cases in registry order; an unknown id raises KeyError naming it."""
    cases = all_cases()
    known = {c.id for c in cases}
    unknown = [i for i in case_ids if i not in known]
    if unknown:
        raise KeyError(unknown[0])
    return [c for c in cases if c.id in case_ids] if case_ids else cases
