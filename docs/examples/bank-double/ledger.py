"""The bank double's state, shared by its classes: a payment (PaymentFunctions) shows in the
balance and the transactions (AccountFunctions). It lives as long as the app process."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Account:
    balance: float
    transactions: list[tuple[str, str, float]] = field(default_factory=list)  # (date, payee, amount), newest last


class Ledger:
    def __init__(self) -> None:
        self.accounts = {
            "ACC-1": Account(1250.0, [("2025-06-01", "Rent", -800.0), ("2025-06-03", "Salary", 2050.0)]),
            "ACC-2": Account(90.5),
        }
        self.frozen_cards: set[str] = set()
        self.payments = 0

    def pay(self, account: Account, payee: str, amount: float) -> str:
        account.balance -= amount
        account.transactions.append(("2025-06-14", payee, -amount))
        self.payments += 1
        return f"PAY-{1000 + self.payments}"


LEDGER = Ledger()
