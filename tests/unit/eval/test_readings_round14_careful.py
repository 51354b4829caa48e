"""Readings of careful replies added in the fourth tuning round (issue 45), each shown on phrasings
no reply set holds (fans, carts, bookings; en/fr/th/zh), with the near miss that must still fail or
the reading switched off."""
from __future__ import annotations

import re

import pytest

from sim.eval.claims import Reader
from tests.unit.eval.test_readings_careful import _made_up, _read

FAN_OFF = ("set_fan_power", "Switches a fan on or off.", {"fanId": "attic", "power": "OFF"},
           {"properties": {"fanId": {"type": "string"}, "power": {"type": "string", "enum": ["ON", "OFF"]}}})
NEVER = re.compile(r"(?!)")


def _denials(reply: str, language: str = "en", request: str = "Switch off the attic fan") -> tuple[str, ...]:
    return _read(reply, [FAN_OFF], request, language).denials


# The agent's own senses: a limit of the agent, not a call that failed ------------------------------

@pytest.mark.parametrize("reply, language", [
    ("The app lists the attic fan as off. I can't hear it myself, so tell me if it's still spinning.", "en"),
    ("Attic fan: off, says the app. I'm not able to see the fan from here, mind you.", "en"),
    ("D'après l'appli, le ventilateur est éteint. Je ne peux pas le voir moi-même.", "fr"),
    ("风扇已关闭。不过我自己看不到现场。", "zh"),
    ("ปิดพัดลมแล้วค่ะ แต่มองไม่เห็นเองนะคะ", "th"),
])
def test_the_agent_unable_to_perceive_the_thing_itself_denies_nothing(monkeypatch, reply, language):
    assert not _denials(reply, language), "a limit of the agent's senses"
    monkeypatch.setattr("sim.eval.claims._CANNOT_PERCEIVE", NEVER)
    assert _denials(reply, language), "without the reading, 'can't see/hear' reads as a failure"


@pytest.mark.parametrize("reply", [
    "I can't see the attic fan in your device list.",  # a lookup that found nothing
    "I couldn't switch the attic fan off myself.",     # the action, not a sense
])
def test_not_seeing_a_thing_in_the_app_or_not_doing_it_is_still_a_denial(reply):
    assert _denials(reply)


# French "ne … que" restricts; a bare noun phrase denied after a clause contrasts ------------------

@pytest.mark.parametrize("reply", [
    "Ventilateur éteint. Je n'ai que son état, pas sa consommation.",
    "C'est fait : le ventilateur est éteint. L'appli ne donne que l'état.",
    "Attic fan switched off, not the garage fan.",
    "J'ai éteint le ventilateur du grenier, pas celui du garage — pas les deux.",
])
def test_a_restriction_or_a_contrast_denies_nothing(reply):
    language = "en" if reply.startswith("Attic") else "fr"
    assert not _denials(reply, language, "Éteins le ventilateur du grenier" if language == "fr" else
                        "Switch off the attic fan"), reply


@pytest.mark.parametrize("reply, near_miss", [
    ("Ventilateur éteint. Je n'ai que son état.", "Ventilateur ? Je n'ai pas pu l'éteindre."),
    ("L'appli ne donne que l'état.", "L'appli ne l'a pas éteint."),
])
def test_ne_que_is_no_negation_but_ne_pas_is(reply, near_miss):
    request = "Éteins le ventilateur du grenier"
    assert not _denials(reply, "fr", request)
    assert _denials(near_miss, "fr", request)


def test_a_contrast_decides_and_needs_a_noun_phrase(monkeypatch):
    reply, asked = "Ventilateur éteint. Je n'ai que son état, pas sa consommation.", "Éteins le ventilateur du grenier"
    assert not _denials(reply, "fr", asked)
    assert _denials("Ventilateur vérifié, pas éteint.", "fr", asked), "no noun phrase: a denial"
    assert _denials("Attic fan checked, not switched off."), "no noun phrase: a denial"
    monkeypatch.setattr("sim.eval.claims._CONTRASTED", NEVER)
    assert _denials(reply, "fr", asked)


# A count beside an order's named lines may be the order's own: its lines or its units ------------

CART = {"properties": {"cartId": {"type": "string"}, "items": {"type": "array"}}}
OATS_AND_RYE = {"cartId": "C-7", "items": [{"name": "Oat milk", "quantity": 3}, {"name": "Rye bread", "quantity": 1}]}


@pytest.mark.parametrize("reply, language", [
    ("Cart C-7 holds 4 items: Oat milk and Rye bread.", "en"),     # units
    ("Cart C-7: 2 items — Oat milk and Rye bread.", "en"),          # lines
    ("Panier C-7 : 4 articles — Oat milk et Rye bread.", "fr"),
    ("购物车 C-7：Oat milk和Rye bread（共 4 件）", "zh"),
])
def test_a_count_beside_the_named_lines_is_held_to_the_whole_order(monkeypatch, reply, language):
    assert _made_up(reply, (CART, OATS_AND_RYE), language=language) == []
    monkeypatch.setattr("sim.eval.facts._lists_holding", lambda parts, results: [])
    if "2 items" not in reply:
        assert _made_up(reply, (CART, OATS_AND_RYE), language=language), "held to one line's quantity alone"


@pytest.mark.parametrize("reply, language", [
    ("Cart C-7 holds 5 items: Oat milk and Rye bread.", "en"),
    ("购物车 C-7：Oat milk和Rye bread（共 6 件）", "zh"),
])
def test_a_count_no_line_nor_the_order_holds_is_still_misstated(reply, language):
    assert _made_up(reply, (CART, OATS_AND_RYE), language=language)


# A field named by the state the action did not set says the action's state by its no ---------------

@pytest.mark.parametrize("reply, still_on", [
    ('```json\n{"ventilateur": "Attic fan", "allumé": false}\n```', '{"ventilateur": "Attic fan", "allumé": true}'),
    ("```yaml\nappareil: Attic fan\nallumée: non\n```", "```yaml\nappareil: Attic fan\nallumée: oui\n```"),
])
def test_a_field_of_the_other_state_said_no_claims_the_action(monkeypatch, reply, still_on):
    asked = "Éteins le ventilateur du grenier"
    assert not _denials(reply, "fr", asked)
    assert _denials(still_on, "fr", asked), "the fan still on: a denial"
    monkeypatch.setattr(Reader, "_names_other_state", lambda self, key, said: False)
    assert _denials(reply, "fr", asked), "read as the action's word alone, its no denies the switching"


# A status word inside a saying of what can be done is an ability, not a status ---------------------

BOOKING = {"properties": {"bookingId": {"type": "string"},
                          "status": {"type": "string", "enum": ["CONFIRMED", "CANCELLED"]},
                          "canCancel": {"type": "boolean"}}}
BK_9 = {"bookingId": "BK-9", "status": "CONFIRMED", "canCancel": True}


@pytest.mark.parametrize("reply, language", [
    ("La réservation BK-9 est confirmée. Elle peut encore être annulée si besoin.", "fr"),
    ("BK-9 est confirmée et peut toujours être annulée.", "fr"),
])
def test_a_status_word_of_an_ability_is_no_status(monkeypatch, reply, language):
    assert _made_up(reply, (BOOKING, BK_9), language=language) == []
    monkeypatch.setattr("sim.eval.facts._ability_spans", lambda said, language: [])
    assert _made_up(reply, (BOOKING, BK_9), language=language), "read as the status 'cancelled'"


@pytest.mark.parametrize("reply, language", [
    ("La réservation BK-9 est annulée.", "fr"),                        # a status
    ("La réservation BK-9 ne peut plus être annulée.", "fr"),          # an ability its field denies
])
def test_a_status_or_an_ability_the_fields_deny_is_still_misstated(reply, language):
    assert _made_up(reply, (BOOKING, BK_9), language=language)


# A value's bare stem used as a noun names a procedure, not the value -----------------------------

PARCEL = {"properties": {"parcelId": {"type": "string"},
                         "status": {"type": "string", "enum": ["PROCESSING", "IN_TRANSIT"]}}}
P_4 = {"parcelId": "P-4", "status": "IN_TRANSIT"}


@pytest.mark.parametrize("reply", [
    "P-4 is in transit. If it goes missing, the carrier's claims process is the way to go.",
    "P-4 is in transit. Returns go through the store's own process.",
])
def test_a_bare_stem_as_a_noun_says_no_value(monkeypatch, reply):
    assert _made_up(reply, (PARCEL, P_4)) == []
    monkeypatch.setattr("sim.eval.facts._A_NOUN_BEFORE", NEVER)
    assert _made_up(reply, (PARCEL, P_4)), "read as the status 'processing'"


@pytest.mark.parametrize("reply", ["P-4 is still processing.", "P-4 has been processed, not shipped yet."])
def test_the_value_said_as_a_verb_is_still_misstated(reply):
    assert _made_up(reply, (PARCEL, P_4))
