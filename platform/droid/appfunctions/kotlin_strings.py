"""AppFunction data types as androidx prints them (``toString()``), for messages that match its.

androidx's dispatcher names a parameter's type in its refusal: ``Parameter orderId should be the
type of AppFunctionStringTypeMetadata(isNullable=false, description=, patternMatchers=null,
format=null, enumValues=null)`` (AppFunctionDataParameterExtractor.kt @ab68ffc3). Each class's
text is its ``toString()`` in AppFunctionDataTypeMetadata.kt (@080ff392, the newest stored),
spacing included; collections print as Kotlin's do (``[a, b]``, ``{k=v}``, ``null``).
"""

from __future__ import annotations

from droid.appfunctions.metadata import AppFunctionDataTypeMetadata, DataType

# android.os.PatternMatcher.toString()'s names of the pattern types.
_PATTERN_TYPES = {0: "LITERAL: ", 1: "PREFIX: ", 2: "GLOB: ", 3: "ADVANCED: ", 4: "SUFFIX: "}

_SIMPLE = {
    DataType.UNIT: "AppFunctionUnitTypeMetadata",
    DataType.BOOLEAN: "AppFunctionBooleanTypeMetadata",
    DataType.BYTES: "AppFunctionBytesTypeMetadata",
    DataType.DOUBLE: "AppFunctionDoubleTypeMetadata",
    DataType.FLOAT: "AppFunctionFloatTypeMetadata",
    DataType.LONG: "AppFunctionLongTypeMetadata",
}


def data_type_string(data_type: AppFunctionDataTypeMetadata) -> str:
    """``data_type.toString()`` as androidx's metadata class of its kind writes it."""
    kind, nullable, description = data_type.type, _boolean(data_type.is_nullable), data_type.description
    tail = f"isNullable={nullable}, description={description}"
    if kind in _SIMPLE:
        return f"{_SIMPLE[DataType(kind)]}({tail})"
    if kind == DataType.INT:
        return f"AppFunctionIntTypeMetadata({tail}, enumValues={_set(data_type.enum_values)})"
    if kind == DataType.STRING:
        patterns = _list([_pattern(p.type, p.value) for p in data_type.patterns])
        return (f"AppFunctionStringTypeMetadata({tail}, patternMatchers={patterns}, "
                f"format={data_type.format or 'null'}, enumValues={_set(data_type.enum_values)})")
    if kind == DataType.ARRAY:
        return (f"AppFunctionArrayTypeMetadataDocument(itemType={data_type_string(data_type.item_type)}, "
                f"isNullable={nullable},description={description})")
    if kind == DataType.REFERENCE:
        return (f"AppFunctionReferenceTypeMetadata(referenceDataType={data_type.data_type_reference}, "
                f"isNullable={nullable},description={description})")
    if kind == DataType.OBJECT:
        properties = "{" + ", ".join(f"{p.name}={data_type_string(p.data_type)}" for p in data_type.properties) + "}"
        return (f"AppFunctionObjectTypeMetadata(properties={properties}, required=[{', '.join(data_type.required)}], "
                f"qualifiedName={data_type.object_qualified_name or 'null'}, isNullable={nullable},"
                f"description={description})")
    if kind == DataType.ALL_OF:
        return f"AppFunctionAllOfTypeMetadata(matchAll={_types(data_type.all_of)}, {tail})"
    if kind == DataType.ONE_OF:
        return f"AppFunctionOneOfTypeMetadata(matchOneOf={_types(data_type.one_of)}, {tail})"
    if kind == DataType.PARCELABLE:
        return f"AppFunctionParcelableTypeMetadata(qualifiedName={data_type.object_qualified_name}, {tail})"
    return f"AppFunctionDataTypeMetadata({tail})"


def missing_parameter_message(name: str, data_type: AppFunctionDataTypeMetadata) -> str:
    """androidx's refusal of a required parameter the request lacks: its ``require`` fails and
    unsafeGetParameterValue rethrows "should be the type of" with the metadata's toString()
    (AppFunctionDataParameterExtractor.kt @ab68ffc3); droidsim's own words on a second line."""
    return (f"Parameter {name} should be the type of {data_type_string(data_type)}\n"
            f"Parameter {name} is required: the request has no value for it")


def _boolean(value: bool) -> str:
    return "true" if value else "false"


def _set(values) -> str:
    """A nullable Set's toString: null when empty (the reader's ``ifEmpty { null }``)."""
    return _list(list(values))


def _list(items: list[str]) -> str:
    return f"[{', '.join(items)}]" if items else "null"


def _types(types) -> str:
    return "[" + ", ".join(data_type_string(t) for t in types) + "]"


def _pattern(kind: int, path: str) -> str:
    return "PatternMatcher{" + _PATTERN_TYPES.get(kind, "? ") + path + "}"
