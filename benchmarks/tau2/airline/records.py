"""What the airline functions take and return: reservations, users and flights as typed documents.

A typed document cannot hold a map, so a user's payment methods are a list (in the data's
order) and a flight's seats and prices by cabin are documents with one field per cabin.
τ-bench v1's data leaves out a user's ID (it is the record's key) and keeps whole-number
amounts; both read the same here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from droid.appfunctions import app_function_serializable
from sim.tau2.appkit import PersonName

Cabin = Literal["basic_economy", "economy", "business"]
FlightType = Literal["one_way", "round_trip"]
YesNo = Literal["yes", "no"]


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class FlightInfo:
    """A flight on a date.

    Attributes:
        flight_number: The flight number, such as HAT001.
        date: The date of the flight, YYYY-MM-DD, such as 2024-05-01.
    """

    flight_number: str
    date: str


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Passenger:
    """A passenger.

    Attributes:
        first_name: The passenger's first name, such as Noah.
        last_name: The passenger's last name, such as Brown.
        dob: The passenger's date of birth, YYYY-MM-DD, such as 1990-01-01.
    """

    first_name: str
    last_name: str
    dob: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Payment:
    """An amount paid (negative: refunded) with one payment method.

    Attributes:
        payment_id: The payment method's ID from the user's profile, such as credit_card_7815826, gift_card_7815826 or certificate_7815826.
        amount: The amount in dollars.
    """

    payment_id: str
    amount: int


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class ReservationFlight:
    """A flight of a reservation, at the price paid for it per passenger.

    Attributes:
        flight_number: The flight number.
        origin: The origin airport's IATA code.
        destination: The destination airport's IATA code.
        date: The date of the flight.
        price: The price per passenger in dollars.
    """

    flight_number: str
    origin: str
    destination: str
    date: str
    price: int


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Reservation:
    """A reservation: its trip, flights, passengers, payments, bags and insurance.

    Attributes:
        reservation_id: The reservation's ID, such as ZFA04Y.
        user_id: The ID of the user who made it.
        origin: The trip's origin airport.
        destination: The trip's destination airport.
        flight_type: one_way or round_trip.
        cabin: basic_economy, economy or business.
        flights: Every flight of the trip.
        passengers: Every passenger (all fly the same flights in the same cabin).
        payment_history: The payments and refunds so far, oldest first.
        created_at: When it was made, YYYY-MM-DDTHH:MM:SS (Eastern time).
        total_baggages: How many checked bags it includes.
        nonfree_baggages: How many of them are paid for.
        insurance: yes or no: whether it has travel insurance.
        status: cancelled once cancelled, otherwise null.
    """

    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: str
    cabin: str
    flights: list[ReservationFlight]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: str
    status: str | None


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Address:
    """A postal address.

    Attributes:
        address1: The first line.
        address2: The second line, if any.
        city: The city.
        country: The country.
        state: The state.
        zip: The zip code.
    """

    address1: str
    address2: str | None
    city: str
    country: str
    state: str
    zip: str


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class PaymentMethod:
    """A payment method saved in a user's profile.

    Attributes:
        source: The kind of payment method: credit_card, gift_card or certificate.
        id: The payment method's ID, such as credit_card_7815826.
        brand: A credit card's brand, such as visa; null for the other kinds.
        last_four: A credit card's last four digits; null for the other kinds.
        amount: What is left on a gift card or certificate, in dollars; null for a credit card.
    """

    source: str
    id: str
    brand: str | None
    last_four: str | None
    amount: float | None


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class User:
    """A user's profile.

    Attributes:
        user_id: The user's ID, such as sara_doe_496.
        name: The user's name.
        address: The user's address.
        email: The user's email address.
        dob: The user's date of birth, YYYY-MM-DD.
        payment_methods: The payment methods saved in the profile.
        saved_passengers: Passengers saved for booking.
        membership: regular, silver or gold.
        reservations: The IDs of the user's reservations.
    """

    user_id: str
    name: PersonName
    address: Address
    email: str
    dob: str
    payment_methods: list[PaymentMethod]
    saved_passengers: list[Passenger]
    membership: str
    reservations: list[str]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class CabinCounts:
    """A number for each cabin: seats left, or prices in dollars.

    Attributes:
        basic_economy: For basic economy.
        economy: For economy.
        business: For business.
    """

    basic_economy: int
    economy: int
    business: int


# droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class DirectFlight:
    """A flight that can be booked on a date: its times, seats left and prices.

    Attributes:
        flight_number: The flight number.
        origin: The origin airport's IATA code.
        destination: The destination airport's IATA code.
        status: available.
        scheduled_departure_time_est: Departure time, HH:MM:SS Eastern.
        scheduled_arrival_time_est: Arrival time, HH:MM:SS Eastern; +1 after it when it lands the next day.
        date: The date of the flight; null in a direct search (it is the date searched).
        available_seats: Seats left in each cabin.
        prices: The price per passenger in each cabin, in dollars.
    """

    flight_number: str
    origin: str
    destination: str
    status: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    date: str | None
    available_seats: CabinCounts
    prices: CabinCounts


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class OneStopTrip:
    """Two flights that connect: the second leaves the first's destination after it lands.

    Attributes:
        first: The first flight.
        second: The connecting flight.
    """

    first: DirectFlight
    second: DirectFlight


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Airport:
    """An airport the airline flies to.

    Attributes:
        iata: Its IATA code, such as SFO.
        city: Its city, such as San Francisco.
    """

    iata: str
    city: str


def reservation(record: dict[str, Any]) -> Reservation:
    flights = [ReservationFlight(f["flight_number"], f["origin"], f["destination"], f["date"], f["price"])
               for f in record["flights"]]
    return Reservation(
        record["reservation_id"], record["user_id"], record["origin"], record["destination"], record["flight_type"],
        record["cabin"], flights, [passenger(p) for p in record["passengers"]],
        [Payment(p["payment_id"], p["amount"]) for p in record["payment_history"]], record["created_at"],
        record["total_baggages"], record["nonfree_baggages"], record["insurance"], record.get("status"),
    )


def passenger(record: dict[str, Any]) -> Passenger:
    return Passenger(record["first_name"], record["last_name"], record["dob"])


def user(user_id: str, record: dict[str, Any]) -> User:
    methods = [PaymentMethod(m["source"], m["id"], m.get("brand"), m.get("last_four"),
                             None if m.get("amount") is None else float(m["amount"]))
               for m in record["payment_methods"].values()]
    address = record["address"]
    return User(
        user_id, PersonName.of(record["name"]),
        Address(address["address1"], address.get("address2"), address["city"], address["country"], address["state"],
                address["zip"]),
        record["email"], record["dob"], methods, [passenger(p) for p in record["saved_passengers"]],
        record["membership"], list(record["reservations"]),
    )


def direct_flight(flight: dict[str, Any], date: str, day: str | None) -> DirectFlight:
    """``flight`` on ``date``, as a search lists it; ``day`` is the date it shows (None in a direct search)."""
    status = flight["dates"][date]
    seats, prices = status["available_seats"], status["prices"]
    return DirectFlight(
        flight["flight_number"], flight["origin"], flight["destination"], "available",
        flight["scheduled_departure_time_est"], flight["scheduled_arrival_time_est"], day,
        CabinCounts(seats["basic_economy"], seats["economy"], seats["business"]),
        CabinCounts(prices["basic_economy"], prices["economy"], prices["business"]),
    )
