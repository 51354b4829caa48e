"""``droidsim responses skeleton APP_DIR OUT_DIR``: the Python double of an app, from its XML.

For each ``@AppFunction`` class of the app (the class part of its function ids, whichever
service serves it: sim/responses/doubles.py), an ``AppFunctionServiceEntryPoint`` whose
methods have the XML's typed signatures, in a module per package, and a ``@app_function_serializable`` dataclass per
object type (with the XML's qualified name), written with the project's declaration layer.
Each method body refuses with ERROR_NOT_SUPPORTED until someone writes it. The library's types
are spelled as droid spells them: ``SetField[T]`` for androidx's ``SetField<T>``, ``date``,
``time``, ``datetime``, ``Instant`` and ``ZoneInfo`` for the java.time proxies. Before anything
is written the skeleton is compiled and compared with the XML as install compares a double, so
a skeleton that is written passes the install check unchanged. A generic class of the app's own
(``Page<T>``) is a Python generic dataclass, made from the instances the XML defines. A function
with a type it cannot spell (ONE_OF, ALL_OF, a parcelable of the app's) is written as a marked
stub, which install refuses until someone writes it; ``Skeleton.by_hand`` names each.
"""

from __future__ import annotations

import keyword
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from droid.appfunctions.metadata import (
    FORMAT_URI,
    SET_FIELD,
    AppFunctionDataTypeMetadata,
    AppFunctionMetadata,
    AppFunctionPackageMetadata,
    DataType,
    function_name,
)
from droid.appfunctions.typeref import wire_name
from sim.responses.doubles import DoubleMismatch, check_double, functions_by_class
from sim.responses.generic_names import KOTLIN_ARRAYS, KOTLIN_LIST, KOTLIN_SCALARS, split_generic

_SCALARS = {
    DataType.BOOLEAN: "bool", DataType.LONG: "int", DataType.INT: "Int32", DataType.DOUBLE: "float",
    DataType.FLOAT: "Float32", DataType.STRING: "str", DataType.BYTES: "bytes",
}
# Library types the declaration layer spells with Python's own (droid/appfunctions/proxies.py).
# What an optional, non-nullable value defaults to (droid/appfunctions/typeref.py omitted_value).
_DEFAULTS = {
    DataType.BOOLEAN: "False", DataType.LONG: "0", DataType.INT: "0", DataType.DOUBLE: "0.0",
    DataType.FLOAT: "0.0", DataType.BYTES: 'b""', DataType.ARRAY: "[]",
}
_PARCELABLES = {  # the platform's, as droid spells them
    "android.app.PendingIntent": ("PendingIntent", "from droid.app import PendingIntent"),
    "android.os.Bundle": ("Bundle", "from droid.os import Bundle"),
}
# The java.time proxies: a Python import, or a name of droid.appfunctions.
_LIBRARY_TYPES = {
    "java.time.LocalDate": ("date", "from datetime import date"),
    "java.time.LocalTime": ("time", "from datetime import time"),
    "java.time.LocalDateTime": ("datetime", "from datetime import datetime"),
    "java.time.ZoneId": ("ZoneInfo", "from zoneinfo import ZoneInfo"),
    "java.time.Instant": ("Instant", None),
}
# androidx's generic serializables, by the name before their type arguments: droid's class of the
# same name, whose one type argument is the type of the property named here.
_LIBRARY_GENERICS = {SET_FIELD: ("SetField", "value")}
STUB_MARK = "droidsim: write by hand"
# Names a module may import: a class of the app's never takes one.
_RESERVED = {spelling for spelling, _ in [*_LIBRARY_TYPES.values(), *_PARCELABLES.values(), *_LIBRARY_GENERICS.values()]} | {
    "Uri", "Literal", "Annotated", "dataclass", "field", "Int32", "Float32", "SerialName", "AppFunctionNotSupportedException",
    "AppFunctionServiceEntryPoint", "app_function", "app_function_serializable", "Generic", "TypeVar", "T"}
# Platform types the XML defines as objects of its own: the class's name (androidx's for the proxy)
# and what the XML does not say of it.
_PLATFORM_OBJECTS = {"android.net.Uri": ("AppFunctionUri", "An android.net.Uri as androidx sends it (its serializable "
                                                           "proxy, AppFunctionUri): the URI's text in uri.")}


class SkeletonError(ValueError):
    """The XML holds something the skeleton cannot spell; the message names function and path."""


@dataclass(frozen=True)
class ByHand:
    """A function the skeleton wrote as a stub: what it could not spell, and where the stub is."""

    function_id: str
    reason: str
    module_file: str


@dataclass
class _Module:
    """One service's module, built up: imports, dataclasses (dependencies first), the class."""

    metadata: AppFunctionPackageMetadata
    imports: set[str] = field(default_factory=set)
    droid_names: set[str] = field(default_factory=lambda: {"AppFunctionNotSupportedException", "AppFunctionServiceEntryPoint", "app_function"})
    classes: dict[str, str] = field(default_factory=dict)  # qualified name -> class name
    blocks: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)  # the classes standing in for the app's
    typevars: set[str] = field(default_factory=set)  # the type parameters of its generic classes

    def __post_init__(self) -> None:
        self.shared = {named.name: named.data_type for named in self.metadata.components.data_types}

    def annotation(self, data_type: AppFunctionDataTypeMetadata, where: str) -> str:
        text = self._base(data_type, where)
        return f"{text} | None" if data_type.is_nullable and data_type.type != DataType.UNIT else text

    def _base(self, data_type: AppFunctionDataTypeMetadata, where: str) -> str:
        kind = data_type.type
        if kind == DataType.REFERENCE:
            name = data_type.data_type_reference
            if name in _LIBRARY_TYPES:
                return self._library(name)
            if name not in self.shared:
                raise SkeletonError(f"{where}: refers to {name}, which the XML does not define")
            return self._class(self.shared[name], where)
        if kind == DataType.UNIT:
            return "None"
        if kind == DataType.STRING and data_type.enum_values:
            self.imports.add("from typing import Literal")
            return f"Literal[{', '.join(repr(v) for v in data_type.enum_values)}]"
        if kind == DataType.INT and data_type.enum_values and all(v.lstrip("-").isdigit() for v in data_type.enum_values):
            self.imports.update({"from typing import Literal", "from typing import Annotated"})
            self.droid_names.add("Int32")
            return f"Annotated[Literal[{', '.join(data_type.enum_values)}], Int32]"
        if kind == DataType.STRING and data_type.format == FORMAT_URI:
            self.imports.add("from droid.net.uri import Uri")
            return "Uri"
        if kind in _SCALARS and not data_type.enum_values:
            if _SCALARS[kind] in ("Int32", "Float32"):
                self.droid_names.add(_SCALARS[kind])
            return _SCALARS[kind]
        if kind == DataType.PARCELABLE and data_type.object_qualified_name in _PARCELABLES:
            spelling, line = _PARCELABLES[data_type.object_qualified_name]
            self.imports.add(line)
            return spelling
        if kind == DataType.ARRAY:
            return f"list[{self.annotation(data_type.item_type, f'{where}[]')}]"
        if kind == DataType.OBJECT and data_type.object_qualified_name:
            return self._class(data_type, where)
        raise SkeletonError(f"{where}: {_kind_words(data_type)} is a type the skeleton cannot spell")

    def _library(self, name: str) -> str:
        spelling, line = _LIBRARY_TYPES[name]
        if line is None:
            self.droid_names.add(spelling)
        else:
            self.imports.add(line)
        return spelling

    def _class(self, data_type: AppFunctionDataTypeMetadata, where: str) -> str:
        qualified = data_type.object_qualified_name
        if qualified in _LIBRARY_TYPES:  # a proxy written inline rather than referred to
            return self._library(qualified)
        if data_type.type != DataType.OBJECT or not qualified or data_type.all_of:
            raise SkeletonError(f"{where}: {_kind_words(data_type)} is a type the skeleton cannot spell")
        if qualified in self.classes:
            return self.classes[qualified]
        generic = qualified.split("<", 1)[0]
        if generic in _LIBRARY_GENERICS and qualified != generic:
            return self._library_generic(data_type, *_LIBRARY_GENERICS[generic], where)
        if "<" in qualified:
            return self._app_generic(qualified, where)
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", qualified):
            raise SkeletonError(f"{where}: {qualified} is a type name the skeleton cannot spell")
        name, doc = self._class_name(qualified), _PLATFORM_OBJECTS.get(qualified, ("", ""))[1]
        self.classes[qualified] = name
        self.droid_names.add("app_function_serializable")
        self.imports.add("from dataclasses import dataclass")
        required = set(data_type.required)
        fields = [self._field(p.name, p.data_type, p.name in required, f"{where}.{p.name}") for p in data_type.properties]
        fields.sort(key=lambda line: "=" in line)  # a dataclass lists fields without defaults first
        doc = _docstring(data_type.description or doc or f"The {name} of the app's XML.", "    ")
        self.blocks.append(
            f"@app_function_serializable(qualified_name={qualified!r})\n@dataclass\nclass {name}:\n{doc}\n"
            + "".join(f"    {line}\n" for line in fields or ["pass"])
        )
        return name

    def _library_generic(self, data_type: AppFunctionDataTypeMetadata, spelling: str, argument: str, where: str) -> str:
        """``SetField[T]``: T is the type of its ``value``, as the XML declares it."""
        typed = [p for p in data_type.properties if p.name == argument]
        if len(typed) != 1 or len(data_type.properties) != 1:
            raise SkeletonError(f"{where}: {data_type.object_qualified_name} is not androidx's {spelling} (it should "
                                f"have the one property {argument})")
        self.droid_names.add(spelling)
        return f"{spelling}[{self.annotation(typed[0].data_type, f'{where}.{argument}')}]"

    def _app_generic(self, qualified: str, where: str) -> str:
        """``Page[Item]``: a generic class of the app's, made once from every instance the XML
        defines, its type arguments spelled from their Kotlin names."""
        try:
            base, arguments = split_generic(qualified)
        except ValueError as error:
            raise SkeletonError(f"{where}: {error}") from None
        name = self.classes.get(base) or self._generic_class(base, len(arguments), where)
        return f"{name}[{', '.join(self._kotlin(a, where) for a in arguments)}]"

    def _generic_class(self, base: str, arity: int, where: str) -> str:
        """The generic class: a property whose type is, in every instance, one of the instance's type
        arguments (or a list of it, or it nullable) is typed with that parameter; the others as written."""
        instances = [(dt, split_generic(dt.object_qualified_name)[1]) for dt in self.shared.values()
                     if dt.object_qualified_name.startswith(f"{base}<")]
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", base) or any(len(a) != arity for _, a in instances):
            raise SkeletonError(f"{where}: {base} is a generic class the skeleton cannot spell")
        name = self._class_name(base)
        self.classes[base] = name  # before the fields: a property may refer to the class itself
        params = ["T"] if arity == 1 else [f"T{i}" for i in range(arity)]
        self.typevars.update(params)
        first = instances[0][0]
        required = set(first.required)
        fields = []
        for prop in first.properties:
            prop_where = f"{where}.{prop.name}"
            spelled = [(self.annotation(_property(dt, prop.name, prop_where), prop_where),
                        [self._kotlin(a, prop_where) for a in arguments]) for dt, arguments in instances]
            annotation = _generic_annotation(spelled, params)
            if annotation is None:
                raise SkeletonError(f"{prop_where}: which type parameter of {base} it is typed with is not clear "
                                    "from the XML")
            python, annotation = self.named(prop.name, annotation)
            if prop.name in required:
                fields.append(f"{python}: {annotation}")
            else:
                fields.append(f"{python}: {annotation} = {_default(prop.data_type, prop_where)}")
        fields.sort(key=lambda line: "=" in line)
        self.imports.update({"from dataclasses import dataclass", "from typing import Generic, TypeVar"})
        self.droid_names.add("app_function_serializable")
        doc = _docstring(first.description or f"The {name} of the app's XML.", "    ")
        self.blocks.append(
            f"@app_function_serializable(qualified_name={base!r})\n@dataclass\nclass {name}(Generic[{', '.join(params)}]):\n"
            f"{doc}\n" + "".join(f"    {line}\n" for line in fields or ["pass"]))
        return name

    def _kotlin(self, kotlin: str, where: str) -> str:
        """A Kotlin type name of a generic's type argument, as an annotation."""
        if kotlin.endswith("?"):
            return f"{self._kotlin(kotlin[:-1], where)} | None"
        base, arguments = split_generic(kotlin)
        if base == KOTLIN_LIST and len(arguments) == 1:
            return f"list[{self._kotlin(arguments[0], where)}]"
        if kotlin in KOTLIN_SCALARS or kotlin in KOTLIN_ARRAYS:
            spelling = KOTLIN_SCALARS.get(kotlin) or KOTLIN_ARRAYS[kotlin]
            if spelling in ("Int32", "Float32"):
                self.droid_names.add(spelling)
            return spelling if kotlin in KOTLIN_SCALARS else f"list[{spelling}]"
        if kotlin in _LIBRARY_TYPES:
            return self._library(kotlin)
        defined = next((dt for dt in self.shared.values() if dt.object_qualified_name == kotlin), None)
        if defined is None:
            raise SkeletonError(f"{where}: type argument {kotlin} is a type the XML does not define")
        return self._class(defined, where)

    def _class_name(self, qualified: str) -> str:
        name, _ = _PLATFORM_OBJECTS.get(qualified, (_identifier(qualified.rsplit(".", 1)[-1]), ""))
        while name in self.classes.values() or name in _RESERVED:
            name += "_"
        return name

    def _field(self, wire: str, data_type: AppFunctionDataTypeMetadata, required: bool, where: str) -> str:
        python, annotation = self.named(wire, self.annotation(data_type, where))
        if required:
            return f"{python}: {annotation}"
        default = _default(data_type, where)
        if default == "[]":
            self.imports.add("from dataclasses import field")
            return f"{python}: {annotation} = field(default_factory=list)"
        return f"{python}: {annotation} = {default}"

    def named(self, wire: str, annotation: str) -> tuple[str, str]:
        """The Python name of a wire name, and the annotation that keeps the wire name."""
        python = _snake(wire)
        if wire_name(python) == wire and python.isidentifier() and not keyword.iskeyword(python):
            return python, annotation
        self.imports.add("from typing import Annotated")
        self.droid_names.add("SerialName")
        return _identifier(python), f"Annotated[{annotation}, SerialName({wire!r})]"

    def method_or_stub(self, function: AppFunctionMetadata, module_file: str,
                       stub_because: str | None = None) -> tuple[str, ByHand | None]:
        """The method; or, for a function the skeleton cannot spell, a marked stub (not an app
        function, so install refuses the double until it is written) and why. The module is as it
        was before the function: a half-spelled type leaves nothing behind."""
        before = (set(self.imports), set(self.droid_names), dict(self.classes), list(self.blocks), set(self.typevars))
        try:
            if stub_because is not None:
                raise SkeletonError(stub_because)
            return self.method(function, module_file), None
        except SkeletonError as error:
            self.imports, self.droid_names, self.classes, self.blocks, self.typevars = before
            by_hand = ByHand(function.id, str(error).removeprefix(f"{function.id}: "), module_file)
            return _stub(function, by_hand), by_hand

    def method(self, function: AppFunctionMetadata, module_file: str) -> str:
        name = function_name(function)
        if not name.isidentifier() or keyword.iskeyword(name):
            raise SkeletonError(f"{function.id}: {name!r} cannot be a Python method name")
        parameters = []
        for parameter in function.parameters:
            where = f"{function.id}: parameter {parameter.name}"
            python, annotation = self.named(parameter.name, self.annotation(parameter.data_type, where))
            if parameter.is_required:
                parameters.append(f"{python}: {annotation}")
            else:
                parameters.append(f"{python}: {annotation} = {_default(parameter.data_type, where)}")
        returns = self.annotation(function.response.value_type, f"{function.id}: response") if function.HasField("response") else "None"
        doc = _docstring(function.description or name, "        ")
        signature = ", ".join(["self", *parameters])
        mutable = "  # noqa: B006 - marks it optional; omitted, it is []" if "= []" in signature else ""
        return (
            f"    @app_function\n    def {name}({signature}) -> {returns}:{mutable}\n{doc}\n"
            f"        raise AppFunctionNotSupportedException({_not_implemented(function, module_file)!r})\n"
        )


@dataclass(frozen=True)
class SkeletonFile:
    path: Path  # relative to the output folder
    text: str


@dataclass(frozen=True)
class Skeleton:
    files: list[SkeletonFile]
    by_hand: list[ByHand]  # the functions written as stubs


def skeleton_files(metadata: AppFunctionPackageMetadata, stubbed: dict[str, str] | None = None) -> Skeleton:
    """The double's files: ``__init__.py`` and one module per package of ``@AppFunction``
    classes, where the loader finds a class: at the last part of its package (``accounts.py``),
    or at its whole package (``com/acme/accounts.py``) when two classes of one name would share
    a module otherwise. Classes of one package share their module and its dataclasses.
    ``stubbed``: functions to write as stubs, with the reason, whatever their types."""
    classes = functions_by_class(metadata)
    if not classes:
        raise SkeletonError(f"{metadata.package_name} declares no functions of a service: there is nothing to double")
    files = [SkeletonFile(Path("__init__.py"), f'"""Python doubles of {metadata.package_name}\'s functions (docs/responses.md)."""\n')]
    short = [(_module_path(class_id, whole=False), class_id.rsplit(".", 1)[-1]) for class_id in classes]
    whole = len(set(short)) < len(short)
    modules: dict[Path, _Module] = {}
    by_hand: list[ByHand] = []
    for class_id, functions in classes.items():
        path = _module_path(class_id, whole)
        module = modules.setdefault(path, _Module(metadata))
        methods = []
        for function in functions:
            method, stub = module.method_or_stub(function, path.as_posix(), (stubbed or {}).get(function.id))
            methods.append(method)
            by_hand += [stub] if stub else []
        module.services.append(_service_class(class_id, class_id.rsplit(".", 1)[-1], methods))
    files += [SkeletonFile(path, _module_text(metadata, module)) for path, module in modules.items()]
    return Skeleton(files, by_hand)


def by_hand_reason(metadata: AppFunctionPackageMetadata, function_id: str) -> str | None:
    """Why the skeleton cannot write ``function_id`` (so that a refusal recommends the skeleton only
    where it helps); None when it can."""
    try:
        skeleton = skeleton_files(metadata)
    except SkeletonError as error:
        return str(error)
    return next((b.reason for b in skeleton.by_hand if b.function_id == function_id), None)


def _module_path(class_id: str, whole: bool) -> Path:
    parts = [_identifier(part) for part in class_id.split(".")[:-1]] or ["service"]
    return Path(*(parts if whole else parts[-1:])).with_suffix(".py")


def _service_class(service: str, class_name: str, methods: list[str]) -> str:
    return (
        f"class {class_name}(AppFunctionServiceEntryPoint):\n    service_name = {service!r}\n"
        f"    xml_file_name = {_snake(class_name)!r}  # only `appfunctions generate` reads it\n\n" + "\n".join(methods)
    )


def _module_text(metadata: AppFunctionPackageMetadata, module: _Module) -> str:
    imports = sorted(module.imports)
    droid = "".join(f"    {name},\n" for name in sorted(module.droid_names, key=lambda n: (n[0].islower(), n)))
    head = (
        f'"""A double of {metadata.package_name}\'s functions, written by `droidsim responses skeleton` from its XML.\n\n'
        "Fill in the methods; keep the signatures and the dataclasses as they are (install compares them\n"
        "with the XML). State kept on self lives as long as the app process; classes share state\n"
        'through a module of this folder that each imports (docs/examples/bank-double/ledger.py)."""\n\n'
        "from __future__ import annotations\n\n"
        + "".join(f"{line}\n" for line in imports)
        + ("\n" if imports else "")
        + f"from droid.appfunctions import (\n{droid})\n"
    )
    if module.typevars:
        head += "\n" + "".join(f"{name} = TypeVar({name!r})\n" for name in sorted(module.typevars))
    body = "\n\n".join(module.blocks)
    return head + "\n\n" + (body + "\n\n" if body else "") + "\n\n".join(module.services)


def write_skeleton(metadata: AppFunctionPackageMetadata, out_dir: Path) -> Skeleton:
    """Check the skeleton against ``metadata`` as install would (but for its stubs), then write
    it. A file that exists with other content (a double someone wrote) is never overwritten;
    writing the same skeleton again changes nothing."""
    stubbed: dict[str, str] = {}
    while (mismatch := _mismatch(skeleton := skeleton_files(metadata, stubbed), metadata)) is not None:
        # A spelling that compiles to another signature than the XML's: that function is left to
        # write by hand, and the others are checked again.
        if mismatch.function_id is None or mismatch.function_id in stubbed:
            raise SkeletonError(f"the skeleton droidsim wrote does not match the app's XML, a mistake of droidsim's "
                                f"(please report it): {mismatch}")
        difference = str(mismatch).partition("does not match the app's XML: ")[2] or str(mismatch)
        stubbed[mismatch.function_id] = (f"its types, as the skeleton spells them, compile to another signature "
                                         f"than the XML's: {difference}")
    for file in skeleton.files:
        target = out_dir / file.path
        if target.exists() and target.read_text() != file.text:
            raise SkeletonError(f"{target} exists and differs from the skeleton: write it into a new folder")
    _write(out_dir, skeleton.files)
    return skeleton


def _without(metadata: AppFunctionPackageMetadata, function_ids: set[str]) -> AppFunctionPackageMetadata:
    kept = AppFunctionPackageMetadata()
    kept.CopyFrom(metadata)
    del kept.app_functions[:]
    kept.app_functions.extend(f for f in metadata.app_functions if f.id not in function_ids)
    return kept


def _mismatch(skeleton: Skeleton, metadata: AppFunctionPackageMetadata) -> DoubleMismatch | None:
    """The comparison install makes, of every function but the stubs: the skeleton's compiled
    signatures against the XML's."""
    from sim.pm.code_verifier import InProcessCodeVerifier

    with tempfile.TemporaryDirectory() as scratch:
        _write(Path(scratch), skeleton.files)
        try:
            check_double(Path(scratch), _without(metadata, {b.function_id for b in skeleton.by_hand}),
                         InProcessCodeVerifier(), "the skeleton")
        except DoubleMismatch as error:
            return error
    return None


def _write(folder: Path, files: list[SkeletonFile]) -> None:
    for file in files:
        (folder / file.path).parent.mkdir(parents=True, exist_ok=True)
        (folder / file.path).write_text(file.text)


def _not_implemented(function: AppFunctionMetadata, module_file: str) -> str:
    """What a skeleton's method answers until it is written: the function, and where to write it."""
    class_name = function.id.rsplit("#", 1)[0].rsplit(".", 1)[-1]
    return (f"{function.id} is not implemented in this double yet: write {class_name}.{function_name(function)} "
            f"in {module_file} (docs/responses.md)")


def _property(data_type: AppFunctionDataTypeMetadata, name: str, where: str) -> AppFunctionDataTypeMetadata:
    found = next((p.data_type for p in data_type.properties if p.name == name), None)
    if found is None:
        raise SkeletonError(f"{where}: not a property of every instance of its generic class")
    return found


def _generic_annotation(spelled: list[tuple[str, list[str]]], params: list[str]) -> str | None:
    """The annotation of a generic class's property, from (its annotation, the type arguments' annotations)
    in each instance: a type parameter, a list of one, one nullable, or the same annotation in all."""
    for i, param in enumerate(params):
        for form in ("{}", "list[{}]", "{} | None"):
            if all(annotation == form.format(arguments[i]) for annotation, arguments in spelled):
                return form.format(param)
    annotations = {annotation for annotation, _ in spelled}
    return annotations.pop() if len(annotations) == 1 else None


def _stub(function: AppFunctionMetadata, by_hand: ByHand) -> str:
    """A method the skeleton could not type: marked, and not an @app_function, so that install
    refuses the double naming this function until its signature is written."""
    name = function_name(function)
    head = f"    # {STUB_MARK}: {function.id}: {by_hand.reason}.\n    # Write its signature as docs/declaring-functions.md says; install refuses this double until then.\n"
    if not name.isidentifier() or keyword.iskeyword(name):
        return head
    return (f"{head}    def {name}(self, **parameters):\n"
            f"        raise AppFunctionNotSupportedException({_not_implemented(function, by_hand.module_file)!r})\n")


def _default(data_type: AppFunctionDataTypeMetadata, where: str) -> str:
    """The default that makes a value optional, as the declaration layer reads it."""
    if data_type.is_nullable:
        return "None"
    if data_type.type in _DEFAULTS:  # an Int's enum values too: an omitted one is 0 (typeref.omitted_value)
        return _DEFAULTS[data_type.type]
    raise SkeletonError(f"{where}: optional but neither nullable nor of a type with a default, which the "
                        "skeleton cannot spell")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _identifier(text: str) -> str:
    name = re.sub(r"\W", "_", text) or "_"
    if name[0].isdigit() or keyword.iskeyword(name):
        name = f"_{name}"
    return name


_KIND_WORDS = {DataType.ONE_OF: "a sealed class or a union of serializables",
               DataType.ALL_OF: "a serializable that extends another", DataType.PARCELABLE: "a Parcelable of the app's"}


def _kind_words(data_type: AppFunctionDataTypeMetadata) -> str:
    """``ONE_OF com.x.Shape (a sealed class or a union of serializables)``."""
    kind = data_type.type
    name = DataType(kind).name if kind in DataType._value2member_map_ else f"type {kind}"
    qualified = f" {data_type.object_qualified_name}" if data_type.object_qualified_name else ""
    words = f" ({_KIND_WORDS[kind]})" if kind in _KIND_WORDS else ""
    return f"{name}{qualified}{words}"


def _docstring(text: str, indent: str) -> str:
    lines = " ".join(text.split()).replace('"""', "'''").replace("\\", "\\\\")
    return f'{indent}"""{lines}"""'
