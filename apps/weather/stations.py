"""Observations from the app's weather stations: fixed, so results are deterministic."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

OBSERVED_AT = datetime(2025, 6, 14, 16, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Observation:
    city: str
    country: str
    zone: str
    condition: str
    temperature_c: float
    feels_like_c: float
    humidity_percent: int
    wind_kmh: float


OBSERVATIONS = [
    Observation("Baltimore", "United States", "America/New_York", "SUNNY", 17.2, 17.0, 48, 11.0),
    Observation("New York", "United States", "America/New_York", "PARTLY_CLOUDY", 21.5, 21.9, 55, 14.5),
    Observation("San Francisco", "United States", "America/Los_Angeles", "FOG", 14.0, 13.1, 86, 19.0),
    Observation("London", "United Kingdom", "Europe/London", "RAIN", 15.8, 15.2, 82, 22.3),
    Observation("Paris", "France", "Europe/Paris", "CLOUDY", 19.4, 19.4, 64, 9.7),
    Observation("Tokyo", "Japan", "Asia/Tokyo", "CLEAR", 22.1, 22.6, 70, 6.1),
    Observation("Bangkok", "Thailand", "Asia/Bangkok", "THUNDERSTORM", 31.6, 38.2, 78, 12.9),
    Observation("Beijing", "China", "Asia/Shanghai", "PARTLY_CLOUDY", 27.3, 28.0, 40, 8.4),
]

ALIASES = {"nyc": "new york", "sf": "san francisco", "bkk": "bangkok"}


def find(location: str) -> Observation | None:
    """The observation for a city name, ignoring case and anything after a comma."""
    key = location.split(",")[0].strip().casefold()
    key = ALIASES.get(key, key)
    for observation in OBSERVATIONS:
        if observation.city.casefold() == key:
            return observation
    return None
