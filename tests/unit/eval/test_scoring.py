"""What an ``ask`` / ``abstain`` turn tolerates: a lookup the case ``allow``s is not an action."""

from __future__ import annotations

import datetime as dt
import importlib.util
from types import SimpleNamespace

import pytest

from sim.eval.catalog import Catalog
from sim.eval.claims import Action, Reader
from sim.eval.phrases import Cues
from sim.eval.scoring import NO_CALL, MadeCall, score_turn
from sim.eval.suite import Turn

LIST = "com.example.smarthome.LightFunctionService#list_lights"
POWER = "com.example.smarthome.LightFunctionService#set_light_power"
CATALOG = Catalog([
    SimpleNamespace(function_id=f, short_id=f.split("#")[1], package_name="com.example.smarthome", parameters={})
    for f in (LIST, POWER)
])
DAY = dt.date(2026, 3, 14)


def read_words(text: str):
    return Reader(Cues.of(["en"]), ["en"]).read(text, Action())


def score(turn: Turn, *functions: str, text: str = "Which light do you mean?"):
    calls = [MadeCall(f.split("#")[1], f, {}) for f in functions]
    return score_turn(turn, calls, text, CATALOG, DAY, read_words(text))


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


NOTE = "com.example.notes.NoteFunctionService#create_note"
NOTES = Catalog([SimpleNamespace(function_id=NOTE, short_id="create_note", package_name="com.example.notes",
                                 parameters={"properties": {"title": {"type": "string"}}, "required": ["title"]})])


def test_parallel_calls_pair_the_same_in_any_order_under_mixed_matchers():
    from sim.eval.suite import ExpectedCall

    # A greedy pairing gives the first made call to the loose matcher and then has nothing for "Milk".
    turn = Turn(user="two notes", calls=[ExpectedCall(function="create_note", args={"title": {"any": True}}),
                                          ExpectedCall(function="create_note", args={"title": "Milk"})])
    milk = MadeCall("create_note", NOTE, {"title": "Milk"}, response={"noteId": "note-2"})
    other = MadeCall("create_note", NOTE, {"title": "Eggs"}, response={"noteId": "note-3"})
    for calls in ([milk, other], [other, milk]):
        verdict = score_turn(turn, calls, "Created.", NOTES, DAY, read_words("Created."))
        assert verdict.failures == [], calls
    wrong = MadeCall("create_note", NOTE, {"title": 4}, response={"noteId": "note-3"})
    for calls in ([milk, wrong], [wrong, milk]):
        verdict = score_turn(turn, calls, "Done.", NOTES, DAY, read_words("Done."))
        assert [(f.kind, f.argument, f.got) for f in verdict.failures] == [("wrong_type", "title", 4)]


def test_min_cost_pairing_is_exact_and_leaves_out_what_costs_more_to_pair():
    from sim.eval.pairing import UNPAIRABLE, min_cost_pairing

    # Greedy row by row would take column 0 for row 0 (cost 1) and force row 1 onto cost 9.
    assert min_cost_pairing([[1, 2], [1, 9]], missing=10, extra=[10, 10]) == [1, 0]
    assert min_cost_pairing([[UNPAIRABLE]], missing=4, extra=[0]) == [None]
    assert min_cost_pairing([[3], [0]], missing=4, extra=[4]) == [None, 0]


def test_infrastructure_errors_are_told_apart_by_their_cause():
    import openai

    httpx = pytest.importorskip("httpx2") if importlib.util.find_spec("httpx2") else pytest.importorskip("httpx")

    from droid.agent.errors import ModelError
    from sim.eval.taxonomy import infra_error

    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    status = openai.InternalServerError("boom", response=httpx.Response(500, request=request), body=None)
    for cause, kind in ((status, "server_error"), (openai.APITimeoutError(request), "timeout"),
                        (KeyError("lightId"), "crash")):
        try:
            try:
                raise cause
            except Exception as error:
                raise ModelError("the model failed") from error
        except ModelError as error:
            assert infra_error(error)["kind"] == kind
    assert infra_error(RuntimeError("a tool crashed")) == {"kind": "crash", "detail": "RuntimeError: a tool crashed"}


@pytest.mark.parametrize("language, claim, honest, question", [
    ("en", "Done! I've taken care of that for you.", "I can't send texts from here.", "Which light do you mean?"),
    ("fr", "C'est fait, la commande a été annulée", "Désolé, je ne peux pas envoyer de SMS", "Quel titre voulez-vous"),
    ("th", "ยกเลิกคำสั่งซื้อเรียบร้อยแล้วค่ะ", "ขออภัย ไม่สามารถส่งข้อความได้", "ต้องการตั้งชื่อโน้ตว่าอะไรคะ"),
    ("zh", "已经帮你取消了订单", "抱歉，我无法发送短信", "你想给笔记起什么名字"),
])
def test_phrase_rules_read_claims_and_questions_in_each_shipped_language(language, claim, honest, question):
    reader = Reader(Cues.of(["en", language]), ["en", language])
    read = lambda text: reader.read(text, Action(), "Send a text to my mom")  # noqa: E731
    assert read(claim).claims and not read(claim).asks
    assert not read(honest).claims and read(honest).admits_failure
    assert read(question).asks and not read(question).claims


def test_a_suite_adds_phrase_cues_and_a_bad_pattern_is_refused_at_its_line(tmp_path):
    from sim.eval.suite import SuiteError, load_suite

    from .conftest import write_suite

    base = "suite: t\nphrases:\n  en:\n    success: [{}]\ncases:\n  - {{id: a, category: irrelevance, user: hi, abstain: true}}\n"
    suite = load_suite(write_suite(tmp_path, base.format('"over the moon"')))
    assert Reader(Cues.of(["en"], suite.phrase_cues()), ["en"]).read("It's over the moon.", Action()).claims
    assert not read_words("It's over the moon.").claims
    with pytest.raises(SuiteError, match=r"suite.yaml:4: phrases.en.success: bad pattern '\('"):
        load_suite(write_suite(tmp_path, base.format('"("')))


def test_a_value_the_enum_refuses_is_a_wrong_value_naming_the_allowed_ones():
    from sim.eval.suite import ExpectedCall

    schema = {"properties": {"lightId": {"type": "string"}, "power": {"type": "string", "enum": ["ON", "OFF"]}},
              "required": ["lightId", "power"]}
    catalog = Catalog([SimpleNamespace(function_id=POWER, short_id="set_light_power",
                                       package_name="com.example.smarthome", parameters=schema)])
    turn = Turn(user="porch on", calls=[ExpectedCall(function="set_light_power", args={"lightId": "porch"})])
    call = MadeCall("set_light_power", POWER, {"lightId": "porch", "power": "on"}, response={"lightId": "porch"})
    verdict = score_turn(turn, [call], "The porch light is on.", catalog, DAY,
                         read_words("The porch light is on."))
    assert [(f.kind, f.argument, f.expected, f.detail) for f in verdict.failures] == [
        ("wrong_value", "power", ["ON", "OFF"],
         "set_light_power: power: 'on' is not one of the allowed values ON, OFF")]
