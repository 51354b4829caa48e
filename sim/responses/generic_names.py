"""Kotlin type names as the androidx compiler writes them in a generic type's qualified name
(``com.acme.Page<kotlin.collections.List<com.acme.Item>?>``), read back into their parts, so that
``droidsim responses skeleton`` can spell a generic class of the app's own (sim/responses/skeleton.py)."""

from __future__ import annotations

# The Kotlin types droid spells with a Python one (droid/appfunctions/typeref.py _KOTLIN, _KOTLIN_ARRAY).
KOTLIN_SCALARS = {
    "kotlin.String": "str", "kotlin.Int": "Int32", "kotlin.Long": "int", "kotlin.Double": "float",
    "kotlin.Float": "Float32", "kotlin.Boolean": "bool", "kotlin.ByteArray": "bytes",
}
KOTLIN_ARRAYS = {
    "kotlin.IntArray": "Int32", "kotlin.LongArray": "int", "kotlin.DoubleArray": "float",
    "kotlin.FloatArray": "Float32", "kotlin.BooleanArray": "bool",
}
KOTLIN_LIST = "kotlin.collections.List"


def split_generic(name: str) -> tuple[str, list[str]]:
    """``a.B<x.C<d.E>, f.G?>`` -> ``("a.B", ["x.C<d.E>", "f.G?"])``; a plain name has no arguments."""
    base, bracket, rest = name.partition("<")
    if not bracket:
        return name, []
    if not rest.endswith(">"):
        raise ValueError(f"{name} is not a generic type's name")
    arguments, depth, start = [], 0, 0
    inner = rest[:-1]
    for i, char in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "," and depth == 0:
            arguments.append(inner[start:i].strip())
            start = i + 1
    arguments.append(inner[start:].strip())
    return base, arguments
