"""An order lookup written with @app_function: the device refuses a call without its required
orderId as androidx's dispatcher does (AppFunctionDataParameterExtractor.kt)."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class OrderLookupService(AppFunctionServiceEntryPoint):
    service_name = "android.app.appfunctions.cts.jetpack.OrderLookupService"
    xml_file_name = "order_lookup"

    @app_function(described_by_docstring=True)
    def order_status(self, order_id: str) -> str:
        """Tells the status of an order.

        Args:
            order_id: The order's id, for example ORD-8492.

        Returns:
            The order's status.
        """
        return f"{order_id}: SHIPPED"
