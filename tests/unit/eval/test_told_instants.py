"""An instant told as the offline model tells it (a date and a clock time, `2025-06-14 16:00 UTC`:
platform/droid/agent/models/offline/answers.py) is read as the result's instant by the words
reader, and a wrong day or hour as no call's."""

from __future__ import annotations

import datetime as dt

import pytest

from droid.agent.messages import ToolResponse
from droid.agent.models.offline.answers import phrase
from sim.eval.facts import Known, made_up
from sim.eval.phrases import Cues

WEATHER = {"location": "Paris", "temperature": 19.4, "observedAt": {"epochSecond": 1749916800, "nanoAdjustment": 0}}


def test_the_offline_model_tells_an_instant_by_its_date_and_time():
    assert phrase(ToolResponse(id="c1", name="getWeather", output=WEATHER)) == (
        "Here is what get weather returned: location: Paris, temperature: 19.4, observed at: 2025-06-14 16:00 UTC.")


@pytest.mark.parametrize("reply, wrong", [
    ("In Paris it is 19.4 degrees, observed at 2025-06-14 16:00 UTC.", []),
    ("In Paris it is 19.4 degrees, observed at 2025-06-14 17:00 UTC.", ["'17:00', a time no call returned"]),
    ("In Paris it is 19.4 degrees, observed at 2025-06-15 16:00 UTC.", ["'2025-06-15', a date no call returned"]),
])
def test_a_told_instant_is_held_to_the_results(reply, wrong):
    known = Known(dt.date(2026, 12, 1))
    known.said.append("What's the weather like in Paris?")
    known.add_result({}, WEATHER, {"location": "Paris"})
    assert made_up(reply, known, Cues.of(["en"]), language="en") == wrong
