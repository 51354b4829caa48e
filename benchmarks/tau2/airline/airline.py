"""The airline app's functions: one per tool of τ²-bench's airline domain, behaving as that tool does.

Each function reads and changes the airline's database in the app's own storage (one session
per call, sim/tau2/appkit.py), with τ²'s checks in τ²'s order: a missing user, reservation,
flight, flight date or payment method raises ``AppFunctionElementNotFoundException``; a
request the data or the rules refuse, ``AppFunctionInvalidArgumentException``; a fourth
booking or certificate in one case, ``AppFunctionLimitExceededException``.

Loaded from τ-bench v1's data, the database says so (its dialect) and the functions behave
as v1's tools where those differ: a booking takes no seats, a flight change keeps the cabin,
a fourth booking replaces the third, amounts stay as the data writes them (docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionLimitExceededException,
    AppFunctionServiceEntryPoint,
    app_function,
)
from sim.tau2.appkit import TAU_BENCH_V1, Records, calculate, open_records

from . import records
from .records import (Airport, Cabin, DirectFlight, FlightInfo, FlightType, OneStopTrip, Passenger, Payment, Reservation,
                      User, YesNo)

# The benchmark's clock: every booking is made at this time (Eastern).
NOW = "2024-05-15T15:00:00"
NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
NEW_CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")
AIRPORTS = (
    ("SFO", "San Francisco"), ("JFK", "New York"), ("LAX", "Los Angeles"), ("ORD", "Chicago"), ("DFW", "Dallas"),
    ("DEN", "Denver"), ("SEA", "Seattle"), ("ATL", "Atlanta"), ("MIA", "Miami"), ("BOS", "Boston"),
    ("PHX", "Phoenix"), ("IAH", "Houston"), ("LAS", "Las Vegas"), ("MCO", "Orlando"), ("EWR", "Newark"),
    ("CLT", "Charlotte"), ("MSP", "Minneapolis"), ("DTW", "Detroit"), ("PHL", "Philadelphia"), ("LGA", "LaGuardia"),
)


def _flight_on(db: Records, flight_number: str, date: str) -> dict[str, Any]:
    """The flight's status on a date (with seats and prices when it is available)."""
    dates = db.require("flights", flight_number, "Flight")["dates"]
    if date not in dates:
        raise AppFunctionElementNotFoundException(f"Flight {flight_number} does not fly on {date}")
    return dates[date]


def _bookable(db: Records, flight_number: str, date: str, cabin: str, passengers: int) -> dict[str, Any]:
    status = _flight_on(db, flight_number, date)
    if status["status"] != "available":
        raise AppFunctionInvalidArgumentException(
            f"Flight {flight_number} on {date} is {status['status']}, not available for booking")
    if status["available_seats"][cabin] < passengers:
        raise AppFunctionInvalidArgumentException(f"Flight {flight_number} on {date} has not enough {cabin} seats")
    return status


def _available(db: Records, date: str, origin: str | None, destination: str | None = None,
               leave_after: str | None = None) -> list[dict[str, Any]]:
    """τ²'s direct search: the flights available on ``date``, in the data's order (times compared
    as text, as τ² does)."""
    conditions = [(origin, "origin = ?"), (destination, "destination = ?")]
    where = " AND ".join(sql for value, sql in conditions if value is not None)
    flights = db.scan("flights", where, tuple(value for value, _ in conditions if value is not None))
    return [flight for _, flight in flights
            if date in flight["dates"] and flight["dates"][date]["status"] == "available"
            and (leave_after is None or flight["scheduled_departure_time_est"] >= leave_after)]


def _new_reservation_id(db: Records, v1: bool) -> str:
    """The first of three fixed IDs not taken (a case books at most three reservations);
    τ-bench v1 takes the third whether it is taken or not."""
    for reservation_id in NEW_RESERVATION_IDS:
        if db.get("reservations", reservation_id) is None or (v1 and reservation_id == NEW_RESERVATION_IDS[-1]):
            return reservation_id
    raise AppFunctionLimitExceededException("Three reservations were booked already; no more can be")


def _next_day(date: str) -> str:
    """τ²'s next day: May only, the day not zero-padded (the 2nd follows '2024-05-01' as
    '2024-05-2', which no flight has): docs/benchmarks.md."""
    try:
        return f"2024-05-{int(date[-2:]) + 1}"
    except ValueError:
        raise AppFunctionInvalidArgumentException(f"{date!r} is not a date (YYYY-MM-DD)") from None


def _pay_for_change(user: dict[str, Any], payment_id: str, amount: int) -> dict[str, Any] | None:
    """Charge (or, negative, refund) a change to a saved payment method other than a certificate;
    the payment to record, or None when the amount is 0."""
    method = user["payment_methods"].get(payment_id)
    if method is None:
        raise AppFunctionElementNotFoundException(f"The user has no payment method {payment_id}")
    if method["source"] == "certificate":
        raise AppFunctionInvalidArgumentException("A certificate cannot pay for a change to a reservation")
    if method["source"] == "gift_card" and method["amount"] < amount:
        raise AppFunctionInvalidArgumentException(f"Gift card {payment_id} cannot cover {amount}")
    if method["source"] == "gift_card":
        method["amount"] -= amount
    return {"payment_id": payment_id, "amount": amount} if amount != 0 else None


class AirlineFunctionService(AppFunctionServiceEntryPoint):
    service_name = "dev.droidsim.tau2.airline.AirlineFunctionService"
    xml_file_name = "airline_functions"

    def _reading(self):
        return open_records(self.context.data_dir, "airline", writes=False)

    def _writing(self):
        return open_records(self.context.data_dir, "airline", writes=True)

    @app_function(described_by_docstring=True, destructive=True)
    def book_reservation(self, user_id: str, origin: str, destination: str,
                         flight_type: FlightType, cabin: Cabin, flights: list[FlightInfo],
                         passengers: list[Passenger], payment_methods: list[Payment], total_baggages: int,
                         nonfree_baggages: int, insurance: YesNo) -> Reservation:
        """Books a reservation for a user and charges it to their saved payment methods, whose
        amounts must add up to the price: each flight's price in the cabin for every passenger,
        plus 30 dollars a passenger for insurance and 50 dollars a paid bag. A gift card or a
        certificate must cover its amount; a certificate used is used up.

        Args:
            user_id: The ID of the user booking, such as sara_doe_496.
            origin: The trip's origin airport's IATA code, such as SFO.
            destination: The trip's destination airport's IATA code, such as JFK.
            flight_type: one_way or round_trip.
            cabin: basic_economy, economy or business, for every flight.
            flights: Every flight of the trip, each a flight number and a date.
            passengers: Every passenger: first name, last name and date of birth.
            payment_methods: The payment methods from the user's profile and the amount each pays.
            total_baggages: How many checked bags the reservation includes.
            nonfree_baggages: How many of them are paid for.
            insurance: yes or no: whether to buy travel insurance.

        Returns:
            The new reservation.
        """
        with self._writing() as db:
            v1 = db.dialect() == TAU_BENCH_V1
            user = db.require("users", user_id, "User")
            reservation_id = _new_reservation_id(db, v1)
            reservation: dict[str, Any] = {
                "reservation_id": reservation_id, "user_id": user_id, "origin": origin, "destination": destination,
                "flight_type": flight_type, "cabin": cabin, "flights": [],
                "passengers": [asdict(p) for p in passengers], "payment_history": [asdict(p) for p in payment_methods],
                "created_at": NOW, "total_baggages": total_baggages, "nonfree_baggages": nonfree_baggages,
                "insurance": insurance,
            }
            if not v1:
                reservation["status"] = None
            price, taken = 0, []
            for info in flights:
                flight = db.require("flights", info.flight_number, "Flight")
                status = _bookable(db, info.flight_number, info.date, cabin, len(passengers))
                reservation["flights"].append({"flight_number": info.flight_number, "origin": flight["origin"],
                                               "destination": flight["destination"], "date": info.date,
                                               "price": status["prices"][cabin]})
                taken.append(status)
                price += status["prices"][cabin] * len(passengers)
            if insurance == "yes":
                price += 30 * len(passengers)
            price += 50 * nonfree_baggages
            for payment in payment_methods:
                method = user["payment_methods"].get(payment.payment_id)
                if method is None:
                    raise AppFunctionElementNotFoundException(f"User {user_id} has no payment method {payment.payment_id}")
                if method["source"] in ("gift_card", "certificate") and method["amount"] < payment.amount:
                    raise AppFunctionInvalidArgumentException(f"{payment.payment_id} cannot cover {payment.amount}")
            paid = sum(payment.amount for payment in payment_methods)
            if paid != price:
                raise AppFunctionInvalidArgumentException(f"The payments add up to {paid}, but the price is {price}")
            for payment in payment_methods:
                method = user["payment_methods"].get(payment.payment_id)
                if method is None:  # a certificate named twice: the first use removed it (τ² fails here, midway)
                    raise AppFunctionElementNotFoundException(f"Payment method {payment.payment_id} is used up")
                if method["source"] == "gift_card":
                    method["amount"] -= payment.amount
                elif method["source"] == "certificate":
                    del user["payment_methods"][payment.payment_id]
            if not v1:
                for status in taken:
                    status["available_seats"][cabin] -= len(passengers)
            db.put("reservations", reservation_id, reservation)
            user["reservations"].append(reservation_id)
            return records.reservation(reservation)

    # droidsim-lint: disable=F9 τ²'s calculate, the same tool in both domains; an agent works with one domain's app at a time
    @app_function(described_by_docstring=True)
    def calculate(self, expression: str) -> str:
        """Works out an arithmetic expression and returns the result rounded to two decimals.

        Args:
            expression: Numbers, + - * /, parentheses and spaces, such as '2 + 2' or '(250 + 120) * 2'.

        Returns:
            The result, such as 4.0.
        """
        return calculate(expression)

    @app_function(described_by_docstring=True, destructive=True)
    def cancel_reservation(self, reservation_id: str) -> Reservation:
        """Cancels a whole reservation: every payment made for it is refunded to the method that
        paid it. A cancellation cannot be undone.

        Args:
            reservation_id: The reservation's ID, such as ZFA04Y.

        Returns:
            The cancelled reservation.
        """
        with self._writing() as db:
            reservation = db.require("reservations", reservation_id, "Reservation")
            refunds = [{"payment_id": p["payment_id"], "amount": -p["amount"]} for p in reservation["payment_history"]]
            reservation["payment_history"].extend(refunds)
            reservation["status"] = "cancelled"
            return records.reservation(reservation)

    @app_function(described_by_docstring=True)
    def get_reservation_details(self, reservation_id: str) -> Reservation:
        """Gets a reservation: its flights, passengers, payments, bags and insurance.

        Args:
            reservation_id: The reservation's ID, such as 8JX2WO.

        Returns:
            The reservation.
        """
        with self._reading() as db:
            return records.reservation(db.require("reservations", reservation_id, "Reservation"))

    @app_function(described_by_docstring=True)
    def get_user_details(self, user_id: str) -> User:
        """Gets a user's profile: name, address, payment methods, saved passengers, membership and reservation IDs.

        Args:
            user_id: The user's ID, such as sara_doe_496.

        Returns:
            The user's profile.
        """
        with self._reading() as db:
            user = db.require("users", user_id, "User")
            return records.user(user.get("user_id", user_id), user)

    @app_function(described_by_docstring=True)
    def list_all_airports(self) -> list[Airport]:
        """Lists every airport the airline flies to, with its city.

        Returns:
            Each airport's IATA code and city.
        """
        return [Airport(iata, city) for iata, city in AIRPORTS]

    # droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
    @app_function(described_by_docstring=True)
    def search_direct_flight(self, origin: str, destination: str, date: str) -> list[DirectFlight]:
        """Searches the direct flights between two airports that can be booked on a date.

        Args:
            origin: The origin airport's IATA code, such as JFK.
            destination: The destination airport's IATA code, such as LAX.
            date: The date, YYYY-MM-DD, such as 2024-05-01.

        Returns:
            The flights, with seats left and prices.
        """
        with self._reading() as db:
            return [records.direct_flight(f, date, None) for f in _available(db, date, origin, destination)]

    # droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
    @app_function(described_by_docstring=True)
    def search_onestop_flight(self, origin: str, destination: str, date: str) -> list[OneStopTrip]:
        """Searches the trips of two flights between two airports, leaving on a date and changing
        planes once; the second flight leaves after the first lands (the next day when the first
        lands after midnight).

        Args:
            origin: The origin airport's IATA code, such as JFK.
            destination: The destination airport's IATA code, such as LAX.
            date: The date of the first flight, YYYY-MM-DD, such as 2024-05-01.

        Returns:
            Each pair of connecting flights, with their dates, seats left and prices.
        """
        trips = []
        with self._reading() as db:
            for first in _available(db, date, origin):
                arrival = first["scheduled_arrival_time_est"]
                next_day = _next_day(date) if "+1" in arrival else date
                for second in _available(db, next_day, first["destination"], destination, leave_after=arrival):
                    trips.append(OneStopTrip(records.direct_flight(first, date, date),
                                             records.direct_flight(second, next_day, next_day)))
        return trips

    @app_function(described_by_docstring=True, destructive=True)
    def send_certificate(self, user_id: str, amount: int) -> str:
        """Gives a user a travel certificate worth an amount, as compensation. A case can give at
        most three.

        Args:
            user_id: The user's ID, such as sara_doe_496.
            amount: The certificate's value in dollars.

        Returns:
            Which certificate the user now has.
        """
        with self._writing() as db:
            v1 = db.dialect() == TAU_BENCH_V1
            user = db.require("users", user_id, "User")
            for payment_id in NEW_CERTIFICATE_IDS:
                if payment_id not in user["payment_methods"]:
                    # τ²'s certificate stores its amount as a float; v1 stores the number given.
                    value = amount if v1 else float(amount)
                    user["payment_methods"][payment_id] = {"source": "certificate", "id": payment_id, "amount": value}
                    return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
        raise AppFunctionLimitExceededException(f"User {user_id} was sent three certificates already")

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

    @app_function(described_by_docstring=True, destructive=True)
    def update_reservation_baggages(self, reservation_id: str, total_baggages: int, nonfree_baggages: int,
                                    payment_id: str) -> Reservation:
        """Changes how many checked bags a reservation includes; each paid bag added costs 50 dollars,
        charged to a saved credit card or gift card (not a certificate).

        Args:
            reservation_id: The reservation's ID, such as ZFA04Y.
            total_baggages: The new number of checked bags.
            nonfree_baggages: The new number of paid bags among them.
            payment_id: The payment method from the user's profile, such as credit_card_7815826 or gift_card_7815826.

        Returns:
            The reservation with its new bags.
        """
        with self._writing() as db:
            reservation = db.require("reservations", reservation_id, "Reservation")
            user = db.require("users", reservation["user_id"], "User")
            price = 50 * max(0, nonfree_baggages - reservation["nonfree_baggages"])
            payment = _pay_for_change(user, payment_id, price)
            if payment is not None:
                reservation["payment_history"].append(payment)
            reservation["total_baggages"] = total_baggages
            reservation["nonfree_baggages"] = nonfree_baggages
            return records.reservation(reservation)

    @app_function(described_by_docstring=True, destructive=True)
    def update_reservation_flights(self, reservation_id: str, cabin: Cabin, flights: list[FlightInfo],
                                   payment_id: str) -> Reservation:
        """Changes a reservation's flights or cabin. Give every flight of the new trip, the ones
        that stay too: a flight kept in the same cabin keeps the price paid for it, a new one
        costs its current price. The difference is charged to (or refunded to) a saved credit
        card or gift card, not a certificate.

        Args:
            reservation_id: The reservation's ID, such as ZFA04Y.
            cabin: basic_economy, economy or business, for every flight.
            flights: Every flight of the trip after the change, each a flight number and a date.
            payment_id: The payment method from the user's profile, such as credit_card_7815826 or gift_card_7815826.

        Returns:
            The reservation with its new flights.
        """
        with self._writing() as db:
            v1 = db.dialect() == TAU_BENCH_V1
            reservation = db.require("reservations", reservation_id, "Reservation")
            user = db.require("users", reservation["user_id"], "User")
            passengers = len(reservation["passengers"])
            price, trip = 0, []
            for info in flights:
                kept = next((f for f in reservation["flights"] if f["flight_number"] == info.flight_number
                             and f["date"] == info.date and cabin == reservation["cabin"]), None)
                if kept is None:
                    flight = db.require("flights", info.flight_number, "Flight")
                    status = _bookable(db, info.flight_number, info.date, cabin, passengers)
                    kept = {"flight_number": info.flight_number, "date": info.date, "price": status["prices"][cabin],
                            "origin": flight["origin"], "destination": flight["destination"]}
                elif v1:  # v1 writes each flight anew, with the kept flight's price and airports
                    kept = {"flight_number": info.flight_number, "date": info.date, "price": kept["price"],
                            "origin": kept["origin"], "destination": kept["destination"]}
                price += kept["price"] * passengers
                trip.append(kept)
            price -= sum(f["price"] for f in reservation["flights"]) * passengers
            payment = _pay_for_change(user, payment_id, price)
            if payment is not None:
                reservation["payment_history"].append(payment)
            reservation["flights"] = trip
            if not v1:  # τ-bench v1's tool left the cabin as it was
                reservation["cabin"] = cabin
            return records.reservation(reservation)

    @app_function(described_by_docstring=True, destructive=True)
    def update_reservation_passengers(self, reservation_id: str, passengers: list[Passenger]) -> Reservation:
        """Changes the passengers of a reservation; their number cannot change.

        Args:
            reservation_id: The reservation's ID, such as ZFA04Y.
            passengers: Every passenger after the change, as many as before: first name, last name and date of birth.

        Returns:
            The reservation with its new passengers.
        """
        with self._writing() as db:
            reservation = db.require("reservations", reservation_id, "Reservation")
            if len(passengers) != len(reservation["passengers"]):
                raise AppFunctionInvalidArgumentException(
                    f"Reservation {reservation_id} has {len(reservation['passengers'])} passengers; give as many")
            reservation["passengers"] = [asdict(p) for p in passengers]
            return records.reservation(reservation)

    # droidsim-lint: disable=P3 τ²'s dates and times are text (YYYY-MM-DD; HH:MM:SS, +1 when next day), as its data and agents write them
    @app_function(described_by_docstring=True)
    def get_flight_status(self, flight_number: str, date: str) -> str:
        """Gets a flight's status on a date: available, on time, delayed, flying, landed or cancelled.

        Args:
            flight_number: The flight number, such as HAT001.
            date: The date, YYYY-MM-DD, such as 2024-05-01.

        Returns:
            The status.
        """
        with self._reading() as db:
            return _flight_on(db, flight_number, date)["status"]
