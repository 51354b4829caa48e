"""The app's order store: a few orders in memory, safe to use from several threads."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from datetime import date

# Statuses an order moves through; only the first two can still be cancelled.
CANCELLABLE = ("PROCESSING", "CONFIRMED")


@dataclass(frozen=True)
class Item:
    sku: str
    name: str
    quantity: int


@dataclass(frozen=True)
class Order:
    id: str
    status: str
    carrier: str | None
    tracking_number: str | None
    estimated_delivery: date | None
    items: tuple[Item, ...] = field(default_factory=tuple)
    cancellation_reason: str | None = None


def _seed() -> dict[str, Order]:
    orders = [
        Order(
            "ORD-8492",
            "SHIPPED",
            "UPS",
            "1Z999AA10123456784",
            date(2025, 6, 14),
            (Item("SKU-1042", "Trail running shoes", 1), Item("SKU-2210", "Running socks (3-pack)", 2)),
        ),
        Order(
            "ORD-7310",
            "PROCESSING",
            None,
            None,
            date(2025, 6, 18),
            (Item("SKU-5531", "Insulated water bottle", 1),),
        ),
        Order(
            "ORD-6025",
            "DELIVERED",
            "DHL",
            "JD014600006281234567",
            date(2025, 5, 30),
            (Item("SKU-0877", "Headlamp", 1), Item("SKU-0878", "AAA batteries (8-pack)", 1)),
        ),
        Order("ORD-5117", "CONFIRMED", None, None, date(2025, 6, 20), (Item("SKU-3300", "Camping stove", 1),)),
    ]
    return {o.id: o for o in orders}


class OrderRepository:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._orders = _seed()

    def find(self, order_id: str) -> Order | None:
        with self._lock:
            return self._orders.get(order_id.strip().upper())

    def cancel(self, order_id: str, reason: str | None) -> tuple[Order, bool]:
        """Cancel the order if it has not shipped; returns (order, whether it was cancelled)."""
        with self._lock:
            order = self._orders[order_id.strip().upper()]
            if order.status not in CANCELLABLE:
                return order, False
            cancelled = replace(order, status="CANCELLED", cancellation_reason=reason)
            self._orders[order.id] = cancelled
            return cancelled, True
