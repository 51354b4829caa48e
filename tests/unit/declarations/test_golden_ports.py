"""androidx compiler test inputs ported to Python declarations.

Each port is compiled and its XML must be structurally equal to the androidx
golden (same elements, order and text, whitespace aside). The goldens are read
in place from the shared reference folder (``reference_dir``), never copied;
goldens that are not there, or are there in an older version
(valid_uri_service.xml), are ported in test_upstream_goldens.py.
Python ``int`` is LONG, so the ports spell Kotlin ``Int`` as ``Int32`` and
``Float`` as ``Float32``; Kotlin names are kept as Python names (``simpleFunction``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Generic, Literal, TypeVar

import pytest

from droid.app import PendingIntent
from droid.appfunctions import (
    ACCESS_LEVEL_SELF,
    ACCESS_LEVEL_SYSTEM,
    AppFunctionServiceEntryPoint,
    Float32,
    Instruction,
    Int32,
    StringValueConstraint,
    app_function,
    app_function_access_level,
    app_function_instruction,
    app_function_schema_capability,
    app_function_schema_definition,
    app_function_serializable,
    deprecated,
)
from droid.appfunctions.compiler import render_entry_points

from .xmltree import assert_same_tree

T = TypeVar("T")


@pytest.fixture(scope="module")
def golden(reference_dir: Path):
    root = reference_dir / "androidx-compiler-output"
    if not root.is_dir():
        pytest.skip(f"no androidx-compiler-output under {reference_dir}")
    return lambda name: root / name


# --------------------------------------------------------------------------- entrypoints/
class SimpleEntryPoint(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.SimpleEntryPoint"
    xml_file_name = "my_simple_service"

    @app_function
    def simpleFunction(self, int: Int32, string: str) -> str:
        return f"{int}{string}"


class ExtensionEntryPoint(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.ExtensionEntryPoint"
    xml_file_name = "my_extension_service"

    @app_function(described_by_docstring=True)
    def simpleFunction(self, int: Int32, string: str) -> str:
        """simple function.

        Args:
            int: Int param.
            string: String param.

        Returns:
            Result.
        """
        return string


class AccessLevelEntryPoint(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.AccessLevelEntryPoint"
    xml_file_name = "my_access_level_service"

    @app_function
    @app_function_access_level(ACCESS_LEVEL_SELF, compat_enforcement=False)
    def selfFunction(self) -> None: ...

    @app_function_access_level(ACCESS_LEVEL_SYSTEM, compat_enforcement=True)
    @app_function
    def systemFunction(self) -> None: ...


@app_function_serializable(described_by_docstring=True)
@dataclass
class AllKDocAvailable:
    """AllKDocAvailable KDoc.

    Attributes:
        property: Directly apply KDoc
    """

    property: str


@app_function_serializable(described_by_docstring=True)
@dataclass
class OnlyClassLevelKDoc:
    """OnlyClassLevelKDoc KDoc.

    :ivar property: Property tag KDoc.
    """

    property: str


@app_function_serializable(described_by_docstring=True)
@dataclass
class OnlyParamKDoc:
    """OnlyParamKDoc KDoc.

    Parameters
    ----------
    property : str
        Param tag KDoc.
    """

    property: str


@app_function_serializable(described_by_docstring=True)
@dataclass
class MixedSources:
    """Test case for multiple properties with different documentation sources.

    Attributes:
        prop2: Class param description.
    """

    prop1: Annotated[str, Instruction("Direct description.")]
    prop2: str
    prop3: str


class PropertyDocPriorityService(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.PropertyDocPriorityService"
    xml_file_name = "property_doc_priority"

    @app_function
    def propertyKdocParameters(
        self, all: AllKDocAvailable, only_class: OnlyClassLevelKDoc, param: OnlyParamKDoc, mixed: MixedSources
    ) -> None: ...


ENTRY_POINT_PORTS = [
    ("entrypoints/my_simple_service.xml", SimpleEntryPoint),
    ("entrypoints/my_extension_service.xml", ExtensionEntryPoint),
    ("entrypoints/my_access_level_service.xml", AccessLevelEntryPoint),
    ("xml/property_doc_priority.xml", PropertyDocPriorityService),
]


@pytest.mark.parametrize(("name", "entry_point"), ENTRY_POINT_PORTS, ids=[n for n, _ in ENTRY_POINT_PORTS])
def test_entry_point_port_matches_golden(golden, name, entry_point):
    assert_same_tree(render_entry_points([entry_point]), golden(name))


def test_simple_service_is_byte_identical(golden):
    # Beyond structure: the writer's formatting is the androidx compiler's.
    assert render_entry_points([SimpleEntryPoint]) == golden("entrypoints/my_simple_service.xml").read_bytes()


# --------------------------------------------------------------------------- xml/ (aggregate files)
@app_function_serializable(described_by_docstring=True)
@dataclass
class SetField(Generic[T]):
    """An example generic AppFunctionSerializable."""

    value: T


@app_function_serializable(described_by_docstring=True)
@dataclass
class Attachment:
    """An attachment for a note entity."""

    uri: str


@app_function_serializable(described_by_docstring=True)
@dataclass
class UpdateNoteParams:
    """Parameters to update a note entity."""

    title: SetField[str] | None = None
    nullable_title: SetField[str | None] | None = None
    attachments: SetField[list[Attachment]] | None = None
    nullable_attachments: SetField[list[Attachment] | None] | None = None


class FunctionWithGenericSerializable(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FunctionWithGenericSerializable"
    xml_file_name = "generic"

    @app_function
    async def test(self, params: UpdateNoteParams, top_level_generic_param: SetField[Int32] | None) -> None: ...


@app_function_serializable
@dataclass
class SampleSerializable:
    value: str
    list_value: list[str]


class SerializableInputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.SerializableInputFunctions"
    xml_file_name = "serializable_input"

    @app_function
    def simpleFunction(self, serializable: SampleSerializable) -> None: ...

    @app_function
    def simpleFunctionBothSerializableListAndListItemNullable(
        self, serializable: list[SampleSerializable | None] | None
    ) -> None: ...

    @app_function
    def simpleFunctionNullableSerializable(self, serializable: SampleSerializable | None) -> None: ...

    @app_function
    def simpleFunctionNullableSerializableList(self, serializable: list[SampleSerializable] | None) -> None: ...

    @app_function
    def simpleFunctionSerializableList(self, serializable: list[SampleSerializable]) -> None: ...

    @app_function
    def simpleFunctionSerializableListItemNullable(self, serializable: list[SampleSerializable | None]) -> None: ...


class SerializableOutputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.SerializableOutputFunctions"
    xml_file_name = "serializable_output"

    @app_function
    def simpleFunction(self) -> SampleSerializable:
        return SampleSerializable("a", [])

    @app_function
    def simpleFunctionNullableSerializable(self) -> SampleSerializable | None:
        return None

    @app_function
    def simpleFunctionNullableSerializableList(self) -> list[SampleSerializable] | None:
        return None

    @app_function
    def simpleFunctionSerializableList(self) -> list[SampleSerializable]:
        return []


OnOff = Annotated[str, StringValueConstraint(enum_values=["ON", "OFF"])]


@app_function_serializable
@dataclass
class StringEnumPropSerializable:
    string_prop: Literal["ON", "OFF"]


class StringEnumValueFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.StringEnumValueFunctions"
    xml_file_name = "string_enum"

    @app_function
    def stringEnumParamFunction(self, string_param: OnOff) -> None: ...

    @app_function
    def stringEnumReturnFunction(self) -> OnOff:
        return "ON"

    @app_function
    def stringEnumSerializableFunction(self, string_enum_prop_serializable: StringEnumPropSerializable) -> None: ...


@app_function_schema_definition(
    name="allNullablePrimitiveArrayParamsWithDefault", version=1, category="fake_schema_category"
)
class FakeAllNullablePrimitiveArrayParamsWithDefaultValues:
    def allNullablePrimitiveArrayParamsWithDefault(
        self,
        arg1: list[Int32] | None = [],
        arg2: list[int] | None = [],
        arg3: list[Float32] | None = [],
        arg4: list[float] | None = [],
        arg5: list[str] = [],
        arg6: list[bool] | None = [],
        arg7: bytes | None = None,
    ) -> None: ...


@app_function_schema_definition(name="allNullablePrimitiveParamsWithDefault", version=1, category="fake_schema_category")
class FakeAllNullablePrimitiveParamsWithDefaultValues:
    def allNullablePrimitiveParamsWithDefault(
        self,
        arg1: Int32 | None = None,
        arg2: int | None = None,
        arg3: Float32 | None = None,
        arg4: float | None = None,
        arg5: str | None = None,
        arg6: bool | None = None,
    ) -> None: ...


class FakeAllNullablePrimitiveArrayParamsWithDefaultValuesImpl(
    AppFunctionServiceEntryPoint, FakeAllNullablePrimitiveArrayParamsWithDefaultValues
):
    service_name = "com.testdata.FakeAllNullablePrimitiveArrayParamsWithDefaultValuesImpl"
    xml_file_name = "array_defaults"

    # No defaults here: like a Kotlin override, they come from the schema definition.
    @app_function
    def allNullablePrimitiveArrayParamsWithDefault(
        self,
        arg1: list[Int32] | None,
        arg2: list[int] | None,
        arg3: list[Float32] | None,
        arg4: list[float] | None,
        arg5: list[str],
        arg6: list[bool] | None,
        arg7: bytes | None,
    ) -> None: ...


class FakeAllNullablePrimitiveParamsWithDefaultValuesImpl(
    AppFunctionServiceEntryPoint, FakeAllNullablePrimitiveParamsWithDefaultValues
):
    service_name = "com.testdata.FakeAllNullablePrimitiveParamsWithDefaultValuesImpl"
    xml_file_name = "defaults"

    @app_function
    def allNullablePrimitiveParamsWithDefault(
        self,
        arg1: Int32 | None,
        arg2: int | None,
        arg3: Float32 | None,
        arg4: float | None,
        arg5: str | None,
        arg6: bool | None,
    ) -> None: ...


@app_function_schema_definition(name="allPrimitiveArrayParams", version=1, category="fake_schema_category")
class FakeAllPrimitiveArrayParams:
    def allPrimitiveArrayParams(self, *args, **kwargs) -> None: ...


@app_function_schema_definition(name="allPrimitiveParams", version=1, category="fake_schema_category")
class FakeAllPrimitiveParams:
    def allPrimitiveParams(self, *args, **kwargs) -> None: ...


class FakeAllPrimitiveArrayParamsImpl(AppFunctionServiceEntryPoint, FakeAllPrimitiveArrayParams):
    service_name = "com.testdata.FakeAllPrimitiveArrayParamsImpl"
    xml_file_name = "arrays"

    @app_function
    def allPrimitiveArrayParams(
        self,
        arg1: list[Int32],
        arg2: list[int],
        arg3: list[Float32],
        arg4: list[float],
        arg5: list[str],
        arg6: list[bool],
        arg7: bytes,
        arg8: list[str | None],
    ) -> None: ...


class FakeAllPrimitiveParamsImpl(AppFunctionServiceEntryPoint, FakeAllPrimitiveParams):
    service_name = "com.testdata.FakeAllPrimitiveParamsImpl"
    xml_file_name = "primitives"

    @app_function
    def allPrimitiveParams(
        self, arg1: Int32, arg2: int, arg3: Float32, arg4: float, arg5: str, arg6: bool
    ) -> None: ...


class DeprecatedFunction(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.DeprecatedFunction"
    xml_file_name = "deprecated"

    @deprecated("Deprecated Message")
    @app_function
    def deprecatedFunction(self) -> None: ...


@app_function_schema_capability
class AppFunctionOpenable:
    string_to_open: str


class OpenableResponse(AppFunctionOpenable):
    """A plain interface between the capability and the class (not itself marked)."""


@app_function_serializable
@dataclass
class LongBaseSerializable(OpenableResponse):
    age: int
    string_to_open: str


@app_function_serializable
@dataclass
class DerivedSerializable(LongBaseSerializable):
    pass


class DerivedSerializableInputFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.DerivedSerializableInputFunctions"
    xml_file_name = "derived"

    @app_function
    def simpleFunctionWithBothDerivedSerializableListAndListItemNullable(
        self, serializable: list[DerivedSerializable | None] | None
    ) -> None: ...

    @app_function
    def simpleFunctionWithDerivedSerializable(self, serializable: DerivedSerializable) -> None: ...

    @app_function
    def simpleFunctionWithDerivedSerializableList(self, serializable: list[DerivedSerializable]) -> None: ...

    @app_function
    def simpleFunctionWithDerivedSerializableListItemNullable(
        self, serializable: list[DerivedSerializable | None]
    ) -> None: ...

    @app_function
    def simpleFunctionWithNullableDerivedSerializable(self, serializable: DerivedSerializable | None) -> None: ...

    @app_function
    def simpleFunctionWithNullableDerivedSerializableList(
        self, serializable: list[DerivedSerializable] | None
    ) -> None: ...


@app_function_serializable(described_by_docstring=True)
@app_function_instruction("SerializableWithKDocAndInstruction instruction")
@dataclass
class SerializableWithKDocAndInstruction:
    """SerializableWithKDocAndInstruction KDoc.

    Attributes:
        data: SerializableWithKDocAndInstruction#data KDoc
    """

    data: Annotated[str, Instruction("SerializableWithKDocAndInstruction#data instruction")]


@app_function_instruction("SerializableWithOnlyInstruction instruction")
@app_function_serializable
@dataclass
class SerializableWithOnlyInstruction:
    data: Annotated[str, Instruction("SerializableWithOnlyInstruction#data instruction")]


class FakeFreeFormFunctionsWithInstruction(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.FakeFreeFormFunctionsWithInstruction"
    xml_file_name = "instructions"

    @app_function(described_by_docstring=True)
    @app_function_instruction("Overridden function description")
    def myInstructionFunction(
        self,
        arg1: Annotated[Int32, Instruction("Overridden param description")],
        arg2: Int32,
        arg3: SerializableWithKDocAndInstruction,
        arg4: SerializableWithOnlyInstruction,
    ) -> Annotated[str, Instruction("Overridden return description")]:
        """This is a cool function but we want to override it.

        :param arg1: The first argument but we want to override it.
        :param arg2: The second argument which shouldn't be overridden.
        :returns: The return value but we want to override it.
        """
        return str(arg1 + arg2)

    @app_function
    @app_function_instruction("Overridden function description without kdoc")
    def myInstructionFunctionWithoutKdoc(
        self,
        arg1: Annotated[Int32, Instruction("Overridden param description without kdoc")],
        arg3: SerializableWithKDocAndInstruction,
        arg4: SerializableWithOnlyInstruction,
    ) -> Annotated[str, Instruction("Overridden return description without kdoc")]:
        return str(arg1)


class ParcelablePrimitiveFunctions(AppFunctionServiceEntryPoint):
    service_name = "com.testdata.ParcelablePrimitiveFunctions"
    xml_file_name = "parcelables"

    @app_function
    def listPendingIntentInput(self, list_pending_intent: list[PendingIntent]) -> None: ...

    @app_function
    def listPendingIntentOutput(self) -> list[PendingIntent]:
        return []

    @app_function
    def pendingIntentInput(self, pending_intent: PendingIntent) -> None: ...

    @app_function
    def pendingIntentOutput(self) -> PendingIntent:
        raise NotImplementedError


AGGREGATE_PORTS = [
    ("xml/functionWithGenericSerializable_app_function_dynamic_schema.xml", [FunctionWithGenericSerializable]),
    ("xml/serializableInputFunctions_app_function_dynamic_schema.xml", [SerializableInputFunctions]),
    ("xml/serializableOutputFunctions_app_function_dynamic_schema.xml", [SerializableOutputFunctions]),
    ("xml/stringEnumValueFunctions_app_functions_v2.xml", [StringEnumValueFunctions]),
    (
        "xml/fakeAllNullablePrimitiveParamsWithDefault_app_function_dynamic_schema.xml",
        [FakeAllNullablePrimitiveArrayParamsWithDefaultValuesImpl, FakeAllNullablePrimitiveParamsWithDefaultValuesImpl],
    ),
    (
        "xml/fakeAllPrimitiveParams_app_function_dynamic_schema.xml",
        [FakeAllPrimitiveArrayParamsImpl, FakeAllPrimitiveParamsImpl],
    ),
    ("xml/deprecated_app_function_dynamic_schema.xml", [DeprecatedFunction]),
    ("xml/derivedSerializableInputFunctions_app_function_dynamic_schema.xml", [DerivedSerializableInputFunctions]),
    ("xml/fake_freeForm_with_instruction_app_function_dynamic_schema.xml", [FakeFreeFormFunctionsWithInstruction]),
    ("xml/parcelablePrimitiveFunctions_app_function_dynamic_schema.xml", [ParcelablePrimitiveFunctions]),
]


@pytest.mark.parametrize(("name", "entry_points"), AGGREGATE_PORTS, ids=[n.split("/")[1] for n, _ in AGGREGATE_PORTS])
def test_aggregate_port_matches_golden(golden, name, entry_points):
    # Aggregate files name the component document "unused", as the androidx generator does.
    assert_same_tree(render_entry_points(entry_points, component_id="unused"), golden(name))


def test_a_port_that_differs_is_reported(golden):
    """The comparison itself can fail: a wrong port is caught with a path."""

    class Wrong(AppFunctionServiceEntryPoint):
        service_name = "com.testdata.SimpleEntryPoint"
        xml_file_name = "my_simple_service"

        @app_function
        def simpleFunction(self, int: int, string: str) -> str:  # LONG, not INT
            return string

    with pytest.raises(AssertionError, match=r"parameters\[2\]/dataTypeMetadata\[0\]/type\[2\]: text '6' != expected '7'"):
        assert_same_tree(render_entry_points([Wrong]), golden("entrypoints/my_simple_service.xml"))
