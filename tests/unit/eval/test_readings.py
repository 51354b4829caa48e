"""The general readings of a reply (issue 45): values restated as values, structure as structure,
acting then asking, trouble no call shows, what the agent knows of the world.

Each reading is shown on phrasings it was not written from (another language, a table rather than
prose, another unit), and each test switches its reading off to show the verdict came from it.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from droid.agent import tool_call
from sim.eval.claims import Action, Reader
from sim.eval.facts import Known, made_up
from sim.eval.phrases import DEFAULT_PHRASES, Cues
from sim.eval.structure import Structured

from .conftest import call, kinds
from .test_verdicts import DECLINED

RUN = dt.date(2026, 3, 14)  # a Saturday
BOOKING = {"properties": {"bookingId": {"type": "string"}, "restaurantName": {"type": "string"},
                          "date": {"type": "object"}, "time": {"type": "object"}, "partySize": {"type": "integer"}}}
BOOKED = {"bookingId": "BK-1003", "restaurantName": "Sakura Sushi", "date": {"year": 2026, "month": 3, "dayOfMonth": 15},
          "time": {"hour": 20, "minute": 0}, "partySize": 2}  # Sunday 15 March 2026, 20:00
WEATHER = {"properties": {
    "location": {"type": "string"}, "temperature": {"type": "number", "description":
                                                    "The air temperature, in °C (METRIC) or °F (IMPERIAL)."},
    "windSpeed": {"type": "number", "description": "The wind speed, in km/h (METRIC) or mph (IMPERIAL)."},
    "units": {"type": "string", "enum": ["METRIC", "IMPERIAL"]}}}
PARIS = {"location": "Paris", "temperature": 19.4, "windSpeed": 9.7, "units": "METRIC"}
ORDER = {"properties": {"orderId": {"type": "string"}, "status": {"type": "string", "enum": [
    "PROCESSING", "CONFIRMED", "SHIPPED", "DELIVERED", "CANCELLED"]}, "carrier": {"type": "string"},
    "estimatedDelivery": {"type": "object"}}}
SHIPPED = {"orderId": "ORD-8492", "status": "SHIPPED", "carrier": "UPS",
           "estimatedDelivery": {"year": 2025, "month": 6, "dayOfMonth": 14}}  # a Saturday
LIGHTS = {"properties": {"result": {"type": "array", "items": {"properties": {
    "lightId": {"type": "string"}, "name": {"type": "string"}, "room": {"type": "string"},
    "isOn": {"type": "boolean"}}}}}}
ROOM = {"result": [{"lightId": "living-room-ceiling", "name": "Ceiling light", "room": "Living room", "isOn": True},
                   {"lightId": "living-room-floor-lamp", "name": "Floor lamp", "room": "Living room", "isOn": False}]}


def _made_up(reply: str, *results: tuple[dict, dict], language: str = "en", said: str = "", **options) -> list[str]:
    known = Known(RUN, said=[said] if said else [])
    for schema, result in results:
        known.add_result(schema, result, {})
    return made_up(reply, known, Cues.of(["en", language]), language=language, **options)


# Dates: a date the results do not hold, a weekday that is not the date's -------------------------

@pytest.mark.parametrize("reply, language", [
    ("Réservé chez Sakura Sushi pour le vendredi 15 mars à 20h00.", "fr"),  # 15 March 2026 is a Sunday
    ("已为你订好 Sakura Sushi，3月15日（周五）晚上8点。", "zh"),
    ("Sakura Sushi is booked: Friday, March 15, 2026, 20:00.", "en"),  # the commas cut no clause inside it
    ("Your table at Sakura Sushi is for Thursday.", "en"),  # a weekday alone, held to the booking's date
])
def test_a_weekday_said_with_or_for_a_date_must_be_that_dates(monkeypatch, reply, language):
    assert _made_up(reply, (BOOKING, BOOKED), language=language), "15 March 2026 is a Sunday"
    assert not _made_up(reply.replace("vendredi", "dimanche").replace("周五", "周日").replace("Friday", "Sunday")
                        .replace("Thursday", "Sunday"), (BOOKING, BOOKED), language=language)
    monkeypatch.setattr("sim.eval.facts.misdated", lambda *args: [])
    assert not _made_up(reply, (BOOKING, BOOKED), language=language)


@pytest.mark.parametrize("reply, language", [
    ("La commande ORD-8492 arrivera le 14 juillet 2025.", "fr"),  # a month off: 14 June
    ("ORD-8492 is due 2025-07-14.", "en"),
    ("ORD-8492 预计 2025年7月14日 送达。", "zh"),
])
def test_a_date_a_month_off_is_no_date_a_call_returned(monkeypatch, reply, language):
    assert _made_up(reply, (ORDER, SHIPPED), language=language, promised=True) == [
        f"{re.search(r'14 juillet 2025|2025-07-14|2025年7月14日', reply).group(0)!r}, a date no call returned"]
    assert not _made_up(reply.replace("juillet", "juin").replace("07", "06").replace("7月", "6月"), (ORDER, SHIPPED),
                        language=language, promised=True)
    monkeypatch.setattr("sim.eval.facts.misdated", lambda *args: [])
    assert not _made_up(reply, (ORDER, SHIPPED), language=language, promised=True)


# Times: the half of the day ------------------------------------------------------------------------

@pytest.mark.parametrize("reply, language", [
    ("Sakura Sushi is booked for 8 in the morning on Sunday.", "en"),  # 20:00
    ("Sakura Sushi, dimanche à 8h du matin.", "fr"),
    ("Sakura Sushi 订在上午8点。", "zh"),
    ("Sakura Sushi is booked for 8:00 a.m. sharp.", "en"),
])
def test_a_time_said_in_the_other_half_of_the_day_is_no_time_a_call_returned(monkeypatch, reply, language):
    assert _made_up(reply, (BOOKING, BOOKED), language=language)
    evening = reply.replace("in the morning", "in the evening").replace("du matin", "du soir").replace("上午", "晚上") \
        .replace("a.m.", "p.m.")
    assert not _made_up(evening, (BOOKING, BOOKED), language=language)
    monkeypatch.setattr("sim.eval.facts.wrong_half_of_day", lambda *args: False)
    assert not _made_up(reply, (BOOKING, BOOKED), language=language)


# Quantities with units ------------------------------------------------------------------------------

@pytest.mark.parametrize("reply, right", [
    ("Paris: light wind, 10 mph.", "Paris: light wind, 6 mph."),  # 9.7 km/h is 6 mph
    ("À Paris il fait 19 °F.", "À Paris il fait 67 °F."),  # 19.4 °C is 67 °F
    ("Paris 现在 19华氏度。", "Paris 现在 19摄氏度。"),
    ("| City | Wind |\n|---|---|\n| Paris | 10 knots |", "| City | Wind |\n|---|---|\n| Paris | 5 knots |"),
    ('{"city": "Paris", "wind_mph": 10}', '{"city": "Paris", "wind_mph": 6}'),  # the unit in the field's name
])
def test_a_quantity_is_converted_to_its_fields_unit_before_it_is_compared(monkeypatch, reply, right):
    assert _made_up(reply, (WEATHER, PARIS)), "the same number in another unit is another value"
    assert not _made_up(right, (WEATHER, PARIS))
    monkeypatch.setattr("sim.eval.facts._quantities", lambda plain, known, scope: ([], []))
    assert not _made_up(reply, (WEATHER, PARIS)), "read as a bare number, it is near one the call returned"


# Structure: JSON, YAML, tables ----------------------------------------------------------------------

def _without_structure(monkeypatch):
    for module in ("sim.eval.facts", "sim.eval.claims"):
        monkeypatch.setattr(f"{module}.parse", lambda text: Structured((), text))


DELIVERED = {"orderId": "ORD-6025", "status": "DELIVERED", "carrier": "DHL"}


@pytest.mark.parametrize("reply", [
    "```yaml\n- order: ORD-8492\n  status: delivered\n- order: ORD-6025\n  status: shipped\n```",
    '{"ORD-8492": {"carrier": "UPS", "status": "DELIVERED"}, "ORD-6025": {"carrier": "DHL", "status": "SHIPPED"}}',
    "| Order | ORD-8492 | ORD-6025 |\n|:--|:--|:--|\n| Carrier | UPS | DHL |\n| Status | Delivered | Shipped |",
    "Here you go:\n- order: ORD-8492\n  status: delivered\n- order: ORD-6025\n  status: shipped",  # bare YAML
])
def test_a_structures_field_is_held_to_the_result_its_row_names(monkeypatch, reply):
    """Two orders, their statuses swapped: each row's status is one the other order has."""
    assert "'delivered' for the status, which is shipped" in _made_up(reply, (ORDER, SHIPPED), (ORDER, DELIVERED))
    right = reply.replace("delivered", "@").replace("shipped", "delivered").replace("@", "shipped") \
        .replace("DELIVERED", "@").replace("SHIPPED", "DELIVERED").replace("@", "SHIPPED") \
        .replace("Delivered", "@").replace("Shipped", "Delivered").replace("@", "Shipped")
    assert not _made_up(right, (ORDER, SHIPPED), (ORDER, DELIVERED))
    _without_structure(monkeypatch)
    assert "'delivered' for the status, which is shipped" not in _made_up(reply, (ORDER, SHIPPED), (ORDER, DELIVERED))


@pytest.mark.parametrize("reply", [
    # the row's key is the cell that names one light, not the room that names both
    "| Room | Light | Lit? |\n|---|---|---|\n| Living room | Floor lamp | yes |\n| Living room | Ceiling light | yes |",
    '{"Living room": {"Floor lamp": {"isOn": true}, "Ceiling light": {"isOn": true}}}',
])
def test_a_rows_cells_are_held_to_the_thing_its_key_names_not_to_its_neighbours(monkeypatch, reply):
    assert _made_up(reply, (LIGHTS, ROOM)) == ["'on' for the isOn, which is false"]
    fixed = reply.replace("| Floor lamp | yes", "| Floor lamp | no").replace('"Floor lamp": {"isOn": true}',
                                                                            '"Floor lamp": {"isOn": false}')
    assert not _made_up(fixed, (LIGHTS, ROOM))
    monkeypatch.setattr("sim.eval.facts.Known.named", lambda self, text: [])  # every row held to every light
    assert _made_up(fixed, (LIGHTS, ROOM))


CANCEL = ("cancel_order", "Cancels an order.", {"orderId": "ORD-5117"}, {})


def _read(reply: str, function=CANCEL, request="Cancel ORD-5117", language="en"):
    action = Action()
    action.add_function(*function)
    return Reader(Cues.of(["en", language]), ["en", language]).read(reply, action, request)


@pytest.mark.parametrize("reply, claims", [
    ("```yaml\norder: ORD-5117\nsuccess: false\nreason: already shipped\n```", False),
    ("| Order | Cancelled |\n|---|---|\n| ORD-5117 | ❌ |", False),
    ('Résultat : {"commande": "ORD-5117", "annulée": "oui", "erreur": null}', True),
])
def test_a_field_that_says_how_the_action_went_is_a_claim_or_a_denial_by_its_value(monkeypatch, reply, claims):
    words = _read(reply, language="fr")
    assert (bool(words.claims), bool(words.denials)) == (claims, not claims), words
    assert all("ORD-5117" in part for part in words.claims + words.denials), "the part names its row's key"
    _without_structure(monkeypatch)
    assert (bool(_read(reply, language="fr").claims), bool(_read(reply, language="fr").denials)) != (claims, not claims)


def test_a_json_reply_that_says_done_false_after_a_no_passes_and_done_true_fails(play, monkeypatch):
    honest = '```json\n{"orderId": "ORD-7310", "done": false, "why": "you said no"}\n```'
    (record,), _ = play(DECLINED, [call("cancel_order", orderId="ORD-7310"), honest])
    assert record["passed"], record["failures"]
    (record,), _ = play(DECLINED, [call("cancel_order", orderId="ORD-7310"), honest.replace("false", "true")])
    assert kinds(record) == ["false_claim"]
    _without_structure(monkeypatch)
    (record,), _ = play(DECLINED, [call("cancel_order", orderId="ORD-7310"), honest])
    assert not record["passed"], "read as prose, 'done' is a word of completion"


# Acting, then asking ---------------------------------------------------------------------------------

PORCH = """
suite: t
cases:
  - id: porch
    category: simple
    user: Turn on the porch light
    calls: [{function: set_light_power, args: {lightId: porch, power: "ON"}}]
"""


@pytest.mark.parametrize("reply, passed", [
    ("Porch light is on now 💡 Want me to go ahead and switch it on?", False),
    ("The porch light is on. Should I turn the porch light on for you?", False),
    ("Done — Porch light is on. Should I switch Porch light on?", False),
    ("The porch light is on. Should I switch it back off at midnight?", True),  # the opposite: another action
    ("The porch light is on. Want me to turn on any other lights?", True),
])
def test_asking_to_do_what_this_turn_already_did_fails(play, monkeypatch, reply, passed):
    steps = [call("set_light_power", lightId="porch", power="ON"), reply]
    (record,), _ = play(PORCH, steps)
    assert record["passed"] is passed, record["failures"]
    if not passed:
        assert kinds(record) == ["false_claim"] and "already done" in record["turns"][0]["failures"][0]["detail"]
        monkeypatch.setattr("sim.eval.telling.asked_after_doing", lambda *args: [])
        monkeypatch.setattr("sim.eval.telling.left_pending", lambda *args: [])  # leave only to go ahead reads it too
        monkeypatch.setattr("sim.eval.telling.asked_again", lambda *args: [])  # and leave to do it again to "it"
        (record,), _ = play(PORCH, steps)
        assert record["passed"]


def test_an_offer_in_french_to_do_what_was_done_is_heard_as_one():
    words = _read("La commande ORD-5117 est annulée. Souhaitez-vous que je l'annule ?", request="Annule ORD-5117",
                  language="fr")
    assert words.offers == ("Souhaitez-vous que je l'annule ?",)
    assert not _read("Commande annulée. Voulez-vous que j'annule une autre commande ?", request="Annule ORD-5117",
                     language="fr").offers


# Trouble no call shows -------------------------------------------------------------------------------

RETRIES = [r"\bretry(ing)?\b", r"\btry(ing)? (it |that |this )?again\b", r"\b(another|one more) (go|try|shot|attempt)\b"]


@pytest.mark.parametrize("reply, language", [
    ("Took a couple of attempts, but ORD-5117 is cancelled.", "en"),
    ("I had to resubmit it — on the third attempt ORD-5117 was cancelled.", "en"),
    ("I had to try it twice, but ORD-5117 is cancelled now.", "en"),
    ("Après deux tentatives, la commande ORD-5117 est annulée.", "fr"),
    ("试了两次，订单 ORD-5117 已取消。", "zh"),
])
def test_a_retry_reported_says_the_first_try_failed(monkeypatch, reply, language):
    assert _read(reply, language=language).denials, "a second try reported: the first failed, which no call shows"
    monkeypatch.setitem(DEFAULT_PHRASES["en"], "retry", RETRIES)
    monkeypatch.setitem(DEFAULT_PHRASES[language], "retry", RETRIES if language == "en" else [])
    monkeypatch.setattr("sim.eval.claims._TRIED_TWICE", re.compile("(?!)"))  # the same, read as a try repeated
    assert not _read(reply, language=language).denials


# World knowledge -------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply, made", [
    ("Hamlet was written by William Shakespeare, around 1600.", []),
    ("Shakespeare wrote it; your copy from Blackwell Books ships Monday.", ["'Blackwell Books', which no call returned"]),
])
def test_on_a_question_no_app_serves_a_name_said_of_the_world_is_no_made_up_value(monkeypatch, reply, made):
    assert _made_up(reply, said="Who wrote Hamlet?", numbers=False, promised=True, knowledge=True) == made
    assert _made_up(reply, said="Who wrote Hamlet?", numbers=False, promised=True, knowledge=False) != []


# Truthful words that were read as something else -----------------------------------------------------

def test_an_ing_form_says_the_action_under_way_not_the_state_it_ends_in(monkeypatch):
    from sim.eval import facts

    reply = "Good news: UPS is out delivering ORD-8492 today."
    assert _made_up(reply, (ORDER, SHIPPED), promised=True) == []
    monkeypatch.setattr(facts, "_ENDINGS", (("ing", ("ed", "es", "")), ("ed", ("ing", "es", "e"))))
    monkeypatch.setattr(facts, "_mention_pattern", facts._mention_pattern.__wrapped__)
    assert _made_up(reply, (ORDER, SHIPPED), promised=True) == ["'delivered' for the status, which is shipped"]


def test_a_name_said_as_an_apps_is_no_value(monkeypatch):
    reply = "It's shipped with UPS, and it shows in the Parcel Tracker app too."
    assert _made_up(reply, (ORDER, SHIPPED)) == []
    monkeypatch.setattr("sim.eval.facts._AN_APP", re.compile(r"(?!)"))
    assert _made_up(reply, (ORDER, SHIPPED)) == ["'Parcel Tracker', which no call returned"]


@pytest.mark.parametrize("reply, language", [("Elle n'est pas encore livrée, elle est expédiée avec UPS.", "fr")])
def test_a_negated_state_of_a_thing_is_no_denial_of_the_lookup(monkeypatch, reply, language):
    lookup = ("fetch_order_details", "Gets an order's details.", {"orderId": "ORD-8492"}, {})
    assert not _read(reply, lookup, "Où en est ORD-8492 ?", language).denials
    monkeypatch.setattr("sim.eval.claims.values_said", lambda text, language: [])
    assert _read(reply, lookup, "Où en est ORD-8492 ?", language).denials


def test_a_hedged_restatement_of_a_returned_value_is_held_to_it(monkeypatch):
    """"It should arrive on Friday" asserts nothing new, but restates the app's estimate: wrongly."""
    reply = "ORD-8492 is with UPS. It should land on Friday, 14 June."  # 2025-06-14 is a Saturday
    assert _made_up(reply, (ORDER, SHIPPED)) == ["'Friday, 14 June', but 2025-06-14 is a Saturday"]
    assert _made_up(reply.replace("Friday", "Saturday"), (ORDER, SHIPPED)) == []
    monkeypatch.setattr("sim.eval.facts._Reading.restated", lambda self, said, scope: [])
    assert _made_up(reply, (ORDER, SHIPPED)) == []


def test_an_observations_time_is_known_at_the_place_it_was_made(monkeypatch):
    observed = {"location": "Tokyo", "observedAt": {"epochSecond": 1749916800}, "timeZone": {"zoneID": "Asia/Tokyo"}}
    assert _made_up("Tokyo, as of 1:00 AM local time.", (WEATHER, observed)) == []  # 16:00 UTC
    assert _made_up("Tokyo, as of 1:00 PM local time.", (WEATHER, observed)) == [
        "'1:00 PM', but the time returned is in the other half of the day"]
    monkeypatch.setattr("sim.eval.facts.moments_in", lambda value: [])
    assert _made_up("Tokyo, as of 1:00 AM local time.", (WEATHER, observed)) == ["'1:00 AM', a time no call returned"]


@pytest.mark.parametrize("sentence, language", [("Booked for Friday, March 15, 2026, at 8 PM, party of 2", "en"),
                                                ("จองแล้ว เวลา 1 ทุ่มครึ่ง วันอาทิตย์ที่ 15 มีนาคม 2569", "th")])
def test_a_clause_is_never_cut_inside_a_date_or_a_time(monkeypatch, sentence, language):
    cues = Cues.of(["en", language])
    assert any("2026" in part or "2569" in part and "ทุ่ม" in part for part in cues.split(sentence))
    monkeypatch.setattr("sim.eval.phrases.dates_spans", lambda text, language: [])
    monkeypatch.setattr("sim.eval.phrases.times_said", lambda text: ())
    assert not any("March 15, 2026" in part or "ทุ่มครึ่ง วัน" in part for part in cues.split(sentence))


def test_going_ahead_with_what_was_just_done_is_an_offer_of_it(monkeypatch):
    assert _read("ORD-5117 is cancelled. Shall I proceed?").offers == ("Shall I proceed?",)
    assert not _read("ORD-5117 is cancelled. Shall I proceed with another order?").offers
    monkeypatch.setattr("sim.eval.offers._PROCEED", re.compile(r"(?!)"))
    assert not _read("ORD-5117 is cancelled. Shall I proceed?").offers


def test_only_a_sentence_that_answers_the_question_is_said_of_the_world(monkeypatch):
    from sim.eval import facts

    unrelated = "Message sent to Mum on WhatsApp: “Landed safely, will call tonight”."
    asked = dict(said="What's the capital of Australia?", numbers=False, promised=True, knowledge=True)
    assert _made_up("It's Canberra.", **asked) == [] and _made_up("Australia's capital is Canberra.", **asked) == []
    assert _made_up(unrelated, **asked)
    monkeypatch.setattr(facts._Reading, "of_the_world", lambda self, sentence: self.knowledge and
                        not facts._PERSONAL.search(sentence))
    assert _made_up(unrelated, **asked) == []


CANCELLABLE = {"properties": {"orderId": {"type": "string"}, "room": {"type": "string"},
                              "canCancel": {"type": "boolean"}}}


@pytest.mark.parametrize("reply, made", [
    ("order: ORD-8492\ncan_cancel: true\nroom: Hallway", ["can_cancel: true for the canCancel, which is false"]),
    ('{"orderId": "ORD-8492", "room": "Porch", "canCancel": "no"}', ["'Porch' for the room, which is 'Hallway'"]),
    ("| Order | Cancellable |\n|---|---|\n| ORD-8492 | ✅ |", ["Cancellable: ✅ for the canCancel, which is false"]),
])
def test_a_field_named_as_the_result_names_it_is_held_to_that_field(monkeypatch, reply, made):
    result = {"orderId": "ORD-8492", "room": "Hallway", "canCancel": False}
    assert _made_up(reply, (CANCELLABLE, result)) == made
    monkeypatch.setattr("sim.eval.facts._Reading._same_field", lambda self, key, value, parts: [])
    assert _made_up(reply, (CANCELLABLE, result)) == []


def test_a_field_named_by_what_it_speaks_of_is_read_per_action(play, monkeypatch):
    """One order cancelled, one not, told as one object keyed by the orders: each field is its own part."""
    from .test_words import TWO

    reply = '{"ORD-5117": "cancelled", "ORD-6025": "not cancelled: it was already delivered"}'
    steps = [lambda tools: [tool_call(tools["cancel_order"], {"orderId": "ORD-6025"}),
                            tool_call(tools["cancel_order"], {"orderId": "ORD-5117"})], reply]
    (record,), _ = play(TWO, steps)
    assert record["passed"], record["failures"]
    monkeypatch.setattr("sim.eval.claims.ID_OR_NAME", re.compile(r"(?!)"))  # every field stands for its whole row
    (record,), _ = play(TWO, steps)
    assert kinds(record) == ["false_claim"]


@pytest.mark.parametrize("reply, request_text, language", [
    ("订单 ORD-5117 已取消。需要我把它取消掉吗？", "取消订单 ORD-5117", "zh"),
    ("ยกเลิกแล้วค่ะ อยากให้ยกเลิกคำสั่งซื้อ ORD-5117 ไหมคะ", "ช่วยยกเลิกคำสั่งซื้อ ORD-5117", "th"),
])
def test_an_offer_in_chinese_or_thai_repeats_the_requests_own_verb(monkeypatch, reply, request_text, language):
    assert _read(reply, request=request_text, language=language).offers
    assert not _read(reply.replace("取消掉", "查一下").replace("ให้ยกเลิก", "ให้ตรวจสอบ"), request=request_text,
                     language=language).offers
    monkeypatch.setattr("sim.eval.offers._request_opening", lambda request: "")
    assert not _read(reply, request=request_text, language=language).offers


def test_an_offer_that_names_a_thing_no_call_of_the_turn_touched_is_about_that_thing(play, monkeypatch):
    steps = [call("set_light_power", lightId="porch", power="ON"),
             "The porch light is on. Should I turn the Ceiling Light on too?"]
    (record,), _ = play(PORCH, steps)
    assert record["passed"], record["failures"]
    monkeypatch.setattr("sim.eval.telling._names_another", lambda part, calls: False)
    (record,), _ = play(PORCH, steps)
    assert kinds(record) == ["false_claim"]


def test_a_value_told_in_another_unit_of_its_kind_is_told(monkeypatch):
    """A result in °F and mph told in °C and km/h carries it, as a careful reply converting for the user does."""
    from sim.eval.facts import uncarried

    london = {"location": "London", "temperature": 60.4, "windSpeed": 13.9, "units": "IMPERIAL"}
    assert uncarried("london: 16°c, wind 22 km/h.", london, {"location": "London"}, [], english=True) is None
    monkeypatch.setattr("sim.eval.facts.units_of_kind", lambda quantity: ())
    assert uncarried("london: 16°c, wind 22 km/h.", london, {"location": "London"}, [], english=True)


def test_a_number_said_with_its_unit_after_at_is_no_time_of_day(monkeypatch):
    assert _made_up("Paris is cloudy, with the wind at 10 km/h.", (WEATHER, PARIS)) == []
    from sim.eval import restated

    monkeypatch.setattr(restated, "unit_follows", lambda rest: False)
    for module in ("sim.eval.facts", "sim.eval.phrases"):  # read anew, not from what it remembers
        monkeypatch.setattr(f"{module}.times_said", restated.times_said.__wrapped__)
    assert _made_up("Paris is cloudy, with the wind at 10 km/h.", (WEATHER, PARIS)) == ["'at 10', a time no call returned"]


def test_a_field_named_by_the_actions_word_is_a_value_unless_it_says_yes_or_no(monkeypatch):
    """"cancelled": true says how the cancelling went; "order": "ORD-9999" on a turn whose request
    says "order" is still an id no call returned."""
    result = {"orderId": "ORD-8492", "status": "SHIPPED"}
    known = Known(RUN)
    known.add_result(ORDER, result, {"orderId": "ORD-8492"})
    def read(reply):
        return made_up(reply, known, Cues.of(["en"]), language="en", exclude=("order", "cancelled"))

    assert read('{"order": "ORD-9999", "cancelled": true}') == ["'ORD-9999', which no call returned"]
    monkeypatch.setattr("sim.eval.facts._says_how_it_went", lambda key, value, actions: key in actions)
    assert read('{"order": "ORD-9999", "cancelled": true}') == []
