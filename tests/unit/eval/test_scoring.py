"""What an ``ask`` / ``abstain`` turn tolerates: a lookup the case ``allow``s is not an action."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from sim.eval.catalog import Catalog
from sim.eval.phrases import PhraseRules
from sim.eval.scoring import NO_CALL, MadeCall, score_turn
from sim.eval.suite import Turn

LIST = "com.example.smarthome.LightFunctionService#list_lights"
POWER = "com.example.smarthome.LightFunctionService#set_light_power"
CATALOG = Catalog([
    SimpleNamespace(function_id=f, short_id=f.split("#")[1], package_name="com.example.smarthome", parameters={})
    for f in (LIST, POWER)
])
DAY = dt.date(2026, 3, 14)


def score(turn: Turn, *functions: str, text: str = "Which light do you mean?"):
    calls = [MadeCall(f.split("#")[1], f, {}) for f in functions]
    return score_turn(turn, calls, text, CATALOG, DAY, PhraseRules.of(["en"]))


def details(verdict) -> list[str]:
    return [f.detail for f in verdict.failures]


def test_an_allowed_lookup_before_the_question_passes():
    verdict = score(Turn(user="turn on a light", ask=True, allow=["list_lights"]), LIST)
    assert verdict.failures == [] and verdict.confusion == [(NO_CALL, NO_CALL)]


def test_a_call_the_case_does_not_allow_still_fails_an_ask_turn():
    verdict = score(Turn(user="turn on a light", ask=True, allow=["list_lights"]), LIST, POWER)
    assert details(verdict) == ["expected a question back, but set_light_power was called"]
    assert [f.kind for f in verdict.failures] == ["no_question"]
    assert verdict.confusion == [(NO_CALL, "set_light_power")]
    assert details(score(Turn(user="turn on a light", ask=True), LIST)) == [
        "expected a question back, but list_lights was called"]


def test_an_allowed_lookup_does_not_stand_in_for_the_question():
    verdict = score(Turn(user="turn on a light", ask=True, allow=["list_lights"]), LIST, text=" ")
    assert details(verdict) == ["expected a question back, but the agent said nothing"]


def test_abstain_tolerates_allowed_lookups_the_same_way():
    assert score(Turn(user="is it on?", abstain=True, allow=["list_lights"]), LIST).failures == []
    assert details(score(Turn(user="is it on?", abstain=True), LIST)) == ["expected no call, but list_lights was called"]
