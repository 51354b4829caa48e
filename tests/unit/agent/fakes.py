"""A fake in-memory app_function service for unit tests of the agent loop.

Only the transport is fake: the client is the real ``AppFunctionManager``, the
metadata are the real protobuf messages and failures are the real
``AppFunctionException`` types. End-to-end tests use a real device process.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from droid.appfunctions import AppFunctionData, AppFunctionManager, ExecuteAppFunctionResponse
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_GRANTED
from droid.appfunctions.exceptions import (
    AppFunctionElementNotFoundException,
    AppFunctionFunctionNotFoundException,
)
from droid.appfunctions.metadata import (
    AppFunctionAppMetadata,
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    AppFunctionNamedDataTypeMetadata,
    AppFunctionPackageMetadata,
    AppFunctionParameterMetadata,
    AppFunctionResponseMetadata,
    DataType,
)

ORDERS = "com.example.orders"
SERVICE = f"{ORDERS}.OrderFunctionService"
FETCH = f"{SERVICE}#fetch_order_details"
CANCEL = f"{SERVICE}#cancel_order"
ORDER_DETAILS = f"{ORDERS}.OrderDetails"
CANCEL_RESULT = f"{ORDERS}.CancelOrderResult"


def string(description: str = "", nullable: bool = False, **kw: Any) -> AppFunctionDataTypeMetadata:
    return AppFunctionDataTypeMetadata(type=DataType.STRING, description=description, is_nullable=nullable, **kw)


def param(name: str, data_type: AppFunctionDataTypeMetadata, required: bool = True, description: str = "") -> AppFunctionParameterMetadata:
    return AppFunctionParameterMetadata(name=name, is_required=required, data_type=data_type, description=description)


def prop(name: str, data_type: AppFunctionDataTypeMetadata) -> AppFunctionNamedDataTypeMetadata:
    return AppFunctionNamedDataTypeMetadata(name=name, data_type=data_type)


def ref(name: str) -> AppFunctionDataTypeMetadata:
    return AppFunctionDataTypeMetadata(type=DataType.REFERENCE, data_type_reference=name)


def orders_package() -> AppFunctionPackageMetadata:
    order_details = AppFunctionDataTypeMetadata(
        type=DataType.OBJECT,
        object_qualified_name=ORDER_DETAILS,
        properties=[
            prop("orderId", string()),
            prop("status", string()),
            prop("estimatedDelivery", string(nullable=True)),
            prop("itemCount", AppFunctionDataTypeMetadata(type=DataType.INT)),
        ],
        required=["orderId", "status", "itemCount"],
    )
    cancel_result = AppFunctionDataTypeMetadata(
        type=DataType.OBJECT,
        object_qualified_name=CANCEL_RESULT,
        properties=[prop("orderId", string()), prop("cancelled", AppFunctionDataTypeMetadata(type=DataType.BOOLEAN)),
                    prop("message", string())],
        required=["orderId", "cancelled", "message"],
    )
    fetch = AppFunctionMetadata(
        id=FETCH, package_name=ORDERS, is_enabled=True, enabled_by_default=True,
        description="Fetches details and delivery status for a customer order by ID.",
        parameters=[param("orderId", string(), description="The alphanumeric order identifier (for example, ORD-8492)")],
        response=AppFunctionResponseMetadata(value_type=ref(ORDER_DETAILS), description="The order's details."),
    )
    cancel = AppFunctionMetadata(
        id=CANCEL, package_name=ORDERS, is_enabled=True, enabled_by_default=True,
        description="Requests a cancellation or return for an active order.",
        parameters=[
            param("orderId", string(), description="The order identifier to cancel"),
            param("reason", string(nullable=True), required=False, description="The reason provided by the user for cancellation"),
        ],
        response=AppFunctionResponseMetadata(value_type=ref(CANCEL_RESULT)),
    )
    return AppFunctionPackageMetadata(
        package_name=ORDERS,
        app_functions=[fetch, cancel],
        components=AppFunctionComponentsMetadata(
            data_types=[prop(ORDER_DETAILS, order_details), prop(CANCEL_RESULT, cancel_result)]
        ),
        app_metadata=AppFunctionAppMetadata(description="Orders"),
    )


class FakeAppFunctionService:
    """IAppFunctionManager in memory: the orders app, plus any package a test adds."""

    def __init__(self) -> None:
        self.orders = {"ORD-8492": {"status": "SHIPPED", "estimatedDelivery": "2025-06-03", "items": 2}}
        self.packages = [orders_package()]
        self.calls: list[tuple[str, dict]] = []
        self.handlers: dict[str, Callable[[AppFunctionData], Any]] = {
            FETCH: self._fetch,
            CANCEL: self._cancel,
        }
        self._lock = threading.Lock()
        # The agent's access request state per target (getAccessRequestState): GRANTED unless set.
        self.access_states: dict[str, int] = {}

    def get_access_request_state(self, agent_package_name: str, target_package_name: str) -> int:
        return self.access_states.get(target_package_name, ACCESS_REQUEST_STATE_GRANTED)

    def execute_app_function(self, request, cancellation_signal=None) -> ExecuteAppFunctionResponse:
        with self._lock:
            self.calls.append((request.function_identifier, request.parameters.to_python()))
        handler = self.handlers.get(request.function_identifier)
        if handler is None:
            raise AppFunctionFunctionNotFoundException(f"No function {request.function_identifier}")
        return ExecuteAppFunctionResponse.of(handler(request.parameters))

    def search_app_functions(self, spec) -> list[AppFunctionMetadata]:
        """The device's flat list: each function carries its package's metadata."""
        found = []
        for package in self.packages:
            if spec.package_names is not None and package.package_name not in spec.package_names:
                continue
            package_only = AppFunctionPackageMetadata(
                package_name=package.package_name, components=package.components, app_metadata=package.app_metadata
            )
            for declared in package.app_functions:
                function = AppFunctionMetadata()
                function.CopyFrom(declared)
                function.package_name = package.package_name
                function.package_metadata.CopyFrom(package_only)
                found.append(function)
        return found

    def is_app_function_enabled(self, function_identifier, target_package_name):
        return True

    def set_app_function_enabled(self, function_identifier, state):
        pass

    def _order(self, order_id: str) -> dict:
        order = self.orders.get(order_id)
        if order is None:
            raise AppFunctionElementNotFoundException(f"Order {order_id} not found")
        return order

    def _fetch(self, parameters: AppFunctionData) -> AppFunctionData:
        order_id = parameters.get_string("orderId")
        order = self._order(order_id)
        return AppFunctionData(
            {"orderId": order_id, "status": order["status"], "estimatedDelivery": order["estimatedDelivery"],
             "itemCount": order["items"]},
            qualified_name=ORDER_DETAILS,
        )

    def _cancel(self, parameters: AppFunctionData) -> AppFunctionData:
        order_id = parameters.get_string("orderId")
        order = self._order(order_id)
        order["status"] = "CANCELLED"
        return AppFunctionData({"orderId": order_id, "cancelled": True, "message": "Order cancellation processed."},
                               qualified_name=CANCEL_RESULT)

    @property
    def executed(self) -> list[str]:
        return [function_id for function_id, _ in self.calls]


class FakePackageService:
    """The package service as an agent sees it: whether it holds a permission."""

    def __init__(self, held: set[str]) -> None:
        self.held = held

    def check_permission(self, permission: str, package_name: str) -> int:
        return 0 if permission in self.held else -1

    def list_packages(self) -> list:
        return []


class FakeContext:
    """Just enough of droid.content.Context: a package name, the manager and the package
    service (an agent holding EXECUTE_APP_FUNCTIONS, on Android 17)."""

    sdk_int = 37

    def __init__(self, service: FakeAppFunctionService, package_name: str = "com.example.assistant") -> None:
        self.package_name = package_name
        self.app_function_manager = AppFunctionManager(service)
        self.package_service = FakePackageService({"android.permission.EXECUTE_APP_FUNCTIONS"})

    def get_system_service(self, name: str):
        assert name == "package", name
        return self.package_service
