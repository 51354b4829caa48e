"""A double of com.example.bank's CardFunctions: freezing a card remembers it."""

from __future__ import annotations

from typing import Literal

from droid.appfunctions import (
    AppFunctionServiceEntryPoint,
    app_function,
)

from .ledger import LEDGER


class CardFunctions(AppFunctionServiceEntryPoint):
    service_name = 'com.example.bank.cards.CardFunctions'
    xml_file_name = 'card_functions'  # only `appfunctions generate` reads it

    @app_function
    def freezeCard(self, card_id: str) -> Literal['ACTIVE', 'FROZEN']:
        """Freezes a payment card so that it cannot be used until it is unfrozen."""
        LEDGER.frozen_cards.add(card_id)
        return 'FROZEN'
