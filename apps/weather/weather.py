"""The weather app's AppFunction: current weather for a location."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionServiceEntryPoint,
    Instant,
    Int32,
    app_function,
    app_function_serializable,
)

from . import stations

Units = Literal["METRIC", "IMPERIAL"]
Condition = Literal["CLEAR", "SUNNY", "PARTLY_CLOUDY", "CLOUDY", "FOG", "RAIN", "THUNDERSTORM", "SNOW"]


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class CurrentWeather:
    """The current weather at a location.

    Attributes:
        location: The city the observation is for.
        country: The city's country.
        condition: The sky and precipitation.
        temperature: The air temperature, in °C (METRIC) or °F (IMPERIAL).
        feels_like: The apparent temperature, in the same unit.
        humidity_percent: The relative humidity in percent.
        wind_speed: The wind speed, in km/h (METRIC) or mph (IMPERIAL).
        units: The unit system of the values.
        observed_at: When the values were observed.
        time_zone: The location's time zone.
    """

    location: str
    country: str
    condition: Condition
    temperature: float
    feels_like: float
    humidity_percent: Int32
    wind_speed: float
    units: Units
    observed_at: Instant
    time_zone: ZoneInfo


class WeatherFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.weather.WeatherFunctionService"
    xml_file_name = "weather_functions"

    @app_function(described_by_docstring=True)
    async def get_current_weather(self, location: str, units: Units | None = None) -> CurrentWeather:
        """Gets the current weather for a city: conditions, temperature, humidity and wind.

        Args:
            location: The city, for example Baltimore or Paris, France.
            units: METRIC (°C, km/h) or IMPERIAL (°F, mph); METRIC when omitted.

        Returns:
            The current weather at the location.
        """
        observation = stations.find(location)
        if observation is None:
            known = ", ".join(o.city for o in stations.OBSERVATIONS)
            raise AppFunctionElementNotFoundException(
                f"No weather station for {location!r}; available cities: {known}"
            )
        imperial = units == "IMPERIAL"

        def temperature(celsius: float) -> float:
            return round(celsius * 9 / 5 + 32, 1) if imperial else celsius

        return CurrentWeather(
            location=observation.city,
            country=observation.country,
            condition=observation.condition,  # type: ignore[arg-type]
            temperature=temperature(observation.temperature_c),
            feels_like=temperature(observation.feels_like_c),
            humidity_percent=observation.humidity_percent,
            wind_speed=round(observation.wind_kmh / 1.609344, 1) if imperial else observation.wind_kmh,
            units="IMPERIAL" if imperial else "METRIC",
            observed_at=stations.OBSERVED_AT,
            time_zone=ZoneInfo(observation.zone),
        )
