"""A droidsim user's project outside the repository (tests/e2e/user_project, copied to a temporary
folder): droidsim installed as docs/testing.md says, from a wheel built from this checkout into a
fresh venv; the project's own pytest suite passes with the droid_device fixture, its app lints
clean and its XML is up to date, and the shell names every key its functions do not declare. A
Kotlin developer's project (tests/e2e/kotlin_project.py) passes its suite on its APK with the same
wheel: nothing needs adding for an APK.

The venv is made once per run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.e2e import kotlin_project
from tests.helpers import COMMAND_BOUND, EVENT_BOUND, REPO

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PROJECT = REPO / "tests" / "e2e" / "user_project"
SERVICE = "com.example.todo.TodoFunctionService"
# What a checkout holds that a build does not read.
NOT_BUILT = shutil.ignore_patterns(".venv", ".git", ".droidsim", "build", "*.egg-info", "__pycache__", ".pytest_cache",
                                   ".hypothesis", "eval-out")


def run(*command: str | Path, cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env or _clean_env())


def _clean_env() -> dict[str, str]:
    """The environment of a user's shell: nothing of this checkout's venv or import path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(REPO)))
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel built from this checkout (pip wheel) and pytest: its bin/.

    Only the wheel is installed by pip; each distribution it requires (transitively, and pytest's)
    is linked from this checkout's venv, and `pip check` holds them to the wheel's requirements.
    Resolving and unpacking the ~100 dependency wheels again took most of a minute of the suite; a
    requirement the wheel does not declare is still missing here, as it would be for a user."""
    root = tmp_path_factory.mktemp("user-install")
    source = root / "droidsim-src"
    shutil.copytree(REPO, source, ignore=NOT_BUILT, symlinks=True)
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", root / "wheels",
                source, cwd=root, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = (root / "wheels").glob("droidsim-*.whl")
    venv = root / "venv"
    made = run(sys.executable, "-m", "venv", venv, cwd=root, timeout=300)
    assert made.returncode == 0, made.stderr
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    link_requirements(["droidsim", "pytest"], site)
    pip = run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-deps", wheel, cwd=root, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    checked = run(venv / "bin" / "python", "-m", "pip", "check", cwd=root, timeout=COMMAND_BOUND)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return venv / "bin"


def link_requirements(names: list[str], site: Path) -> None:
    """Link into ``site`` the top-level files of every distribution ``names`` require, as this
    process's environment holds them (markers evaluated here, extras not taken)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    wanted, seen = list(names), set()
    while wanted:
        dist = metadata.distribution(wanted.pop())
        name = dist.metadata["Name"].lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        if name != "droidsim":
            for top in {Path(str(f)).parts[0] for f in dist.files or () if not str(f).startswith("..")}:
                if not (site / top).exists() and not top.startswith("__editable__"):
                    (site / top).symlink_to(dist.locate_file(top))
        for line in dist.requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                wanted.append(requirement.name)


@pytest.fixture
def project(tmp_path) -> Path:
    target = tmp_path / "todo-project"
    shutil.copytree(PROJECT, target, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return target


@pytest.mark.timeout(2400)
def test_the_projects_own_suite_passes_with_droidsim_from_a_wheel(installed, project) -> None:
    where = run(installed / "python", "-c", "import sim, droid; print(sim.__file__, droid.__file__)", cwd=project,
                timeout=COMMAND_BOUND)
    assert str(REPO) not in where.stdout and "site-packages" in where.stdout, where.stdout + where.stderr
    warmup = run(installed / "python", "-c", "from sim.pm.spare_decoder import WARMUP_APK; print(WARMUP_APK.is_file())",
                 cwd=project, timeout=COMMAND_BOUND)
    assert warmup.stdout.strip() == "True", warmup.stdout + warmup.stderr  # package data, not tests/
    suite = run(installed / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project, timeout=600)
    assert suite.returncode == 0, suite.stdout + suite.stderr
    assert suite.stdout.splitlines()[-1].startswith("7 passed")
    checked = run(installed / "droidsim", "appfunctions", "generate", "--check", "apps/todo", cwd=project, timeout=120)
    assert (checked.returncode, checked.stdout.strip()) == (0, "up to date: apps/todo"), checked.stderr
    linted = run(installed / "droidsim", "lint", "apps/todo", cwd=project, timeout=120)
    assert linted.returncode == 0 and "no findings" in linted.stdout, linted.stdout + linted.stderr


@pytest.mark.timeout(2400)
def test_a_kotlin_projects_suite_passes_on_its_apk_with_droidsim_from_a_wheel(installed, tmp_path) -> None:
    if (reason := kotlin_project.cannot_build()) is not None:
        pytest.skip(reason)
    project = kotlin_project.write_project(tmp_path)
    suite = run(installed / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project, timeout=600)
    assert suite.returncode == 0, suite.stdout + suite.stderr
    assert suite.stdout.splitlines()[-1].startswith(f"{kotlin_project.TESTS_PASSING} passed"), suite.stdout
    # eval from the wheel: its devices boot with the stock agent the wheel carries (sim/eval/system_apps).
    (project / "trips.eval.yaml").write_text(
        f"suite: trips\napps:\n  - apk: {kotlin_project.APK}\n    responses: app/src/test/trips.cassette.yaml\n"
        "cases:\n  - id: book\n    category: simple\n    user: Book 2 second class seats on trip TRIP-7\n"
        "    calls:\n      - function: bookTrip\n        args: {tripId: TRIP-7, seats: 2, travelClass: SECOND}\n")
    evaluated = run(installed / "droidsim", "eval", "trips.eval.yaml", "--out", "eval-out", "--json", cwd=project,
                    timeout=600)
    assert evaluated.returncode == 0, evaluated.stdout + evaluated.stderr
    assert json.loads(evaluated.stdout)["configs"]["base"]["scores"]["overall"]["trials_run"] == 1


@pytest.mark.timeout(2400)
def test_the_shell_names_every_key_the_functions_do_not_declare(installed, project) -> None:
    data = Path(tempfile.mkdtemp(prefix="droidsim-user-")) / "device"  # short: a socket path holds 108 bytes
    device = subprocess.Popen([str(installed / "droidsim"), "device", "start", "--data", str(data), "--apps", "apps"],
                              cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_clean_env())
    try:
        assert device.stdout is not None
        output = []
        for line in device.stdout:
            output.append(line)
            if "listening on" in line:
                break
        assert "listening on" in output[-1], "".join(output)
        env = {**_clean_env(), "DROIDSIM_DEVICE": str(data)}

        def execute(function: str, parameters: dict) -> subprocess.CompletedProcess:
            return run(installed / "droidsim", "shell", "cmd", "app_function", "execute-app-function",
                       "--package", "com.example.todo", "--function", f"{SERVICE}#{function}",
                       "--parameters", json.dumps(parameters), cwd=project, timeout=120, env=env)

        bad = {
            ("list_tasks", "titel"): {"titel": "Tax"},
            ("list_tasks", "due_before"): {"due_before": "2026-05-01"},
            ("create_task", "sub_tasks"): {"title": "Taxes", "sub_tasks": []},
            ("update_task", "task_id"): {"task_id": "task-1", "title": {"value": "Tax return"}},
            ("delete_task", "id"): {"id": "task-1"},
        }
        for (function, key), parameters in bad.items():
            refused = execute(function, parameters)
            assert refused.returncode == 1, refused.stdout
            assert refused.stderr.startswith(f"Error: ERROR_INVALID_ARGUMENT (1001): Unknown parameter {key!r}"), \
                refused.stderr
        nested = execute("create_task", {"title": "Taxes", "subtasks": [{"titel": "Forms"}]})
        assert "Parameter subtasks[0]: unknown field 'titel' (did you mean title?)" in nested.stderr
        created = execute("create_task", {"title": "Taxes", "subtasks": [{"title": "Forms"}], "due": "2026-04-15"})
        assert created.returncode == 0, created.stderr
        assert json.loads(created.stdout)["due"] == {"year": 2026, "month": 4, "dayOfMonth": 15}
        listed = execute("list_tasks", {"dueBefore": "2026-05-01"})
        assert [t["title"] for t in json.loads(listed.stdout)] == ["Taxes"]
    finally:
        device.terminate()
        device.wait(timeout=EVENT_BOUND)
        shutil.rmtree(data.parent, ignore_errors=True)
