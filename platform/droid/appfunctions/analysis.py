"""Reads an entry point class into specs: its functions, parameters and shared types.

The compiler writes the XML from an ``EntryPointSpec`` and the entry point runs
calls with the same spec, so what agents are told and what the app accepts are
one thing. Analysis is lazy (on first use) so that type hints may refer to
classes defined after the service in the same module.
"""

from __future__ import annotations

import inspect
import re
import threading
import typing
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable

from droid.appfunctions.declarations import (
    ACCESS_LEVEL_ATTR,
    DEPRECATED_ATTR,
    FUNCTION_ATTR,
    INSTRUCTION_ATTR,
    SCHEMA_ATTR,
    FunctionOptions,
    SchemaDefinition,
)
from droid.appfunctions.docstrings import EMPTY, function_docs
from droid.appfunctions.proxies import ProxySpec
from droid.appfunctions.typeref import (
    AppFunctionCompileError,
    Kind,
    ObjectSpec,
    OneOfSpec,
    PropertySpec,
    TypeResolver,
    TypeSpec,
    check_optional,
    wire_name,
)

_SERVICE_NAME = re.compile(r"[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)+")
_XML_FILE_NAME = re.compile(r"[a-z0-9_]+")


# A parameter is described exactly as a serializable property is: a named, typed field.
ParameterSpec = PropertySpec


@dataclass(eq=False)
class FunctionSpec:
    id: str
    method_name: str
    is_async: bool
    enabled: bool
    description: str
    parameters: list[ParameterSpec]
    returns: TypeSpec
    return_description: str = ""
    schema: SchemaDefinition | None = None
    deprecation: str | None = None
    access_level: int | None = None
    compat_enforcement: bool = False
    destructive: bool = False

    def parameter(self, wire: str) -> ParameterSpec | None:
        for p in self.parameters:
            if p.wire_name == wire:
                return p
        return None


@dataclass(eq=False)
class EntryPointSpec:
    cls: type
    service_name: str
    xml_file_name: str
    namespace: str
    functions: list[FunctionSpec]
    # Shared types (serializables and proxies), sorted by qualified name.
    components: list[ObjectSpec | OneOfSpec | ProxySpec] = field(default_factory=list)

    def function(self, function_id: str) -> FunctionSpec | None:
        for f in self.functions:
            if f.id == function_id:
                return f
        return None


_CACHE: "weakref.WeakKeyDictionary[type, EntryPointSpec]" = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()


def service_name_of(cls: type) -> str:
    name = getattr(cls, "service_name", None)
    if not isinstance(name, str) or not _SERVICE_NAME.fullmatch(name):
        raise AppFunctionCompileError(
            f"{cls.__module__}.{cls.__qualname__}: set the class attribute service_name to the "
            f"manifest <service android:name>, a fully qualified class name such as "
            f"'com.example.orders.OrderFunctionService' (got {name!r})"
        )
    return name


def xml_file_name_of(cls: type) -> str:
    name = getattr(cls, "xml_file_name", None)
    if isinstance(name, str) and name.endswith(".xml"):
        name = name[:-4]
    if not isinstance(name, str) or not _XML_FILE_NAME.fullmatch(name):
        raise AppFunctionCompileError(
            f"{service_name_of(cls)}: set the class attribute xml_file_name to the asset's name "
            f"without .xml, in lower_snake_case such as 'order_functions' (got "
            f"{getattr(cls, 'xml_file_name', None)!r})"
        )
    return name


def declared_functions(cls: type) -> dict[str, Callable[..., Any]]:
    """Method name → function for every ``@app_function`` in ``cls`` and its bases,
    base classes first, each in definition order."""
    found: dict[str, Callable[..., Any]] = {}
    for klass in reversed(cls.__mro__):
        for name, attr in vars(klass).items():
            fn = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
            if getattr(fn, FUNCTION_ATTR, None) is not None:
                if isinstance(attr, (staticmethod, classmethod)):
                    raise AppFunctionCompileError(
                        f"{klass.__qualname__}.{name}: an AppFunction is a plain method, not a "
                        f"{type(attr).__name__}"
                    )
                found[name] = fn
            elif name in found and callable(attr):
                # An override without the decorator keeps the declaration of its base.
                found[name] = attr
            elif callable(fn) and (
                getattr(fn, ACCESS_LEVEL_ATTR, None) is not None
                or (not isinstance(fn, type) and getattr(fn, INSTRUCTION_ATTR, None) is not None)
            ):
                raise AppFunctionCompileError(
                    f"{klass.__qualname__}.{name} has AppFunction options but no @app_function"
                )
    return found


def function_ids(cls: type) -> frozenset[str]:
    service = service_name_of(cls)
    return frozenset(f"{service}#{name}" for name in declared_functions(cls))


def analyze(cls: type) -> EntryPointSpec:
    """The spec of an entry point class (cached per class)."""
    with _LOCK:
        spec = _CACHE.get(cls)
        if spec is None:
            spec = _analyze(cls)
            _CACHE[cls] = spec
        return spec


def _analyze(cls: type) -> EntryPointSpec:
    service_name = service_name_of(cls)
    xml_file_name = xml_file_name_of(cls)
    namespace = getattr(cls, "type_namespace", None) or service_name.rpartition(".")[0]
    resolver = TypeResolver(namespace)
    functions = [
        _function(cls, name, fn, resolver, service_name)
        for name, fn in declared_functions(cls).items()
    ]
    return EntryPointSpec(
        cls, service_name, xml_file_name, namespace, functions, _components(functions)
    )


def _function(
    cls: type, name: str, declared: Callable[..., Any], resolver: TypeResolver, service_name: str
) -> FunctionSpec:
    function_id = f"{service_name}#{name}"
    if name.startswith("__"):
        raise AppFunctionCompileError(f"{function_id}: an AppFunction cannot be a dunder method")
    impl = getattr(cls, name)
    # Options come from the nearest decorated definition, the code from the class.
    options: FunctionOptions = _nearest(cls, name, FUNCTION_ATTR)
    decorated = _nearest_function(cls, name)
    try:
        signature = inspect.signature(impl)
    except (TypeError, ValueError) as e:
        raise AppFunctionCompileError(f"{function_id}: cannot read its signature: {e}") from e
    try:
        hints = typing.get_type_hints(impl, include_extras=True)
    except Exception as e:  # NameError for an undefined name, etc.
        raise AppFunctionCompileError(f"{function_id}: cannot resolve its type hints: {e}") from e

    if inspect.isgeneratorfunction(impl) or inspect.isasyncgenfunction(impl):
        raise AppFunctionCompileError(
            f"{function_id}: an AppFunction returns one value; it cannot be a generator (return a list)"
        )
    docs = function_docs(decorated) if options.described_by_docstring else EMPTY
    if options.described_by_docstring and docs is EMPTY and impl is not decorated:
        docs = function_docs(impl)
    schema, schema_defaults = _schema(cls, name)

    params = list(signature.parameters.values())
    if not params or params[0].kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
        raise AppFunctionCompileError(f"{function_id}: an AppFunction is a method taking self first")
    parameters: list[ParameterSpec] = []
    seen: dict[str, str] = {}
    for p in params[1:]:
        where = f"{function_id}: parameter '{p.name}'"
        if p.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            raise AppFunctionCompileError(
                f"{where}: *args, **kwargs and positional-only parameters are not supported; "
                f"declare each parameter by name"
            )
        if p.name not in hints:
            raise AppFunctionCompileError(f"{where} needs a type annotation")
        type_spec, markers = resolver.resolve(hints[p.name], where)
        has_default = p.default is not inspect.Parameter.empty or p.name in schema_defaults
        if has_default:
            check_optional(type_spec, where)
        wire = markers.serial_name or wire_name(p.name)
        if wire in seen:
            raise AppFunctionCompileError(
                f"{where}: wire name {wire!r} is also used by '{seen[wire]}'; rename one or give "
                f"it a SerialName"
            )
        seen[wire] = p.name
        description = markers.instruction or docs.lookup(p.name, wire)
        parameters.append(ParameterSpec(p.name, wire, type_spec, not has_default, description))

    if "return" not in hints:
        raise AppFunctionCompileError(
            f"{function_id} needs a return annotation (-> None when it returns nothing)"
        )
    returns, return_markers = resolver.resolve(hints["return"], f"{function_id}: return type", allow_unit=True)
    if return_markers.serial_name:
        raise AppFunctionCompileError(f"{function_id}: SerialName does not apply to a return type")
    if returns.kind is Kind.UNIT:
        returns.nullable = False

    instruction = getattr(decorated, INSTRUCTION_ATTR, None)
    access = _nearest(cls, name, ACCESS_LEVEL_ATTR)
    deprecation = getattr(impl, DEPRECATED_ATTR, None) or getattr(decorated, DEPRECATED_ATTR, None)
    return FunctionSpec(
        id=function_id,
        method_name=name,
        is_async=inspect.iscoroutinefunction(impl),
        enabled=options.enabled,
        description=instruction or docs.description,
        parameters=parameters,
        returns=returns,
        return_description=return_markers.instruction or docs.returns,
        schema=schema,
        deprecation=str(deprecation) if deprecation else None,
        access_level=access[0] if access else None,
        compat_enforcement=access[1] if access else False,
        destructive=options.destructive,
    )


def _nearest(cls: type, name: str, attr: str) -> Any:
    for klass in cls.__mro__:
        fn = vars(klass).get(name)
        value = getattr(fn, attr, None)
        if value is not None:
            return value
    return None


def _nearest_function(cls: type, name: str) -> Callable[..., Any]:
    for klass in cls.__mro__:
        fn = vars(klass).get(name)
        if getattr(fn, FUNCTION_ATTR, None) is not None:
            return fn  # type: ignore[return-value]
    return getattr(cls, name)


def _schema(cls: type, name: str) -> tuple[SchemaDefinition | None, set[str]]:
    """The schema of the root schema-definition class declaring ``name``, and the
    parameters that method gives defaults (which makes them optional)."""
    found: SchemaDefinition | None = None
    defaults: set[str] = set()
    for klass in reversed(cls.__mro__):
        schema = vars(klass).get(SCHEMA_ATTR)
        method = vars(klass).get(name)
        if schema is None or method is None or found is not None:
            continue
        found = schema
        try:
            for p in inspect.signature(method).parameters.values():
                if p.default is not inspect.Parameter.empty:
                    defaults.add(p.name)
        except (TypeError, ValueError):
            pass
    return found, defaults


def _components(functions: list[FunctionSpec]) -> list[ObjectSpec | OneOfSpec | ProxySpec]:
    found: dict[str, ObjectSpec | OneOfSpec | ProxySpec] = {}

    def visit(spec: TypeSpec | None) -> None:
        if spec is None:
            return
        if spec.kind is Kind.LIST:
            visit(spec.item)
        elif spec.proxy is not None:
            found.setdefault(spec.proxy.qualified_name, spec.proxy)
        elif spec.obj is not None:
            visit_object(spec.obj)
        elif spec.one_of is not None:
            if spec.one_of.qualified_name:
                found.setdefault(spec.one_of.qualified_name, spec.one_of)
            for case in spec.one_of.cases:
                visit_object(case)

    def visit_object(obj: ObjectSpec) -> None:
        if obj.qualified_name in found:
            return
        found[obj.qualified_name] = obj
        for prop in obj.properties:
            visit(prop.type)
        for parent in obj.parents:
            visit_object(parent)
        for capability in obj.capabilities:
            for prop in capability.properties:
                visit(prop.type)

    for fn in functions:
        for p in fn.parameters:
            visit(p.type)
        visit(fn.returns)
    return [found[name] for name in sorted(found)]
