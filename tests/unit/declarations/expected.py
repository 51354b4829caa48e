"""Expected function XML written as data, for androidx goldens that are not in the
shared reference folder.

Fetched sources are not committed, so such a golden is restated here as the
structure it has: the functions' parameters and results and the shared types.
``document(...)`` renders that structure with droidsim's writer, whose element
order the goldens in the reference folder pin byte for byte, and the result is
compared with a port's output by ``xmltree.first_difference``.
"""

from __future__ import annotations

from droid.appfunctions.function_xml import (
    DataTypeMeta,
    FunctionMeta,
    FunctionsDocument,
    NamedDataTypeMeta,
    ParameterMeta,
    render,
)
from droid.appfunctions.metadata import DataType


def scalar(code: DataType, nullable: bool = False, **extra) -> DataTypeMeta:
    return DataTypeMeta(int(code), nullable, **extra)


UNIT = scalar(DataType.UNIT)


def string(nullable: bool = False, *, pattern: str | None = None, format: str | None = None) -> DataTypeMeta:
    return scalar(DataType.STRING, nullable, pattern=pattern, format=format)


def int32(*enum: int, nullable: bool = False) -> DataTypeMeta:
    return scalar(DataType.INT, nullable, enum_values=[str(v) for v in enum])


def ref(name: str, nullable: bool = False) -> DataTypeMeta:
    return scalar(DataType.REFERENCE, nullable, data_type_reference=name)


def array(item: DataTypeMeta, nullable: bool = False) -> DataTypeMeta:
    return scalar(DataType.ARRAY, nullable, item_type=item)


def obj(name: str, properties: dict[str, DataTypeMeta], required: list[str], description: str = "") -> DataTypeMeta:
    """An OBJECT definition; shared definitions are nullable."""
    return scalar(
        DataType.OBJECT,
        True,
        object_qualified_name=name,
        description=description,
        properties=[NamedDataTypeMeta(k, v) for k, v in properties.items()],
        required=required,
    )


def all_of(name: str, parts: list[DataTypeMeta], description: str = "") -> DataTypeMeta:
    return scalar(DataType.ALL_OF, True, all_of=parts, object_qualified_name=name, description=description)


def one_of(name: str, cases: list[str], description: str = "") -> DataTypeMeta:
    return scalar(
        DataType.ONE_OF,
        True,
        one_of=[ref(case, nullable=True) for case in cases],
        object_qualified_name=name,
        description=description,
    )


def function(
    id: str,
    parameters: list[tuple[str, DataTypeMeta]] = (),  # type: ignore[assignment]
    returns: DataTypeMeta = UNIT,
    **schema,
) -> FunctionMeta:
    """A function whose parameters are all required and undescribed, as in these goldens;
    ``schema`` gives schema_category, schema_name and schema_version."""
    return FunctionMeta(
        id=id,
        enabled_by_default=True,
        description="",
        parameters=[ParameterMeta(name, True, data_type) for name, data_type in parameters],
        value_type=returns,
        **schema,
    )


def document(functions: list[FunctionMeta], components: dict[str, DataTypeMeta], component_id: str) -> bytes:
    return render(
        FunctionsDocument(functions, [NamedDataTypeMeta(k, v) for k, v in components.items()], component_id)
    )
