"""A stateful double of the Kotlin orders app: the skeleton `droidsim responses skeleton`
wrote, with its methods filled in. Cancelling an order changes what fetching it says."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionServiceEntryPoint,
    Int32,
    app_function,
    app_function_serializable,
)

Status = Literal['PROCESSING', 'CONFIRMED', 'SHIPPED', 'DELIVERED', 'CANCELLED']


@app_function_serializable(qualified_name='com.example.orders.OrderItem')
@dataclass
class OrderItem:
    sku: str
    name: str
    quantity: Int32


@app_function_serializable(qualified_name='com.example.orders.OrderDetails')
@dataclass
class OrderDetails:
    order_id: str
    status: Status
    carrier: str | None
    tracking_number: str | None
    estimated_delivery: date | None
    items: list[OrderItem]
    item_count: Int32
    can_cancel: bool


@app_function_serializable(qualified_name='com.example.orders.CancelOrderResult')
@dataclass
class CancelOrderResult:
    order_id: str
    cancelled: bool
    status: Status
    message: str


class OrderFunctionService(AppFunctionServiceEntryPoint):
    service_name = 'com.example.orders.OrderFunctionService'
    xml_file_name = 'order_function_service'

    def __init__(self) -> None:
        self.statuses = {"ORD-7310": "PROCESSING", "ORD-8492": "SHIPPED"}

    @app_function
    def fetch_order_details(self, order_id: str) -> OrderDetails:
        status = self._status(order_id)
        items = [OrderItem("SKU-1042", "Trail running shoes", 1)]
        return OrderDetails(order_id, status, None, None, date(2025, 6, 14), items, 1, status == "PROCESSING")

    @app_function
    def cancel_order(self, order_id: str, reason: str | None = None) -> CancelOrderResult:
        if self._status(order_id) != "PROCESSING":
            return CancelOrderResult(order_id, False, self.statuses[order_id], "The order cannot be cancelled.")
        self.statuses[order_id] = "CANCELLED"
        return CancelOrderResult(order_id, True, "CANCELLED", "Order cancelled.")

    def _status(self, order_id: str) -> Status:
        if order_id not in self.statuses:
            raise AppFunctionElementNotFoundException(f"No order found with ID {order_id}")
        return self.statuses[order_id]
