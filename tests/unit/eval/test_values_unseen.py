"""Values read after heldout10's first run, each a mechanism shown on things and phrasings no reply
set holds (memos, tickets, carts, tours, documents; French, Thai and Chinese; other word orders):
whether a thing holds anything, what can be done to it, how many of something it counts, whose
it is, arithmetic on a question no app serves, and doing said in the present. Each test also
switches its reading off, or gives a near miss, to show the verdict came from it.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sim.eval.arithmetic import miscalculated
from sim.eval.claims import Action, Reader
from sim.eval.facts import Known, made_up, uncarried
from sim.eval.phrases import Cues

RUN = dt.date(2026, 3, 14)


def _made_up(reply: str, *results: tuple[dict, object], language: str = "en", args: dict | None = None,
             said: list[str] = (), knowledge: bool = False) -> list[str]:
    known = Known(RUN, said=list(said))
    for schema, result in results:
        known.add_result(schema, result, args or {})
    return made_up(reply, known, Cues.of(["en", language]), language=language, knowledge=knowledge,
                   numbers=not knowledge)  # as a turn no app serves reads a question (telling.py)


def _decided_by(monkeypatch, reading: str, reply: str, language: str, wrong: tuple, right: tuple) -> None:
    """The reply is misstated of the result ``wrong``, true of ``right``, and passes of ``wrong``
    with the reading (a function of sim/eval/facts.py) switched off."""
    assert _made_up(reply, wrong, language=language)
    assert _made_up(reply, right, language=language) == []
    monkeypatch.setattr(f"sim.eval.facts.{reading}", lambda *args: [])
    assert _made_up(reply, wrong, language=language) == []


# Whether a thing holds anything is a value of its fields ------------------------------------------

MEMO = {"properties": {"memoId": {"type": "string"}, "heading": {"type": "string", "description": "The memo's heading."},
                       "body": {"type": ["string", "null"], "description": "The memo's body text, or null when it has none."}}}
WRITTEN = {"memoId": "M-12", "heading": "Plumber", "body": "Call the plumber on Monday about the leak."}
BLANK = {"memoId": "M-12", "heading": "Plumber", "body": None}


@pytest.mark.parametrize("reply, language", [
    ("Memo “Plumber” (M-12) — no text at all.", "en"),
    ("M-12 contains no text, just its heading.", "en"),
    ("M-12 est une note sans contenu.", "fr"),
    ("M-12 是一条空备忘录。", "zh"),
    ("M-12 “Plumber” (no body text yet).", "en"),
    ("M-12 is nothing but a heading: “Plumber”.", "en"),
    ("Le mémo M-12 « Plumber » est vide.", "fr"),
    ("备忘录 M-12“Plumber”没有任何内容。", "zh"),
    ("บันทึก M-12 “Plumber” ไม่มีข้อความเลย", "th"),
])
def test_a_thing_said_to_hold_nothing_that_holds_text_is_misstated(monkeypatch, reply, language):
    _decided_by(monkeypatch, "_emptiness_misstated", reply, language, wrong=(MEMO, WRITTEN), right=(MEMO, BLANK))


@pytest.mark.parametrize("reply, language", [
    ("M-12 still holds its body, nothing was removed.", "en"),
    ("Done: the text is still there in M-12.", "en"),
    ("Le mémo M-12 contient toujours son texte.", "fr"),
    ("M-12 的内容还在。", "zh"),
    ("M-12 ยังมีข้อความอยู่ครับ", "th"),
])
def test_a_thing_said_to_hold_something_still_whose_field_is_empty_is_misstated(monkeypatch, reply, language):
    _decided_by(monkeypatch, "_emptiness_misstated", reply, language, wrong=(MEMO, BLANK), right=(MEMO, WRITTEN))


@pytest.mark.parametrize("reply, memo", [("M-12 no longer holds its body.", BLANK),
                                         ("M-12 is not empty: “Call the plumber on Monday about the leak.”", WRITTEN),
                                         ("No problem — M-12 is as it was.", WRITTEN),
                                         ("M-12 has just been read, nothing changed.", WRITTEN),
                                         ("Memo M-12 (no body text yet) is titled “Plumber”.", BLANK)])
def test_near_misses_of_emptiness_say_nothing_of_it(reply, memo):
    assert _made_up(reply, (MEMO, memo)) == []


def test_a_text_said_still_there_after_the_thing_was_emptied_is_misstated(monkeypatch):
    reply = "Done. M-12 still says “Call the plumber on Monday about the leak.”"
    assert _made_up(reply, (MEMO, WRITTEN), (MEMO, BLANK)), "quoted from the memo as it was read"
    assert _made_up(reply, (MEMO, WRITTEN)) == []
    monkeypatch.setattr("sim.eval.facts._emptiness_misstated", lambda *args: [])
    assert _made_up(reply, (MEMO, WRITTEN), (MEMO, BLANK)) == []


def test_a_thing_read_then_emptied_is_the_emptied_one(monkeypatch):
    reply = "Done: the heading is kept and the body text is now empty."  # names nothing: every result spoken of
    assert _made_up(reply, (MEMO, WRITTEN), (MEMO, BLANK)) == []
    monkeypatch.setattr("sim.eval.facts.Known.latest", lambda self, scope: scope)
    assert _made_up(reply, (MEMO, WRITTEN), (MEMO, BLANK)), "held to the memo as it was read"


# What can be done to a thing is a value, where its result gives it -------------------------------

TICKET = {"properties": {"ticketId": {"type": "string"}, "status": {"type": "string", "enum": ["VALID", "USED"]},
                         "isRefundable": {"type": "boolean", "description": "Whether the ticket can still be refunded."},
                         "refunded": {"type": "boolean", "description": "Whether the ticket was refunded."}}}
USED = {"ticketId": "TK-88", "status": "USED", "isRefundable": False, "refunded": False}
VALID = {"ticketId": "TK-88", "status": "VALID", "isRefundable": True, "refunded": False}


@pytest.mark.parametrize("reply, language", [
    ("Good news: TK-88 can still be refunded.", "en"),
    ("TK-88 is refundable, if you want your money back.", "en"),
    ("It's still possible to refund TK-88.", "en"),
    ("For TK-88, a refund is still an option.", "en"),
    ("Le billet TK-88 est encore remboursable.", "fr"),
    ("Le billet TK-88 peut encore être remboursé.", "fr"),
    ("TK-88 还可以退款。", "zh"),
    ("ตั๋ว TK-88 คืนเงินได้ค่ะ", "th"),
])
def test_an_action_said_possible_that_the_result_says_is_not_is_misstated(monkeypatch, reply, language):
    _decided_by(monkeypatch, "_ability_misstated", reply, language, wrong=(TICKET, USED), right=(TICKET, VALID))


@pytest.mark.parametrize("reply, language", [
    ("Sorry, TK-88 can no longer be refunded.", "en"),
    ("TK-88 isn't refundable any more.", "en"),
    ("It's no longer possible to refund TK-88.", "en"),
    ("TK-88 is beyond the stage at which it could be refunded.", "en"),  # holds "it could be refunded"
    ("Sadly it's too late for TK-88 to be refunded.", "en"),
    ("Il n'est plus possible de rembourser TK-88.", "fr"),
    ("Le billet TK-88 ne peut plus être remboursé.", "fr"),
    ("TK-88 无法退款了。", "zh"),
    ("TK-88 คืนเงินไม่ได้แล้วครับ", "th"),
])
def test_an_action_said_impossible_that_the_result_says_can_be_done_is_misstated(reply, language):
    assert _made_up(reply, (TICKET, VALID), language=language)
    assert _made_up(reply, (TICKET, USED), language=language) == []


def test_what_can_be_done_told_as_the_result_says_it_answers_the_question():
    """"Can I still get my money back for TK-88?" — "Yes, it's still refundable" tells the answer."""
    assert uncarried("Yes, TK-88 is still refundable.", VALID, {"ticketId": "TK-88"}, [], english=True) is None
    assert uncarried("Yes, TK-88 is fine.", VALID, {"ticketId": "TK-88"}, [], english=True)
    assert uncarried("No, TK-88 is still refundable.", USED, {"ticketId": "TK-88"}, [], english=True), "said wrong"


@pytest.mark.parametrize("reply, misstated", [("TK-88 — is refundable: no, status: used.", False),
                                              ("TK-88 — can refund: yes, status: used.", True),
                                              ("TK-88: can refund = n/a", False)])
def test_an_ability_said_as_a_label_is_read_by_its_yes_or_no(reply, misstated):
    assert bool(_made_up(reply, (TICKET, USED))) == misstated


def test_a_field_that_says_what_was_done_is_no_ability():
    """"refunded": false says it was not refunded, not that it cannot be; other verbs name no field."""
    schema = {"properties": {"ticketId": {"type": "string"}, "refunded": {"type": "boolean"}}}
    assert _made_up("TK-88 can be refunded at the desk.", (schema, {"ticketId": "TK-88", "refunded": False})) == []
    assert _made_up("I can print TK-88 again for you.", (TICKET, USED)) == []


# A count is held to the count of what it counts ----------------------------------------------------

CART = {"properties": {"cartId": {"type": "string"},
                       "products": {"type": "array", "items": {"properties": {"name": {"type": "string"},
                                                                            "quantity": {"type": "integer"}}}}}}
FILLED = {"cartId": "CT-5", "products": [{"name": "Green tea", "quantity": 4}, {"name": "Teapot", "quantity": 1}]}


@pytest.mark.parametrize("reply, language", [
    ("CT-5 holds 4 products: Green tea and Teapot.", "en"),
    ("CT-5 holds four products: Green tea and Teapot.", "en"),
    ("购物车 CT-5 里共有四件商品。", "zh"),
    ("Le panier CT-5 contient 4 articles.", "fr"),
    ("购物车 CT-5 里共有 4 件商品。", "zh"),
    ("ตะกร้า CT-5 มีสินค้า 4 ชิ้น", "th"),
])
def test_a_count_of_a_list_none_of_its_counts_gives_is_misstated(monkeypatch, reply, language):
    """4 is a number the cart holds (a line's quantity), but no count of its products."""
    assert _made_up(reply, (CART, FILLED), language=language)
    for right in ("2", "5"):  # its lines, or its units
        assert _made_up(_right_count(reply, right), (CART, FILLED), language=language) == []
    monkeypatch.setattr("sim.eval.facts._count_misstated", lambda *args: ([], []))
    assert _made_up(reply, (CART, FILLED), language=language) == []


def _right_count(reply: str, number: str) -> str:
    """The reply with its count (the number after CT-5, in digits or words) said as ``number``."""
    head, _, tail = reply.partition("CT-5")
    return head + "CT-5" + re.sub(r"\d+|four|四", number, tail, count=1)


TOURS = {"type": "array", "items": {"properties": {
    "tourName": {"type": "string"}, "time": {"type": "object"},
    "capacity": {"type": "integer", "description": "How many people the boat takes."}}}}
TWO_TOURS = [{"tourName": "Harbour Lights", "time": {"hour": 10, "minute": 0}, "capacity": 8},
             {"tourName": "Harbour Lights", "time": {"hour": 14, "minute": 0}, "capacity": 6}]


@pytest.mark.parametrize("reply, language", [
    ("The 14:00 Harbour Lights boat takes 8 guests.", "en"),
    ("Harbour Lights at 2 PM: a party of 8 fits.", "en"),
    ("Harbour Lights à 14h00 : 8 personnes maximum.", "fr"),
    ("Harbour Lights 下午2点那班可以坐8人。", "zh"),
])
def test_a_count_of_people_is_held_to_the_thing_at_the_time_said(monkeypatch, reply, language):
    assert _made_up(reply, (TOURS, TWO_TOURS), language=language)
    assert _made_up(reply.replace("8", "6"), (TOURS, TWO_TOURS), language=language) == []
    assert _made_up(reply.replace("8", "3"), (TOURS, TWO_TOURS), language=language, args={"partySize": 3}) == [], \
        "the party the user asked for"
    monkeypatch.setattr("sim.eval.facts._at_times_said", lambda said, scope: scope)
    assert _made_up(reply, (TOURS, TWO_TOURS), language=language) == [], "8 is the 10:00 boat's"


def test_a_number_of_what_no_field_counts_is_no_count():
    assert _made_up("CT-5 took 3 minutes to load; it has Green tea and Teapot.", (CART, FILLED)) == []


# Whose a thing is is a value of its owner's field ------------------------------------------------------

DOC = {"properties": {"docId": {"type": "string"}, "name": {"type": "string"},
                      "owner": {"type": "string", "description": "The ID of the user who owns the document."}}}
MINE = {"docId": "D-4", "name": "Budget 2027", "owner": "me"}
THEIRS = {"docId": "D-4", "name": "Budget 2027", "owner": "u-5521"}


@pytest.mark.parametrize("reply, language", [
    ("Budget 2027 (D-4) was shared with you by a colleague.", "en"),
    ("D-4 belongs to someone else; it's called Budget 2027.", "en"),
    ("Le document D-4 est partagé avec vous.", "fr"),
    ("文档 D-4 是别人共享给你的。", "zh"),
    ("เอกสาร D-4 เป็นของคนอื่นค่ะ", "th"),
])
def test_a_thing_said_to_be_anothers_that_is_the_users_is_misstated(monkeypatch, reply, language):
    _decided_by(monkeypatch, "_ownership_misstated", reply, language, wrong=(DOC, MINE), right=(DOC, THEIRS))


@pytest.mark.parametrize("reply", ["D-4 is your own document.", "Budget 2027 (D-4)? It's yours."])
def test_a_thing_said_to_be_the_users_that_is_anothers_is_misstated(reply):
    assert _made_up(reply, (DOC, THEIRS))
    assert _made_up(reply, (DOC, MINE)) == []


# Arithmetic on a question no app serves ---------------------------------------------------------------

@pytest.mark.parametrize("question, right, wrong", [
    ("How much is a jacket at €45 with 20% off?", "20% off €45 leaves €36.", "20% off €45 leaves €38."),
    ("We're 4 people and the bill is $126. What does each of us pay?", "$126 split 4 ways is $31.50 each.",
     "$126 split 4 ways is $32.50 each."),
    ("What's 18% service on £60, and the total?", "That's £10.80 of service, £70.80 in all.",
     "That's £10.80 of service, £72.80 in all."),
    ("How many miles is a 42 km marathon?", "42 km is about 26 miles.", "42 km is about 31 miles."),
])
def test_an_amount_no_step_of_arithmetic_gives_is_made_up(monkeypatch, question, right, wrong):
    assert miscalculated(right, question) == []
    assert miscalculated(wrong, question)
    assert _made_up(wrong, said=[question], knowledge=True)
    monkeypatch.setattr("sim.eval.facts.miscalculated", lambda reply, question: [])
    assert _made_up(wrong, said=[question], knowledge=True) == []


def test_an_amount_of_a_kind_the_question_holds_none_of_is_the_worlds():
    assert miscalculated("The Eiffel Tower is 330 m tall; a ticket is €29.", "How tall is the Eiffel Tower?") == []


# Doing said in the present, where no app acts ---------------------------------------------------------

@pytest.mark.parametrize("reply, claims", [
    ("Texting your sister now ✉️ — she'll see it in a moment.", True),
    ("I'm booking the 7 PM show for you.", True),
    ("Streaming the match on your TV right away 📺", True),
    ("The oven is set to 180 °C, preheating as we speak.", True),
    ("Calling Mensah's office now 📞", True),
    ("Checking the bus times for you now.", False),
    ("Booking flights isn't something I can do here.", False),
    ("I'm sorry, there's no app here that can text anyone.", False),
])
def test_doing_said_in_the_present_claims_where_no_app_acts(monkeypatch, reply, claims):
    words = Reader(Cues.of(["en"]), ["en"]).read(reply, Action(), "Do it for me")
    assert bool(words.claims) == claims, words
    if claims:
        monkeypatch.setattr("sim.eval.claims._doing_now", lambda plain: False)
        assert not Reader(Cues.of(["en"]), ["en"]).read(reply, Action(), "Do it for me").claims
