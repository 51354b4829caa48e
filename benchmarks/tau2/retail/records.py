"""What the retail functions return: the store's records as typed documents.

The database keeps τ²'s shapes; a typed document cannot hold a map, so the maps of the
data (an item's options, a product's variants, a user's payment methods) are lists here,
in the data's order, each entry carrying its own key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from droid.appfunctions import app_function_serializable
from sim.tau2.appkit import PersonName


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class ItemOption:
    """One option that sets an item apart from the other items of its product.

    Attributes:
        name: The option, such as color or size.
        value: Its value for this item, such as blue or large.
    """

    name: str
    value: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Item:
    """An item: one variant of a product, with its own item ID, options, price and stock.

    Attributes:
        item_id: The item's ten-digit ID (not the product's ID).
        options: What sets this item apart, such as its color and size.
        available: Whether the item is in stock and can be ordered.
        price: The item's current price in dollars.
    """

    item_id: str
    options: list[ItemOption]
    available: bool
    price: float


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Product:
    """A product type of the store and all of its items.

    Attributes:
        name: The product's name, such as T-Shirt.
        product_id: The product's ten-digit ID (not an item's ID).
        variants: Every item of the product, available or not.
    """

    name: str
    product_id: str
    variants: list[Item]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class ProductType:
    """A product type's name and ID.

    Attributes:
        name: The product's name.
        product_id: The product's ID.
    """

    name: str
    product_id: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Address:
    """A postal address.

    Attributes:
        address1: The first line, such as 123 Main St.
        address2: The second line, such as Apt 1, or empty.
        city: The city.
        country: The country, such as USA.
        state: The state, such as CA.
        zip: The zip code, such as 12345.
    """

    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class PaymentMethod:
    """A payment method saved in a user's profile.

    Attributes:
        source: The kind of payment method: credit_card, paypal or gift_card.
        id: The payment method's ID, such as credit_card_0000000 or gift_card_0000000.
        brand: A credit card's brand, such as visa; null for the other kinds.
        last_four: A credit card's last four digits; null for the other kinds.
        balance: A gift card's balance in dollars; null for the other kinds.
    """

    source: Literal["credit_card", "paypal", "gift_card"]
    id: str
    brand: str | None
    last_four: str | None
    balance: float | None


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class User:
    """A customer's profile.

    Attributes:
        user_id: The user's ID, such as sara_doe_496.
        name: The user's name.
        address: The user's default address.
        email: The user's email address.
        payment_methods: The payment methods saved in the profile.
        orders: The IDs of the user's orders.
    """

    user_id: str
    name: PersonName
    address: Address
    email: str
    payment_methods: list[PaymentMethod]
    orders: list[str]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class OrderItem:
    """An item in an order, at the price it was bought for.

    Attributes:
        name: The product's name.
        product_id: The product's ID.
        item_id: The item's ID.
        price: The price paid for the item, in dollars.
        options: The item's options.
    """

    name: str
    product_id: str
    item_id: str
    price: float
    options: list[ItemOption]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Fulfillment:
    """A shipment of some of an order's items.

    Attributes:
        tracking_id: The shipment's tracking IDs.
        item_ids: The IDs of the items it holds.
    """

    tracking_id: list[str]
    item_ids: list[str]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class OrderPayment:
    """A payment made for an order, or a refund of one.

    Attributes:
        transaction_type: payment or refund.
        amount: The amount in dollars.
        payment_method_id: The payment method it was made with or refunded to.
    """

    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Order:
    """An order, its items, status, shipments and payments.

    Attributes:
        order_id: The order's ID, such as #W0000000.
        user_id: The ID of the user who placed it.
        address: The shipping address.
        items: The items ordered.
        status: pending, pending (item modified), processed, delivered, cancelled, exchange requested or return requested.
        fulfillments: The shipments so far.
        payment_history: The order's payments and refunds, oldest first.
        cancel_reason: Why the order was cancelled, once it is.
        exchange_items: The items to be exchanged, once an exchange is requested.
        exchange_new_items: The items they are to be exchanged for.
        exchange_payment_method_id: The payment method that pays or receives the exchange's price difference.
        exchange_price_difference: What the exchange costs (negative: what it refunds), in dollars.
        return_items: The items to be returned, once a return is requested.
        return_payment_method_id: The payment method the return is refunded to.
    """

    order_id: str
    user_id: str
    address: Address
    items: list[OrderItem]
    status: str
    fulfillments: list[Fulfillment]
    payment_history: list[OrderPayment]
    cancel_reason: str | None
    exchange_items: list[str] | None
    exchange_new_items: list[str] | None
    exchange_payment_method_id: str | None
    exchange_price_difference: float | None
    return_items: list[str] | None
    return_payment_method_id: str | None


def options(record: dict[str, str]) -> list[ItemOption]:
    return [ItemOption(name, value) for name, value in record.items()]


def item(record: dict[str, Any]) -> Item:
    return Item(record["item_id"], options(record["options"]), record["available"], record["price"])


def product(record: dict[str, Any]) -> Product:
    return Product(record["name"], record["product_id"], [item(v) for v in record["variants"].values()])


def address(record: dict[str, Any]) -> Address:
    return Address(record["address1"], record["address2"], record["city"], record["country"], record["state"],
                   record["zip"])


def user(record: dict[str, Any]) -> User:
    methods = [PaymentMethod(m["source"], m["id"], m.get("brand"), m.get("last_four"), m.get("balance"))
               for m in record["payment_methods"].values()]
    return User(record["user_id"], PersonName.of(record["name"]), address(record["address"]), record["email"], methods,
                list(record["orders"]))


def order(record: dict[str, Any]) -> Order:
    items = [OrderItem(i["name"], i["product_id"], i["item_id"], i["price"], options(i["options"]))
             for i in record["items"]]
    fulfillments = [Fulfillment(list(f["tracking_id"]), list(f["item_ids"])) for f in record["fulfillments"]]
    payments = [OrderPayment(p["transaction_type"], p["amount"], p["payment_method_id"])
                for p in record["payment_history"]]
    return Order(
        record["order_id"], record["user_id"], address(record["address"]), items, record["status"], fulfillments,
        payments, record.get("cancel_reason"), record.get("exchange_items"), record.get("exchange_new_items"),
        record.get("exchange_payment_method_id"), _number(record.get("exchange_price_difference")),
        record.get("return_items"), record.get("return_payment_method_id"),
    )


def _number(value: float | int | None) -> float | None:
    """A price difference τ² leaves as the integer 0 when an exchange names no items."""
    return None if value is None else float(value)
