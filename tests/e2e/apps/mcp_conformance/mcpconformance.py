"""The fixture tools of the MCP conformance suite's server scenarios, as app functions.

droidsim-lint: disable=F8 fixtures named and worded by the conformance suite, not by a user's task
"""

from __future__ import annotations

from dataclasses import dataclass

from droid.appfunctions import (
    AppFunctionAppUnknownException,
    AppFunctionServiceEntryPoint,
    app_function,
    app_function_serializable,
)


# Named as the suite's json-schema-2020-12 scenario names it: it looks for "$defs"/"address".
@app_function_serializable(qualified_name="address")
@dataclass
class Address:
    """A postal address.

    Attributes:
        street: The street and number.
        city: The city.
    """

    street: str | None = None
    city: str | None = None


class ConformanceFixtureService(AppFunctionServiceEntryPoint):
    service_name = "com.example.mcpconformance.ConformanceFixtureService"
    xml_file_name = "conformance_functions"

    @app_function(described_by_docstring=True)
    def test_simple_text(self) -> str:
        """Returns a simple text response (scenario tools-call-simple-text).

        Returns:
            A fixed sentence.
        """
        return "This is a simple text response for testing."

    @app_function(described_by_docstring=True)
    def test_error_handling(self) -> str:
        """Always fails (scenario tools-call-error).

        Returns:
            Never a value, as it always raises.
        """
        raise AppFunctionAppUnknownException("This tool intentionally returns an error for testing")

    @app_function(described_by_docstring=True, destructive=True)
    def test_elicitation(self, message: str) -> str:
        """Echoes a message once the user confirms the call (scenario tools-call-elicitation).

        Args:
            message: The message to show the user.

        Returns:
            The message.
        """
        return f"User confirmed: {message}"

    @app_function(described_by_docstring=True)
    def json_schema_2020_12_tool(self, name: str | None = None, address: Address | None = None) -> str:
        """Takes a name and a nested address (scenario json-schema-2020-12).

        Args:
            name: A name.
            address: A postal address.

        Returns:
            The name and city given.
        """
        return f"{name} in {address.city if address else 'nowhere'}"
