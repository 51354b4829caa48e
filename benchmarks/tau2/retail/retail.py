"""The retail app's functions: one per tool of τ²-bench's retail domain, behaving as that tool does.

Each function reads and changes the store's database in the app's own storage (one session
per call, sim/tau2/appkit.py). Every check, in τ²'s order, raises the AppFunction exception
of the same meaning: a missing order, user, product, item or payment method is
``AppFunctionElementNotFoundException``; a request the record's state or the rules refuse is
``AppFunctionInvalidArgumentException``. Where τ²'s tool changes a record and then raises,
so does this one, and the change stays (docs/benchmarks.md lists every such quirk).
"""

from __future__ import annotations

from typing import Any

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    app_function,
)
from sim.tau2.appkit import Records, calculate, open_records

from . import records
from .records import Item, Order, Product, ProductType, User

CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def _order_that_is(db: Records, order_id: str, status: str, change: str, *, or_contains: bool = False) -> dict[str, Any]:
    """The order, if its status is ``status`` (``or_contains``: has it in it, as "pending (item
    modified)" has "pending": τ²'s address and payment changes take that, its other tools do not)."""
    order = db.require("orders", order_id, "Order")
    if not (status in order["status"] if or_contains else order["status"] == status):
        raise AppFunctionInvalidArgumentException(f"Order {order_id} is {order['status']}: only a {status} order {change}")
    return order


def _variant(db: Records, product_id: str, item_id: str) -> dict[str, Any]:
    product = db.require("products", product_id, "Product")
    if item_id not in product["variants"]:
        raise AppFunctionElementNotFoundException(f"Product {product_id} has no item {item_id}")
    return product["variants"][item_id]


def _payment_method(db: Records, user_id: str, payment_method_id: str) -> dict[str, Any]:
    methods = db.require("users", user_id, "User")["payment_methods"]
    if payment_method_id not in methods:
        raise AppFunctionElementNotFoundException(f"User {user_id} has no payment method {payment_method_id}")
    return methods[payment_method_id]


def _gift_card(method: dict[str, Any]) -> bool:
    return method["source"] == "gift_card"


def _held_items(order: dict[str, Any], item_ids: list[str]) -> None:
    """Each item ID as many times as the order holds it, at most."""
    held = [item["item_id"] for item in order["items"]]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            raise AppFunctionElementNotFoundException(
                f"Order {order['order_id']} does not hold item {item_id} {item_ids.count(item_id)} time(s)")


def _order_item(order: dict[str, Any], item_id: str) -> dict[str, Any]:
    """The first item of the order with this ID."""
    item = next((item for item in order["items"] if item["item_id"] == item_id), None)
    if item is None:
        raise AppFunctionElementNotFoundException(f"Order {order['order_id']} has no item {item_id}")
    return item


def _new_variant(db: Records, item: dict[str, Any], new_item_id: str) -> dict[str, Any]:
    variant = _variant(db, item["product_id"], new_item_id)
    if not variant["available"]:
        raise AppFunctionElementNotFoundException(f"Item {new_item_id} is not available")
    return variant


def _address(address1: str, address2: str, city: str, state: str, country: str, zip: str) -> dict[str, str]:
    return {"address1": address1, "address2": address2, "city": city, "state": state, "country": country,
            "zip": zip}


def _payment(kind: str, amount: float, payment_method_id: str) -> dict[str, Any]:
    # τ² builds an OrderPayment, whose amount is a float: a whole number is stored as one.
    return {"transaction_type": kind, "amount": float(amount), "payment_method_id": payment_method_id}


class RetailFunctionService(AppFunctionServiceEntryPoint):
    service_name = "dev.droidsim.tau2.retail.RetailFunctionService"
    xml_file_name = "retail_functions"

    def _reading(self):
        return open_records(self.context.data_dir, "retail", writes=False)

    def _writing(self):
        return open_records(self.context.data_dir, "retail", writes=True)

    # droidsim-lint: disable=F9 τ²'s calculate, the same tool in both domains; an agent works with one domain's app at a time
    @app_function(described_by_docstring=True)
    def calculate(self, expression: str) -> str:
        """Works out an arithmetic expression and returns the result rounded to two decimals.

        Args:
            expression: Numbers, + - * /, parentheses and spaces, such as '2 + 2' or '(99.5 - 12) * 3'.

        Returns:
            The result, such as 4.0.
        """
        return calculate(expression)

    @app_function(described_by_docstring=True, destructive=True)
    def cancel_pending_order(self, order_id: str, reason: str) -> Order:
        """Cancels a pending order and refunds its payments. An order already processed or delivered
        cannot be cancelled. A payment made with a gift card goes back to the gift card at once;
        any other payment is refunded within 5 to 7 business days. A cancellation cannot be undone.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            reason: Why the user cancels: 'no longer needed' or 'ordered by mistake'.

        Returns:
            The order after the cancellation.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "pending", "can be cancelled")
            if reason not in CANCEL_REASONS:
                raise AppFunctionInvalidArgumentException(
                    f"The reason must be 'no longer needed' or 'ordered by mistake', not {reason!r}")
            refunds = []
            for payment in order["payment_history"]:
                refunds.append(_payment("refund", payment["amount"], payment["payment_method_id"]))
                method = _payment_method(db, order["user_id"], payment["payment_method_id"])
                if _gift_card(method):
                    method["balance"] = round(method["balance"] + payment["amount"], 2)
            order["status"] = "cancelled"
            order["cancel_reason"] = reason
            order["payment_history"].extend(refunds)
            return records.order(order)

    @app_function(described_by_docstring=True, destructive=True)
    def exchange_delivered_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                       payment_method_id: str) -> Order:
        """Requests an exchange of items of a delivered order for other items of the same products.
        A delivered order can be returned or exchanged only once. The price difference is paid
        with, or refunded to, the given payment method; a gift card must cover what is paid.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            item_ids: The IDs of the items to exchange; an item may be listed as many times as the order holds it.
            new_item_ids: The IDs of the items to get instead, in the same order: each of the same product as the item in its position, and available.
            payment_method_id: The ID of the payment method for the price difference, such as gift_card_0000000 or credit_card_0000000, from the user's profile.

        Returns:
            The order, with the exchange requested.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "delivered", "can have items exchanged")
            _held_items(order, item_ids)
            if len(item_ids) != len(new_item_ids):
                raise AppFunctionInvalidArgumentException("Give as many new items as items to exchange")
            difference = 0
            for item_id, new_item_id in zip(item_ids, new_item_ids):
                item = _order_item(order, item_id)
                difference += _new_variant(db, item, new_item_id)["price"] - item["price"]
            difference = round(difference, 2)
            method = _payment_method(db, order["user_id"], payment_method_id)
            if _gift_card(method) and method["balance"] < difference:
                raise AppFunctionInvalidArgumentException(
                    f"Gift card {payment_method_id} cannot cover the price difference of {difference}")
            order["status"] = "exchange requested"
            order["exchange_items"] = sorted(item_ids)
            order["exchange_new_items"] = sorted(new_item_ids)
            order["exchange_payment_method_id"] = payment_method_id
            order["exchange_price_difference"] = difference
            return records.order(order)

    @app_function(described_by_docstring=True)
    def find_user_id_by_name_zip(self, first_name: str, last_name: str, zip: str) -> str:
        """Finds a user's ID by their name and zip code (names compared without regard to case).
        Find a user by email first; use this when the user cannot give their email or is not found by it.

        Args:
            first_name: The user's first name, such as John.
            last_name: The user's last name, such as Doe.
            zip: The zip code of the user's address, such as 12345.

        Returns:
            The user's ID.
        """
        with self._reading() as db:
            for user_id, user in db.scan("users"):
                name = user["name"]
                if (name["first_name"].lower() == first_name.lower() and name["last_name"].lower() == last_name.lower()
                        and user["address"]["zip"] == zip):
                    return user_id
        raise AppFunctionElementNotFoundException(f"No user is named {first_name} {last_name} with zip code {zip}")

    @app_function(described_by_docstring=True)
    def find_user_id_by_email(self, email: str) -> str:
        """Finds a user's ID by their email address (compared without regard to case).

        Args:
            email: The user's email address, such as something@example.com.

        Returns:
            The user's ID.
        """
        with self._reading() as db:
            for user_id, user in db.scan("users"):
                if user["email"].lower() == email.lower():
                    return user_id
        raise AppFunctionElementNotFoundException(f"No user has the email address {email}")

    @app_function(described_by_docstring=True)
    def get_order_details(self, order_id: str) -> Order:
        """Gets an order's status, items, shipments and payments.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.

        Returns:
            The order.
        """
        with self._reading() as db:
            return records.order(db.require("orders", order_id, "Order"))

    @app_function(described_by_docstring=True)
    def get_product_details(self, product_id: str) -> Product:
        """Gets a product type and every item of it, with their options, prices and stock.

        Args:
            product_id: The product's ten-digit ID (a product ID, not an item ID), such as 6086499569.

        Returns:
            The product and its items.
        """
        with self._reading() as db:
            return records.product(db.require("products", product_id, "Product"))

    @app_function(described_by_docstring=True)
    def get_item_details(self, item_id: str) -> Item:
        """Gets one item's options, price and stock.

        Args:
            item_id: The item's ten-digit ID (an item ID, not a product ID), such as 1008292230.

        Returns:
            The item.
        """
        with self._reading() as db:
            for _, product in db.scan("products"):
                if item_id in product["variants"]:
                    return records.item(product["variants"][item_id])
        raise AppFunctionElementNotFoundException(f"Item {item_id} not found")

    @app_function(described_by_docstring=True)
    def get_user_details(self, user_id: str) -> User:
        """Gets a user's profile: name, address, email, saved payment methods and order IDs.

        Args:
            user_id: The user's ID, such as sara_doe_496.

        Returns:
            The user's profile.
        """
        with self._reading() as db:
            return records.user(db.require("users", user_id, "User"))

    @app_function(described_by_docstring=True)
    def list_all_product_types(self) -> list[ProductType]:
        """Lists the name and product ID of every product type the store sells (there are 50),
        sorted by name. Each product type has several items, told apart by their options.

        Returns:
            Every product type's name and product ID.
        """
        with self._reading() as db:
            by_name = {product["name"]: product["product_id"] for _, product in db.scan("products")}
        return [ProductType(name, product_id) for name, product_id in sorted(by_name.items())]

    @app_function(described_by_docstring=True, destructive=True)
    def modify_pending_order_address(self, order_id: str, address1: str, address2: str, city: str, state: str,
                                     country: str, zip: str) -> Order:
        """Changes the shipping address of a pending order.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            address1: The first line of the address, such as 123 Main St.
            address2: The second line of the address, such as Apt 1, or empty.
            city: The city, such as San Francisco.
            state: The state, such as CA.
            country: The country, such as USA.
            zip: The zip code, such as 12345.

        Returns:
            The order with its new address.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "pending", "can be changed", or_contains=True)
            order["address"] = _address(address1, address2, city, state, country, zip)
            return records.order(order)

    @app_function(described_by_docstring=True, destructive=True)
    def modify_pending_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                   payment_method_id: str) -> Order:
        """Swaps items of a pending order for other items of the same products. An order's items
        can be changed only once. The price difference is paid with, or refunded to, the given
        payment method; a gift card must cover what is paid.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            item_ids: The IDs of the items to change; an item may be listed as many times as the order holds it.
            new_item_ids: The IDs of the items to get instead, in the same order: each different from the item in its position, of the same product, and available.
            payment_method_id: The ID of the payment method for the price difference, such as gift_card_0000000 or credit_card_0000000, from the user's profile.

        Returns:
            The order with its new items.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "pending", "can have items changed")
            _held_items(order, item_ids)
            if len(item_ids) != len(new_item_ids):
                raise AppFunctionInvalidArgumentException("Give as many new items as items to change")
            difference, variant = 0, None
            for item_id, new_item_id in zip(item_ids, new_item_ids):
                if item_id == new_item_id:
                    raise AppFunctionInvalidArgumentException(f"Item {item_id} cannot be changed for itself")
                item = _order_item(order, item_id)
                variant = _new_variant(db, item, new_item_id)
                difference += variant["price"] - item["price"]
            method = _payment_method(db, order["user_id"], payment_method_id)
            if _gift_card(method) and method["balance"] < difference:
                raise AppFunctionInvalidArgumentException(
                    f"Gift card {payment_method_id} cannot cover the price difference of {difference}")
            order["payment_history"].append(
                _payment("payment" if difference > 0 else "refund", abs(difference), payment_method_id))
            if _gift_card(method):
                method["balance"] = round(method["balance"] - difference, 2)
            for item_id, new_item_id in zip(item_ids, new_item_ids):
                item = _order_item(order, item_id)
                # As τ²'s tool does: every changed item takes the price and options of the *last*
                # new item checked above (docs/benchmarks.md).
                item["item_id"] = new_item_id
                item["price"] = variant["price"]
                item["options"] = variant["options"]
            order["status"] = "pending (item modified)"
            return records.order(order)

    @app_function(described_by_docstring=True, destructive=True)
    def modify_pending_order_payment(self, order_id: str, payment_method_id: str) -> Order:
        """Pays a pending order with another payment method: the order's payment is made again
        with the new method and refunded to the old one. A gift card must cover the amount.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            payment_method_id: The ID of the new payment method, such as gift_card_0000000 or credit_card_0000000, from the user's profile.

        Returns:
            The order with its new payment.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "pending", "can be changed", or_contains=True)
            method = _payment_method(db, order["user_id"], payment_method_id)
            history = order["payment_history"]
            if len(history) != 1 or history[0]["transaction_type"] != "payment":
                raise AppFunctionInvalidArgumentException(
                    f"Order {order_id} has more than its one payment, so its payment method cannot be changed")
            if history[0]["payment_method_id"] == payment_method_id:
                raise AppFunctionInvalidArgumentException(f"Order {order_id} is already paid with {payment_method_id}")
            amount = history[0]["amount"]
            if _gift_card(method) and method["balance"] < amount:
                raise AppFunctionInvalidArgumentException(f"Gift card {payment_method_id} cannot cover {amount}")
            history.extend([_payment("payment", amount, payment_method_id),
                            _payment("refund", amount, history[0]["payment_method_id"])])
            if _gift_card(method):
                method["balance"] = round(method["balance"] - amount, 2)
            previous = _payment_method(db, order["user_id"], history[0]["payment_method_id"])
            if _gift_card(previous):
                previous["balance"] = round(previous["balance"] + amount, 2)
            return records.order(order)

    @app_function(described_by_docstring=True, destructive=True)
    def modify_user_address(self, user_id: str, address1: str, address2: str, city: str, state: str,
                            country: str, zip: str) -> User:
        """Changes a user's default address (the address of orders already placed stays).

        Args:
            user_id: The user's ID, such as sara_doe_496.
            address1: The first line of the address, such as 123 Main St.
            address2: The second line of the address, such as Apt 1, or empty.
            city: The city, such as San Francisco.
            state: The state, such as CA.
            country: The country, such as USA.
            zip: The zip code, such as 12345.

        Returns:
            The user's profile with the new address.
        """
        with self._writing() as db:
            user = db.require("users", user_id, "User")
            user["address"] = _address(address1, address2, city, state, country, zip)
            return records.user(user)

    @app_function(described_by_docstring=True, destructive=True)
    def return_delivered_order_items(self, order_id: str, item_ids: list[str], payment_method_id: str) -> Order:
        """Requests a return of items of a delivered order; the user then gets an email saying
        how and where to send them. A delivered order can be returned or exchanged only once.
        The refund goes to the order's original payment method or to a gift card.

        Args:
            order_id: The order's ID, which starts with '#', such as #W0000000.
            item_ids: The IDs of the items to return; an item may be listed as many times as the order holds it.
            payment_method_id: The ID of the payment method to refund: the one the order was paid with, or a gift card, such as gift_card_0000000, from the user's profile.

        Returns:
            The order, with the return requested.
        """
        with self._writing() as db:
            order = _order_that_is(db, order_id, "delivered", "can have items returned")
            user = db.require("users", order["user_id"], "User")
            method = _payment_method(db, user["user_id"], payment_method_id)
            if not _gift_card(method) and payment_method_id != order["payment_history"][0]["payment_method_id"]:
                raise AppFunctionInvalidArgumentException(
                    f"A return is refunded to the order's original payment method or a gift card, not {payment_method_id}")
            _held_items(order, item_ids)
            order["status"] = "return requested"
            order["return_items"] = sorted(item_ids)
            order["return_payment_method_id"] = payment_method_id
            return records.order(order)

    # droidsim-lint: disable=D1,P1,F9 τ²'s tool: it hands the user to a person and changes no data; the summary is what the benchmark's agents write
    @app_function(described_by_docstring=True)
    def transfer_to_human_agents(self, summary: str) -> str:
        """Hands the user over to a human agent, with a summary of their issue. Only when the user
        asks for a human agent, or when the policy and these functions cannot resolve the issue.

        Args:
            summary: A summary of the user's issue, for the human agent.

        Returns:
            That the user was transferred.
        """
        return "Transfer successful"
