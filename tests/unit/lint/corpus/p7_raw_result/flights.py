"""Lint corpus app."""

from __future__ import annotations

from dataclasses import dataclass

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function, app_function_serializable


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class FlightStatus:
    """The status of a flight.

    Attributes:
        flight_number: The flight number, for example AF 1234.
        status: The status, for example Delayed.
        raw_json: The airline's answer.
    """

    flight_number: str
    status: str
    raw_json: str


class FunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.lint.flights.FunctionService"
    xml_file_name = "functions"

    @app_function(described_by_docstring=True)
    def get_flight_status(self, flight_number: str) -> FlightStatus:
        """Gets the status of a flight today.

        Args:
            flight_number: The flight number, for example AF 1234.

        Returns:
            The flight's status.
        """
        return FlightStatus(flight_number, "On time", "{}")
