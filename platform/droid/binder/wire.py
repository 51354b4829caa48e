"""Conversions between droid's Python objects and the binder's protobuf messages."""

from __future__ import annotations

from typing import Any, NamedTuple

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.exceptions import AppFunctionException, category_of
from droid.appfunctions.requests import (
    AppFunctionName,
    AppFunctionSearchSpec,
    ExecuteAppFunctionRequest,
    ExecuteAppFunctionResponse,
)
from droidsim.v1 import app_function_manager_pb2 as afm_pb2
from droidsim.v1 import data_pb2, metadata_pb2

# Every call converts each parameter and result twice per hop, so the lookups below go by
# exact type (bool is its own type, not an int) and fall back to isinstance for subclasses.
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
    if type(data) is EncodedData:
        message.CopyFrom(data.message)
        return message
    if data.qualified_name:
        message.qualified_name = data.qualified_name
    if data.id:
        message.id = data.id
    properties = message.properties
    for name, value in data.items():
        prop = properties.add(name=name)
        if value is None:
            prop.null_value = True
            continue
        repeated = type(value) is list
        values = value if repeated else (value,)
        if repeated:
            prop.repeated = True
            if not values:
                prop.strings.SetInParent()
                continue
        field = _FIELD_BY_KIND.get(type(values[0])) or _FIELD_BY_KIND[_kind(values[0])]
        target = getattr(prop, field)
        if field == "documents":
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


class MalformedDataError(ValueError):
    """Protobuf that parses but is no AppFunctionData: a property given twice, or a single
    value that is not exactly one. ``path`` locates the document (``notes[2].author``)."""

    def __init__(self, problem: str, path: str = "") -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.problem = problem
        self.path = path

    def inside(self, name: str) -> "MalformedDataError":
        return MalformedDataError(self.problem, f"{name}.{self.path}" if self.path else name)


def data_from_proto(message: data_pb2.AppFunctionData) -> AppFunctionData:
    values: dict[str, Any] = {}
    for prop in message.properties:
        name = prop.name
        if name in values:
            raise MalformedDataError(f"property {name!r} is given more than once")
        which = prop.WhichOneof("values")
        if which is None or which == "null_value":
            values[name] = None
            continue
        items = getattr(prop, which).values
        if not prop.repeated and len(items) != 1:
            raise MalformedDataError(f"property {name!r} is a single value but carries {len(items)}")
        if which == "documents":
            decoded = _documents_from_proto(items, name, prop.repeated)
        else:
            decoded = list(items)
        values[name] = decoded if prop.repeated else decoded[0]
    # Decoded values are valid by construction (one kind per property), so the
    # constructor's per-value checks are skipped.
    return AppFunctionData._of_checked(values, message.qualified_name, message.id)


class Shape(NamedTuple):
    """The extremes of a document, for limits to be checked without decoding it: how deeply
    documents nest (1 for none), the most properties of one document, the longest list, and
    the longest string (characters) or bytes value."""

    depth: int
    widest: int
    longest_list: int
    longest_value: int


def shape_of(message: data_pb2.AppFunctionData) -> Shape:
    """The shape of an encoded document, checked as ``data_from_proto`` checks it (the same
    MalformedDataError, at the same path), without building it."""
    seen: set[str] = set()
    depth = widest = longest_list = longest_value = 0
    properties = message.properties
    widest = len(properties)
    for prop in properties:
        name = prop.name
        if name in seen:
            raise MalformedDataError(f"property {name!r} is given more than once")
        seen.add(name)
        which = prop.WhichOneof("values")
        if which is None or which == "null_value":
            continue
        items = getattr(prop, which).values
        count = len(items)
        if prop.repeated:
            longest_list = max(longest_list, count)
        elif count != 1:
            raise MalformedDataError(f"property {name!r} is a single value but carries {count}")
        if which == "documents":
            for index, item in enumerate(items):
                try:
                    inner = shape_of(item)
                except MalformedDataError as error:
                    raise error.inside(f"{name}[{index}]" if prop.repeated else name) from None
                depth = max(depth, inner.depth)
                widest = max(widest, inner.widest)
                longest_list = max(longest_list, inner.longest_list)
                longest_value = max(longest_value, inner.longest_value)
        elif count and (which == "strings" or which == "bytes_values"):
            longest_value = max(longest_value, max(map(len, items)))
    return Shape(depth + 1, widest, longest_list, longest_value)


class EncodedData(AppFunctionData):
    """A document as the binder carried it: checked (``shape_of``) but decoded only when
    something reads it. The device only checks a call's documents and forwards them to the
    app or back to the caller, so it never builds their values; ``data_to_proto`` copies the
    message as it came."""

    __slots__ = ("message", "shape", "_decoded")

    def __init__(self, message: data_pb2.AppFunctionData) -> None:  # noqa: D107 - not AppFunctionData's
        self.shape = shape_of(message)
        self.message = message
        self.qualified_name = message.qualified_name
        self.id = message.id
        self._decoded: dict[str, Any] | None = None

    @property
    def _values(self) -> dict[str, Any]:  # type: ignore[override] - AppFunctionData's slot, filled on first read
        if self._decoded is None:
            self._decoded = data_from_proto(self.message)._values
        return self._decoded


def _documents_from_proto(items: Any, name: str, repeated: bool) -> list[AppFunctionData]:
    decoded = []
    for index, item in enumerate(items):
        try:
            decoded.append(data_from_proto(item))
        except MalformedDataError as error:
            raise error.inside(f"{name}[{index}]" if repeated else name) from None
    return decoded


def _optional_data(message: Any, field: str, encoded: bool = False) -> AppFunctionData:
    """An optional document field: decoded (or checked and kept ``encoded``) when set, else
    the shared empty document."""
    if not message.HasField(field):
        return AppFunctionData.EMPTY
    try:
        return (EncodedData if encoded else data_from_proto)(getattr(message, field))
    except MalformedDataError as error:
        raise error.inside(field) from None


def error_to_proto(error: AppFunctionException) -> data_pb2.AppFunctionError:
    return data_pb2.AppFunctionError(
        error_code=error.error_code,
        error_category=category_of(error.error_code),
        error_message=error.error_message,
        exception_type=type(error).__name__,
        extras=data_to_proto(AppFunctionData(error.extras)) if error.extras else None,
    )


def error_from_proto(message: data_pb2.AppFunctionError) -> AppFunctionException:
    extras = data_from_proto(message.extras).to_python() if message.HasField("extras") else None
    text = message.error_message if message.HasField("error_message") else None
    return AppFunctionException(message.error_code, text, extras=extras)


def request_to_proto(
    request: ExecuteAppFunctionRequest, out: afm_pb2.ExecuteAppFunctionRequest | None = None
) -> afm_pb2.ExecuteAppFunctionRequest:
    """``out``: a message to fill (e.g. the field of an enclosing frame), saving a copy."""
    message = out if out is not None else afm_pb2.ExecuteAppFunctionRequest()
    message.target_package_name = request.target_package_name
    message.function_identifier = request.function_identifier
    data_to_proto(request.parameters, message.parameters)
    if _present(request.extras):
        data_to_proto(request.extras, message.extras)
    return message


def _present(extras: AppFunctionData) -> bool:
    """Whether optional extras go on the wire; an encoded document is forwarded as it came
    (asking it for its length would decode it)."""
    return type(extras) is EncodedData or bool(extras)


def request_from_proto(message: afm_pb2.ExecuteAppFunctionRequest, encoded: bool = False) -> ExecuteAppFunctionRequest:
    """``encoded``: keep the documents as they came (EncodedData), for a process that forwards them."""
    return ExecuteAppFunctionRequest(
        target_package_name=message.target_package_name,
        function_identifier=message.function_identifier,
        parameters=_optional_data(message, "parameters", encoded),
        extras=_optional_data(message, "extras", encoded),
    )


def result_to_proto(
    outcome: ExecuteAppFunctionResponse | AppFunctionException,
    out: afm_pb2.ExecuteAppFunctionResult | None = None,
) -> afm_pb2.ExecuteAppFunctionResult:
    """``out``: a message to fill (e.g. the field of an enclosing frame), saving a copy."""
    result = out if out is not None else afm_pb2.ExecuteAppFunctionResult()
    if isinstance(outcome, AppFunctionException):
        result.error.CopyFrom(error_to_proto(outcome))
        return result
    data_to_proto(outcome.result_document, result.response.result_document)
    if _present(outcome.extras):
        data_to_proto(outcome.extras, result.response.extras)
    return result


def result_from_proto(
    message: afm_pb2.ExecuteAppFunctionResult, encoded: bool = False
) -> ExecuteAppFunctionResponse | AppFunctionException:
    """``encoded``: keep the documents as they came (EncodedData), for a process that forwards them."""
    if message.WhichOneof("outcome") == "error":
        return error_from_proto(message.error)
    response = message.response
    document = (EncodedData if encoded else data_from_proto)(response.result_document)
    return ExecuteAppFunctionResponse(document, _optional_data(response, "extras", encoded))


def spec_to_proto(spec: AppFunctionSearchSpec) -> afm_pb2.AppFunctionSearchSpec:
    return afm_pb2.AppFunctionSearchSpec(
        package_names=sorted(spec.package_names or ()),
        schema_category=spec.schema_category or "",
        schema_name=spec.schema_name or "",
        min_schema_version=spec.min_schema_version,
        function_names=names_to_proto(spec.function_names or ()),
        scopes=sorted(spec.scopes or ()),
    )


def spec_from_proto(message: afm_pb2.AppFunctionSearchSpec) -> AppFunctionSearchSpec:
    return AppFunctionSearchSpec(
        package_names=frozenset(message.package_names) or None,
        schema_category=message.schema_category or None,
        schema_name=message.schema_name or None,
        min_schema_version=message.min_schema_version,
        function_names=frozenset(names_from_proto(message.function_names)) or None,
        scopes=frozenset(message.scopes) or None,
    )


def names_to_proto(names, sort: bool = True) -> list[metadata_pb2.AppFunctionName]:
    """Sorted unless the order matters, so that the same set always makes the same bytes."""
    ordered = sorted(names, key=lambda n: (n.package_name, n.function_identifier)) if sort else names
    return [
        metadata_pb2.AppFunctionName(package_name=n.package_name, function_identifier=n.function_identifier)
        for n in ordered
    ]


def names_from_proto(messages) -> list[AppFunctionName]:
    return [AppFunctionName(m.package_name, m.function_identifier) for m in messages]
