"""``droidsim appfunctions new``: a new app folder that installs, lints clean and has one function.

What a Kotlin developer would otherwise copy from apps/notes: the manifest (the service, its
permission and intent filter, the function XML's property), res/xml/app_metadata.xml, the
Python package with one entry point, and the generated XML. The app description describes the
one function; the user rewrites it with the functions.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

import click

from sim.pm.app_template import app_metadata_xml, service_app_manifest

_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")

_MODULE = '''"""{label}'s AppFunctions."""

from __future__ import annotations

from droid.appfunctions import AppFunctionServiceEntryPoint, app_function


class {service_class}(AppFunctionServiceEntryPoint):
    service_name = "{package}.{service_class}"  # the manifest's <service android:name>
    xml_file_name = "{module}_functions"  # assets/{module}_functions.xml

    @app_function(described_by_docstring=True)
    async def greet(self, name: str) -> str:
        """Greets a person by name.

        Args:
            name: The person's first name, for example Ada.

        Returns:
            The greeting.
        """
        return f"Hello, {{name}}!"
'''


def new_app(folder: Path, package: str, label: str) -> list[Path]:
    """Write the app into ``folder`` (new or empty); returns the files written."""
    if not _PACKAGE.fullmatch(package) or any(keyword.iskeyword(part) for part in package.split(".")):
        raise click.BadParameter(f"{package!r} is not a package name such as com.example.todo", param_hint="--package")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise click.BadParameter(f"{folder} exists and is not an empty folder", param_hint="DIR")
    module = package.rsplit(".", 1)[1].lower()
    service_class = module.title().replace("_", "") + "FunctionService"
    files = {
        "AndroidManifest.xml": service_app_manifest(package, label, f"{package}.{service_class}", f"{module}_functions.xml"),
        "res/xml/app_metadata.xml": app_metadata_xml(
            f"Greets a person by name; {label}'s one function so far.",
            f"{label} for your assistant.",
        ),
        "__init__.py": f'"""{label}: an app with AppFunctions."""\n',
        f"{module}.py": _MODULE.format(label=label, package=package, service_class=service_class, module=module),
    }
    written = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    from droid.appfunctions.compiler import generate

    return written + list(generate(folder))


@click.command("new")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--package", required=True, help="The app's package name, e.g. com.example.todo.")
@click.option("--label", default=None, help="The app's name people see (default: from the package).")
def new_command(folder: Path, package: str, label: str | None) -> None:
    """Start an app in DIR: manifest, app metadata, one function and its generated XML."""
    label = label or package.rsplit(".", 1)[-1].replace("_", " ").title()
    for path in new_app(folder, package, label):
        click.echo(f"wrote: {path}")
    click.echo(f"next: edit {folder / (package.rsplit('.', 1)[1].lower() + '.py')}, then "
               f"droidsim appfunctions generate {folder} and droidsim install {folder}")
