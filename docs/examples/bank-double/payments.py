"""A double of com.example.bank's PaymentFunctions: a payment leaves the account's balance."""

from __future__ import annotations

from typing import Literal

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    app_function,
)

from .ledger import LEDGER


class PaymentFunctions(AppFunctionServiceEntryPoint):
    service_name = 'com.example.bank.payments.PaymentFunctions'
    xml_file_name = 'payment_functions'  # only `appfunctions generate` reads it

    @app_function
    def sendPayment(self, from_account_id: str, payee: str, amount: float, speed: Literal['STANDARD', 'INSTANT']) -> str:
        """Sends money from one of the user's accounts to a payee. The money leaves the account at once and cannot be recalled."""
        account = LEDGER.accounts.get(from_account_id)
        if account is None:
            raise AppFunctionElementNotFoundException(f"No account with ID {from_account_id}")
        if amount <= 0 or amount > account.balance:
            raise AppFunctionInvalidArgumentException(f"Cannot send {amount:.2f} from {from_account_id}")
        return LEDGER.pay(account, payee, amount)
