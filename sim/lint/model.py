"""What the lint knows about an app, whichever way the app was written.

The readers fill these from the XML (any app) and, when there is Python code,
from the declarations and the source; the checks only read them. Function and
type metadata are the platform's own messages, so a rule is written once for
apps built with droidsim's decorators and for apps that ship hand-written XML.

Every function, type and app carries a ``Scope``: where findings about it point
(file:line, function id) and the suppression directives written there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Literal

from droid.appfunctions.metadata import (
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    AppFunctionParameterMetadata,
    DataType,
    function_name,
)
from sim.lint.directives import Directive
from sim.lint.source import CodeModule


@dataclass
class Scope:
    """Where findings about one function, type or app point, and what silences them."""

    file: str
    line: int
    function_id: str | None = None
    directives: list[Directive] = field(default_factory=list)


TextKind = Literal["description", "parameter", "return", "type", "property", "app"]


@dataclass
class Text:
    """One description an agent reads, with where it is written: what it describes (``kind``)
    and which one (``subject``: a parameter's name, a type's, ``Type.property``)."""

    kind: TextKind
    text: str
    line: int
    enum_values: tuple[str, ...] = ()
    subject: str = ""

    @property
    def what(self) -> str:
        """As a message names it: "description", "parameter 'orderId'", "property 'Note.title'"."""
        return {"description": "description", "parameter": f"parameter '{self.subject}'", "return": "return value",
                "type": f"type {self.subject}", "property": f"property '{self.subject}'",
                "app": "app description"}[self.kind]


@dataclass
class Parameter:
    metadata: AppFunctionParameterMetadata
    line: int
    # From the Python source, when there is one:
    py_name: str | None = None
    default: ast.expr | None = None

    @property
    def name(self) -> str:
        return self.metadata.name


@dataclass
class Code:
    """The Python definition of a function: its module, node and class."""

    module: CodeModule
    node: ast.FunctionDef | ast.AsyncFunctionDef
    cls: ast.ClassDef | None


@dataclass
class Function:
    metadata: AppFunctionMetadata
    scope: Scope
    parameters: list[Parameter]
    code: Code | None = None
    service: str = ""  # the AppFunctionService that declares it

    @property
    def id(self) -> str:
        return self.metadata.id

    @property
    def name(self) -> str:
        return function_name(self.metadata)

    @property
    def description(self) -> str:
        return self.metadata.description

    @property
    def returns_value(self) -> bool:
        return self.metadata.HasField("response") and self.metadata.response.value_type.type != DataType.UNIT

    def texts(self) -> Iterator[Text]:
        yield Text("description", self.description, self.scope.line)
        for p in self.parameters:
            yield Text("parameter", p.metadata.description, p.line, tuple(p.metadata.data_type.enum_values), p.name)
        if self.metadata.HasField("response"):
            response = self.metadata.response
            yield Text("return", response.description, self.scope.line, tuple(response.value_type.enum_values))


@dataclass
class TypeInfo:
    """A shared data type (a serializable class, or a <dataTypes> entry)."""

    name: str
    metadata: AppFunctionDataTypeMetadata
    scope: Scope
    # The app's own types are linted; platform types (java.time.*, SetField, Uri) are not.
    defined_by_app: bool
    property_lines: dict[str, int] = field(default_factory=dict)

    @property
    def simple_name(self) -> str:
        return self.name.split("<", 1)[0].rsplit(".", 1)[-1]

    def texts(self) -> Iterator[Text]:
        yield Text("type", self.metadata.description, self.scope.line, subject=self.simple_name)
        for prop in self.metadata.properties:
            yield Text(
                "property",
                prop.data_type.description,
                self.property_lines.get(prop.name, self.scope.line),
                tuple(prop.data_type.enum_values),
                f"{self.simple_name}.{prop.name}",
            )


@dataclass
class App:
    app_dir: Path
    package: str
    description: str
    scope: Scope  # app-level findings: app_metadata.xml, else the manifest's <application>
    functions: list[Function] = field(default_factory=list)
    # The manifest's AppFunctionServices, in queryIntentServices order (Android 16 binds the first
    # and indexes the last).
    services: list[str] = field(default_factory=list)
    # Those an Android 16 phone indexes, where they differ (an APK's android:enabled="@bool/..."
    # with a -v37 override); None: the same as ``services``.
    android16_services: list[str] | None = None
    types: dict[str, TypeInfo] = field(default_factory=dict)
    modules: list[CodeModule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def kotlin(self) -> bool:
        """No Python code: a Kotlin app's APK, or its code-less folder. Its descriptions are the
        KDoc KSP copied into the XML, so fixes are said in Kotlin."""
        return not self.modules

    def reachable_types(self, data_type: AppFunctionDataTypeMetadata) -> list[TypeInfo]:
        """The shared types ``data_type`` refers to, directly or through other types."""
        found: dict[str, TypeInfo] = {}

        def visit(dt: AppFunctionDataTypeMetadata) -> None:
            if dt.data_type_reference:
                info = self.types.get(dt.data_type_reference)
                if info is not None and info.name not in found:
                    found[info.name] = info
                    visit(info.metadata)
            if dt.HasField("item_type"):
                visit(dt.item_type)
            for prop in dt.properties:
                visit(prop.data_type)
            for part in [*dt.all_of, *dt.one_of]:
                visit(part)

        visit(data_type)
        return list(found.values())

    def types_of(self, function: Function) -> list[TypeInfo]:
        """The app's own types a function takes or returns."""
        found: dict[str, TypeInfo] = {}
        roots = [p.metadata.data_type for p in function.parameters]
        if function.metadata.HasField("response"):
            roots.append(function.metadata.response.value_type)
        for root in roots:
            for info in self.reachable_types(root):
                found.setdefault(info.name, info)
        return [info for info in found.values() if info.defined_by_app]

    def assign_type_owners(self) -> None:
        """A type's findings name the first function that uses it."""
        for function in self.functions:
            for info in self.types_of(function):
                if info.scope.function_id is None:
                    info.scope.function_id = function.id

    def all_directives(self) -> list[Directive]:
        """Every directive written in the app, once each (scopes share Python ones)."""
        found: dict[tuple[str, int], Directive] = {}
        scopes = [self.scope, *(f.scope for f in self.functions), *(t.scope for t in self.types.values())]
        for directive in [d for s in scopes for d in s.directives] + [
            d for m in self.modules for d in m.directives.values()
        ]:
            found.setdefault((directive.file, directive.line), directive)
        return list(found.values())
