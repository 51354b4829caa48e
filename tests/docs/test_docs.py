"""Every code block of README.md and docs/*.md that a user would copy runs (tests/docs/blocks.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import reference_root
from tests.docs.blocks import Block, commands, read_blocks
from tests.helpers import COMMAND_BOUND, REPO, SAMPLE_APPS, DeviceProcess

pytestmark = pytest.mark.slow

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
DROIDSIM = ("droidsim", ".venv/bin/droidsim")
PYTHON = ("python", "python3", ".venv/bin/python")
REFERENCE = "../shared/reference"
MAKE_SIM_EXTRA = ("--system-apps", str(SAMPLE_APPS / "system"), "--pregrant-agent", "com.example.assistant")


class BootedDevice:
    """A device booted as `make sim` boots it, the first time a block needs one."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.process: DeviceProcess | None = None

    @property
    def data(self) -> Path:
        if self.process is None:
            self.root = Path(tempfile.mkdtemp(prefix="droidsim-doc-"))  # short: sun_path holds 108 bytes
            self.process = DeviceProcess(self.root / "device", SAMPLE_APPS, extra=MAKE_SIM_EXTRA)
        return self.process.data

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def booted():
    device = BootedDevice()
    yield device
    device.stop()


# Blocks known to fail, each with who fixes it; strict: the test fails once they pass, so the
# entry cannot outlive the fix.
@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in DOCS])
def test_every_block_runs_or_is_a_marked_fragment(path: Path, booted: BootedDevice, tmp_path: Path) -> None:
    blocks = read_blocks(path)
    python = [b for b in blocks if b.kind == "run" and b.language == "python"]
    if python:
        # A page that talks to a device in its sh blocks may in its python blocks too.
        needs_device = any(argv[0] in DROIDSIM for b in blocks if b.kind == "run" and b.language == "sh"
                           for _, argv in commands(b))
        _run_python(python, booted if needs_device else None)
    without_data = []
    for block in blocks:
        if block.kind == "run" and block.language == "sh":
            for line, argv in commands(block):
                argv = _with_reference(argv)
                if argv is None:
                    without_data.append(f"{block.path.name}:{line}")
                    continue
                _run_command(block, line, argv, booted, tmp_path)
    tests = [b for b in blocks if b.kind == "pytest"]
    if tests:
        _run_pytest(tests, tmp_path)
    if without_data:  # the rest ran; these read data that is not here
        pytest.skip(f"reference data not found at {reference_root()} (set DROIDSIM_REFERENCE): "
                    f"{', '.join(without_data)} not run")


def _with_reference(argv: list[str]) -> list[str] | None:
    """A command that reads ../shared/reference (the benchmarks' data, never copied into the project)
    reads it where the tests find it, DROIDSIM_REFERENCE; None when it is not there."""
    if not any(REFERENCE in arg for arg in argv):
        return argv
    if not reference_root().is_dir():
        return None
    return [arg.replace(REFERENCE, str(reference_root())) for arg in argv]


def _env(booted: BootedDevice | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if booted is not None:
        env["DROIDSIM_DEVICE"] = str(booted.data)
    return env


def _run_python(blocks: list[Block], booted: BootedDevice | None) -> None:
    payload = json.dumps([{"file": str(b.path), "line": b.line, "source": b.source} for b in blocks])
    result = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("run_python.py"))], input=payload, cwd=REPO,
        env=_env(booted), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _run_command(block: Block, line: int, argv: list[str], booted: BootedDevice, tmp_path: Path) -> None:
    where = f"{block.path.name}:{line}: {' '.join(argv)}"
    # A page writes where a user would (/tmp/...): here, in this run's own folder, so that what an
    # earlier run (or another checkout) left there cannot change the result.
    argv = [arg.replace("/tmp/", f"{tmp_path}/") for arg in argv]
    if argv[0] in DROIDSIM:
        if argv[1:3] == ["device", "start"]:
            _boot_separately(argv[3:], tmp_path, where)
            return
        result = subprocess.run(
            [sys.executable, "-m", "sim.cli", *argv[1:]], cwd=REPO, env=_env(booted),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        )
        assert result.returncode == 0, f"{where}\n{result.stdout}{result.stderr}"
    elif argv[0] == "make":
        targets = set(re.findall(r"^([\w.-]+):", (REPO / "Makefile").read_text(), re.M))
        assert set(argv[1:]) <= targets, f"{where}: the Makefile has no target {sorted(set(argv[1:]) - targets)}"
    elif argv[0] in PYTHON and argv[1:2] == ["-m"]:
        result = subprocess.run([sys.executable, "-m", argv[2], "--help"], cwd=REPO, capture_output=True, text=True,
                                timeout=COMMAND_BOUND)
        assert result.returncode == 0, f"{where}\n{result.stderr}"
        for option in (a.split("=")[0] for a in argv[3:] if a.startswith("--")):
            assert option in result.stdout, f"{where}: python -m {argv[2]} has no option {option}"
    else:
        pytest.fail(f"{where}: not a command the harness runs; make it a droidsim, make or python -m "
                    "command, or mark the block <!-- fragment: WHY -->")


def _boot_separately(options: list[str], tmp_path: Path, where: str) -> None:
    """A `device start` line boots a device of its own in a scratch data directory."""
    if "--data" in options:
        index = options.index("--data")
        options = options[:index] + options[index + 2:]
    data = Path(tempfile.mkdtemp(prefix="droidsim-doc-"))
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "sim.cli", "device", "start", "--data", str(data / "device"), *options],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        output = []
        for text in process.stdout:
            output.append(text)
            if "listening on" in text:
                break
        process.terminate()
        try:
            rest, _ = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            rest, _ = process.communicate()
        assert any("listening on" in o for o in output), f"{where}\n{''.join(output)}{rest}"
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _run_pytest(blocks: list[Block], tmp_path: Path) -> None:
    """One pytest run over every test block of the page, each its own module (named after
    its line, so a failure points at the block)."""
    files = []
    for block in blocks:
        test_file = tmp_path / f"test_{block.path.stem.replace('-', '_')}_line_{block.line}.py"
        test_file.write_text("\n" * block.line + block.source)
        files.append(str(test_file))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), *files],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, f"{blocks[0].path.name}\n{result.stdout}{result.stderr}"
    passed = re.search(r"\b(\d+) passed\b", result.stdout)
    assert passed and int(passed.group(1)) >= len(blocks), result.stdout
