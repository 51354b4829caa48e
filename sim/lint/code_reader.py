"""The Python side of an app: where each function and type is defined.

Two ways in, one result (``Code`` attached to each ``Function``):

- ``read_entry_point`` imports the service class, as ``droidsim appfunctions
  generate`` does, and takes the metadata from the declarations themselves
  (what the XML will say once regenerated) and every location from
  ``inspect``: right through inheritance and helper modules. For ``droidsim lint``.
- ``attach_static`` finds the class and its methods in the source with ``ast``,
  following the loader's module rules, and attaches them to functions read from
  the XML. It runs no app code, so the device may use it at install.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from droid.appfunctions.analysis import analyze
from droid.appfunctions.compiler import build_metadata
from droid.appfunctions.loader import candidate_modules, load_app_service_class
from droid.appfunctions.metadata import AppFunctionDataTypeMetadata
from droid.appfunctions.typeref import ObjectSpec, wire_name
from sim.lint.model import Code, Function, Parameter, Scope, TypeInfo
from sim.lint.source import CodeModule, ModuleCache, SourceError


def read_entry_point(
    app_dir: Path, service_name: str, package: str, cache: ModuleCache, *, reload: bool
) -> tuple[list[Function], dict[str, TypeInfo]] | None:
    """The functions and types an ``AppFunctionServiceEntryPoint`` declares, or
    None when the service is a hand-written ``AppFunctionService`` (its XML is
    the only declaration). Raises ``AppLoadError`` / ``AppFunctionCompileError``
    when the code cannot be loaded or compiled."""
    cls = load_app_service_class(app_dir, service_name, reload=reload)
    if not hasattr(cls, "app_function_spec"):
        return None
    spec = analyze(cls)
    metadata, components = build_metadata(spec, package)
    functions = []
    for fn_spec, fn_metadata in zip(spec.functions, metadata):
        impl = getattr(cls, fn_spec.method_name)
        module, node = _definition(impl, fn_spec.method_name, cache)
        parameters = [Parameter(p, 0) for p in fn_metadata.parameters]
        function = Function(fn_metadata, Scope(str(module.path), node.lineno, fn_metadata.id), parameters)
        py_to_wire = {p.py_name: p.wire_name for p in fn_spec.parameters}
        _attach(function, module, node, py_to_wire)  # type: ignore[arg-type]
        functions.append(function)

    app_root = app_dir.resolve()
    by_name = {c.qualified_name: c for c in spec.components if isinstance(c, ObjectSpec)}
    types = {}
    for named in components.data_types:
        obj = by_name.get(named.name)
        types[named.name] = _type_info(named.name, named.data_type, obj, app_root, cache)
    return functions, types


def attach_static(app_dir: Path, service_name: str, functions: list[Function], cache: ModuleCache) -> None:
    """Attach the source of each XML-declared function found in the service class.
    A function whose method is not found keeps its XML location."""
    methods = static_methods(app_dir, service_name, cache)
    if methods is None:
        return
    module, nodes = methods
    for function in functions:
        node = nodes.get(function.name)
        if node is not None:
            _attach(function, module, node, {})


def attach_static_types(types: dict[str, TypeInfo], modules: list[CodeModule]) -> None:
    """Point each app-defined type read from the XML at its ``@app_function_serializable``
    class in the source, when one has its name."""
    classes = {
        node.name: (module, node)
        for module in modules
        for node in module.tree.body
        if isinstance(node, ast.ClassDef)
        and any("app_function_serializable" in ast.unparse(d) for d in node.decorator_list)
    }
    for info in types.values():
        found = classes.get(info.simple_name) if info.defined_by_app else None
        if found is None:
            continue
        module, node = found
        info.scope.file, info.scope.line = str(module.path), node.lineno
        info.scope.directives = [*info.scope.directives, *module.directives_for(node)]
        lines = _field_lines(node)
        info.property_lines = {wire_name(py): line for py, line in lines.items()}


def static_methods(
    app_dir: Path, service_name: str, cache: ModuleCache
) -> tuple[CodeModule, dict[str, ast.FunctionDef | ast.AsyncFunctionDef]] | None:
    """The service class's methods, found where the loader would import it from."""
    path = service_module_path(app_dir, service_name)
    if path is None:
        return None
    try:
        module = cache.get(path)
    except SourceError:
        return None
    cls = module.top_level(ast.ClassDef, service_name.rsplit(".", 1)[-1])
    return (module, module.methods(cls)) if isinstance(cls, ast.ClassDef) else None


def service_module_path(app_dir: Path, service_name: str) -> Path | None:
    """The file the loader imports a service from, or None for an app without
    Python code for it (an app described by its XML alone)."""
    for module_name in candidate_modules(service_name):
        relative = Path(*module_name.split("."))
        for path in (app_dir / relative.with_suffix(".py"), app_dir / relative / "__init__.py"):
            if path.is_file():
                return path
    return None


def _definition(obj: object, name: str, cache: ModuleCache) -> tuple[CodeModule, ast.AST]:
    try:
        path = Path(inspect.getsourcefile(obj) or "")  # type: ignore[arg-type]
        first_line = inspect.getsourcelines(obj)[1]  # type: ignore[arg-type]
    except (OSError, TypeError) as e:
        raise SourceError(f"cannot find the source of {name}: {e}") from None
    module = cache.get(path)
    node = module.definition_at(name, first_line)
    if node is None:
        raise SourceError(f"{path}:{first_line}: cannot find the definition of {name}")
    return module, node


def _attach(
    function: Function,
    module: CodeModule,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    py_to_wire: dict[str, str],
) -> None:
    """Point the function at its source: def line, parameter lines and defaults,
    and the directives written above it (added to any found in the XML)."""
    function.code = Code(module, node, module.enclosing_class(node))
    function.scope.file = str(module.path)
    function.scope.line = node.lineno
    function.scope.directives = [*function.scope.directives, *module.directives_for(node)]
    by_wire = {p.name: p for p in function.parameters}
    for parameter in function.parameters:
        parameter.line = node.lineno  # until its own line is found below
    for arg, default in _arguments(node):
        parameter = by_wire.get(py_to_wire.get(arg.arg) or wire_name(arg.arg))
        if parameter is not None:
            parameter.py_name = arg.arg
            parameter.line = arg.lineno
            parameter.default = default


def _arguments(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.arg, ast.expr | None]]:
    """Each parameter after ``self`` with its default expression (None: no default)."""
    positional = [*node.args.posonlyargs, *node.args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(node.args.defaults)) + list(node.args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(node.args.kwonlyargs, node.args.kw_defaults))
    return pairs[1:] if positional else pairs


def _type_info(
    name: str, metadata: AppFunctionDataTypeMetadata, obj: ObjectSpec | None, app_root: Path, cache: ModuleCache
) -> TypeInfo:
    if obj is None or not _inside(inspect.getsourcefile(obj.cls), app_root):
        return TypeInfo(name, metadata, Scope("", 0), defined_by_app=False)
    module, node = _definition(obj.cls, obj.cls.__name__, cache)
    lines = _field_lines(node)  # type: ignore[arg-type]
    return TypeInfo(
        name,
        metadata,
        Scope(str(module.path), node.lineno, None, module.directives_for(node)),  # type: ignore[arg-type]
        defined_by_app=True,
        property_lines={p.wire_name: lines[p.py_name] for p in obj.properties if p.py_name in lines},
    )


def _field_lines(node: ast.ClassDef) -> dict[str, int]:
    return {
        stmt.target.id: stmt.lineno
        for stmt in node.body
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
    }


def _inside(path: str | None, root: Path) -> bool:
    return path is not None and Path(path).resolve().is_relative_to(root)
