"""The shape of τ²-bench's retail and airline databases, so that a loaded db.json reads as τ² reads it.

τ² validates db.json into pydantic models and compares databases by hashing ``model_dump()``:
what is hashed is the validated data, not the file. Validation changes it: a whole number where
a float is declared becomes a float (a gift card's ``100`` is ``100.0``), an optional field the
file leaves out is there as null (every reservation's ``status``), and a field the model does not
declare is dropped. These models declare the same fields with the same types (written from the
data and τ²'s documented behaviour), so ``normalize`` gives the dict τ²'s ``model_dump()`` gives,
and droidsim's apps start from exactly what τ²'s tools start from. Nested models ignore unknown
fields and the database refuses unknown collections, as τ²'s do.

τ-bench v1 kept its data as raw JSON (no models, no coercion); its layout is read as it is.
"""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Database(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- retail -----------------------------------------------------------------------------------


class RetailVariant(_Record):
    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class RetailProduct(_Record):
    name: str
    product_id: str
    variants: dict[str, RetailVariant]


class PersonName(_Record):
    first_name: str
    last_name: str


class RetailAddress(_Record):
    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class RetailCreditCard(_Record):
    source: Literal["credit_card"]
    id: str
    brand: str
    last_four: str


class RetailPaypal(_Record):
    source: Literal["paypal"]
    id: str


class RetailGiftCard(_Record):
    source: Literal["gift_card"]
    id: str
    balance: float


class RetailUser(_Record):
    user_id: str
    name: PersonName
    address: RetailAddress
    email: str
    payment_methods: dict[str, Union[RetailCreditCard, RetailGiftCard, RetailPaypal]]
    orders: list[str]


class Fulfillment(_Record):
    tracking_id: list[str]
    item_ids: list[str]


class OrderItem(_Record):
    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class OrderPayment(_Record):
    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


OrderStatus = Literal["processed", "pending", "pending (item modified)", "delivered", "cancelled",
                      "exchange requested", "return requested"]


class RetailOrder(_Record):
    order_id: str
    user_id: str
    address: RetailAddress
    items: list[OrderItem]
    status: OrderStatus
    fulfillments: list[Fulfillment]
    payment_history: list[OrderPayment]
    cancel_reason: Optional[Literal["no longer needed", "ordered by mistake"]] = None
    exchange_items: Optional[list[str]] = None
    exchange_new_items: Optional[list[str]] = None
    exchange_payment_method_id: Optional[str] = None
    exchange_price_difference: Optional[float] = None
    return_items: Optional[list[str]] = None
    return_payment_method_id: Optional[str] = None


class RetailDatabase(_Database):
    products: dict[str, RetailProduct]
    users: dict[str, RetailUser]
    orders: dict[str, RetailOrder]


# --- airline ----------------------------------------------------------------------------------

Cabin = Literal["business", "economy", "basic_economy"]


class AirlineAddress(_Record):
    address1: str
    address2: Optional[str] = None
    city: str
    country: str
    state: str
    zip: str


class Payment(_Record):
    payment_id: str
    amount: int


class AirlineCreditCard(_Record):
    source: Literal["credit_card"]
    id: str
    brand: str
    last_four: str


class AirlineGiftCard(_Record):
    source: Literal["gift_card"]
    id: str
    amount: float


class Certificate(_Record):
    source: Literal["certificate"]
    id: str
    amount: float


class Passenger(_Record):
    first_name: str
    last_name: str
    dob: str


class FlightAvailable(_Record):
    status: Literal["available"]
    available_seats: dict[Cabin, int]
    prices: dict[Cabin, int]


class FlightLanded(_Record):
    status: Literal["landed"]
    actual_departure_time_est: str
    actual_arrival_time_est: str


class FlightCancelled(_Record):
    status: Literal["cancelled"]


class FlightDelayed(_Record):
    status: Literal["delayed"]
    estimated_departure_time_est: str
    estimated_arrival_time_est: str


class FlightFlying(_Record):
    status: Literal["flying"]
    actual_departure_time_est: str
    estimated_arrival_time_est: str


class FlightOnTime(_Record):
    status: Literal["on time"]
    estimated_departure_time_est: str
    estimated_arrival_time_est: str


class Flight(_Record):
    flight_number: str
    origin: str
    destination: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    dates: dict[str, Union[FlightAvailable, FlightLanded, FlightCancelled, FlightDelayed, FlightFlying, FlightOnTime]]


class ReservationFlight(_Record):
    flight_number: str
    origin: str
    destination: str
    date: str
    price: int


class AirlineUser(_Record):
    user_id: str
    name: PersonName
    address: AirlineAddress
    email: str
    dob: str
    payment_methods: dict[str, Union[AirlineCreditCard, AirlineGiftCard, Certificate]]
    saved_passengers: list[Passenger]
    membership: Literal["gold", "silver", "regular"]
    reservations: list[str]


class Reservation(_Record):
    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: Literal["round_trip", "one_way"]
    cabin: Cabin
    flights: list[ReservationFlight]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: Literal["yes", "no"]
    status: Optional[Literal["cancelled"]] = None


class AirlineDatabase(_Database):
    flights: dict[str, Flight]
    users: dict[str, AirlineUser]
    reservations: dict[str, Reservation]


DATABASES: dict[str, type[_Database]] = {"retail": RetailDatabase, "airline": AirlineDatabase}
# Each domain's collections, in the order τ²'s database declares them.
COLLECTIONS = {domain: tuple(model.model_fields) for domain, model in DATABASES.items()}
