"""A value a suite writes for a call is one the function's typed reading takes, else the suite is refused
at its line in the shell's words before any model call: a bare value for a SetField, text for an Int, a field
the answer does not have can never be sent nor matched, so the case could never pass whatever the agent did
(issue 46's Kotlin walk, round 4: each loaded silently and failed as the agent's fault, or as an
'infrastructure error' at setup). Matchers that take any value are not held to a type."""

from __future__ import annotations

import textwrap

import pytest

from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import SuiteError, load_suite
from tests.helpers import REPO

from .conftest import RUN_DATE, write_suite

APK = REPO / "tests" / "apks" / "travel-signed.apk"
BARE_SEAT = ('updateBooking would refuse it: seat: expected a SetField<String>, written {"value": ...} (a bare value '
             'is no SetField; leave the parameter out to keep the field as it is), got a string')


def _refusal(tmp_path, cases: str) -> SuiteError:
    suite = load_suite(write_suite(tmp_path, f"suite: travel\napps:\n  - apk: {APK}\ncases:\n"
                                             f"{textwrap.indent(textwrap.dedent(cases), '  ')}"))
    with pytest.raises(SuiteError) as caught:  # the model is never reached: nothing listens there
        run_eval(suite, EvalOptions(model="openai:nobody", base_url="http://127.0.0.1:9/v1", out=tmp_path / "o",
                                    run_date=RUN_DATE))
    return caught.value


def _case(args: str, extra: str = "") -> str:
    return f"""\
- id: seat
  category: simple
  user: Move me to seat 14C on BK-1042.
{extra}  calls:
    - function: updateBooking
      args: {args}
"""


def test_a_bare_value_for_a_setfield_is_refused_at_its_line_with_the_form_to_write(tmp_path):
    error = _refusal(tmp_path, _case("{bookingId: BK-1042, seat: 14C}"))
    assert (error.line, error.field, error.message) == (10, "cases[0].calls[0].args.seat", BARE_SEAT)


def test_a_setup_call_is_held_to_the_same_reading(tmp_path):
    error = _refusal(tmp_path, _case("{bookingId: BK-1042, seat: {value: 14C}}", """\
  setup:
    - function: updateBooking
      args: {bookingId: BK-1042, seat: 12A}
"""))
    assert (error.field, error.message) == ("cases[0].setup[0].args.seat", BARE_SEAT)


def test_a_literal_inside_a_setfield_is_held_to_its_type(tmp_path):
    error = _refusal(tmp_path, _case('{bookingId: BK-1042, checkedBags: {value: "two"}}'))
    assert (error.field, error.message) == (
        "cases[0].calls[0].args.checkedBags.value",
        "updateBooking would refuse it: checkedBags.value: expected an integer, got a string")


def test_a_field_the_setfield_does_not_have_is_named_with_the_closest(tmp_path):
    error = _refusal(tmp_path, _case("{bookingId: BK-1042, seat: {valeu: 14C}}"))
    assert error.message == ("updateBooking would refuse it: seat: unknown field 'valeu' (did you mean value?); "
                             "its fields: value")


def test_a_state_check_expecting_a_field_the_answer_lacks_is_refused(tmp_path):
    error = _refusal(tmp_path, _case("{bookingId: BK-1042, seat: {value: 14C}}") + """\
  state:
    - function: getBooking
      args: {bookingId: BK-1042}
      expect: {seats: 14C}
""")
    assert error.field == "cases[0].state[0].expect"
    assert error.message == ("no answer of getBooking can match it: the answer: unknown field 'seats' (did you mean "
                             "seat or status?); its fields: bookingId, status, flight, travellers, seat, mealPreference, "
                             "returnDate, totalPrice, bookedAt")


def test_matchers_that_take_any_value_and_partial_objects_load(tmp_path):
    """Only what is written literally is typed: any, regex and date matchers, an object's listed fields alone,
    a date as ISO text. The suite loads, so the run reaches the model (which is not there: exit 3's error)."""
    cases = _case("{bookingId: {regex: 'BK-\\d+', example: BK-1042}, seat: {value: {any: true, example: 14C}}, "
                  "returnDate: {value: 2026-03-20}, travellers: {value: {contains: {firstName: Ana}}}}")
    suite = load_suite(write_suite(tmp_path, f"suite: travel\napps:\n  - apk: {APK}\ncases:\n"
                                             f"{textwrap.indent(cases, '  ')}"))
    summary = run_eval(suite, EvalOptions(model="scripted", out=tmp_path / "o", run_date=RUN_DATE))
    assert summary["configs"]["base"]["scores"]["overall"]["trials_run"] == 1
