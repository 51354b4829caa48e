"""The declaration layer: decorators and type markers, the Jetpack annotations in Python.

- ``@AppFunctionServiceEntryPoint`` → subclass ``AppFunctionServiceEntryPoint``
- ``@AppFunctionDeclaration(isEnabled, isDescribedByKDoc)`` →
  ``@app_function(enabled=, described_by_docstring=, destructive=)``
- ``@AppFunctionInstruction("...")`` → ``@app_function_instruction("...")`` on a function or
  class; ``Annotated[T, Instruction("...")]`` on a parameter, return type or property
- ``@AppFunctionAccessLevel(level, isCompatEnforcementEnabled)`` →
  ``@app_function_access_level(level, compat_enforcement=)``
- ``@AppFunctionSchemaDefinition(name, version, category)`` →
  ``@app_function_schema_definition(name=, version=, category=)``
- ``@AppFunctionSchemaCapability`` → ``@app_function_schema_capability``
- ``@AppFunctionSerializable(isDescribedByKDoc)`` →
  ``@app_function_serializable(described_by_docstring=)`` on a ``@dataclass``; on a
  ``sealed class`` / ``sealed interface`` → ``@app_function_serializable(sealed=True)``
  on a plain base class (or a union ``A | B`` of serializables at the use site)
- ``@Deprecated("message")`` → ``@deprecated("message")`` (PEP 702 ``__deprecated__``)
- ``@AppFunctionStringValueConstraint`` → ``Annotated[str, StringValueConstraint(...)]`` or
  ``Literal["A", "B"]``; ``@AppFunctionIntValueConstraint`` → ``IntValueConstraint`` or
  ``Literal[1, 2]``; ``@AppFunctionUriValueConstraint`` → ``UriValueConstraint``
- Kotlin ``Int`` / ``Float`` → ``Int32`` / ``Float32`` (``int`` is LONG, ``float`` DOUBLE);
  ``Instant`` is an aware ``datetime``

Decorators only record options on the object they decorate; the compiler and
the entry point read them later, so decorator order does not matter.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Callable, Iterable, TypeVar

from droid.appfunctions.metadata import (
    ACCESS_LEVEL_ANDROID_TRUSTED,
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
)

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)

FUNCTION_ATTR = "__app_function__"
INSTRUCTION_ATTR = "__app_function_instruction__"
ACCESS_LEVEL_ATTR = "__app_function_access_level__"
SERIALIZABLE_ATTR = "__app_function_serializable__"
SCHEMA_ATTR = "__app_function_schema__"
CAPABILITY_ATTR = "__app_function_schema_capability__"
DEPRECATED_ATTR = "__deprecated__"  # PEP 702, also set by warnings.deprecated

_ACCESS_LEVELS = (ACCESS_LEVEL_SELF, ACCESS_LEVEL_SYSTEM, ACCESS_LEVEL_ANDROID_TRUSTED)


# --------------------------------------------------------------------------- functions
@dataclass(frozen=True)
class FunctionOptions:
    enabled: bool = True
    described_by_docstring: bool = False
    destructive: bool = False


def app_function(
    fn: F | None = None,
    *,
    enabled: bool = True,
    described_by_docstring: bool = False,
    destructive: bool = False,
) -> Any:
    """Declare a method of an ``AppFunctionServiceEntryPoint`` as an AppFunction.

    ``enabled`` is the function's state until the app changes it at run time
    (``enabledByDefault``). With ``described_by_docstring`` the docstring's text
    becomes the function description, each documented parameter its description
    and the Returns section the response description (Google, reST or NumPy).
    ``destructive`` marks a function that deletes, cancels or otherwise cannot be
    undone; it is written as ``<isDestructive>true</isDestructive>`` and agents
    ask the user to confirm before calling it.

    Usable bare (``@app_function``) or with arguments (``@app_function(...)``).
    """
    options = FunctionOptions(bool(enabled), bool(described_by_docstring), bool(destructive))

    def mark(target: F) -> F:
        if not callable(target):
            raise TypeError("@app_function decorates a method")
        setattr(target, FUNCTION_ATTR, options)
        return target

    return mark(fn) if fn is not None else mark


def app_function_instruction(text: str) -> Callable[[Any], Any]:
    """Describe a function or a serializable class with ``text``, overriding its
    docstring (``@AppFunctionInstruction``). For a parameter, return value or
    property, use ``Annotated[T, Instruction(text)]``."""
    _check_text("app_function_instruction", text)

    def mark(target: Any) -> Any:
        # On a class it lands in the class's own __dict__; readers look only there,
        # so a subclass does not inherit its parent's instruction.
        setattr(target, INSTRUCTION_ATTR, text)
        return target

    return mark


def app_function_access_level(level: int, compat_enforcement: bool = False) -> Callable[[F], F]:
    """Who may call the function: ``ACCESS_LEVEL_SELF`` (100), ``ACCESS_LEVEL_SYSTEM``
    (200) or ``ACCESS_LEVEL_ANDROID_TRUSTED`` (300, the default without this decorator).
    ``compat_enforcement`` asks the library to enforce it on platforms that do not."""
    if level not in _ACCESS_LEVELS:
        raise ValueError(
            f"access level must be ACCESS_LEVEL_SELF (100), ACCESS_LEVEL_SYSTEM (200) or "
            f"ACCESS_LEVEL_ANDROID_TRUSTED (300), not {level!r}"
        )

    def mark(target: F) -> F:
        setattr(target, ACCESS_LEVEL_ATTR, (int(level), bool(compat_enforcement)))
        return target

    return mark


def deprecated(message: str) -> Callable[[F], F]:
    """Mark an AppFunction deprecated (Kotlin ``@Deprecated(message)``): the message
    is written to the function's ``<deprecation>``. Unlike ``warnings.deprecated``
    it does not warn when called (the caller is an agent, not Python code); the
    compiler honours ``warnings.deprecated`` / ``typing_extensions.deprecated`` too."""
    _check_text("deprecated", message)

    def mark(target: F) -> F:
        setattr(target, DEPRECATED_ATTR, message)
        return target

    return mark


# --------------------------------------------------------------------------- classes
@dataclass(frozen=True)
class SerializableOptions:
    described_by_docstring: bool = False
    qualified_name: str | None = None
    sealed: bool = False


def app_function_serializable(
    cls: C | None = None,
    *,
    described_by_docstring: bool = False,
    qualified_name: str | None = None,
    sealed: bool = False,
) -> Any:
    """Make a ``@dataclass`` usable as an AppFunction parameter, return value or property.

    Its init fields are its properties, in order; a field with a default is
    optional (see docs/declaring-functions.md for which types may be). A subclass
    must be decorated too and is described as ALL_OF its serializable bases.
    The qualified name defaults to ``<namespace>.<ClassName>``, where the namespace
    is the package of the entry point's ``service_name``; pass ``qualified_name``
    to fix it. Generic dataclasses (``class Box(Generic[T])``) are allowed and are
    named with their type arguments, e.g. ``com.example.Box<kotlin.String>``.

    With ``sealed`` the class is a Kotlin ``sealed class``: not a dataclass itself
    but the union of its decorated direct subclasses, described as ONE_OF (14).
    A value is always one of those subclasses and crosses with all its fields.
    """

    def mark(target: C) -> C:
        name = getattr(target, "__name__", repr(target))
        if sealed:
            if not isinstance(target, type) or dataclasses.is_dataclass(target):
                raise TypeError(
                    f"a sealed @app_function_serializable is a plain base class, not a dataclass: "
                    f"remove @dataclass from {name} and declare the fields on its subclasses"
                )
        elif not isinstance(target, type) or not dataclasses.is_dataclass(target):
            raise TypeError(
                f"@app_function_serializable needs a dataclass: put @dataclass under it on {name}"
            )
        if qualified_name is not None:
            _check_qualified_name(qualified_name)
        setattr(
            target,
            SERIALIZABLE_ATTR,
            SerializableOptions(bool(described_by_docstring), qualified_name, bool(sealed)),
        )
        return target

    return mark(cls) if cls is not None else mark


@dataclass(frozen=True)
class SchemaDefinition:
    name: str
    version: int
    category: str


def app_function_schema_definition(*, name: str, version: int, category: str) -> Callable[[C], C]:
    """Mark an interface-like base class as a predefined schema
    (``@AppFunctionSchemaDefinition``). An app function that overrides one of its
    methods is published with this schema name, version and category, which agents
    filter on with ``AppFunctionSearchSpec``. A default value on the schema
    method's parameter makes that parameter optional in every implementation."""
    _check_text("schema name", name)
    _check_text("schema category", category)
    if not isinstance(version, int) or isinstance(version, bool) or version <= 0:
        raise ValueError(f"schema version must be a positive int, not {version!r}")

    def mark(target: C) -> C:
        setattr(target, SCHEMA_ATTR, SchemaDefinition(name, version, category))
        return target

    return mark


def app_function_schema_capability(cls: C | None = None, *, qualified_name: str | None = None) -> Any:
    """Mark a base class whose annotated attributes a serializable dataclass
    implements (``@AppFunctionSchemaCapability``); it appears as an inline object in
    the implementing class's ALL_OF, named ``<namespace>.<ClassName>`` unless
    ``qualified_name`` fixes it (a library's capability, e.g.
    ``androidx.appfunctions.AppFunctionResourceContainer``)."""
    if qualified_name is not None:
        _check_qualified_name(qualified_name)

    def mark(target: C) -> C:
        setattr(target, CAPABILITY_ATTR, qualified_name or "")
        return target

    return mark(cls) if cls is not None else mark


# --------------------------------------------------------------------------- markers
@dataclass(frozen=True)
class Instruction:
    """``Annotated[T, Instruction("...")]``: the description of a parameter, a return
    value or a property, overriding the docstring."""

    text: str

    def __post_init__(self) -> None:
        _check_text("Instruction", self.text)


@dataclass(frozen=True)
class SerialName:
    """``Annotated[T, SerialName("wireName")]``: the name on the wire and in the XML,
    instead of the camelCase form of the Python name."""

    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.name):
            raise ValueError(f"SerialName must be an identifier, not {self.name!r}")


PATTERN_LITERAL = 0
PATTERN_PREFIX = 1
PATTERN_SIMPLE_GLOB = 2
PATTERN_ADVANCED_GLOB = 3
PATTERN_SUFFIX = 4


@dataclass(frozen=True)
class PatternMatcher:
    """One ``android.os.PatternMatcher`` pattern (``@AppFunctionPatternMatcher``):
    LITERAL 0, PREFIX 1, SIMPLE_GLOB 2, ADVANCED_GLOB 3, SUFFIX 4."""

    pattern: str
    type: int = PATTERN_ADVANCED_GLOB

    def __post_init__(self) -> None:
        if not isinstance(self.pattern, str):
            raise TypeError("PatternMatcher pattern must be a str")
        if not isinstance(self.type, int) or isinstance(self.type, bool):
            raise TypeError("PatternMatcher type must be an int")


@dataclass(frozen=True)
class StringValueConstraint:
    """Constrain a ``str`` (``@AppFunctionStringValueConstraint``).

    - ``enum_values``: the only accepted values (XML ``<enumValues>``);
    - ``pattern``: a regular expression the whole value must match (XML ``<pattern>``,
      the form of the androidx goldens);
    - ``pattern_matchers``: ``PatternMatcher``s, any of which must match
      (XML ``<patterns>``, the form of the latest XSD);
    - ``format``: a free-form hint such as ``"uri"`` or ``"email"`` (XML ``<format>``).
    """

    enum_values: tuple[str, ...] = ()
    pattern: str | None = None
    pattern_matchers: tuple[PatternMatcher, ...] = ()
    format: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "enum_values", _tuple_of(str, self.enum_values, "enum_values"))
        object.__setattr__(
            self, "pattern_matchers", _tuple_of(PatternMatcher, self.pattern_matchers, "pattern_matchers")
        )
        if self.pattern is not None and not isinstance(self.pattern, str):
            raise TypeError("pattern must be a str")
        if self.format is not None and not isinstance(self.format, str):
            raise TypeError("format must be a str")


@dataclass(frozen=True)
class IntValueConstraint:
    """Constrain an ``int`` to ``enum_values`` (``@AppFunctionIntValueConstraint``)."""

    enum_values: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        values = _tuple_of(int, self.enum_values, "enum_values")
        if any(isinstance(v, bool) for v in values):
            raise TypeError("enum_values must be ints, not bools")
        object.__setattr__(self, "enum_values", values)


@dataclass(frozen=True)
class UriValueConstraint:
    """Accept only Uris with one of ``allowed_schemes`` (``@AppFunctionUriValueConstraint``);
    none given allows any scheme. Written to the XML as the pattern androidx writes
    (``^\\Qcontent\\E:.*``) and checked when the function is called."""

    allowed_schemes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        schemes = _tuple_of(str, self.allowed_schemes, "allowed_schemes")
        bad = [s for s in schemes if not _URI_SCHEME.fullmatch(s)]
        if bad:
            raise ValueError(f"{bad[0]!r} is not a URI scheme (a letter, then letters, digits, +, - or .)")
        object.__setattr__(self, "allowed_schemes", schemes)


# RFC 3986 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
_URI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")


class _TypeMarker:
    """A marker that changes the wire type of the annotated Python type."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


INT32 = _TypeMarker("INT32")
FLOAT32 = _TypeMarker("FLOAT32")
INSTANT = _TypeMarker("INSTANT")

#: A 32-bit int, type INT (7) like Kotlin ``Int``; checked for range at run time.
Int32 = Annotated[int, INT32]
#: A float sent as FLOAT (5), like Kotlin ``Float``.
Float32 = Annotated[float, FLOAT32]
#: A point in time: a timezone-aware ``datetime``, sent as ``java.time.Instant``.
Instant = Annotated[datetime, INSTANT]


# --------------------------------------------------------------------------- helpers
def _check_text(what: str, text: Any) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{what} needs a non-empty string")


def _check_qualified_name(name: str) -> None:
    if not re.fullmatch(r"[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)*", name):
        raise ValueError(f"qualified_name must be dotted identifiers, not {name!r}")


def _tuple_of(kind: type, values: Iterable[Any], what: str) -> tuple:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{what} must be a list, not a single {type(values).__name__}")
    result = tuple(values)
    for value in result:
        if not isinstance(value, kind):
            raise TypeError(f"{what} must hold {kind.__name__} values, not {value!r}")
    return result
