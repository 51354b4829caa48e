"""A model server's key never goes on a command line, where every local process (installed
apps included) reads it from /proc/PID/cmdline: it comes from OPENAI_API_KEY or a file."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from sim.cli.api_key import ON_COMMAND_LINE, api_key_options
from sim.cli.main import cli


@click.command()
@api_key_options
def show(api_key: str | None) -> None:
    click.echo(repr(api_key))


@pytest.mark.parametrize("command", [["agent", "--as", "com.example.assistant", "hi"], ["eval", "suite.yaml"]])
def test_a_key_on_the_command_line_is_refused_before_anything_runs(command):
    result = CliRunner().invoke(cli, [*command, "--api-key", "sk-secret"], env={"OPENAI_API_KEY": None})
    assert result.exit_code == 2
    assert ON_COMMAND_LINE in " ".join(result.output.split())


def test_the_key_comes_from_a_file_else_the_environment(tmp_path):
    runner = CliRunner()
    key_file = tmp_path / "key"
    key_file.write_text("sk-from-file\n")
    assert runner.invoke(show, ["--api-key-file", str(key_file)], env={"OPENAI_API_KEY": "sk-env"}).output == "'sk-from-file'\n"
    assert runner.invoke(show, [], env={"OPENAI_API_KEY": "sk-env"}).output == "'sk-env'\n"
    assert runner.invoke(show, [], env={"OPENAI_API_KEY": None}).output == "None\n"
    key_file.write_text("\n")
    empty = runner.invoke(show, ["--api-key-file", str(key_file)])
    assert empty.exit_code == 2 and f"{key_file} is empty" in empty.output
    missing = runner.invoke(show, ["--api-key-file", str(tmp_path / "absent")])
    assert missing.exit_code == 2 and "No such file or directory" in missing.output
