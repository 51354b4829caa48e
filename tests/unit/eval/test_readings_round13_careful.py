"""Readings of careful replies added in the third tuning round (issue 45), each shown on phrasings
no reply set holds, with the near miss that must still fail or the reading switched off."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from sim.eval.phrases import sentences
from sim.eval.structure import parse
from sim.eval.telling import Outcome, read_about_calls
from tests.unit.eval.test_readings_careful import _made_up, _read


def _schema(key: str, enum=None) -> dict:
    spec = {"type": "string", "enum": enum} if enum else {"type": "integer"}
    return {"properties": {"fanId": {"type": "string"}, key: spec}}


FAN_OFF = ("set_fan_power", "Switches a fan on or off.", {"fanId": "attic", "power": "OFF"},
           _schema("power", ["ON", "OFF"]))
FAN_SPEED = ("set_fan_speed", "Sets a fan's speed.", {"fanId": "garage", "speed": 3}, _schema("speed"))
FAN_RESULTS = {"set_fan_power": {"fanId": "attic", "name": "Attic fan", "isOn": False},
               "set_fan_speed": {"fanId": "garage", "name": "Garage fan", "isOn": True, "speed": 3}}


def _two_fans(reply: str) -> list:
    """The false parts of ``reply`` on a turn that switched the attic fan off and set the garage
    fan's speed (which left it running)."""
    words = _read(reply, [FAN_OFF, FAN_SPEED], "Switch off the attic fan and set the garage fan to speed 3")
    done = [(name, SimpleNamespace(name=name, args=args, response=FAN_RESULTS[name]))
            for name, _, args, _ in (FAN_OFF, FAN_SPEED)]
    return read_about_calls(Outcome(done, [], []), reply, words, None).false()


# A state is said of the thing it names, and a denial naming a part is held to the thing it speaks of:
# of a thing whose call set no state, or was not given that part, they deny nothing -----------------

@pytest.mark.parametrize("reply, reading", [
    ("The attic fan is off now. The Garage fan is on at speed 3.", "_of_a_stateless_call"),
    ('```json\n{"fan": "Attic fan", "on": false}\n```\n\nThe Garage fan is running at speed 3 and is on.',
     "_of_a_stateless_call"),
    ("Attic fan switched off ✅ Garage fan is still on, now at speed 3.", "_of_a_stateless_call"),
    ("I switched the Attic fan off. I didn't change its speed. The Garage fan now runs at speed 3.",
     "_of_a_part_its_call_was_not_given"),
    ("The attic fan is off — I haven't touched its speed setting. Garage fan: speed 3.",
     "_of_a_part_its_call_was_not_given"),
    ("Garage fan set to speed 3. Attic fan switched off; I didn't change the speed of the attic fan.",
     "_of_a_part_its_call_was_not_given"),
])
def test_a_state_or_a_part_said_of_a_thing_its_call_did_not_set_denies_nothing(monkeypatch, reply, reading):
    assert _two_fans(reply) == []
    monkeypatch.setattr(f"sim.eval.telling.{reading}", lambda part, text, calls: False)
    assert _two_fans(reply), "without the thing it speaks of, it denies the call that set the state or part"


@pytest.mark.parametrize("reply", [
    "I set the Garage fan to speed 3. The Attic fan is on.",
    "Garage fan at speed 3. The attic fan is still on.",
    "The attic fan is off. The Garage fan is running, but I didn't change its speed.",
    "Attic fan off. I didn't change the speed of the Garage fan.",
    "Attic fan off. I didn't change the fan speed.",  # names no fan: said of the turn
])
def test_a_state_or_part_said_of_the_thing_its_call_set_still_denies(reply):
    assert _two_fans(reply)


# A sentence run on after a value listed with no stop ----------------------------------------------

WEATHER = {"properties": {"location": {"type": "string"}}}
LISBON = {"location": "Lisbon", "temperature": 18, "humidityPercent": 81, "condition": "FOG"}
TABLES = {"properties": {"date": {"type": "string"}}}
CASA = [{"restaurantName": "Casa Azul", "time": {"hour": 20, "minute": 0}, "seats": 2}]


@pytest.mark.parametrize("reply", [
    "🌡️ 18°C · foggy · 💧 81% — Lisbon Based on the reading, you'll want a jacket.",
    "Weather: 18°C, foggy — Lisbon Going by that, I'd take an umbrella too.",
])
def test_a_capital_after_a_returned_name_listed_alone_opens_a_sentence(reply):
    assert _made_up(reply, (WEATHER, LISBON)) == []
    porto = reply.replace("Lisbon", "Porto")
    assert any("Based" in why or "Going" in why for why in _made_up(porto, (WEATHER, LISBON))), \
        "after a name no call returned, the capital may be a name"


@pytest.mark.parametrize("reply", [
    "Here you go:\n- 📍 Lisbon\n- 🌡️ 18°C\n- 💧 81% Casa Azul has a table at 20:00.",
    "- 🌫️ foggy\n- 💧 81 % Casa Azul seats 2 at 20:00 tonight.",
])
def test_a_value_opening_a_line_is_apart_from_the_sentence_run_on_after_it(monkeypatch, reply):
    assert _made_up(reply, (WEATHER, LISBON), (TABLES, CASA)) == []
    monkeypatch.setattr("sim.eval.phrases._OPENING_QUANTITY", re.compile("(?!)"))
    assert any("'81'" in why for why in _made_up(reply, (WEATHER, LISBON), (TABLES, CASA))), \
        "read with the sentence after it, the humidity is held to the table"


# A bold label or a thing's code run on after a listed value starts what follows -------------------------------------

OLD_VALUE_END = re.compile(r"(?<!\S)[a-z\d]\S*(\s+)(?=(?:\*\*|__)?[A-Z][a-z]|I\b)")


@pytest.mark.parametrize("reply, value, after", [
    ("**TL;DR:** 22°C and clear in Tokyo.\n\n- **Humidity:** 70%\n- **Wind:** 6.1 km/h **TL;DR:** 32°C and stormy "
     "in Bangkok.", "6.1 km/h", "**TL;DR:** 32°C and stormy in Bangkok."),
    ("- **Carrier:** DHL\n- **ETA:** May 30 **NB:** the courier may be a day late.", "May 30",
     "**NB:** the courier may be a day late."),
    ("**ORD-6025**\n- Status: delivered ORD-5117 is now cancelled.", "delivered", "ORD-5117 is now cancelled."),
    ("- Livraison : jeudi __FYI:__ le transporteur peut avoir un jour de retard.", "jeudi",
     "__FYI:__ le transporteur peut avoir un jour de retard."),
])
def test_a_bold_label_or_a_code_after_a_listed_value_starts_what_follows(monkeypatch, reply, value, after):
    said = sentences(reply)
    assert after in said and any(s.endswith(value) for s in said), said
    assert parse(reply).records[-1].fields[-1][1] == value
    monkeypatch.setattr("sim.eval.phrases.VALUE_END", OLD_VALUE_END)
    monkeypatch.setattr("sim.eval.structure.VALUE_END", OLD_VALUE_END)
    assert after not in sentences(reply), "without the label or code ending it, the value runs on"


# The agent unable, now, to answer a question about what comes after ------------------------------

RETURN = ("return_parcel", "Books a return of a parcel.", {"parcelId": "PK-4410"},
          {"properties": {"parcelId": {"type": "string"}}})


@pytest.mark.parametrize("reply", [
    "PK-4410's return is booked. The courier app doesn't list pickup slots, so I can't confirm when they'll come.",
    "Return booked for PK-4410 ✅ I cannot verify how long the refund takes.",
    "PK-4410 will be collected; I can't see which depot it goes to.",
])
def test_not_able_to_answer_a_question_now_denies_nothing(monkeypatch, reply):
    assert not _read(reply, [RETURN], "Return parcel PK-4410").denials
    monkeypatch.setattr("sim.eval.claims._CANNOT_ANSWER_NOW", re.compile("(?!)"))
    assert _read(reply, [RETURN], "Return parcel PK-4410").denials, "without the reading, a denial"


@pytest.mark.parametrize("reply", [
    "I can't confirm whether the return was booked.",  # a doubt of the action itself
    "I can't confirm whether it went through.",
    "I couldn't confirm when the courier comes: the app timed out.",  # a try that failed
    "I can't confirm anything right now.",
])
def test_a_doubt_of_the_action_or_a_failed_try_is_still_a_denial(reply):
    assert _read(reply, [RETURN], "Return parcel PK-4410").denials


# A label said again in a list starts the next record ------------------------------------------------

MEMO = {"properties": {"memoId": {"type": "string"}, "title": {"type": "string"}}}
TWO_MEMOS = [(MEMO, {"memoId": "memo-4", "title": "Gym schedule"}), (MEMO, {"memoId": "memo-5", "title": "Tax forms"})]


@pytest.mark.parametrize("reply", [
    "✅ Memo saved\n- **Title:** Gym schedule\n- **ID:** memo-4 ✅ Memo saved\n- **Title:** Tax forms\n- **ID:** memo-5",
    "- Titre : Gym schedule\n- Identifiant : memo-4\n- Titre : Tax forms\n- Identifiant : memo-5",
])
def test_a_label_said_again_in_a_list_starts_the_next_record(monkeypatch, reply):
    assert [dict(r.fields).get("ID", dict(r.fields).get("Identifiant", "")).split()[0] for r in parse(reply).records] \
        == ["memo-4", "memo-5"]
    assert _made_up(reply, *TWO_MEMOS) == []
    monkeypatch.setattr("sim.eval.structure._said_again", lambda label, fields: False)
    parse.cache_clear()  # read once more, without the reading
    assert len(parse(reply).records) == 1, "without the reading, one record with two titles"
    parse.cache_clear()
