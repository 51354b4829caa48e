"""A droidsim command acting as a package reads that package's credential from the app's own
folder, which the app may change (issue 43: F03a-d): a link to another app's credential or the
shell's, /dev/zero, a FIFO, a copy of another's secret. The command, run as root as the
documented container set-up runs it, refuses each at once, saying why, and acts as no one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import HELPER_PACKAGE
from tests.security.conftest import MALICIOUS, malicious_device

BOUND = 60  # seconds; a read that blocks (a FIFO) or never ends (/dev/zero) fails here instead


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    folder = tmp_path_factory.mktemp("credentials")
    folder.chmod(0o755)
    with malicious_device(folder) as device:
        yield device


@pytest.fixture
def credential(device):
    """The malicious app's credential file, put back as it was after the test."""
    path = device.data_dir / "data" / MALICIOUS / "credential"
    saved = path.read_bytes()
    yield path
    path.unlink()
    path.write_bytes(saved)
    shutil.chown(path, *(lambda s: (s.st_uid, s.st_gid))(path.parent.stat()))
    path.chmod(0o600)


def droidsim(device, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, timeout=BOUND,
                          env={**os.environ, "DROIDSIM_DEVICE": str(device.data_dir)})


def plant(device, credential: Path, what: str) -> None:
    """What the app makes of its own credential."""
    credential.unlink()
    if what == "link to another app's":
        credential.symlink_to(device.data_dir / "data" / HELPER_PACKAGE / "credential")
    elif what == "link to the shell's":
        credential.symlink_to(device.shell_credential_file)
    elif what == "link to /dev/zero":
        credential.symlink_to("/dev/zero")
    elif what == "FIFO":
        os.mkfifo(credential)
    else:  # a copy of another app's secret (the app could not read it as root isolates it; here it has it)
        credential.write_bytes((device.data_dir / "data" / HELPER_PACKAGE / "credential").read_bytes())


LINK = "credential is a symbolic link; droidsim never follows a link there"
# What the app made of its credential: the refusal, and the door the red team took with it
# (besides `droidsim --as PKG shell`, which every case tries).
CASES = {
    "link to another app's": (LINK, ["mcp", "--as", MALICIOUS]),
    "link to the shell's": (LINK, None),
    "link to /dev/zero": (LINK, None),
    "FIFO": ("credential is not a regular file (a FIFO); droidsim refuses it there", ["agent", "--as", MALICIOUS, "hi"]),
    "copy of another app's": (f"is {HELPER_PACKAGE}'s, not {MALICIOUS}'s, as the device says: refusing to act as "
                              "anyone else", ["agent", "--as", MALICIOUS, "hi"]),
}


@pytest.mark.parametrize("what", list(CASES))
def test_a_credential_the_app_changed_is_refused_and_no_one_is_acted_as(device, credential, what):
    refusal, door = CASES[what]
    plant(device, credential, what)
    # The shell's own verb, which an app may not run: it would make the app privileged.
    result = droidsim(device, "--as", MALICIOUS, "shell", "pm", "add-privileged-allowlist", MALICIOUS)
    assert result.returncode == 1 and refusal in result.stderr, result.stderr
    assert f"{credential}" in result.stderr, "the message names the file"
    assert MALICIOUS not in device.permissions.privileged_allowlist()
    if door is not None:
        result = droidsim(device, *door)
        assert result.returncode == 1 and refusal in result.stderr, (door, result.stderr)
