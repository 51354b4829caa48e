"""`droidsim appfunctions new`: an app folder that installs, lints clean and answers a call."""

from __future__ import annotations

from click.testing import CliRunner

import pytest

from sim.cli.main import cli
from sim.device import Device
from sim.lint import lint_apps
from sim.testing import TestDevice


def new(*args: str):
    return CliRunner().invoke(cli, ["appfunctions", "new", *args])


def test_a_new_app_installs_lints_clean_and_answers(tmp_path) -> None:
    app = tmp_path / "todo"
    result = new(str(app), "--package", "com.example.todo")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:6] == [
        f"wrote: {app / name}" for name in
        ("AndroidManifest.xml", "res/xml/app_metadata.xml", "__init__.py", "todo.py", "assets/todo_functions.xml",
         "assets/app_functions_schema.xsd")
    ]
    assert lint_apps([app]).apps[0].findings == []
    with TestDevice() as device:
        installed = device.install(app)
        assert installed.function_ids == ("com.example.todo.TodoFunctionService#greet",)
        assert installed.install_notes == ()
        assert device.call("greet", name="Ada") == "Hello, Ada!"
        assert device.device.registry.get("com.example.todo").metadata.app_metadata.description == (
            "Greets a person by name; Todo's one function so far."
        )


def test_a_bad_package_or_a_folder_in_use_is_refused_and_nothing_is_written(tmp_path) -> None:
    for package in ("todo", "com.example.class", "com.1example.todo"):
        result = new(str(tmp_path / "a"), "--package", package)
        assert result.exit_code == 2
        assert f"Invalid value for --package: {package!r} is not a package name such as com.example.todo" in result.output
    assert not (tmp_path / "a").exists()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "notes.txt").write_text("mine")
    result = new(str(tmp_path / "b"), "--package", "com.example.todo")
    assert result.exit_code == 2 and f"{tmp_path / 'b'} exists and is not an empty folder" in result.output
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("sdk", [36, 37])
def test_a_new_app_is_indexed_whole_on_either_sdk(tmp_path, sdk) -> None:
    """What droidsim's scaffold declares is what a phone needs: with the app schema, Android 16
    indexes the v2 file at all, and Android 17 with its parameters and descriptions."""
    app = tmp_path / "todo"
    assert new(str(app), "--package", "com.example.todo").exit_code == 0
    with Device(tmp_path / "data", isolated_apps=False, sdk=sdk) as device:
        package = device.install(app)
        (greet,) = package.metadata.app_functions
        assert (greet.description, [p.name for p in greet.parameters], package.install_notes) == (
            "Greets a person by name.", ["name"], ())
