"""Data types as androidx's toString() writes them (AppFunctionDataTypeMetadata.kt @080ff392),
and the missing-parameter refusal androidx's dispatcher builds from them
(AppFunctionDataParameterExtractor.kt @ab68ffc3)."""

from __future__ import annotations

import pytest

from droid.appfunctions.metadata import (
    AppFunctionDataTypeMetadata,
    AppFunctionNamedDataTypeMetadata,
    AppFunctionStringPattern,
    DataType,
)
from droid.appfunctions.kotlin_strings import data_type_string, missing_parameter_message


def T(kind: DataType, **fields) -> AppFunctionDataTypeMetadata:
    return AppFunctionDataTypeMetadata(type=int(kind), **fields)


@pytest.mark.parametrize(("data_type", "text"), [
    (T(DataType.STRING), "AppFunctionStringTypeMetadata(isNullable=false, description=, patternMatchers=null, "
                         "format=null, enumValues=null)"),
    (T(DataType.STRING, is_nullable=True, description="The id.", enum_values=["A", "B"], format="uri",
       patterns=[AppFunctionStringPattern(value="content:", type=1)]),
     "AppFunctionStringTypeMetadata(isNullable=true, description=The id., "
     "patternMatchers=[PatternMatcher{PREFIX: content:}], format=uri, enumValues=[A, B])"),
    (T(DataType.INT, enum_values=["0", "1"]), "AppFunctionIntTypeMetadata(isNullable=false, description=, enumValues=[0, 1])"),
    (T(DataType.LONG), "AppFunctionLongTypeMetadata(isNullable=false, description=)"),
    (T(DataType.BOOLEAN, is_nullable=True), "AppFunctionBooleanTypeMetadata(isNullable=true, description=)"),
    (T(DataType.ARRAY, item_type=T(DataType.DOUBLE)),
     "AppFunctionArrayTypeMetadataDocument(itemType=AppFunctionDoubleTypeMetadata(isNullable=false, description=), "
     "isNullable=false,description=)"),
    (T(DataType.REFERENCE, data_type_reference="com.example.Order"),
     "AppFunctionReferenceTypeMetadata(referenceDataType=com.example.Order, isNullable=false,description=)"),
    (T(DataType.OBJECT, object_qualified_name="com.example.Note", required=["title"],
       properties=[AppFunctionNamedDataTypeMetadata(name="title", data_type=T(DataType.BYTES))]),
     "AppFunctionObjectTypeMetadata(properties={title=AppFunctionBytesTypeMetadata(isNullable=false, description=)}, "
     "required=[title], qualifiedName=com.example.Note, isNullable=false,description=)"),
    (T(DataType.PARCELABLE, object_qualified_name="android.os.Bundle"),
     "AppFunctionParcelableTypeMetadata(qualifiedName=android.os.Bundle, isNullable=false, description=)"),
])
def test_each_type_prints_as_its_kotlin_class_does(data_type, text):
    assert data_type_string(data_type) == text


def test_a_missing_parameter_is_refused_in_androids_words_then_droidsims():
    first, second = missing_parameter_message("orderId", T(DataType.STRING)).split("\n")
    assert first == ("Parameter orderId should be the type of AppFunctionStringTypeMetadata(isNullable=false, "
                     "description=, patternMatchers=null, format=null, enumValues=null)")
    assert second == "Parameter orderId is required: the request has no value for it"
