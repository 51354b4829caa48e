"""A double of com.example.bank's AccountFunctions: the skeleton `droidsim responses skeleton`
wrote, filled in. Balances and transactions come from the ledger the payments change."""

from __future__ import annotations

from dataclasses import dataclass

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionServiceEntryPoint,
    Int32,
    app_function,
    app_function_serializable,
)

from .ledger import LEDGER


@app_function_serializable(qualified_name='com.example.bank.accounts.Balance')
@dataclass
class Balance:
    """The Balance of the app's XML."""
    amount: float
    currency: str


@app_function_serializable(qualified_name='com.example.bank.accounts.Transaction')
@dataclass
class Transaction:
    """The Transaction of the app's XML."""
    date: str
    payee: str
    amount: float


@app_function_serializable(qualified_name='com.example.bank.accounts.TransactionList')
@dataclass
class TransactionList:
    """The TransactionList of the app's XML."""
    transactions: list[Transaction]


class AccountFunctions(AppFunctionServiceEntryPoint):
    service_name = 'com.example.bank.accounts.AccountFunctions'
    xml_file_name = 'account_functions'  # only `appfunctions generate` reads it

    @app_function
    def getBalance(self, account_id: str) -> Balance:
        """Gets the current balance of one of the user's bank accounts."""
        return Balance(amount=_account(account_id).balance, currency="EUR")

    @app_function
    def listTransactions(self, account_id: str, limit: Int32 = 0) -> TransactionList:
        """Lists the most recent transactions of an account, newest first."""
        newest = list(reversed(_account(account_id).transactions))[: limit or 50]
        return TransactionList(transactions=[Transaction(date=d, payee=p, amount=a) for d, p, a in newest])


def _account(account_id: str):
    account = LEDGER.accounts.get(account_id)
    if account is None:
        raise AppFunctionElementNotFoundException(f"No account with ID {account_id}")
    return account
