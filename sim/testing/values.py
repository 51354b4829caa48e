"""A test's Python values as the types a function declares.

A test holds an app's classes from wherever it got them: ``installed.types``, its own import
of the app folder (a different module, so a different class of the same name), or not at all.
So a serializable argument may be an instance of any class of the declared name, or a dict of
its fields by Python or wire name; it is rebuilt as the class the function's spec encodes.
Anything else is refused with the forms that are accepted.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from droid.appfunctions.json_codec import close_names
from droid.appfunctions.proxies import ProxySpec
from droid.appfunctions.typeref import Kind, ObjectSpec, TypeSpec

# How a test writes each library type, for the error that refuses another form.
_EXAMPLES = {
    "java.time.LocalDate": "datetime.date(2025, 6, 14)",
    "java.time.LocalTime": "datetime.time(19, 30)",
    "java.time.LocalDateTime": "datetime.datetime(2025, 6, 14, 19, 30)",
    "java.time.Instant": "datetime.datetime(2025, 6, 14, 17, 30, tzinfo=datetime.timezone.utc)",
    "java.time.ZoneId": 'zoneinfo.ZoneInfo("Europe/Paris")',
}


def as_declared(spec: TypeSpec, value: Any, path: str) -> Any:
    """``value`` as ``spec``'s Python type, or a TypeError naming ``path`` and the accepted forms.
    Values the codec checks itself (numbers, strings, ...) pass through to its checks."""
    if value is None:
        return None
    if spec.kind is Kind.LIST and isinstance(value, (list, tuple)) and spec.item is not None:
        return [as_declared(spec.item, item, f"{path}[{i}]") for i, item in enumerate(value)]
    if spec.kind is Kind.OBJECT and spec.obj is not None:
        return _object(spec.obj, value, path)
    if spec.kind is Kind.ONE_OF and spec.one_of is not None:
        case = next((c for c in spec.one_of.cases if _same_class(type(value), c.cls)), None)
        if case is not None:
            return _object(case, value, path)
        cases = ", ".join(c.cls.__name__ for c in spec.one_of.cases)
        raise TypeError(f"{path} must be one of {cases} (an instance of one of them), not {kind_of(value)}")
    if spec.kind is Kind.PROXY and spec.proxy is not None and not spec.proxy.accepts(value):
        raise TypeError(proxy_form_error(spec.proxy, value, path))
    return value


def proxy_form_error(proxy: ProxySpec, value: Any, path: str) -> str:
    """The message for a library type (a date...) given in another form."""
    example = _EXAMPLES.get(proxy.qualified_name, proxy.label)
    return f"{path} must be a {proxy.label}, for example {example}; not {kind_of(value)}"


def _object(obj: ObjectSpec, value: Any, path: str) -> Any:
    if isinstance(value, obj.cls):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and _same_class(type(value), obj.cls):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
    elif isinstance(value, Mapping):
        fields = dict(value)
    else:
        names = ", ".join(p.py_name for p in obj.properties)
        raise TypeError(
            f"{path} must be a {obj.cls.__name__}: {obj.cls.__name__}({names}) or a dict with those keys "
            f"(Python or wire names); not {kind_of(value)}"
        )
    by_name = {p.py_name: p for p in obj.properties} | {p.wire_name: p for p in obj.properties}
    arguments = {}
    for key, item in fields.items():
        prop = by_name.get(key)
        if prop is None:
            raise TypeError(unknown_key(f"{path}.{key}", key, [p.py_name for p in obj.properties],
                                        f"a property of {obj.cls.__name__}"))
        arguments[prop.py_name] = as_declared(prop.type, item, f"{path}.{prop.py_name}")
    try:
        return obj.cls(**arguments)
    except TypeError as error:  # a required field left out
        raise TypeError(f"{path}: {error}") from None


def unknown_key(path: str, key: str, names: list[str], what: str) -> str:
    """The message for a key that names nothing: the names there are, and the closest."""
    close = close_names(key, names)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return f"{path} is not {what}{hint} (its names: {', '.join(names) or 'none'})"


def _same_class(candidate: type, declared: type) -> bool:
    """The declared class, or the same class imported from another copy of the app's module."""
    return candidate is declared or (
        candidate.__qualname__ == declared.__qualname__ and dataclasses.is_dataclass(candidate)
    )


def kind_of(value: Any) -> str:
    """A value for an error message: its type and its repr."""
    return f"{type(value).__name__} {value!r}"
