"""AppFunctionData: the typed document that carries parameters and return values.

It mirrors AppSearch's GenericDocument as android.app.appfunctions uses it: a
qualified name plus named properties, each a long, double, boolean, string,
bytes or nested document, single or repeated. Python values map one to one
(int, float, bool, str, bytes, AppFunctionData, a list of one kind, or None for
an explicit null), so nothing is lost between processes: an int stays an int.
"""

from __future__ import annotations

from typing import Any, ItemsView, Iterator, KeysView, Mapping, ValuesView

# ExecuteAppFunctionResponse.PROPERTY_RETURN_VALUE
PROPERTY_RETURN_VALUE = "androidAppfunctionsReturnValue"


def kind_of(value: Any) -> type:
    """The property kind of one value; bool before int, since bool is an int."""
    for kind in (bool, int, float, str, bytes):
        if isinstance(value, kind):
            return kind
    if isinstance(value, AppFunctionData):
        return AppFunctionData
    raise TypeError(
        f"{type(value).__name__} cannot go in AppFunctionData; use int, float, bool, str, "
        "bytes, AppFunctionData or a list of one of them"
    )


def check_value(name: str, value: Any) -> Any:
    """Validate one property value; lists must hold a single kind."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        kinds = {kind_of(v) for v in value}
        if len(kinds) > 1:
            names = sorted(k.__name__ for k in kinds)
            raise TypeError(f"property {name!r} mixes {', '.join(names)} in one list")
        return list(value)
    kind_of(value)
    return value


class AppFunctionData(Mapping[str, Any]):
    """An immutable typed document. Build it from keyword values or a mapping."""

    __slots__ = ("qualified_name", "id", "_values")

    def __init__(
        self,
        values: Mapping[str, Any] | None = None,
        /,
        *,
        qualified_name: str = "",
        id: str = "",
        **kwargs: Any,
    ) -> None:
        merged = dict(values or {}, **kwargs)
        self.qualified_name = qualified_name
        self.id = id
        self._values = {str(k): check_value(k, v) for k, v in merged.items()}

    EMPTY: "AppFunctionData"

    @classmethod
    def _of_checked(cls, values: dict[str, Any], qualified_name: str, id: str) -> "AppFunctionData":
        """A document from values already known to be valid (decoded from the binder's
        protobuf, where every property has one kind); skips the per-value checks."""
        data = cls.__new__(cls)
        data.qualified_name = qualified_name
        data.id = id
        data._values = values
        return data

    # Mapping protocol: data["orderId"], "orderId" in data, len(data), iteration. The
    # methods Mapping would derive from __getitem__ go straight to the dict: the
    # binder reads every property of every document it carries.
    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def keys(self) -> KeysView[str]:
        return self._values.keys()

    def items(self) -> ItemsView[str, Any]:
        return self._values.items()

    def values(self) -> ValuesView[Any]:
        return self._values.values()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AppFunctionData):
            return NotImplemented
        return (
            self.qualified_name == other.qualified_name
            and self.id == other.id
            and self._values == other._values
        )

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        name = f"{self.qualified_name!r}, " if self.qualified_name else ""
        return f"AppFunctionData({name}{self._values!r})"

    # Typed getters as on Android: a missing key gives 0/False/None.
    def get_long(self, key: str, default: int = 0) -> int:
        return _first(self._values.get(key), default)

    def get_int(self, key: str, default: int = 0) -> int:
        return _first(self._values.get(key), default)

    def get_double(self, key: str, default: float = 0.0) -> float:
        return _first(self._values.get(key), default)

    def get_boolean(self, key: str, default: bool = False) -> bool:
        return _first(self._values.get(key), default)

    def get_string(self, key: str) -> str | None:
        return _first(self._values.get(key), None)

    def get_bytes(self, key: str) -> bytes | None:
        return _first(self._values.get(key), None)

    def get_app_function_data(self, key: str) -> "AppFunctionData | None":
        return _first(self._values.get(key), None)

    def get_list(self, key: str) -> list | None:
        value = self._values.get(key)
        if value is None:
            return None
        return value if isinstance(value, list) else [value]

    def is_null(self, key: str) -> bool:
        """True when the key is present with an explicit null."""
        return key in self._values and self._values[key] is None

    def with_values(self, **values: Any) -> "AppFunctionData":
        return AppFunctionData(
            {**self._values, **values}, qualified_name=self.qualified_name, id=self.id
        )

    def to_python(self) -> dict[str, Any]:
        """Plain nested dicts and lists (bytes stay bytes), for printing and tests."""
        return {k: _to_python(v) for k, v in self._values.items()}


def _first(value: Any, default: Any) -> Any:
    if value is None:
        return default
    if isinstance(value, list):
        return value[0] if value else default
    return value


def _to_python(value: Any) -> Any:
    if isinstance(value, AppFunctionData):
        return value.to_python()
    if isinstance(value, list):
        return [_to_python(v) for v in value]
    return value


AppFunctionData.EMPTY = AppFunctionData()
