"""Argument and result matchers: how a suite says which values are acceptable.

A matcher is written in the suite as a plain value or a one-key mapping:

==========================  ===================================================
``ORD-8492`` (a string)      equal, ignoring case and surrounding spaces (BFCL)
``4``, ``true``, ``null``    equal, and of the same JSON type (an int is a number)
``{exact: "Ab "}``           equal, byte for byte
``{one_of: [a, b]}``         any of the values, each matched as above
``{any: true}``              present, any value
``{absent: true}``           must not be given
``{regex: "^ORD-\\d+$"}``    a string the pattern matches in full
``{date: "+1d"}``            the run date moved by days (``today``, ``tomorrow``,
                             ``yesterday``, ``+Nd``, ``-Nd``), as YYYY-MM-DD
``{approx: 21.5, tolerance: 0.5}``  a number within the tolerance
``{contains: {...}}``        a list with at least one element that matches
a mapping of fields          an object whose listed fields match (others free)
a list                       a list of that length, element by element
==========================  ===================================================

``regex`` and ``any`` take an ``example``: the value the oracle model sends,
checked against the matcher when the suite is loaded.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from sim.eval.bounded_regex import BoundedPattern, PatternError
from sim.eval.values import as_iso

KEYWORDS = ("exact", "one_of", "any", "absent", "regex", "date", "approx", "contains")
_OFFSET = re.compile(r"^([+-]\d+)d$")
_NAMED_DAYS = {"today": 0, "tomorrow": 1, "yesterday": -1}


class MatcherError(ValueError):
    """A matcher that cannot be used (unknown keyword, bad pattern, bad offset)."""


@dataclass(frozen=True)
class Matcher:
    """One compiled matcher; ``check`` returns None when the value is acceptable, else why not."""

    kind: str
    spec: Any
    example: Any = None

    def check(self, value: Any, present: bool, run_date: dt.date) -> str | None:
        if self.kind in ("value", "one_of", "date", "regex"):
            value = as_iso(value)
        if self.kind == "absent":
            return None if not present else f"should be absent, got {value!r}"
        if not present:
            return "missing"
        if self.kind == "any":
            return None
        if self.kind == "exact":
            return None if _json_equal(value, self.spec, strict=True) else f"expected exactly {self.spec!r}, got {value!r}"
        if self.kind == "value":
            return None if _json_equal(value, self.spec, strict=False) else f"expected {self.spec!r}, got {value!r}"
        if self.kind == "one_of":
            if any(_json_equal(value, option, strict=False) for option in self.spec):
                return None
            return f"expected one of {list(self.spec)!r}, got {value!r}"
        if self.kind == "regex":
            if isinstance(value, str) and self.spec.fullmatch(value):
                return None
            return f"expected a string matching /{self.spec.pattern}/, got {value!r}"
        if self.kind == "date":
            wanted = (run_date + dt.timedelta(days=self.spec)).isoformat()
            return None if value == wanted else f"expected the date {wanted} ({_offset_text(self.spec)}), got {value!r}"
        if self.kind == "approx":
            number, tolerance = self.spec
            if _is_number(value) and abs(value - number) <= tolerance:
                return None
            return f"expected {number} ± {tolerance}, got {value!r}"
        if self.kind == "contains":
            if isinstance(value, list) and any(self.spec.check(v, True, run_date) is None for v in value):
                return None
            return f"expected a list with an element matching {self.spec.describe()}, got {value!r}"
        if self.kind == "fields":
            return _check_fields(self.spec, value, run_date)
        if self.kind == "list":
            if not isinstance(value, list) or len(value) != len(self.spec):
                return f"expected a list of {len(self.spec)}, got {value!r}"
            for i, (matcher, item) in enumerate(zip(self.spec, value)):
                problem = matcher.check(item, True, run_date)
                if problem:
                    return f"[{i}]: {problem}"
            return None
        raise AssertionError(self.kind)

    def sample(self, run_date: dt.date) -> Any:
        """A value this matcher accepts: what the oracle model sends."""
        if self.kind in ("exact", "value"):
            return self.spec
        if self.kind == "one_of":
            return self.spec[0]
        if self.kind in ("any", "regex"):
            return self.example
        if self.kind == "date":
            return (run_date + dt.timedelta(days=self.spec)).isoformat()
        if self.kind == "approx":
            return self.spec[0]
        if self.kind == "contains":
            return [self.spec.sample(run_date)]
        if self.kind == "fields":
            return {k: m.sample(run_date) for k, m in self.spec.items() if m.kind != "absent"}
        if self.kind == "list":
            return [m.sample(run_date) for m in self.spec]
        raise AssertionError(self.kind)

    def describe(self) -> str:
        if self.kind in ("value", "exact"):
            return repr(self.spec)
        if self.kind == "regex":
            return f"/{self.spec.pattern}/"
        if self.kind == "date":
            return _offset_text(self.spec)
        if self.kind == "fields":
            return "{" + ", ".join(f"{k}: {m.describe()}" for k, m in self.spec.items()) + "}"
        return f"{self.kind} {self.spec!r}" if self.spec is not None else self.kind


def compile_matcher(raw: Any) -> Matcher:
    """The Matcher for a value as written in a suite; MatcherError names what is wrong."""
    raw = plain_value(raw)
    if isinstance(raw, dict) and raw and set(raw) - {"example", "tolerance"} <= set(KEYWORDS) and set(raw) & set(KEYWORDS):
        return _keyword(raw)
    if isinstance(raw, dict):
        return Matcher("fields", {str(k): compile_matcher(v) for k, v in raw.items()})
    if isinstance(raw, list):
        return Matcher("list", tuple(compile_matcher(v) for v in raw))
    return Matcher("value", raw)


def compile_fields(raw: dict[str, Any] | None) -> dict[str, Matcher]:
    return {str(k): compile_matcher(v) for k, v in (raw or {}).items()}


def _check_fields(matchers: dict[str, Matcher], value: Any, run_date: dt.date) -> str | None:
    if not isinstance(value, dict):
        return f"expected an object, got {value!r}"
    for name, matcher in matchers.items():
        problem = matcher.check(value.get(name), name in value, run_date)
        if problem:
            return f"{name}: {problem}"
    return None


def _keyword(raw: dict[str, Any]) -> Matcher:
    keys = [k for k in raw if k in KEYWORDS]
    if len(keys) != 1:
        raise MatcherError(f"a matcher has one keyword, got {keys}")
    kind = keys[0]
    spec = raw[kind]
    extra = set(raw) - {kind} - ({"tolerance"} if kind == "approx" else set()) - (
        {"example"} if kind in ("any", "regex") else set())
    if extra:
        raise MatcherError(f"{kind} does not take {sorted(extra)}")
    if kind in ("any", "absent"):
        if spec is not True:
            raise MatcherError(f"write {kind}: true")
        return Matcher(kind, None, raw.get("example", "any" if kind == "any" else None))
    if kind == "exact":
        return Matcher(kind, spec)
    if kind == "one_of":
        if not isinstance(spec, list) or not spec:
            raise MatcherError("one_of takes a non-empty list of values")
        return Matcher(kind, tuple(spec))
    if kind == "regex":
        if not isinstance(spec, str):
            raise MatcherError("regex takes a pattern string")
        try:
            pattern = BoundedPattern(spec)  # a suite's pattern: matched with a time bound
        except PatternError as error:
            raise MatcherError(f"bad regex {spec!r}: {error}") from None
        if "example" not in raw:
            raise MatcherError("regex needs an example (the value the oracle model sends)")
        if not isinstance(raw["example"], str) or not pattern.fullmatch(raw["example"]):
            raise MatcherError(f"the example {raw['example']!r} does not match /{spec}/")
        return Matcher(kind, pattern, raw["example"])
    if kind == "date":
        return Matcher(kind, _days(spec))
    if kind == "approx":
        tolerance = raw.get("tolerance", 0)
        if not _is_number(spec) or not _is_number(tolerance) or tolerance < 0:
            raise MatcherError("approx takes a number and a tolerance >= 0")
        return Matcher(kind, (spec, tolerance))
    if kind == "contains":
        return Matcher(kind, compile_matcher(spec))
    raise AssertionError(kind)


def _days(spec: Any) -> int:
    if isinstance(spec, str):
        text = spec.strip().lower()
        if text in _NAMED_DAYS:
            return _NAMED_DAYS[text]
        match = _OFFSET.match(text)
        if match:
            return int(match.group(1))
    raise MatcherError(f"date takes today, tomorrow, yesterday, +Nd or -Nd, got {spec!r}")


def resolve_dates(value: Any, run_date: dt.date) -> Any:
    """A suite's own call arguments with ``{date: tomorrow}`` (or ``today``, ``+Nd``...) as ISO dates."""
    if isinstance(value, dict):
        if set(value) == {"date"} and isinstance(value["date"], str):
            try:
                return (run_date + dt.timedelta(days=_days(value["date"]))).isoformat()
            except MatcherError:
                return value
        return {k: resolve_dates(v, run_date) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_dates(v, run_date) for v in value]
    return value


def _offset_text(days: int) -> str:
    return {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days, f"{days:+d} days from the run date")


def plain_value(value: Any) -> Any:
    """YAML dates and times as ISO text, as a person writes them (``19:00``, not ``19:00:00``)."""
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return as_iso(value.isoformat())
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _json_equal(value: Any, wanted: Any, *, strict: bool) -> bool:
    wanted = plain_value(wanted)
    if isinstance(wanted, bool) or isinstance(value, bool):
        return type(value) is type(wanted) and value == wanted
    if _is_number(wanted):
        return _is_number(value) and value == wanted
    if isinstance(wanted, str):
        wanted = wanted if strict else as_iso(wanted)
        if not isinstance(value, str):
            return False
        return value == wanted if strict else value.strip().casefold() == wanted.strip().casefold()
    if isinstance(wanted, list):
        return isinstance(value, list) and len(value) == len(wanted) and all(
            _json_equal(v, w, strict=strict) for v, w in zip(value, wanted))
    if isinstance(wanted, dict):
        return isinstance(value, dict) and set(value) == set(wanted) and all(
            _json_equal(value[k], w, strict=strict) for k, w in wanted.items())
    return value == wanted
