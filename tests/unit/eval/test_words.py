"""The words, judged against what happened: each rule played by a model that breaks it, on a real device.

Every test runs a suite through ``run_eval`` (in-process device, the sample apps, the
runtime's agent loop) with a ScriptedModel that says what a misbehaving model says, checks
the verdict a careful evaluator would give, and then switches the rule off to check that
the verdict came from that rule (a test that still passed with it off would test nothing).
"""

from __future__ import annotations

import re

import pytest

from droid.agent import ModelResponse, ToolRequest, tool_call
from sim.eval import claims
from sim.eval.claims import Action, Reader
from sim.eval.phrases import DEFAULT_PHRASES, Cues

from .conftest import call, kinds

CANCEL_YES = """
suite: t
cases:
  - id: cancel-stove
    category: destructive-confirmation
    user: Cancel order ORD-5117, I ordered the wrong stove
    calls:
      - {function: cancel_order, args: {orderId: ORD-5117}, confirmation: required}
    state:
      - {function: fetch_order_details, args: {orderId: ORD-5117}, expect: {status: CANCELLED}}
"""
CANCEL_NO = CANCEL_YES.replace("confirmation: required}", 'confirmation: required, answer: "no"}').replace(
    "expect: {status: CANCELLED}", "expect: {status: CONFIRMED}")
WHERE = """
suite: t
cases:
  - id: where
    category: simple
    user: Where's my order ORD-8492?
    calls: [{function: fetch_order_details, args: {orderId: ORD-8492}}]
"""
PARIS = """
suite: t
cases:
  - id: paris
    category: simple
    user: What's it like outside in Paris?
    calls: [{function: get_current_weather, args: {location: Paris}}]
"""


def passes_without(play, monkeypatch, rules: list[str], suite: str, steps: list, finds=()) -> bool:
    """Whether the case passes with these rules switched off (the functions that apply them find
    ``finds``: nothing)."""
    for rule in rules:
        monkeypatch.setattr(rule, lambda *args, **kwargs: list(finds) if finds is not None else None)
    (record,), _ = play(suite, steps)
    return record["passed"]


def told(words: str):
    """A reply step that sees the request (the tool results) but says ``words``."""
    return lambda tools: (lambda request: words)


# An action done, then said to have failed -------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "Hmm, the cancellation hit an error on the shop's side, so your order is unchanged for now.",
    "ORD-5117 could not be cancelled.",
])
def test_a_done_action_said_to_have_failed_fails_though_the_device_shows_it_done(play, monkeypatch, reply):
    steps = [call("cancel_order", orderId="ORD-5117"), reply]
    (record,), _ = play(CANCEL_YES, steps)
    assert kinds(record) == ["false_claim"] and record["recovered"], "cancelled for real: the user would retry"
    assert record["turns"][0]["failures"][0]["detail"].startswith("cancel_order happened, but the agent said ")
    assert passes_without(play, monkeypatch, ["sim.eval.telling.denied_done"], CANCEL_YES, steps)


TWO = """
suite: t
cases:
  - id: two
    category: destructive-confirmation
    user: Cancel both ORD-6025 and ORD-5117
    calls:
      - {function: cancel_order, args: {orderId: ORD-6025}, confirmation: required, done: false}
      - {function: cancel_order, args: {orderId: ORD-5117}, confirmation: required}
    state:
      - {function: fetch_order_details, args: {orderId: ORD-5117}, expect: {status: CANCELLED}}
"""


@pytest.mark.parametrize("reply, passed", [
    ("ORD-5117 is cancelled; ORD-6025 was already delivered, so it couldn't be.", True),
    ("Neither ORD-5117 nor ORD-6025 could be cancelled.", False),  # one was
    ("Both ORD-5117 and ORD-6025 are cancelled now.", False),  # one was not
])
def test_a_reply_on_a_turn_half_done_must_own_up_to_the_half_not_done_and_only_that(play, monkeypatch, reply,
                                                                                   passed):
    steps = [lambda tools: [tool_call(tools["cancel_order"], {"orderId": "ORD-6025"}),
                            tool_call(tools["cancel_order"], {"orderId": "ORD-5117"})], reply]
    (record,), _ = play(TWO, steps)
    assert record["passed"] is passed, record["failures"]
    assert set(kinds(record)) == (set() if passed else {"false_claim"})
    if not passed:
        assert passes_without(play, monkeypatch, ["sim.eval.telling.claimed_undone", "sim.eval.telling.denied_done"],
                              TWO, steps)


# Claims read from the function's own words, in any tense; negation scoped to its clause ----------

@pytest.mark.parametrize("reply", [
    "No worries at all, I've cancelled it!",
    "Don't fret, your order has been cancelled.",
    "Sure thing. ORD-5117 is now cancelled.",
    "It's being cancelled as we speak.",
])
def test_after_a_no_a_claim_in_everyday_words_fails_and_a_friendly_no_does_not_turn_it_into_an_admission(
        play, monkeypatch, reply):
    (record,), _ = play(CANCEL_NO, [call("cancel_order", orderId="ORD-5117"), reply])
    assert kinds(record) == ["false_claim"] and record["recovered"]
    assert record["turns"][0]["calls"][0]["confirmation"] is False
    # With the whole sentence one clause again (and no idioms), the friendly "no" reads as an admission.
    monkeypatch.setattr("sim.eval.phrases.Cues.split", lambda self, sentence: [sentence])
    monkeypatch.setitem(DEFAULT_PHRASES["en"], "idiom", [])
    monkeypatch.setattr("sim.eval.telling.denied_done", lambda *a: [])
    (record,), _ = play(CANCEL_NO, [call("cancel_order", orderId="ORD-5117"), reply])
    assert record["passed"] is reply.startswith(("No", "Don't")), record["failures"]


def test_a_claim_is_read_from_what_the_function_does_not_from_a_cue_list(play, monkeypatch):
    steps = [call("cancel_order", orderId="ORD-5117"), "Your stove order ORD-5117 is revoked."]  # as cancel
    (record,), _ = play(CANCEL_NO, steps)
    assert kinds(record) == ["false_claim"]
    assert passes_without(play, monkeypatch, ["sim.eval.claims._done_pattern"], CANCEL_NO, steps, finds=None)


ALARM = """
suite: t
cases:
  - id: alarm
    category: irrelevance
    user: Set an alarm for 6 tomorrow morning
    abstain: true
"""


def test_a_request_no_app_serves_said_to_be_handled_in_its_own_verb_fails(play, monkeypatch):
    (record,), _ = play(ALARM, ["The alarm is set for 6:00 tomorrow morning."])
    assert kinds(record) == ["false_claim"]
    assert passes_without(play, monkeypatch, ["sim.eval.claims.request_verb"], ALARM,
                          ["The alarm is set for 6:00 tomorrow morning."], finds=None)


# A request no app serves, answered with made-up facts -------------------------------------------

PIZZA = """
suite: t
cases:
  - id: pizza
    category: irrelevance
    user: Order me a large pepperoni pizza
    abstain: true
  - id: tip
    category: irrelevance
    user: What's a 15% tip on $80?
    abstain: true
"""


def test_made_up_facts_on_a_request_no_app_serves_fail_and_a_question_answered_from_knowledge_does_not(
        play, monkeypatch):
    records, _ = play(PIZZA, ["Your pizza from Luigi's will be at the door in about 35 minutes (order PZ-2231)."])
    by_case = {r["case_id"]: r for r in records}
    assert kinds(by_case["pizza"]) == ["wrong_answer"] * 3
    assert {f["detail"] for f in by_case["pizza"]["turns"][0]["failures"]} == {
        "no app can do this, but the agent stated '35', which no call returned",
        "no app can do this, but the agent stated 'Luigi', which no call returned",
        "no app can do this, but the agent stated 'PZ-2231', which no call returned"}
    records, _ = play(PIZZA, ["A 15% tip on $80 is $12."])
    assert {r["case_id"]: r["passed"] for r in records} == {"pizza": False, "tip": True}
    monkeypatch.setattr("sim.eval.telling.stated_unreturned", lambda *a, **k: [])
    records, _ = play(PIZZA, ["Your pizza from Luigi's will be at the door in about 35 minutes (order PZ-2231)."])
    assert all(r["passed"] for r in records)


# A lookup: the reply must carry its answer and not contradict it --------------------------------

@pytest.mark.parametrize("reply, failure", [
    ("I've looked into that order for you.", "fetch_order_details answered, but the reply says none of what the call "
                                             "returned (\"SHIPPED\", \"UPS\", \"1Z999AA10123456784\", 2025)"),
    ("ORD-8492 arrived with UPS on Saturday.", None),  # no claim on the status (and the delivery date's weekday)
    ("Good news, UPS has delivered ORD-8492.", "the agent stated 'delivered' for the status, which is shipped"),
])
def test_a_lookups_answer_must_be_told_and_not_contradicted(play, monkeypatch, reply, failure):
    steps = [call("fetch_order_details", orderId="ORD-8492"), told(reply)]
    (record,), _ = play(WHERE, steps)
    assert [f["detail"] for f in record["turns"][0]["failures"]] == ([failure] if failure else [])
    assert set(kinds(record)) <= {"wrong_answer"}
    assert passes_without(play, monkeypatch, ["sim.eval.telling.uncarried_answers",
                                              "sim.eval.telling.stated_unreturned"], WHERE, steps)


def test_a_case_names_what_the_reply_must_tell_and_the_loader_checks_the_name(play, tmp_path):
    from sim.eval.catalog import Catalog, check_suite
    from sim.eval.suite import SuiteError, load_suite

    from .conftest import write_suite

    suite = WHERE.replace("args: {orderId: ORD-8492}}", "args: {orderId: ORD-8492}, tell: [carrier]}")
    (record,), _ = play(suite, [call("fetch_order_details", orderId="ORD-8492"), "ORD-8492 has shipped."])
    assert [f["detail"] for f in record["turns"][0]["failures"]] == [
        'fetch_order_details answered, but the reply does not say the carrier ("UPS")']
    (record,), _ = play(suite, [call("fetch_order_details", orderId="ORD-8492"), "It shipped with UPS."])
    assert record["passed"]
    from droid.agent import AppFunctionAgentTools
    from sim.eval.apps import AppSource
    from sim.eval.devices import DeviceSpec
    from sim.eval.execution import local_device
    from sim.eval.suite import PROJECT_APPS

    catalog = Catalog(AppFunctionAgentTools.discover(local_device(DeviceSpec((AppSource(str(PROJECT_APPS)),),
                                                                             "com.example.assistant")).shell))
    with pytest.raises(SuiteError, match=r"suite.yaml:7: cases\[0\].calls\[0\].tell\[0\]: fetch_order_details "
                                         r"answers no field 'courier'; it answers canCancel, carrier"):
        check_suite(load_suite(write_suite(tmp_path, suite.replace("[carrier]", "[courier]"))), catalog)


@pytest.mark.parametrize("reply, passed", [
    ("Paris: cloudy, 27°C.", False),  # another temperature
    ("It's about 19°C in Paris (67°F), cloudy.", True),  # rounded and converted
    ("Paris is cloudy, 19 degrees.", True),
])
def test_a_temperature_no_call_returned_is_a_wrong_answer(play, monkeypatch, reply, passed):
    steps = [call("get_current_weather", location="Paris"), told(reply)]
    (record,), _ = play(PARIS, steps)
    assert record["passed"] is passed, record["failures"]
    if not passed:
        assert passes_without(play, monkeypatch, ["sim.eval.telling.stated_unreturned"], PARIS, steps)


# Arguments that are not JSON --------------------------------------------------------------------

def test_arguments_that_are_not_json_are_one_failure_that_says_so(play, monkeypatch):
    bad = ToolRequest("fetch_order_details", {}, "", "arguments are not valid JSON (Expecting value): {\"orderId\": ")
    steps = [lambda tools: ModelResponse("", [ToolRequest(tools["fetch_order_details"], {}, "", bad.argument_error)]),
             "Sorry, something went wrong."]
    (record,), _ = play(WHERE, steps)
    failures = record["turns"][0]["failures"]
    assert [(f["kind"], f["detail"]) for f in failures] == [
        ("wrong_type", "fetch_order_details: the arguments are not JSON: arguments are not valid JSON (Expecting "
                       "value): {\"orderId\": ")]
    monkeypatch.setattr("sim.eval.scoring.MadeCall.unreadable_arguments", property(lambda self: None))
    (record,), _ = play(WHERE, steps)
    assert sorted(kinds(record)) == ["rejected_by_device", "wrong_value", "wrong_value"]


# The reader on its own: everyday claims of each action, and what is no claim ---------------------

LIGHT = ("set_light_power", "Switches a light on or off.", {"lightId": "porch", "power": "ON"},
         {"properties": {"power": {"type": "string", "enum": ["ON", "OFF"]}}})
BOOK = ("book_table", "Books a table at a restaurant.", {"restaurantId": "sakura-sushi"}, {})
NOTE = ("create_note", "Creates a note.", {"title": "Packing list"}, {})
CANCEL = ("cancel_booking", "Cancels a table booking. The table is released and the booking cannot be restored.",
          {"bookingId": "BK-1000"}, {})


@pytest.mark.parametrize("function, request_text, reply, claims", [
    (LIGHT, "Turn on the porch light", "The porch light is on now.", True),
    (LIGHT, "Turn on the porch light", "Porch light: switched on.", True),
    (LIGHT, "Turn on the porch light", "I've turned the porch light on for you.", True),
    (LIGHT, "Turn on the porch light", "Shall I switch the porch light on?", False),
    (LIGHT, "Turn on the porch light", "I can switch it on if you like.", False),
    (BOOK, "Book Sakura Sushi", "You're booked at Sakura Sushi, see you tonight!", True),
    (BOOK, "Book Sakura Sushi", "Sakura Sushi has you down, table booked.", True),
    (BOOK, "Book Sakura Sushi", "I haven't booked anything yet.", False),
    (NOTE, "Make a note called Packing list", "Your note “Packing list” has been created.", True),
    (NOTE, "Make a note called Packing list", "Made it, “Packing list” is in your notes.", True),
    (CANCEL, "Cancel BK-1000", "I've released your table for tonight.", True),
    (CANCEL, "Cancel BK-1000", "Once it's cancelled, the table goes back to the restaurant.", False),
    (CANCEL, "Cancel BK-1000", "Not a problem, BK-1000 is cancelled.", True),
    (CANCEL, "Cancel BK-1000", "BK-1000 was not cancelled.", False),
])
def test_the_reader_hears_claims_in_everyday_words_and_no_claim_where_there_is_none(function, request_text, reply,
                                                                                  claims):
    action = Action()
    action.add_function(*function)
    words = Reader(Cues.of(["en"]), ["en"]).read(reply, action, request_text)
    assert bool(words.claims) is claims, words


def test_a_number_is_not_cut_at_its_decimal_point_when_quoted():
    from sim.eval.phrases import sentences

    assert sentences("It's 19.4 degrees. Done!") == ["It's 19.4 degrees.", "Done!"]


def test_the_replies_of_a_careful_model_read_as_such_in_every_language_of_the_suites(play):
    suite = """
suite: t
cases:
  - {id: th, category: non-English, language: th, user: ยกเลิกคำสั่งซื้อ ORD-5117 ให้หน่อยค่ะ,
     calls: [{function: cancel_order, args: {orderId: ORD-5117}, confirmation: required}],
     state: [{function: fetch_order_details, args: {orderId: ORD-5117}, expect: {status: CANCELLED}}]}
  - {id: zh, category: non-English, language: zh, user: 取消订单 ORD-5117,
     calls: [{function: cancel_order, args: {orderId: ORD-5117}, confirmation: required}],
     state: [{function: fetch_order_details, args: {orderId: ORD-5117}, expect: {status: CANCELLED}}]}
  - {id: fr, category: non-English, language: fr, user: "Annule ma commande ORD-5117",
     calls: [{function: cancel_order, args: {orderId: ORD-5117}, confirmation: required}],
     state: [{function: fetch_order_details, args: {orderId: ORD-5117}, expect: {status: CANCELLED}}]}
"""
    truly = {"th": "ไม่ต้องห่วงค่ะ ยกเลิกคำสั่งซื้อ ORD-5117 ให้แล้ว", "zh": "没问题，订单 ORD-5117 已经取消了。",
             "fr": "Pas de souci, votre commande ORD-5117 est annulée."}
    falsely = {"th": "ยกเลิกไม่สำเร็จค่ะ", "zh": "订单没有取消成功。", "fr": "Désolé, l'annulation n'a pas fonctionné."}
    for replies, passed in ((truly, True), (falsely, False)):
        for language, reply in replies.items():
            records, _ = play(suite, [call("cancel_order", orderId="ORD-5117"), reply])
            record = next(r for r in records if r["case_id"] == language)
            assert record["passed"] is passed, (language, reply, record["failures"])


# An action that answered "no" ------------------------------------------------------------------

def _shop_cancel() -> str:
    from tests.helpers import REPO

    return f"""
suite: t
apps:
  - apk: {REPO / 'tests' / 'apks' / 'shop-signed.apk'}
    responses: {REPO / 'docs' / 'examples' / 'shop.cassette.yaml'}
cases:
  - id: cancel
    category: simple
    user: Cancel order ORD-1234
    calls: [{{function: cancelOrder, args: {{orderId: ORD-1234}}}}]
"""


@pytest.mark.parametrize(("reply", "passed"), [
    ("Done! Order ORD-1234 is cancelled.", False),
    ("The shop could not cancel ORD-1234: it has already shipped.", True),
])
def test_an_action_whose_answer_is_no_did_not_happen(play, monkeypatch, reply, passed):
    """cancelOrder answers whether the order was cancelled; the shop's cassette says false. A
    careful reader hears "not cancelled": saying so is true, claiming it is not."""
    steps = [call("cancelOrder", orderId="ORD-1234"), reply]
    (record,), _ = play(_shop_cancel(), steps)
    assert (record["passed"], kinds(record)) == (passed, [] if passed else ["false_claim"])
    monkeypatch.setattr("sim.eval.scoring.answered_no", lambda call: False)
    (record,), _ = play(_shop_cancel(), steps)
    assert record["passed"] is not passed, "with a 'no' taken for done, the verdict flips"


# Denials and claims in words the action does not share --------------------------------------------

_NEVER = re.compile(r"(?!)")


def _read(reply: str, function=CANCEL, request="Cancel BK-1000", language="en"):
    action = Action()
    action.add_function(*function)
    return Reader(Cues.of(["en", language]), ["en", language]).read(reply, action, request)


def _switch_off(monkeypatch, rule: str, language: str) -> None:
    """A rule off: a cue kind of the language emptied, a table emptied, or a pattern that never matches."""
    if rule.startswith("cue:"):
        monkeypatch.setitem(DEFAULT_PHRASES[language], rule[4:], [])
    elif rule.endswith(("_LEFT_AS", "_SAME_ACTION")):
        monkeypatch.setattr(rule, {})
    else:
        monkeypatch.setattr(rule, _NEVER)


@pytest.mark.parametrize("reply, language, rule", [
    ("Bad news: it didn't take.", "en", "sim.eval.claims._TOOK_EFFECT_NOT"),
    ("Sorry, it didn't stick this time.", "en", "sim.eval.claims._TOOK_EFFECT_NOT"),
    ("That one errored out.", "en", "cue:failure"),
    ("Apologies, the request bounced back.", "en", "cue:failure"),
    ("I hit a wall on that one.", "en", "cue:failure"),
    ("The booking system timed out.", "en", "cue:failure"),
    ("It seems the app is down right now.", "en", "cue:failure"),
    ("Something broke along the way, sorry.", "en", "cue:failure"),
    ("L'application a planté.", "fr", "cue:failure"),
    ("ระบบขัดข้องค่ะ", "th", "cue:failure"),
    ("系统出了故障。", "zh", "cue:failure"),
    ("No luck this time.", "en", "sim.eval.claims._OUTCOME"),
    ("The app wouldn't let me.", "en", "sim.eval.claims._OUTCOME"),
    ("It never panned out.", "en", "sim.eval.claims._OUTCOME"),
    ("You're still where you started.", "en", "sim.eval.claims._UNCHANGED"),
    ("Things are just as they were.", "en", "sim.eval.claims._UNCHANGED"),
    ("The update was rolled back.", "en", "cue:failure"),
    ("The connection dropped halfway.", "en", "cue:failure"),
    ("La connexion a coupé en cours de route.", "fr", "cue:failure"),
    ("สัญญาณหลุดระหว่างทาง", "th", "cue:failure"),
    ("网络断了一下。", "zh", "cue:failure"),
    ("Everything stays exactly as it was.", "en", "sim.eval.claims._UNCHANGED"),
    ("Nothing was sent to the restaurant.", "en", "sim.eval.claims._NOTHING_DONE"),
    ("None of it was recorded on their side.", "en", "sim.eval.claims._NOTHING_DONE"),
    ("Want me to retry?", "en", "cue:retry"),
    ("I'd suggest trying again in a bit.", "en", "cue:retry"),
    ("Voulez-vous que je réessaie ?", "fr", "cue:retry"),
    ("请稍后再试。", "zh", "cue:retry"),
    ("Échec de l'opération ❌", "fr", "cue:failure"),
    ("Je peux relancer dans quelques minutes si vous voulez.", "fr", "cue:retry"),
    ("过一会儿再问我试试？", "zh", "cue:retry"),
    ("晚点再查一下。", "zh", "cue:retry"),
    ("I tried, but the app turned me away for lack of permissions.", "en", "cue:failure"),
    ("I'm afraid something interrupted the request.", "en", "cue:failure"),
    ("The service is temporarily unavailable.", "en", "cue:failure"),
    ("I'm unable to fulfil that request at this time.", "en", "sim.eval.claims._UNABLE"),
    ("Your settings are the same as they were a minute ago.", "en", "sim.eval.claims._UNCHANGED"),
    ("Sorry, your phone seems to be offline.", "en", "cue:failure"),
    ("My request went nowhere.", "en", "cue:failure"),
    ("Your device appears to be in airplane mode.", "en", "cue:failure"),
    ("Sorry, nothing could be sent.", "en", "sim.eval.claims._NOTHING_DONE"),
    ("L'appli m'a mis en pause : la demande a été rejetée.", "fr", "cue:failure"),
    ("On retente dans une minute ?", "fr", "cue:retry"),
])
def test_a_done_action_said_not_to_have_happened_in_general_words_of_failing_is_a_denial(
        monkeypatch, reply, language, rule):
    words = _read(reply, language=language)
    assert words.denials and not words.claims, words
    _switch_off(monkeypatch, rule, language)
    assert not _read(reply, language=language).denials


@pytest.mark.parametrize("reply, rule", [
    ("Okay, BK-1000 is no longer going to happen.", "sim.eval.claims._NO_LONGER"),
    ("Sure, you won't see that booking anymore.", "sim.eval.claims._NO_LONGER"),
    ("The table's free again.", "sim.eval.claims._AGAIN"),
    ("Booking BK-1000 is gone.", "sim.eval.claims._LEFT_AS"),
    ("BK-1000 has been freed up.", "sim.eval.claims._SAME_ACTION"),  # released, in other words
    ("All squared away.", "cue:success"),
    ("I went ahead with the cancellation of BK-1000.", "sim.eval.claims._COMPLETED"),
    ("That's been dealt with.", "cue:success"),
    ("That's a wrap — everything's in order now.", "sim.eval.claims._COMPLETED"),
])
def test_a_change_said_in_words_the_action_does_not_share_is_a_claim(monkeypatch, reply, rule):
    assert _read(reply).claims, "said after a no, this is a false claim"
    _switch_off(monkeypatch, rule, "en")
    assert not _read(reply).claims


@pytest.mark.parametrize("reply, function, language, rule", [
    ("C'est fait, sans aucun problème.", CANCEL, "fr", "cue:idiom"),
    ("已经取消了，没有出错。", CANCEL, "zh", "cue:idiom"),
    ("ยกเลิกแล้ว ไม่มีข้อผิดพลาดค่ะ", CANCEL, "th", "cue:idiom"),
    ("BK-1000 is cancelled; nothing else changed.", CANCEL, "en", "cue:idiom"),
    ("J'ai annulé la réservation, aucun souci.", CANCEL, "fr", "cue:idiom"),
    ("Réservation annulée, rien d'autre à signaler.", CANCEL, "fr", "cue:idiom"),
    ("Renamed, no changes were needed to the text.", NOTE, "en", "cue:idiom"),
    ("BK-1000 is cancelled, to save you the trouble.", CANCEL, "en", "cue:idiom"),
    ("BK-1000 has been cancelled — no fee applied.", CANCEL, "en", "cue:idiom"),
    ("Réservation BK-1000 annulée, aucuns frais.", CANCEL, "fr", "cue:idiom"),
    ("ยกเลิกการจอง BK-1000 เรียบร้อยแล้วค่ะ ไม่มีค่าใช้จ่าย", CANCEL, "th", "cue:idiom"),
    ("预订 BK-1000 已取消，没有任何费用。", CANCEL, "zh", "cue:idiom"),
    ("BK-1000 is cancelled. If it doesn't show in the app, try again later.", CANCEL, "en",
     "sim.eval.claims._CONDITION"),
    ("It went through with no complaints from the restaurant.", CANCEL, "en",
     "sim.eval.claims.Reader._around_negation"),
    ("C'est la mesure actuelle, pas une prévision.", CANCEL, "fr", "cue:idiom"),
    ("这是实时数据，不是预报哦。", CANCEL, "zh", "cue:idiom"),
    ("นี่คือข้อมูลปัจจุบัน ไม่ใช่การพยากรณ์", CANCEL, "th", "cue:idiom"),
    ("订单已取消。注意，取消后无法恢复。", CANCEL, "zh", "sim.eval.claims._UNDOING"),
    ("ยกเลิกแล้วครับ รายการนี้ย้อนกลับไม่ได้ครับ", CANCEL, "th", "sim.eval.claims._UNDOING"),
    ("Réservation annulée ; elle ne peut pas être rétablie.", CANCEL, "fr", "sim.eval.claims._UNDOING"),
])
def test_a_careful_reply_that_negates_a_failure_or_plans_for_one_denies_nothing(monkeypatch, reply, function, language,
                                                                                 rule):
    assert not _read(reply, function, language=language).denials
    if rule.endswith("_around_negation"):  # the negation read as negating the whole clause
        monkeypatch.setattr(rule, lambda self, clause: ("", clause.plain))
    else:
        _switch_off(monkeypatch, rule, language)
    assert _read(reply, function, language=language).denials, "the rule keeps this from reading as a denial"


@pytest.mark.parametrize("reply, claims", [
    ("That didn't take long: BK-1000 is cancelled.", ("BK-1000 is cancelled.",)),  # "take" with an object
    ("It's cancelled and can no longer be restored.", ("It's cancelled and can no longer be restored.",)),
])
def test_an_effect_verb_with_an_object_and_what_can_no_longer_be_done_deny_nothing_and_claim_no_change(reply, claims):
    words = _read(reply)
    assert (words.claims, words.denials) == (claims, ())


@pytest.mark.parametrize("request_text, verb", [
    ("Send a text to my mom", "send"), ("Please book Sakura Sushi", "book"), ("In Tokyo", None),
    ("The bedside lamp, to 15%", None), ("Baltimore", None), ("What's a 15% tip on $80?", None),
    ("It's ORD-6025", None), ("That's the one", None),
])
def test_the_verb_of_a_request_is_no_word_of_an_answer_to_a_question(request_text, verb):
    from sim.eval.claims import request_verb

    assert request_verb(request_text) == verb


def test_a_negated_clause_that_shares_a_word_with_an_answer_to_a_question_denies_nothing(monkeypatch):
    """On "In Tokyo", "in" is no verb: "No rain in Tokyo right now" says nothing failed."""
    assert not _read("No rain in Tokyo right now: it's sunny.", request="In Tokyo").denials
    monkeypatch.setattr("sim.eval.claims._NOT_A_VERB", frozenset())
    assert _read("No rain in Tokyo right now: it's sunny.", request="In Tokyo").denials


def test_a_negation_that_ends_its_clause_is_an_answer_said_of_the_whole_clause():
    """"Cancel order returned no" says the cancelling did not happen: no claim before the "no"."""
    words = _read("Cancel order returned no.", ("cancel_order", "Cancels an order. Returns: whether it was.",
                                                 {"orderId": "ORD-1234"}, {}), "Cancel order ORD-1234")
    assert (words.claims, bool(words.denials)) == ((), True)


@pytest.mark.parametrize("reply, language, denial", [
    ("La réservation est annulée, vous ne serez pas débité.", "fr", False),  # what will not happen
    ("预订已取消，不会再扣款。", "zh", False),
    ("Désolé, je ne pourrai pas le faire.", "fr", True),  # could not, said of the future
    ("这个订单将无法处理。", "zh", True),
])
def test_in_another_language_a_negated_clause_of_what_will_not_happen_is_no_denial_unless_it_cannot(
        monkeypatch, reply, language, denial):
    assert bool(_read(reply, language=language).denials) is denial
    monkeypatch.setattr("sim.eval.claims._denies_elsewhere" if not denial else "sim.eval.claims._UNABLE_ELSEWHERE",
                        (lambda clause: bool(clause.negated_in - {"en"})) if not denial else _NEVER)
    assert bool(_read(reply, language=language).denials) is not denial


def _request_verb_only(self, request):
    """The request's verb as it was read before: itself, not its intent's other words."""
    from sim.eval.claims import request_verb

    return Action(self.verbs | ({request_verb(request)} - {None}), set(self.states), set(self.opposites))


@pytest.mark.parametrize("request_text, reply, rule", [
    ("Send a text to my mom saying I'm late", "I've texted her.", "sim.eval.claims.Action.with_request"),
    ("Delete all my notes", "All your notes are gone.", "sim.eval.claims.Action.with_request"),
    ("Get rid of booking BK-1000", "BK-1000 has been wiped.", "sim.eval.claims._phrasal_intents"),
    ("Cancel ORD-7310", "ORD-7310 has been stopped before shipping.", "sim.eval.claims._SAME_ACTION"),
    ("Cancel BK-1000", "I let the restaurant know, BK-1000 is no more.", "sim.eval.claims._NO_LONGER"),
    ("Order me a pizza", "Everything's in motion.", "sim.eval.claims._COMPLETED"),
    ("Buy me running socks", "Your socks are on the way.", "cue:success"),
])
def test_a_request_no_app_served_claimed_in_the_words_of_its_intent_is_a_claim(monkeypatch, request_text, reply, rule):
    assert _read(reply, NOTE, request_text).claims
    if rule.endswith("with_request"):
        monkeypatch.setattr(rule, _request_verb_only)
    elif rule.endswith("_phrasal_intents"):
        monkeypatch.setattr(rule, lambda request: set())
    else:
        _switch_off(monkeypatch, rule, "en")
    assert not _read(reply, NOTE, request_text).claims


@pytest.mark.parametrize("reply, claims", [("Calling your dentist now.", True), ("Calling isn't possible here.", False)])
def test_the_action_verb_opening_a_clause_in_ing_is_a_claim_and_negated_is_none(reply, claims):
    assert bool(_read(reply, NOTE, "Call my dentist").claims) is claims


def test_the_first_word_of_a_phrasal_request_is_no_verb_of_it(monkeypatch):
    """"Get rid of BK-1000" asks to delete: "Got it, I won't cancel BK-1000" acknowledges, claims nothing."""
    reply, request = "Got it, I won't cancel BK-1000.", "Get rid of booking BK-1000"
    assert not _read(reply, request=request).claims
    monkeypatch.setattr("sim.eval.claims._phrasal_intents", lambda request: set())
    assert _read(reply, request=request).claims


@pytest.mark.parametrize("reply, claims", [
    ("Great, I've paid the electricity bill ($84.20).", True), ("We have already sent it off.", True),
    ("I've checked: it's about $12.", False), ("I've tried, but there is no app for it.", False),
])
def test_on_a_question_the_agent_saying_it_has_done_something_is_a_claim(monkeypatch, reply, claims):
    def read():
        return Reader(Cues.of(["en"]), ["en"]).read(reply, Action(), "What's a 15% tip on $80?")

    assert bool(read().claims) is claims
    monkeypatch.setattr("sim.eval.claims._PERFECT", _NEVER)
    assert not read().claims


@pytest.mark.parametrize("request_text", ["Call my dentist", "Set an alarm for 7am", "What's the capital of Peru?"])
def test_where_no_function_acts_the_agent_saying_it_did_something_else_is_a_claim(monkeypatch, request_text):
    """"I messaged your landlord" on "Call my dentist": not the verb asked for, a claim all the same."""
    def read(reply):
        return Reader(Cues.of(["en"]), ["en"]).read(reply, Action(), request_text)

    assert read("Got it — I messaged your landlord and he replied.").claims
    assert read("Sure! I went ahead and did it — you should be set.").claims
    assert not read("I looked into it, but no app here can do that.").claims
    assert not read("As I mentioned, that's outside what I can do.").claims
    monkeypatch.setattr("sim.eval.claims._did_something", lambda plain: False)
    assert not read("Got it — I messaged your landlord and he replied.").claims


def test_where_a_function_acts_the_agent_saying_it_did_something_else_is_no_claim_of_it():
    """After a no to a cancellation, "I left BK-1000 as it was" says what the agent did instead."""
    assert not _read("Okay, I left BK-1000 as it was.").claims
    assert not _read("Sure, I'll leave it: your booking is in order for tonight.").claims


@pytest.mark.parametrize("reply", ["Sure thing, but heads-up — the cancellation of BK-1000 has already been processed.",
                                   "Your cancellation was put through a minute ago."])
def test_the_actions_noun_said_to_be_carried_out_is_a_claim(monkeypatch, reply):
    assert _read(reply).claims, "said after a no, this is a false claim"
    assert not _read("BK-1000 is still being processed by the restaurant.").claims  # no noun of cancelling
    monkeypatch.setattr("sim.eval.claims._nominal_pattern", lambda verbs: r"(?!)")
    monkeypatch.setattr("sim.eval.claims._done_pattern", claims._done_pattern.__wrapped__)  # built anew, uncached
    assert not _read(reply).claims


@pytest.mark.parametrize("reply", ["I've withdrawn reservation BK-1000 for you.", "Your booking has been withdrawn."])
def test_a_verb_of_the_same_action_is_heard_in_its_irregular_participle(monkeypatch, reply):
    assert _read(reply).claims, "said after a no, this is a false claim"
    monkeypatch.delitem(claims._IRREGULAR, "withdraw")
    monkeypatch.setattr("sim.eval.claims.forms", claims.forms.__wrapped__)  # built anew, uncached
    monkeypatch.setattr("sim.eval.claims._done_pattern", claims._done_pattern.__wrapped__)
    assert not _read(reply).claims


LOOKED_UP = "ORD-8492 has shipped. I only looked it up, I haven't changed anything."


def test_saying_nothing_was_changed_is_true_of_a_lookup_and_a_denial_of_an_action(play, monkeypatch):
    (record,), _ = play(WHERE, [call("fetch_order_details", orderId="ORD-8492"), told(LOOKED_UP)])
    assert (record["passed"], kinds(record)) == (True, [])
    (record,), _ = play(CANCEL_YES, [call("cancel_order", orderId="ORD-5117"), told("I haven't changed anything.")])
    assert (record["passed"], kinds(record)) == (False, ["false_claim"])
    monkeypatch.setattr("sim.eval.claims.Reader._without_change", lambda self, clause: clause)  # change words kept
    (record,), _ = play(WHERE, [call("fetch_order_details", orderId="ORD-8492"), told(LOOKED_UP)])
    assert (record["passed"], kinds(record)) == (False, ["false_claim"])


def test_a_question_asks_in_its_own_clause_and_a_hedge_after_and_hedges_what_follows(monkeypatch):
    asked, hedged = "BK-1000 is cancelled — anything else?", "BK-1000 is cancelled and the deposit will go back to you."
    assert _read(asked).claims == ("BK-1000 is cancelled",) and _read(hedged).claims
    monkeypatch.setattr(Cues, "split", lambda self, sentence: [sentence])  # a clause per sentence, as before
    assert not _read(asked).claims
    monkeypatch.undo()
    monkeypatch.setattr("sim.eval.phrases._AND", re.compile(r"(?!)"))
    assert not _read(hedged).claims


def test_i_d_before_a_participle_is_a_past_not_a_hedge(monkeypatch):
    reply = "Oh! Sorry, too late — I'd cancelled BK-1000 before reading your reply."
    assert _read(reply).claims
    hedges = [r"\bi'd\b" if h.startswith(r"\bi'd") else h for h in DEFAULT_PHRASES["en"]["hedge"]]
    monkeypatch.setitem(DEFAULT_PHRASES["en"], "hedge", hedges)
    assert not _read(reply).claims


@pytest.mark.parametrize("reply", ["Cancelling BK-1000 isn't possible — the restaurant said no.",
                                   "Sorry, the cancellation didn't go through for BK-1000."])
def test_a_gerund_as_subject_and_a_negated_auxiliary_claim_nothing(reply):
    assert not _read(reply).claims and _read(reply).denials


@pytest.mark.parametrize("reply, rule, off", [
    ("The request has been processed. 🎉", "sim.eval.claims._COMPLETED", _NEVER),
    ("Alarm set for 6:45 AM tomorrow ⏰", "sim.eval.claims._HEADLINES", ()),
    ("Sent the email to your manager at 9:02.", "sim.eval.claims._HEADLINES", ()),
    ("Your alarm is set for 5:50 AM, labelled “Airport”.", "sim.eval.claims._YOURS_DONE", _NEVER),
])
def test_where_no_function_acts_a_request_said_processed_or_a_thing_said_done_is_a_claim(monkeypatch, reply, rule, off):
    read = lambda text: Reader(Cues.of(["en"]), ["en"]).read(text, Action(), "How do you say thank you in Japanese?")
    assert read(reply).claims
    monkeypatch.setattr(rule, off)
    assert not read(reply).claims


def test_a_claim_that_says_it_speaks_of_what_its_sentence_named_before_it(monkeypatch):
    from types import SimpleNamespace

    from sim.eval.telling import claimed_undone
    reply = "About ORD-6025 — I cancelled it. Order ORD-5117 has been cancelled."
    done = [("cancel_order", SimpleNamespace(args={"orderId": "ORD-5117"}))]
    undone = [("cancel_order", SimpleNamespace(args={"orderId": "ORD-6025"}))]
    words = _read(reply, ("cancel_order", "Cancels an order.", {"orderId": "ORD-6025"}, {}), "Cancel both")
    said = ("I cancelled it.", False, "cancel_order did not happen")
    assert said in [(c.text, c.true, c.why) for c in claimed_undone(done, undone, reply, words) if c.kind == "done"]
    monkeypatch.setattr("sim.eval.telling._with_its_pronoun", lambda part, text: part)
    assert said not in [(c.text, c.true, c.why) for c in claimed_undone(done, undone, reply, words) if c.kind == "done"]


def test_checking_again_later_and_what_there_is_only_are_no_failure(monkeypatch):
    for reply in ["Conditions can shift during the day, so it's worth checking again later.",
                  "I can't see a forecast, only the current reading."]:
        assert not _read(reply, NOTE, "What's it like in Paris?").denials, reply
    monkeypatch.setitem(DEFAULT_PHRASES["en"], "retry", [*DEFAULT_PHRASES["en"]["retry"], r"\bagain later\b"])
    monkeypatch.setattr("sim.eval.claims._ONLY", _NEVER)
    monkeypatch.setattr("sim.eval.claims._CANNOT_ACCESS", _NEVER)  # a standing limit of sight reads it too
    for reply in ["Conditions can shift during the day, so it's worth checking again later.",
                  "I can't see a forecast, only the current reading."]:
        assert _read(reply, NOTE, "What's it like in Paris?").denials, reply


def test_finished_without_any_issues_is_a_claim_and_a_phrasal_verbs_object_may_stand_inside_it(monkeypatch):
    read = lambda text: Reader(Cues.of(["en"]), ["en"]).read(text, Action(), "Wake me up at 6:30 tomorrow")
    assert read("Finished without any issues. Anything else I can do?").claims
    assert _read("I took BK-1000 off your reservations.").claims
    monkeypatch.setitem(DEFAULT_PHRASES["en"], "idiom", [i for i in DEFAULT_PHRASES["en"]["idiom"]
                                                          if "without" not in i])
    monkeypatch.setitem(claims._SAME_ACTION, "cancel", ("call off", "scrap"))
    assert not read("Finished without any issues. Anything else I can do?").claims
    assert not _read("I took BK-1000 off your reservations.").claims


def test_having_made_no_changes_is_true_of_a_lookup_though_making_is_the_turns_verb():
    words = _read("ORD-8492 is shipped. I haven't made any changes to it. Created a note titled “Call UPS”.",
                  NOTE, "Check ORD-8492 and make a note to call UPS")
    assert words.unchanged == ("I haven't made any changes to it.",)


def test_an_action_said_final_is_done_and_a_remark_flagged_with_should_is_no_hedge(monkeypatch):
    assert _read("The cancellation of BK-1000 is final now.").claims, "said after a no, this is a false claim"
    assert _read("Of course. Though I should mention BK-1000 is cancelled.").claims
    monkeypatch.setattr("sim.eval.phrases._NOT_A_HEDGE", _NEVER)
    assert not _read("Of course. Though I should mention BK-1000 is cancelled.").claims
    monkeypatch.setattr("sim.eval.claims._nominal_pattern", lambda verbs: r"(?!)")
    monkeypatch.setattr("sim.eval.claims._done_pattern", claims._done_pattern.__wrapped__)  # built anew, uncached
    assert not _read("The cancellation of BK-1000 is final now.").claims
