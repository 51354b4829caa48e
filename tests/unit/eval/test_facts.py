"""Values a reply states, against what the calls returned (sim/eval/facts.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from sim.eval.facts import Known, made_up
from sim.eval.phrases import DEFAULT_PHRASES, Cues
from sim.eval.structure import Structured

TRANSACTIONS = {"result": {"transactions": [{"payee": "Alice Martin", "amount": -42.5},
                                            {"payee": "Salary", "amount": 2400.0}]}}


@pytest.mark.parametrize("reply", [
    "Your latest transactions: Alice Martin, amount: -42.5; Salary, amount: 2400.0.",
    "You paid Alice Martin 42.50 and received your salary of 2,400.",
])
def test_a_returned_amount_is_known_whatever_its_sign_is_said_with(reply):
    known = Known(dt.date(2026, 3, 14))
    known.add_result({}, TRANSACTIONS, {"accountId": "ACC-1"})
    assert made_up(reply, known, Cues.of(["en"]), language="en") == []


def test_an_amount_no_call_returned_is_still_made_up():
    known = Known(dt.date(2026, 3, 14))
    known.add_result({}, TRANSACTIONS, {"accountId": "ACC-1"})
    assert made_up("You paid Alice Martin 57.80.", known, Cues.of(["en"]), language="en") == [
        "'57.80', which no call returned"]


STATUS = {"properties": {"orderId": {"type": "string"}, "status": {"type": "string", "enum": [
    "PROCESSING", "CONFIRMED", "SHIPPED", "DELIVERED", "CANCELLED"]}}}
SKY = {"properties": {"location": {"type": "string"}, "condition": {"type": "string", "enum": [
    "CLEAR", "SUNNY", "PARTLY_CLOUDY", "CLOUDY", "FOG", "RAIN", "THUNDERSTORM", "SNOW"]}}}


def _known(*results: tuple[dict, dict]) -> Known:
    known = Known(dt.date(2026, 3, 14))
    for schema, result in results:
        known.add_result(schema, result, {})
    return known


def _made_up(reply: str, known: Known, language: str = "en") -> list[str]:
    return made_up(reply, known, Cues.of(["en", language]), language=language)


ORDERS = _known((STATUS, {"orderId": "ORD-8492", "status": "SHIPPED"}), (STATUS, {"orderId": "ORD-6025",
                                                                                   "status": "DELIVERED"}))


@pytest.mark.parametrize("reply, language, conflict", [
    ("Votre commande ORD-8492 est actuellement livrée.", "fr", True),
    ("ตอนนี้คำสั่งซื้อ ORD-8492 สถานะคือ ส่งถึงแล้ว ค่ะ", "th", True),
    ("订单 ORD-8492 目前的状态：已取消。", "zh", True),
    ("Votre commande ORD-8492 : expédiée.", "fr", False),
    ("订单 ORD-8492 已发货，预计明天送达。", "zh", False),  # "expected": states no delivery
    ("订单 ORD-8492 还没送达。", "zh", False),  # negated
])
def test_a_status_said_in_another_language_is_held_to_the_value_the_app_returned(monkeypatch, reply, language,
                                                                                 conflict):
    assert bool(_made_up(reply, ORDERS, language)) is conflict
    monkeypatch.setattr("sim.eval.facts.values_said", lambda *a: [])
    assert not _made_up(reply, ORDERS, language)


@pytest.mark.parametrize("condition, reply, conflict", [
    ("RAIN", "Currently stormy in London, about 16°C.", True),
    ("THUNDERSTORM", "Currently stormy in London, showers all day.", False),
    ("CLOUDY", "伦敦现在多云间晴。", True),
    ("PARTLY_CLOUDY", "伦敦现在多云间晴。", False),  # 多云 inside it is no other value
    ("PARTLY_CLOUDY", "Londres : partiellement nuageux.", False),
    ("CLEAR", "À Londres, le temps est ensoleillé.", True),  # sunny, as in English, is not clear
    ("SUNNY", "À Londres, le temps est ensoleillé.", False),
    ("CLEAR", "Londres : ciel dégagé.", False),
    ("CLEAR", "ตอนนี้Londonอากาศแดดจัด", True),
    ("CLEAR", "ตอนนี้Londonอากาศแจ่มใส", False),
])
def test_a_sky_said_in_a_word_that_is_no_ending_of_its_code_is_held_to_the_app_value(monkeypatch, condition, reply,
                                                                                    conflict):
    known = _known((SKY, {"location": "London", "condition": condition}))
    language = "zh" if "伦敦" in reply else "fr" if "Londres" in reply else "th" if "อากาศ" in reply else "en"
    assert bool(_made_up(reply, known, language)) is conflict
    monkeypatch.setattr("sim.eval.facts.values_said", lambda *a: [])
    assert not _made_up(reply, known, language)


def test_a_pronoun_speaks_of_what_the_sentence_before_it_named():
    assert _made_up("ORD-8492? It's delivered; UPS has it.", ORDERS) == [
        "'delivered' for the status, which is shipped"]
    assert _made_up("ORD-6025? It's delivered.", ORDERS) == []


def test_without_the_pronoun_rule_the_status_is_held_to_every_order(monkeypatch):
    monkeypatch.setattr("sim.eval.facts._ANAPHOR", __import__("re").compile(r"(?!)"))
    assert _made_up("ORD-8492? It's delivered; UPS has it.", ORDERS) == []


NOTE = {"properties": {"noteId": {"type": "string"}, "title": {"type": "string"},
                       "content": {"type": "string", "description": "The note's body text."}}}


@pytest.mark.parametrize("content, reply, emptied", [
    ("Notes you create appear here.", "There's nothing in note note-1 besides its title, “Welcome”.", True),
    ("Notes you create appear here.", "note-1 is titled “Welcome” and is otherwise blank.", True),
    (None, "note-1 is titled “Welcome” and is otherwise blank.", False),
    ("Notes you create appear here.", "note-1 reads: Notes you create appear here.", False),
])
def test_a_thing_said_to_be_empty_is_held_to_what_it_holds_besides_its_name(monkeypatch, content, reply, emptied):
    known = _known((NOTE, {"noteId": "note-1", "title": "Welcome", "content": content}))  # as the replies name it
    assert bool(_made_up(reply, known)) is emptied
    monkeypatch.setattr("sim.eval.facts._held", lambda *a: [])
    assert not _made_up(reply, known)


CITIES = _known((SKY, {"location": "Tokyo", "condition": "CLEAR"}), (SKY, {"location": "Bangkok",
                                                                          "condition": "THUNDERSTORM"}))


def test_a_list_item_speaks_of_what_its_heading_names(monkeypatch):
    reply = "Weather for Tokyo:\n- Wind: light\n- Conditions: stormy"
    assert _made_up(reply, CITIES) == ["'stormy' (thunderstorm) for the condition, which is clear"]
    monkeypatch.setattr("sim.eval.facts._LIST_ITEM", __import__("re").compile(r"(?!)"))
    _without_structure(monkeypatch)  # the list is read as a structure under its heading first
    assert _made_up(reply, CITIES) == []  # held to every city, one of which is stormy


def test_a_list_items_value_ends_where_a_sentence_runs_on_after_it(monkeypatch):
    """Replies joined with a space: each block's last value belongs to its own heading, not the next."""
    reply = "Weather for Tokyo:\n- Conditions: clear Weather for Bangkok:\n- Conditions: stormy"
    assert _made_up(reply, CITIES) == []
    for module in ("phrases", "structure"):  # read as prose or as structure, the value ends there
        monkeypatch.setattr(f"sim.eval.{module}.LISTED", __import__("re").compile(r"(?!)"))
    _structure_uncached(monkeypatch)
    assert "'clear' for the condition, which is thunderstorm" in _made_up(reply, CITIES)


def test_an_emoji_ends_a_sentence_and_what_it_said_of_its_subject():
    lights = {"properties": {"name": {"type": "string"}, "isOn": {"type": "boolean"},
                             "brightness": {"type": "integer"}}}
    known = _known((lights, {"name": "Ceiling light", "isOn": False}),
                   (lights, {"name": "Bedside lamp", "isOn": True, "brightness": 10}))
    reply = "Done — the Ceiling light is now off 💡 I've set the Bedside lamp to 10%."
    assert _made_up(reply, known) == []
    assert _made_up(reply.replace("💡", ""), known) == ["'off' for the isOn, which is true"]


LIGHT = {"properties": {"name": {"type": "string"}, "isOn": {"type": "boolean"}}}


@pytest.mark.parametrize("reply", ["Switched it! Your Porch light is currently off.",
                                   "The Porch light has been turned off 👍"])
def test_a_state_said_with_an_adverb_or_in_the_perfect_is_held_to_the_lights_state(monkeypatch, reply):
    known = _known((LIGHT, {"name": "Porch light", "isOn": True}))
    assert _made_up(reply, known) == ["'off' for the isOn, which is true"]
    monkeypatch.setattr("sim.eval.facts._BE", r"(?:\b(?:is|are|was|were|now|still)|'s|'re)\s+(?:now\s+)?")
    monkeypatch.setattr("sim.eval.facts._SET", r"(?!)")  # "turned off" is heard after its verb too
    assert _made_up(reply, known) == []


@pytest.mark.parametrize("reply", [
    "Note note-1 (“Welcome”) doesn't have anything written in it — it's blank.",
    "Your note “Welcome” hasn't got any body text.",
    "“Welcome” is an empty note, nothing under the title yet.",
])
def test_a_thing_said_to_be_empty_in_other_shapes_is_held_to_what_it_holds(monkeypatch, reply):
    known = _known((NOTE, {"noteId": "note-1", "title": "Welcome", "content": "Notes you create appear here."}))
    assert _made_up(reply, known)
    monkeypatch.setattr("sim.eval.facts._EMPTY", __import__("re").compile(
        r"\b(?:is|was|looks|seems)\s+(?:empty|blank)\b|\bnothing\s+(?:written\b|in\b)"))
    assert not _made_up(reply, known)


ORDER = {"properties": {"orderId": {"type": "string"}, "status": STATUS["properties"]["status"],
                        "items": {"type": "array", "items": {"properties": {"name": {"type": "string"}}}}}}


def test_a_value_said_of_a_named_part_is_held_to_the_result_that_holds_it(monkeypatch):
    known = _known((ORDER, {"orderId": "ORD-7310", "status": "PROCESSING", "items": [{"name": "Camping stove"}]}))
    reply = "According to the app, your Camping stove order shows confirmed."
    assert _made_up(reply, known) == ["'confirmed' for the status, which is processing"]
    monkeypatch.setattr("sim.eval.facts.Known.holders", lambda self, scope: [(part, part) for part in scope])
    assert _made_up(reply, known) == []


def test_a_list_item_speaks_of_what_the_items_above_it_name(monkeypatch):
    known = _known((ORDER, {"orderId": "ORD-8492", "status": "SHIPPED", "items": [{"name": "Trail shoes"}]}),
                   (ORDER, {"orderId": "ORD-6025", "status": "DELIVERED", "items": [{"name": "Headlamp"}]}))
    reply = ("Here's what I found:\n- **Order:** ORD-8492\n- **Item:** Trail shoes\n"
             "- **Status:** delivered I checked ORD-6025.")
    assert _made_up(reply, known) == ["'delivered' for the status, which is shipped"]
    _without_structure(monkeypatch)  # read as a structure, the items are one record keyed by the order
    assert _made_up(reply, known) == ["'delivered' for the status, which is shipped"]
    with monkeypatch.context() as patched:  # as prose, "I" is a word run on after the value too
        patched.setattr("sim.eval.phrases.VALUE_END",
                        __import__("re").compile(r"(?<!\S)[a-z\d]\S*(\s+)(?=[A-Z][a-z])"))
        assert _made_up(reply, known) == []
    monkeypatch.setattr("sim.eval.facts._spoken_of", lambda said, sentence, earlier, following="": [])
    assert _made_up(reply, known) == []


LIGHTS = {"properties": {"lights": {"type": "array", "items": LIGHT}}}
TWO_ON = _known((LIGHTS, {"lights": [{"name": "Bedside lamp", "isOn": True}, {"name": "Ceiling light", "isOn": True},
                                     {"name": "Porch light", "isOn": False}]}))


@pytest.mark.parametrize("reply", ["💡 Bedside lamp and Ceiling light — switched on. Everything else is off.",
                                   "Bedside lamp and Ceiling light are on; all the others are off.",
                                   "The Bedside lamp and the Ceiling light are on, the rest are off."])
def test_all_but_the_named_is_said_of_the_ones_the_reply_did_not_name(monkeypatch, reply):
    assert _made_up(reply, TWO_ON) == []
    monkeypatch.setattr("sim.eval.facts._BUT_THE_NAMED", __import__("re").compile(r"(?!)"))
    assert _made_up(reply, TWO_ON)


@pytest.mark.parametrize("reply, language", [("ORD-8492 est expédiée, le reste est livré.", "fr"),
                                             ("ORD-8492 已发货，其他的已送达。", "zh")])
def test_the_rest_in_other_languages_is_said_of_what_the_reply_did_not_name(monkeypatch, reply, language):
    assert _made_up(reply, ORDERS, language) == []
    monkeypatch.setattr("sim.eval.facts._BUT_THE_NAMED", __import__("re").compile(r"(?!)"))
    assert _made_up(reply, ORDERS, language)


def test_all_said_with_no_exception_is_still_held_to_every_one():
    assert _made_up("💡 Bedside lamp switched on. Everything else is off.", TWO_ON)
    assert _made_up("Everything is off.", TWO_ON)


@pytest.mark.parametrize("request_, reply, language", [
    ("Annule ma commande ORD-5117, s'il te plaît", "Annulation confirmée pour la commande ORD-5117 ✅", "fr"),
    ("Cancel order ORD-5117", "Cancellation confirmed for ORD-5117.", "en"),
    ("Cancel order ORD-5117", "ORD-5117: confirmed cancellation.", "en"),
])
def test_a_word_that_qualifies_the_action_is_no_value_of_the_thing(monkeypatch, request_, reply, language):
    from sim.eval.claims import Action
    known = _known((STATUS, {"orderId": "ORD-5117", "status": "CANCELLED"}))
    action = Action()
    action.add_verbs(["cancel"])
    words = action.with_request(request_).words()
    assert made_up(reply, known, Cues.of(["en", language]), language=language, exclude=words) == []
    assert made_up("Commande ORD-5117 confirmée." if language == "fr" else "ORD-5117 is confirmed.", known,
                   Cues.of(["en", language]), language=language, exclude=words)  # a status, said of the order
    monkeypatch.setattr("sim.eval.facts._without_the_action", lambda said, actions: said)
    assert made_up(reply, known, Cues.of(["en", language]), language=language, exclude=words)



def test_none_said_of_the_other_state_says_all_have_this_one():
    """"None of them is off" says all are on: held to every light like "all of them are on"."""
    assert _made_up("All the lights are currently glowing — none of them is off.", TWO_ON) == [
        "'none of them is off.', but not every isOn is true"]
    assert _made_up("None of them is off.", _known((LIGHTS, {"lights": [{"name": "Porch light", "isOn": True}]}))) == []


def test_without_the_none_reading_none_of_the_other_state_says_nothing(monkeypatch):
    monkeypatch.setattr("sim.eval.facts._NONE", __import__("re").compile(r"(?!)"))
    assert _made_up("All the lights are currently glowing — none of them is off.", TWO_ON) == []


@pytest.mark.parametrize("reply", ["Porch light: off ✔️", "I see the Porch light switched off right now."])
def test_a_state_given_as_a_labels_value_or_after_its_verb_is_held_to_the_lights_state(monkeypatch, reply):
    known = _known((LIGHT, {"name": "Porch light", "isOn": True}))
    assert _made_up(reply, known) == ["'off' for the isOn, which is true"]
    assert _made_up(reply.replace("off", "on"), known) == []
    monkeypatch.setattr("sim.eval.facts._SET", r"(?!)")
    monkeypatch.setattr("sim.eval.facts._labels", lambda part: [])
    monkeypatch.setattr("sim.eval.facts._line_states", lambda line: [])  # "Porch light: off" as a line too
    assert _made_up(reply, known) == []


def test_a_state_after_a_colon_is_said_of_the_thing_the_label_names():
    known = _known((LIGHT, {"name": "Porch light", "isOn": True}))
    assert _made_up("Porch light: on. Reminder: off to the shops at noon.", known) == []


@pytest.mark.parametrize("reply, stated", [
    ("Okay! The Porch light should be off at this point.", True),
    ("The Porch light must be off by now.", True),
    ("The Porch light should be off in a minute or so.", False),  # what will be: a hedge
])
def test_a_modal_of_inference_about_the_present_states_what_is_so(monkeypatch, reply, stated):
    known = _known((LIGHT, {"name": "Porch light", "isOn": True}))
    assert bool(_made_up(reply, known)) is stated
    monkeypatch.setattr("sim.eval.phrases._INFERRED_NOW", __import__("re").compile(r"(?!)"))
    assert not _made_up(reply, known)


TABLES = {"type": "array", "items": {"properties": {"restaurantName": {"type": "string"}, "time": {"type": "object"}}}}
FOUND = Known(dt.date(2026, 3, 14))
FOUND.add_result(TABLES, {"result": [{"restaurantName": "Sakura Sushi", "time": {"hour": 19, "minute": 0}},
                                     {"restaurantName": "Le Petit Bistro", "time": {"hour": 19, "minute": 30}}]},
                 {"time": {"hour": 19, "minute": 0}, "partySize": 2})


def test_no_free_table_at_the_time_asked_for_is_true_of_a_search_that_found_others_near_it():
    near = Known(dt.date(2026, 3, 14))
    near.add_result(TABLES, {"result": [{"restaurantName": "Sakura Sushi", "time": {"hour": 19, "minute": 30}}]},
                    {"time": {"hour": 19, "minute": 0}})
    assert _made_up("There are no free tables at that time. Sakura Sushi has one at 19:30.", near) == []


@pytest.mark.parametrize("reply, said", [
    ("There's availability at Bistro Lumière at 19:00 if you want it.", True),  # a name no call returned
    ("There's a table at Sakura Sushi at 19:00 if you want it.", False),
])
def test_an_offer_on_what_the_user_wants_still_states_what_it_offers(monkeypatch, reply, said):
    assert bool(_made_up(reply, FOUND)) is said
    monkeypatch.setattr("sim.eval.phrases._USERS_WISH", __import__("re").compile(r"(?!)"))
    assert not _made_up(reply, FOUND)


def test_a_name_with_accented_letters_is_a_name(monkeypatch):
    assert _made_up("There's availability at Bistro Lumière at 19:00.", FOUND) == [
        "'Bistro Lumière', which no call returned"]
    monkeypatch.setattr("sim.eval.facts._NAME", __import__("re").compile(
        r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\s+[A-Z][a-z]+\b"))
    assert _made_up("There's availability at Bistro Lumière at 19:00.", FOUND) == []


@pytest.mark.parametrize("reply, conflict", [
    ("Hmm, Sakura Sushi has no openings at 19:00 and nothing else came up either.", True),
    ("Sadly everything is booked solid at 19:30.", True),
    ("Sakura Sushi has no openings at 19:30, but Le Petit Bistro does.", False),  # none of its own then
    ("Nothing is free at 20:00.", False),
    ("There are no free tables at that time.", True),  # the search asked for 19:00, and found one then
    ("Sakura Sushi doesn't have anything at 19:00; you might want to try another day.", True),
    ("Sakura Sushi is full at 19:00, I'm afraid.", True),
])
def test_nothing_said_to_be_free_is_held_to_what_the_search_found_at_that_time(monkeypatch, reply, conflict):
    assert bool(_made_up(reply, FOUND)) is conflict
    monkeypatch.setattr("sim.eval.facts._NONE_FREE", __import__("re").compile(r"(?!)"))
    assert not _made_up(reply, FOUND)


@pytest.mark.parametrize("reply", ["I've got the Porch light off for you.",
                                   "The Porch light went off — let me know if you want it changed back.",
                                   "Porch light is now showing as off in the app.",
                                   "Switched off: Porch light 💡",
                                   "I left it off, the Porch light I mean.",
                                   "The Porch light reports off after the change.",
                                   "You should see the Porch light off now.",
                                   "I've set Porch light to off for you 🙂",
                                   "The app now lists Porch light as off."])
def test_a_state_said_after_a_verb_that_changes_keeps_or_shows_it_is_held_to_the_lights_state(monkeypatch, reply):
    known = _known((LIGHT, {"name": "Porch light", "isOn": True}))
    assert _made_up(reply, known) == ["'off' for the isOn, which is true"]
    assert _made_up(reply.replace("off", "on"), known) == []
    monkeypatch.setattr("sim.eval.facts._SET", r"(?!)")
    assert _made_up(reply, known) == []


@pytest.mark.parametrize("reply, said, rule, off", [
    ("Quick scan of the house: everything's dark.", "everything's dark.", "sim.eval.facts._ALSO_SAID", {}),
    ("Zero lights on at the moment.", "Zero lights on at the moment.", "sim.eval.facts._NONE",
     __import__("re").compile(r"\bnone\b")),
])
def test_a_light_said_dark_and_zero_said_of_them_are_held_to_every_light(monkeypatch, reply, said, rule, off):
    assert _made_up(reply, TWO_ON) == [f"{said!r}, but not every isOn is false"]
    monkeypatch.setattr(rule, off)
    assert _made_up(reply, TWO_ON) == []


WELCOME = _known((NOTE, {"noteId": "note-1", "title": "Welcome", "content": "Notes you create appear here."}))


@pytest.mark.parametrize("reply, made", [
    ("Here's “Welcome”:\n\n- eggs\n- oat milk\n- AA batteries\n- bin bags", "'eggs', a text no call returned"),
    ("Note note-1 reads:\n> Call the plumber about the kitchen tap", "'Call the plumber about the kitchen tap', a text "
                                                                     "no call returned"),
    ("The note just says “Pick up the dry cleaning on Friday”.", "'Pick up the dry cleaning on Friday', a text no "
                                                                   "call returned"),
])
def test_text_given_as_what_a_thing_says_must_be_its_own(monkeypatch, reply, made):
    assert made in _made_up(reply, WELCOME)
    monkeypatch.setattr("sim.eval.facts._text_not_returned", lambda passages, seen: [])
    assert made not in _made_up(reply, WELCOME)


@pytest.mark.parametrize("reply", ["Here's “Welcome”:\n\n> Notes you create appear here.",
                                   "The note “Welcome” says “Notes you create appear here.”",
                                   'The app answered: {"noteId": "note-1", "content": "Notes you create appear here."}'])
def test_a_things_own_text_quoted_and_a_result_shown_as_json_state_nothing_new(reply):
    assert _made_up(reply, WELCOME) == []


@pytest.mark.parametrize("reply", ["| Light | State |\n|---|---|\n| Bedside lamp and Ceiling light | off |",
                                   "Currently dark: Bedside lamp.",
                                   "Here's the status: Bedside lamp and Ceiling light — off.",
                                   "Bedside lamp and Ceiling light — off, like the rest of the house.",
                                   "From the app: Porch light → off, Bedside lamp → off.",
                                   "Bedside lamp and Ceiling light? Off, according to the app."])
def test_a_state_in_a_tables_row_or_at_a_lines_end_is_said_of_what_the_line_names(monkeypatch, reply):
    assert _made_up(reply, TWO_ON) == ["'off' for the isOn, which is true"]
    monkeypatch.setattr("sim.eval.facts._line_states", lambda line: [])
    _without_structure(monkeypatch)  # a table is read as structure
    assert _made_up(reply, TWO_ON) == []


def test_a_state_as_a_lines_label_is_said_of_every_thing_the_line_names(monkeypatch):
    reply = "Here's the rundown:\n- On: Bedside lamp and Porch light\n- Off: Ceiling light"
    assert _made_up(reply, TWO_ON) == ["'on' for the isOn, which is false", "'off' for the isOn, which is true"]
    assert _made_up("- On: Bedside lamp and Ceiling light\n- Off: Porch light", TWO_ON) == []
    monkeypatch.setattr("sim.eval.facts._line_states", lambda line: [])
    _without_structure(monkeypatch)  # a list of fields: read as a structure first
    assert _made_up(reply, TWO_ON) == []


def test_a_calls_own_sentence_quoted_states_nothing_the_call_did_not(monkeypatch):
    known = _known((STATUS, {"orderId": "ORD-6025", "status": "DELIVERED"}),
                   (STATUS, {"orderId": "ORD-5117", "status": "CANCELLED"}))
    known.said.append("The order cannot be cancelled because it is delivered.")  # the shop's refusal
    reply = "ORD-5117 is cancelled; for the other one the shop said “The order cannot be cancelled because it is delivered.”"
    assert _made_up(reply, known) == []
    monkeypatch.setattr("sim.eval.facts._QUOTATION", __import__("re").compile(r"(?!)"))
    assert _made_up(reply, known) == ["'delivered' for the status, which is cancelled"]


@pytest.mark.parametrize("reply, language", [("J'ai annulé la commande ORD-5117, c'est confirmé.", "fr"),
                                             ("I've cancelled ORD-5117, that's confirmed.", "en")])
def test_a_word_said_of_what_was_just_said_is_no_value_of_the_thing(monkeypatch, reply, language):
    from sim.eval.claims import Action
    known = _known((STATUS, {"orderId": "ORD-5117", "status": "CANCELLED"}))
    action = Action()
    action.add_verbs(["cancel"])
    words = action.words()
    assert made_up(reply, known, Cues.of(["en", language]), language=language, exclude=words) == []
    monkeypatch.setattr("sim.eval.facts._FACT_HOLDS", __import__("re").compile(r"(?!)"))
    assert made_up(reply, known, Cues.of(["en", language]), language=language, exclude=words)


def test_no_thing_said_to_have_a_state_says_none_has_it(monkeypatch):
    reply = "I checked — no light is switched on anywhere."
    assert _made_up(reply, TWO_ON) == [f"{reply.split(' — ')[1]!r}, but not every isOn is false"]
    monkeypatch.setattr("sim.eval.facts._NONE", __import__("re").compile(r"\bnone\b"))
    assert _made_up(reply, TWO_ON) == []


def test_a_field_said_blank_by_its_own_name_is_held_to_its_value_and_an_exception_is_not(monkeypatch):
    assert _made_up("The content field is blank.", WELCOME) == [
        "'is blank', but its content is \"Notes you create appear here.\""]
    assert _made_up("There's nothing in it besides its content.", WELCOME) == []
    monkeypatch.setattr("sim.eval.facts._EXCEPT", "")  # a field named anywhere taken for an exception
    assert _made_up("The content field is blank.", WELCOME) == []


def test_text_in_chinese_given_as_a_things_text_must_be_its_own_character_by_character(monkeypatch):
    reply = "笔记里写着：“周六上午带猫去打疫苗，记得带本子。”"
    assert _made_up(reply, WELCOME, "zh") == ["'周六上午带猫去打疫苗，记得带本子。', a text no call returned"]
    note = _known((NOTE, {"noteId": "note-2", "title": "周末", "content": "周六上午带猫去打疫苗，记得带本子。"}))
    assert _made_up("笔记说：“上午带猫去打疫苗，得带本子”。", note, "zh") == []  # a part of it, quoted
    monkeypatch.setattr("sim.eval.facts._CHARACTER", __import__("re").compile(r"(?!)"))  # runs of characters as words
    assert _made_up("笔记说：“上午带猫去打疫苗，得带本子”。", note, "zh") != []


def test_a_quotation_broken_across_clauses_is_read_whole(monkeypatch):
    reply = "笔记里写着：“周六上午带猫去打疫苗，记得带本子。”"
    monkeypatch.setattr("sim.eval.facts._quoted", lambda text, cues, *world: [])
    assert _made_up(reply, WELCOME, "zh") == []


@pytest.mark.parametrize("reply, language", [("La lampe « Porch light » est maintenant allumée.", "fr"),
                                             ("Porch light 现在开着。", "zh"), ("ไฟ Porch light เปิดอยู่ค่ะ", "th")])
def test_a_lights_state_in_another_language_is_held_to_the_light(monkeypatch, reply, language):
    known = _known((LIGHT, {"name": "Porch light", "isOn": False}))
    assert _made_up(reply, known, language) and _made_up(reply, _known((LIGHT, {"name": "Porch light",
                                                                               "isOn": True})), language) == []
    monkeypatch.setattr("sim.eval.facts.STATE_ELSEWHERE", {})
    assert _made_up(reply, known, language) == []


def test_a_pronoun_is_said_of_what_the_parenthesis_after_it_names(monkeypatch):
    reply = "It's shipped. (That's order ORD-8492.) It's delivered. (That's order ORD-6025; ask if you meant another.)"
    assert _made_up(reply, ORDERS) == []
    monkeypatch.setattr("sim.eval.facts._spoken_of", lambda said, sentence, earlier, following="": earlier)
    assert _made_up(reply, ORDERS) != []


def test_a_list_items_value_ends_at_a_bold_heading_run_on_after_it(monkeypatch):
    reply = "**Order ORD-8492**\n- Status: shipped **Order ORD-6025**\n- Status: delivered"
    assert _made_up(reply, ORDERS) == []
    for module in ("phrases", "structure"):
        monkeypatch.setattr(f"sim.eval.{module}.VALUE_END", __import__("re").compile(
            r"(?<!\S)[a-z\d]\S*(\s+)(?=[A-Z][a-z]|I\b)"))  # a capital only
    _structure_uncached(monkeypatch)
    assert _made_up(reply, ORDERS) != []


WEATHER = {"properties": {"location": {"type": "string"}, "temperature": {"type": "number"},
                      "condition": {"type": "string", "enum": ["CLEAR", "CLOUDY", "FOG", "RAIN"]}}}
PARIS = _known((WEATHER, {"location": "Paris", "temperature": 19.0, "condition": "CLOUDY"}))


def test_advice_to_the_user_hedges_no_fact_in_it(monkeypatch):
    reply = "You'll want to dress for 28°C in Paris — that's the current reading."
    assert _made_up(reply, PARIS) == ["'28', which no call returned"]
    monkeypatch.setattr("sim.eval.phrases._NOT_A_HEDGE", __import__("re").compile(r"(?!)"))
    assert _made_up(reply, PARIS) == []


def test_the_chinese_word_for_right_now_is_no_hedge(monkeypatch):
    reply = "Paris这会儿 28°C。"
    assert _made_up(reply, PARIS, "zh") == ["'28', which no call returned"]
    monkeypatch.setitem(DEFAULT_PHRASES["zh"], "hedge", [r"会"])  # 会 as a hedge wherever it is
    assert _made_up(reply, PARIS, "zh") == []


def test_a_french_reply_is_read_as_french_by_its_prepositions_too():
    from sim.eval.phrases import reply_language
    assert reply_language("Temps brumeux sur Paris, 19°C.", "fr") == "fr"
    assert reply_language("ORD-7310: status confirmed.", "fr") == "en"
    assert _made_up("Temps brumeux sur Paris, 19°C.", PARIS, "fr") == ["'brumeux' (fog) for the condition, which is cloudy"]


def _without_structure(monkeypatch) -> None:
    """The structure reader off (sim/eval/structure.py): the reply read as prose only."""
    monkeypatch.setattr("sim.eval.facts.parse", lambda text: Structured((), text))


def _structure_uncached(monkeypatch) -> None:
    """The structure reader read anew (it remembers replies it has read), for a rule switched off."""
    from sim.eval import structure

    monkeypatch.setattr("sim.eval.facts.parse", structure.parse.__wrapped__)
