"""The restaurants, their tables and the bookings: in memory, deterministic, thread-safe."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta


@dataclass(frozen=True)
class Restaurant:
    id: str
    name: str
    cuisine: str
    tables: tuple[int, ...]  # seats per table
    opens: time
    last_seating: time

    def seatings(self) -> list[time]:
        """Seating times, every 30 minutes from opening to the last seating."""
        day = date(2000, 1, 1)
        t, end, out = datetime.combine(day, self.opens), datetime.combine(day, self.last_seating), []
        while t <= end:
            out.append(t.time())
            t += timedelta(minutes=30)
        return out


RESTAURANTS = {
    r.id: r
    for r in (
        Restaurant("trattoria-roma", "Trattoria Roma", "Italian", (2, 2, 4, 4, 6), time(17), time(21, 30)),
        Restaurant("sakura-sushi", "Sakura Sushi", "Japanese", (2, 2, 2, 4), time(18), time(22)),
        Restaurant("le-petit-bistro", "Le Petit Bistro", "French", (2, 4, 4, 8), time(18), time(22)),
    )
}


@dataclass(frozen=True)
class StoredBooking:
    id: str
    restaurant_id: str
    day: date
    at: time
    party_size: int
    guest_name: str
    phone: str | None
    table: int  # index into the restaurant's tables
    status: str = "CONFIRMED"


class BookingBook:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1001)
        seed = StoredBooking("BK-1000", "trattoria-roma", date(2025, 6, 14), time(19), 4, "Alex Morgan", None, 2)
        self._bookings: dict[str, StoredBooking] = {seed.id: seed}

    def get(self, booking_id: str) -> StoredBooking | None:
        with self._lock:
            return self._bookings.get(booking_id.strip().upper())

    def free_table(self, restaurant: Restaurant, day: date, at: time, party_size: int) -> int | None:
        """The smallest free table that seats the party, or None."""
        with self._lock:
            return self._free_table(restaurant, day, at, party_size)

    def _free_table(self, restaurant: Restaurant, day: date, at: time, party_size: int) -> int | None:
        taken = {
            b.table
            for b in self._bookings.values()
            if b.restaurant_id == restaurant.id and b.day == day and b.at == at and b.status == "CONFIRMED"
        }
        fits = [(seats, i) for i, seats in enumerate(restaurant.tables) if seats >= party_size and i not in taken]
        return min(fits)[1] if fits else None

    def duplicate(self, restaurant_id: str, day: date, at: time, guest_name: str) -> StoredBooking | None:
        with self._lock:
            for b in self._bookings.values():
                if (b.restaurant_id, b.day, b.at, b.status) == (restaurant_id, day, at, "CONFIRMED") and (
                    b.guest_name.casefold() == guest_name.casefold()
                ):
                    return b
            return None

    def book(
        self, restaurant: Restaurant, day: date, at: time, party_size: int, guest_name: str, phone: str | None
    ) -> StoredBooking | None:
        with self._lock:
            table = self._free_table(restaurant, day, at, party_size)
            if table is None:
                return None
            booking = StoredBooking(
                f"BK-{next(self._ids)}", restaurant.id, day, at, party_size, guest_name, phone, table
            )
            self._bookings[booking.id] = booking
            return booking

    def cancel(self, booking_id: str) -> StoredBooking:
        with self._lock:
            booking = replace(self._bookings[booking_id], status="CANCELLED")
            self._bookings[booking_id] = booking
            return booking
