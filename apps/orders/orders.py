"""The orders app's AppFunctions: fetch an order's details, cancel an order."""

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

from .repository import CANCELLABLE, Order, OrderRepository

OrderStatus = Literal["PROCESSING", "CONFIRMED", "SHIPPED", "DELIVERED", "CANCELLED"]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class OrderItem:
    """A product line of an order.

    Attributes:
        sku: The product's stock-keeping unit, for example SKU-1042.
        name: The product name.
        quantity: How many units were ordered.
    """

    sku: str
    name: str
    quantity: Int32


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class OrderDetails:
    """The status and delivery details of an order.

    Attributes:
        order_id: The order identifier.
        status: The order's status.
        carrier: The shipping carrier once the order has shipped, otherwise null.
        tracking_number: The carrier's tracking number once shipped, otherwise null.
        estimated_delivery: The expected delivery date, or null when unknown.
        items: The products in the order.
        item_count: The total number of units in the order.
        can_cancel: Whether the order can still be cancelled.
    """

    order_id: str
    status: OrderStatus
    carrier: str | None
    tracking_number: str | None
    estimated_delivery: date | None
    items: list[OrderItem]
    item_count: Int32
    can_cancel: bool


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class CancelOrderResult:
    """The outcome of a cancellation request.

    Attributes:
        order_id: The order identifier.
        cancelled: True when the order is now cancelled.
        status: The order's status after the request.
        message: A short explanation of the outcome.
    """

    order_id: str
    cancelled: bool
    status: OrderStatus
    message: str


def _details(order: Order) -> OrderDetails:
    items = [OrderItem(i.sku, i.name, i.quantity) for i in order.items]
    return OrderDetails(
        order_id=order.id,
        status=order.status,
        carrier=order.carrier,
        tracking_number=order.tracking_number,
        estimated_delivery=order.estimated_delivery,
        items=items,
        item_count=sum(i.quantity for i in items),
        can_cancel=order.status in CANCELLABLE,
    )


class OrderFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.orders.OrderFunctionService"
    xml_file_name = "order_functions"

    def __init__(self) -> None:
        self.repository = OrderRepository()

    def _order(self, order_id: str) -> Order:
        order = self.repository.find(order_id)
        if order is None:
            raise AppFunctionElementNotFoundException(f"No order found with ID {order_id}")
        return order

    @app_function(described_by_docstring=True)
    async def fetch_order_details(self, order_id: str) -> OrderDetails:
        """Fetches the status, carrier, estimated delivery date and items of a customer order.

        Args:
            order_id: The alphanumeric order identifier, for example ORD-8492.

        Returns:
            The order's details.
        """
        return _details(self._order(order_id))

    @app_function(described_by_docstring=True, destructive=True)
    def cancel_order(self, order_id: str, reason: str | None = None) -> CancelOrderResult:
        """Cancels an order that has not shipped yet. A cancelled order cannot be restored.

        Orders that are already shipped, delivered or cancelled are left unchanged
        and the result says why.

        Args:
            order_id: The identifier of the order to cancel, for example ORD-7310.
            reason: The reason the user gave for cancelling, if any.

        Returns:
            Whether the order was cancelled, and its resulting status.
        """
        order, cancelled = self.repository.cancel(self._order(order_id).id, reason)
        if cancelled:
            message = "Order cancelled."
        elif order.status == "CANCELLED":
            message = "The order was already cancelled."
        else:
            message = f"The order cannot be cancelled because it is {order.status.lower()}."
        return CancelOrderResult(order.id, cancelled, order.status, message)
