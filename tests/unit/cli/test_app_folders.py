"""install, lint and generate read an argument the same way: an app folder, or a folder of
app folders; anything else is refused after one look, with the same message."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli.main import cli
from sim.pm import installer
from sim.pm.app_folders import NotAnAppFolder, app_folders
from sim.pm.install_error import InstallError
from tests.helpers import SAMPLE_APPS, ShellOf, copy_app


@pytest.fixture
def two_apps(tmp_path):
    root = tmp_path / "apps"
    root.mkdir()
    copy_app(SAMPLE_APPS / "orders", root)
    copy_app(SAMPLE_APPS / "notes", root)
    return root


def test_a_folder_of_apps_is_its_app_folders(two_apps) -> None:
    assert [p.name for p in app_folders([two_apps])] == ["notes", "orders"]
    assert app_folders([two_apps / "orders"]) == [two_apps / "orders"]


@pytest.mark.parametrize("command", [["lint"], ["appfunctions", "generate", "--check"]])
def test_lint_and_generate_take_a_folder_of_apps(two_apps, command) -> None:
    result = CliRunner().invoke(cli, [*command, str(two_apps)])
    assert result.exit_code == 0, result.output
    assert "notes" in result.output and "orders" in result.output


def test_install_takes_a_folder_of_apps(droid_device, two_apps, monkeypatch) -> None:
    """The CLI's install expands the folder, then installs each app on the device."""
    monkeypatch.setattr("sim.cli.install.open_context", lambda *a, **k: ShellOf(droid_device))
    result = CliRunner().invoke(cli, ["--device", str(two_apps), "install", str(two_apps)])
    assert result.exit_code == 0, result.output
    assert [line.split()[1] for line in result.output.splitlines()] == ["com.example.notes", "com.example.orders"]


@pytest.mark.parametrize("command, code", [(["lint"], 2), (["appfunctions", "generate"], 1), (["install"], 1)])
def test_a_folder_that_is_no_app_is_refused_the_same_way_by_each(tmp_path, command, code) -> None:
    """(lint exits 2, "an app could not be read", and still lints the others.)"""
    (tmp_path / "src").mkdir()
    result = CliRunner().invoke(cli, ["--device", str(tmp_path), *command, str(tmp_path)])
    assert result.exit_code == code
    assert f"{tmp_path} is not an app folder (it has no AndroidManifest.xml) and holds no app folders" in result.output


def test_the_installer_refuses_a_folder_without_a_manifest_before_reading_it(droid_device, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(installer, "source_hash", lambda path: pytest.fail("the whole tree was read"))
    with pytest.raises(InstallError, match="INSTALL_PARSE_FAILED_NOT_APK"):
        droid_device.install(tmp_path)
    with pytest.raises(NotAnAppFolder):
        app_folders([tmp_path])
