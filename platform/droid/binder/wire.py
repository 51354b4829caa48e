"""Conversions between droid's Python objects and the binder's protobuf messages."""

from __future__ import annotations

from typing import Any

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, category_of
from droid.appfunctions.requests import (
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import data_pb2

_FIELD_BY_KIND = {
    bool: "booleans",
    int: "longs",
    float: "doubles",
    str: "strings",
    bytes: "bytes_values",
    AppFunctionData: "documents",
}


def data_to_proto(data: AppFunctionData, out: data_pb2.AppFunctionData | None = None) -> data_pb2.AppFunctionData:
    message = out if out is not None else data_pb2.AppFunctionData()
    message.qualified_name = data.qualified_name
    message.id = data.id
    for name, value in data.items():
        prop = message.properties.add(name=name)
        if value is None:
            prop.null_value = True
            continue
        values = value if isinstance(value, list) else [value]
        prop.repeated = isinstance(value, list)
        if not values:
            prop.strings.SetInParent()
            continue
        kind = _kind(values[0])
        target = getattr(prop, _FIELD_BY_KIND[kind])
        if kind is AppFunctionData:
            for item in values:
                data_to_proto(item, target.values.add())
        else:
            target.values.extend(values)
    return message


def _kind(value: Any) -> type:
    for kind in (bool, int, float, str, bytes):
        if isinstance(value, kind):
            return kind
    return AppFunctionData


def data_from_proto(message: data_pb2.AppFunctionData) -> AppFunctionData:
    values: dict[str, Any] = {}
    for prop in message.properties:
        which = prop.WhichOneof("values")
        if which is None or which == "null_value":
            values[prop.name] = None
            continue
        items = getattr(prop, which).values
        if which == "documents":
            decoded = [data_from_proto(item) for item in items]
        else:
            decoded = list(items)
        values[prop.name] = decoded if prop.repeated else (decoded[0] if decoded else None)
    return AppFunctionData(values, qualified_name=message.qualified_name, id=message.id)


def error_to_proto(error: AppFunctionException) -> data_pb2.AppFunctionError:
    return data_pb2.AppFunctionError(
        error_code=error.error_code,
        error_category=category_of(error.error_code),
        error_message=error.error_message or "",
        exception_type=type(error).__name__,
        extras=data_to_proto(AppFunctionData(error.extras)) if error.extras else None,
    )


def error_from_proto(message: data_pb2.AppFunctionError) -> AppFunctionException:
    extras = data_from_proto(message.extras).to_python() if message.HasField("extras") else None
    return AppFunctionException(message.error_code, message.error_message, extras=extras)


def request_to_proto(request: ExecuteAppFunctionRequest) -> afm_pb2.ExecuteAppFunctionRequest:
    message = afm_pb2.ExecuteAppFunctionRequest(
        target_package_name=request.target_package_name,
        function_identifier=request.function_identifier,
    )
    data_to_proto(request.parameters, message.parameters)
    if request.extras:
        data_to_proto(request.extras, message.extras)
    return message


def request_from_proto(message: afm_pb2.ExecuteAppFunctionRequest) -> ExecuteAppFunctionRequest:
    return ExecuteAppFunctionRequest(
        target_package_name=message.target_package_name,
        function_identifier=message.function_identifier,
        parameters=data_from_proto(message.parameters),
        extras=data_from_proto(message.extras),
    )


def result_to_proto(
    outcome: ExecuteAppFunctionResponse | AppFunctionException,
) -> afm_pb2.ExecuteAppFunctionResult:
    if isinstance(outcome, AppFunctionException):
        return afm_pb2.ExecuteAppFunctionResult(error=error_to_proto(outcome))
    result = afm_pb2.ExecuteAppFunctionResult()
    data_to_proto(outcome.result_document, result.response.result_document)
    if outcome.extras:
        data_to_proto(outcome.extras, result.response.extras)
    return result


def result_from_proto(
    message: afm_pb2.ExecuteAppFunctionResult,
) -> ExecuteAppFunctionResponse | AppFunctionException:
    if message.WhichOneof("outcome") == "error":
        return error_from_proto(message.error)
    return ExecuteAppFunctionResponse(
        data_from_proto(message.response.result_document), data_from_proto(message.response.extras)
    )


def spec_to_proto(spec: AppFunctionSearchSpec) -> afm_pb2.AppFunctionSearchSpec:
    return afm_pb2.AppFunctionSearchSpec(
        package_names=sorted(spec.package_names or ()),
        schema_category=spec.schema_category or "",
        schema_name=spec.schema_name or "",
        min_schema_version=spec.min_schema_version,
    )


def spec_from_proto(message: afm_pb2.AppFunctionSearchSpec) -> AppFunctionSearchSpec:
    return AppFunctionSearchSpec(
        package_names=frozenset(message.package_names) or None,
        schema_category=message.schema_category or None,
        schema_name=message.schema_name or None,
        min_schema_version=message.min_schema_version,
    )
