"""The booking app's AppFunctions: search tables, book a table, cancel a booking."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import Literal

from droid.app import ComponentName, Intent, PendingIntent
from droid.appfunctions import (
    AppFunctionElementAlreadyExistsException,
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionLimitExceededException,
    AppFunctionServiceEntryPoint,
    Int32,
    app_function,
    app_function_serializable,
)
from droid.net import Uri

from .restaurants import RESTAURANTS, BookingBook, Restaurant, StoredBooking

PACKAGE = "com.example.booking"
BookingStatus = Literal["CONFIRMED", "CANCELLED"]
MAX_RESULTS = 6


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class TableOption:
    """A free table at a restaurant at one time.

    Attributes:
        restaurant_id: The restaurant's ID, for booking.
        restaurant_name: The restaurant's name.
        cuisine: The restaurant's cuisine, for example Italian.
        date: The date of the free table.
        time: The seating time.
        seats: How many people the table seats.
    """

    restaurant_id: str
    restaurant_name: str
    cuisine: str
    date: date
    time: time
    seats: Int32


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Booking:
    """A table booking.

    Attributes:
        booking_id: The booking's ID, for example BK-1000.
        status: CONFIRMED, or CANCELLED once cancelled.
        restaurant_id: The restaurant's ID.
        restaurant_name: The restaurant's name.
        date: The date of the booking.
        time: The seating time.
        party_size: The number of guests.
        guest_name: The name the table is booked under.
        open_in_app: Opens the booking in the Table Booking app.
    """

    booking_id: str
    status: BookingStatus
    restaurant_id: str
    restaurant_name: str
    date: date
    time: time
    party_size: Int32
    guest_name: str
    open_in_app: PendingIntent


class BookingFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.booking.BookingFunctionService"
    xml_file_name = "booking_functions"

    def __init__(self) -> None:
        self.book = BookingBook()

    def _booking(self, stored: StoredBooking) -> Booking:
        restaurant = RESTAURANTS[stored.restaurant_id]
        intent = Intent(
            action="com.example.booking.action.VIEW_BOOKING",
            component=ComponentName(PACKAGE, "com.example.booking.BookingActivity"),
            data=Uri.parse(f"booking://bookings/{stored.id}"),
        )
        return Booking(
            booking_id=stored.id,
            status=stored.status,  # type: ignore[arg-type]
            restaurant_id=restaurant.id,
            restaurant_name=restaurant.name,
            date=stored.day,
            time=stored.at,
            party_size=stored.party_size,
            guest_name=stored.guest_name,
            open_in_app=PendingIntent.get_activity(self.context, 0, intent, PendingIntent.FLAG_IMMUTABLE),
        )

    @staticmethod
    def _check_party(party_size: int) -> None:
        if party_size < 1:
            raise AppFunctionInvalidArgumentException(f"party_size must be at least 1, not {party_size}")

    @app_function(described_by_docstring=True)
    async def search_tables(
        self, date: date, time: time, party_size: Int32, cuisine: str | None = None
    ) -> list[TableOption]:
        """Searches restaurants for free tables around a date and time for a party.

        Tables at the requested time come first, then the nearest other seating
        times within an hour.

        Args:
            date: The day to eat out.
            time: The preferred seating time.
            party_size: The number of guests.
            cuisine: Only search restaurants of this cuisine, for example Italian.

        Returns:
            Up to 6 free tables, nearest to the requested time first; empty when nothing is free.
        """
        self._check_party(party_size)
        wanted = _minutes(time)
        options: list[tuple[int, str, TableOption]] = []
        for restaurant in RESTAURANTS.values():
            if cuisine is not None and restaurant.cuisine.casefold() != cuisine.strip().casefold():
                continue
            for seating in restaurant.seatings():
                distance = abs(_minutes(seating) - wanted)
                if distance > 60:
                    continue
                table = self.book.free_table(restaurant, date, seating, party_size)
                if table is not None:
                    option = TableOption(
                        restaurant.id, restaurant.name, restaurant.cuisine, date, seating, restaurant.tables[table]
                    )
                    options.append((distance, restaurant.name, option))
        ranked = sorted(options, key=lambda o: (o[0], o[2].time, o[1]))
        return [option for _, _, option in ranked[:MAX_RESULTS]]

    @app_function(described_by_docstring=True)
    async def book_table(
        self,
        restaurant_id: str,
        date: date,
        time: time,
        party_size: Int32,
        guest_name: str,
        phone: str | None = None,
    ) -> Booking:
        """Books a table at a restaurant.

        Args:
            restaurant_id: The restaurant's ID, for example trattoria-roma.
            date: The day of the booking.
            time: The seating time, on the hour or half hour.
            party_size: The number of guests.
            guest_name: The name to book the table under.
            phone: A phone number the restaurant can call about the booking.

        Returns:
            The confirmed booking.
        """
        restaurant = RESTAURANTS.get(restaurant_id.strip().lower())
        if restaurant is None:
            raise AppFunctionElementNotFoundException(
                f"No restaurant with ID {restaurant_id}; the restaurants are: {', '.join(RESTAURANTS)}"
            )
        self._check_party(party_size)
        _check_seating(restaurant, time)
        if party_size > max(restaurant.tables):
            raise AppFunctionInvalidArgumentException(
                f"{restaurant.name} seats parties of up to {max(restaurant.tables)}"
            )
        if not guest_name.strip():
            raise AppFunctionInvalidArgumentException("guest_name cannot be empty")
        existing = self.book.duplicate(restaurant.id, date, time, guest_name)
        if existing is not None:
            raise AppFunctionElementAlreadyExistsException(
                f"{guest_name} already has booking {existing.id} at {restaurant.name} at that time"
            )
        stored = self.book.book(restaurant, date, time, party_size, guest_name.strip(), phone)
        if stored is None:
            raise AppFunctionLimitExceededException(
                f"{restaurant.name} is fully booked for {party_size} on {date.isoformat()} at "
                f"{time.strftime('%H:%M')}"
            )
        return self._booking(stored)

    @app_function(described_by_docstring=True, destructive=True)
    async def cancel_booking(self, booking_id: str) -> Booking:
        """Cancels a table booking. The table is released and the booking cannot be restored.

        Args:
            booking_id: The ID of the booking to cancel, for example BK-1000.

        Returns:
            The booking, now cancelled.
        """
        stored = self.book.get(booking_id)
        if stored is None:
            raise AppFunctionElementNotFoundException(f"No booking found with ID {booking_id}")
        if stored.status == "CANCELLED":
            return self._booking(stored)
        return self._booking(self.book.cancel(stored.id))


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


def _check_seating(restaurant: Restaurant, at: time) -> None:
    if at not in restaurant.seatings():
        first, last = restaurant.seatings()[0], restaurant.seatings()[-1]
        raise AppFunctionInvalidArgumentException(
            f"{restaurant.name} seats guests every 30 minutes from {first.strftime('%H:%M')} to "
            f"{last.strftime('%H:%M')}; {at.strftime('%H:%M')} is not a seating time"
        )

