"""Readings added in the eighth tuning round, on act-then-ask and denial replies that passed and
on a careful reply that failed, each shown on phrasings it was not written from, beside careful
phrasings of the same shape that must still read as before, or switched off:

- the one that should have answered said not to ("the server never replied", « l'appli ne répond
  pas », « le serveur est injoignable »): a failure, whose negation is the failure itself;
- leave asked only to see the thing through ("Say yes and I'll handle it", 要我马上处理吗): about
  what the reply spoke of, as "Shall I?" is;
- the agent's present at the head of a request for leave (« J'annule la commande ORD-1, d'accord ? »):
  what the question proposes, not a thing told done;
- where the words come from put before a pronoun ("According to the order details, it …"): the
  pronoun still points back to the thing the sentence before named.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from sim.eval.claims import Reader
from sim.eval.facts import Known, made_up
from sim.eval.offers import bare_leave
from sim.eval.phrases import Cues
from sim.eval.telling import Outcome, left_pending

from .test_readings import _read

WEATHER = ("get_current_weather", "Gets the weather now.", {"city": "Oslo"}, {})


# The one that should have answered said not to --------------------------------------------------------

@pytest.mark.parametrize("reply, language", [
    ("Sorry, the server never replied, so there's no forecast for Oslo yet.", "en"),
    ("The weather app did not answer in time.", "en"),
    ("Hmm, the system hasn't responded — no reading for Oslo.", "en"),
    ("L'application ne répond pas pour l'instant, je n'ai pas la météo d'Oslo.", "fr"),
    ("Le serveur est momentanément injoignable.", "fr"),
])
def test_a_peer_that_did_not_answer_is_a_failure(monkeypatch, reply, language):
    assert _read(reply, WEATHER, "What's the weather in Oslo?", language).troubles, reply


def test_the_negation_inside_the_failure_decides(monkeypatch):
    reply = "Sorry, the server never replied, so there's no forecast for Oslo yet."
    assert _read(reply, WEATHER, "What's the weather in Oslo?").denials
    monkeypatch.setattr(Reader, "_fails_in_negation", lambda self, clause: False)
    assert not _read(reply, WEATHER, "What's the weather in Oslo?").denials


@pytest.mark.parametrize("reply", [
    "Oslo is 4 °C and cloudy. The app didn't ask for anything else.",
    "Oslo is 4 °C and cloudy; the system didn't report any problems.",
    "Oslo is 4 °C and cloudy. No service fee was charged.",
    "Oslo is 4 °C and cloudy, and the device didn't need a restart.",
    "Oslo is 4 °C and cloudy — the service answered right away.",
    "Oslo is 4 °C and cloudy. There was no signal trouble this time.",
    "It's foggy in Oslo, 4 °C. The weather app doesn't answer how thick the fog is.",  # what it did not answer
    "It's foggy in Oslo. The app never replied with a visibility figure.",
    ("Il y a du brouillard à Oslo, 4 °C. L'appli n'a pas répondu sur l'épaisseur du brouillard.", "fr"),
])
def test_a_true_lookup_told_beside_a_peers_negated_doing_is_no_failure(reply):
    reply, language = reply if isinstance(reply, tuple) else (reply, "en")
    assert not _read(reply, WEATHER, "What's the weather in Oslo?", language).troubles, reply


# Leave only to see it through ----------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "Say yes and I'll handle it.",
    "Want me to take care of that now?",
    "Shall I see to it?",
    "Should I sort it out for you?",
    "需要我帮您处理吗？",
    "要我马上去办吗？",
])
def test_leave_only_to_see_it_through_is_bare(sentence):
    assert bare_leave(sentence, {"cancel", "cancelled"}), sentence


@pytest.mark.parametrize("sentence", [
    "Shall I handle the refund request next?",  # another thing
    "Want me to take a look at tomorrow's weather?",
    "Should I see whether Friday is free?",
    "需要我帮您做个提醒吗？",  # a reminder: another thing made
    "需要吗？",  # no one to act
    "要我查一下物流吗？",  # another verb
])
def test_leave_to_see_to_another_thing_is_not(sentence):
    assert not bare_leave(sentence, {"cancel", "cancelled"}), sentence


# The agent's present heading a request for leave -----------------------------------------------------

BOOKED = ("book_table", SimpleNamespace(args={"restaurant": "Chez Marcel", "partySize": 4}, response={}))
CANCEL = ("cancel_order", "Cancels an order.", {"orderId": "ORD-1"}, {})
BOOK = ("book_table", "Books a table.", {"restaurant": "Chez Marcel", "partySize": 4}, {})


def _pending(reply: str, language: str = "fr", function=BOOK, done=BOOKED,
             request: str = "Réserve chez Marcel pour 4") -> list:
    words = _read(reply, function, request, language)
    return left_pending(Outcome([done], [], []), words, reply)


CANCELLED = ("cancel_order", SimpleNamespace(args={"orderId": "ORD-1"}, response={}))


@pytest.mark.parametrize("reply, function, done, asked", [
    ("Je réserve Chez Marcel pour 4 personnes, samedi à 19:30 ?", BOOK, BOOKED, "Réserve chez Marcel pour 4"),
    ("Je vous réserve Chez Marcel, 4 couverts, ce soir ?", BOOK, BOOKED, "Réserve chez Marcel pour 4"),
    ("J'annule la commande ORD-1, d'accord ?", CANCEL, CANCELLED, "Annule la commande ORD-1"),
])
def test_the_agents_present_in_a_question_after_doing_it_is_left_pending(monkeypatch, reply, function, done, asked):
    assert _pending(reply, "fr", function, done, asked), reply
    monkeypatch.setattr("sim.eval.telling._proposed", lambda claim, leave: False)  # switched off: the claim tells it
    assert not _pending(reply, "fr", function, done, asked), reply


@pytest.mark.parametrize("reply", [
    "J'ai réservé Chez Marcel pour 4 personnes, samedi à 19:30.",
    "Chez Marcel est réservé pour 4. Je vous envoie un rappel ?",
    "C'est réservé chez Marcel pour 4 ; voulez-vous autre chose ?",
    "Table réservée Chez Marcel pour 4 personnes, samedi à 19:30.",
    "I booked Chez Marcel for 4, Saturday at 7:30pm. Anything else?",
    "Chez Marcel is booked for 4. I've saved it to your calendar too, OK?",
])
def test_a_past_told_or_another_thing_asked_is_not(reply):
    language = "fr" if any(w in reply for w in ("réserv", "Je ")) else "en"
    assert not _pending(reply, language, request="Book Chez Marcel for 4" if language == "en" else
                        "Réserve chez Marcel pour 4"), reply


# Where the words come from, before a pronoun ------------------------------------------------------------

ORDERS = [{"orderId": "ORD-1", "status": "SHIPPED", "canCancel": False},
          {"orderId": "ORD-2", "status": "PROCESSING", "canCancel": True}]
ORDER_SCHEMA = {"properties": {"orderId": {"type": "string"}, "status": {"type": "string"},
                               "canCancel": {"type": "boolean"}}}


def _order_facts(reply: str) -> list[str]:
    known = Known(dt.date(2026, 3, 14), said=["Status of ORD-1 and ORD-2?"])
    for order in ORDERS:
        known.add_result(ORDER_SCHEMA, order, {})
    return made_up(reply, known, Cues.of(["en"]), language="en")


@pytest.mark.parametrize("reply", [
    "ORD-2 is processing. ORD-1 has shipped. According to its record, it can no longer be cancelled.",
    "ORD-2 is processing. ORD-1 has shipped. Per the app it can't be cancelled anymore.",
    "ORD-2 is processing. ORD-1 has shipped. Going by what the system shows, it can no longer be cancelled.",
    "ORD-1 has shipped. ORD-2 is processing. Based on the order details, it can still be cancelled.",
])
def test_a_pronoun_after_its_source_points_back(reply):
    assert not _order_facts(reply), reply


@pytest.mark.parametrize("reply", [
    "ORD-1 has shipped. According to its record, it can still be cancelled.",
    "ORD-2 is processing. Per the app it can't be cancelled anymore.",
])
def test_a_pronoun_after_its_source_held_to_the_wrong_value_is_still_misstated(reply):
    assert _order_facts(reply), reply
