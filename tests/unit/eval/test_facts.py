"""Values a reply states, against what the calls returned (sim/eval/facts.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues

TRANSACTIONS = {"result": {"transactions": [{"payee": "Alice Martin", "amount": -42.5},
                                            {"payee": "Salary", "amount": 2400.0}]}}


@pytest.mark.parametrize("reply", [
    "Your latest transactions: Alice Martin, amount: -42.5; Salary, amount: 2400.0.",
    "You paid Alice Martin 42.50 and received your salary of 2,400.",
])
def test_a_returned_amount_is_known_whatever_its_sign_is_said_with(reply):
    known = Known(dt.date(2026, 3, 14))
    known.add_result({}, TRANSACTIONS, {"accountId": "ACC-1"})
    assert made_up(reply, known, Cues.of(["en"]), english=True) == []


def test_an_amount_no_call_returned_is_still_made_up():
    known = Known(dt.date(2026, 3, 14))
    known.add_result({}, TRANSACTIONS, {"accountId": "ACC-1"})
    assert made_up("You paid Alice Martin 57.80.", known, Cues.of(["en"]), english=True) == [
        "'57.80', which no call returned"]
