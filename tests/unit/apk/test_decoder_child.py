"""APKs are decoded by the verifier zygote's spare decoder (sim/pm/spare_decoder.py): a child
forked before its APK comes, one per APK. One that hangs or dies costs that child alone; it
holds no app folder open, waits under a uid no verification shares, and ends with the zygote."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from sim.apk.errors import ApkError
from sim.conformance.expect import eventually
from sim.device import Device
from sim.pm.code_verifier import CodeVerifier
from sim.zygote.os_user import claim_os_user
from tests.helpers import app_whose_import_runs, running_processes, verifier_zygotes
from tests.unit.apk.conftest import APKS, SHOP

_PF_EXITING = 0x4
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="isolated uids need root (the device drops to them)")
# App code that refuses to load if any other process runs under its uid (a spare it could trace).
ALONE_UNDER_MY_UID = """import os as _os
def _others_of_my_uid():
    found = []
    for _name in _os.listdir("/proc"):
        if _name.isdigit() and int(_name) != _os.getpid():
            try:
                if _os.stat("/proc/" + _name).st_uid == _os.getuid():
                    found.append(_name)
            except OSError:
                pass
    return found
assert not _others_of_my_uid(), f"processes of my uid {_os.getuid()}: {_others_of_my_uid()}"
"""


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    """A folder holding shop.apk as base.apk, and one whose base.apk is a named pipe."""
    works, pipe = tmp_path / "works", tmp_path / "pipe"
    works.mkdir()
    shutil.copy(APKS / "shop.apk", works / "base.apk")
    pipe.mkdir()
    os.mkfifo(pipe / "base.apk")  # opening it for reading would block for ever: nobody writes
    return works, pipe


@pytest.fixture
def verifier():
    verifier = CodeVerifier(timeout=5.0)
    yield verifier
    verifier.close()


def the_spare() -> int:
    """The one child of this process's one verifier zygote that is not being killed: its spare
    decoder, once forked (the spare that decoded the last APK is killed before the answer, and
    reaped after it). Seen twice in a row, 20 ms apart, so that no kill can fall between."""
    [zygote] = verifier_zygotes()
    seen: list[list[int]] = []

    def one_spare_twice() -> bool:
        seen.append([child for child in _children(zygote) if not _dying(child)])
        return len(seen) > 1 and len(seen[-1]) == 1 and seen[-1] == seen[-2]

    eventually("the zygote to fork its spare decoder", one_spare_twice, 30, lambda: f"its children: {seen[-1]}")
    return seen[-1][0]


def _children(pid: int) -> list[int]:
    return [child for child, (ppid, _) in running_processes().items() if ppid == pid]


def _dying(pid: int) -> bool:
    """SIGKILL pending, or exiting (PF_EXITING in /proc/PID/stat's flags, proc(5))."""
    try:
        flags = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[6])
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
    except (FileNotFoundError, ProcessLookupError):
        return True
    pending = 0
    for line in status:
        if line.startswith(("SigPnd:", "ShdPnd:")):
            pending |= int(line.split()[1], 16)
    return bool(flags & _PF_EXITING or pending & 1 << (signal.SIGKILL - 1))


def gone(pid: int) -> None:
    eventually(f"process {pid} to end", lambda: pid not in running_processes(), 30, lambda: f"{pid} still runs")


def test_a_hanging_decode_is_ended_and_the_verifier_keeps_working(folders):
    works, _ = folders
    verifier = CodeVerifier(timeout=1.0)
    try:
        assert verifier.decode_apk(works, "base.apk", 37).package == SHOP
        os.kill(the_spare(), signal.SIGSTOP)  # the next APK's decoder hangs
        with pytest.raises(ApkError) as refused:
            verifier.decode_apk(works, "base.apk", 37)
        assert refused.value.reason == "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION"
        assert refused.value.detail == "decoding the APK killed the decoder's process (or took too long): its reader does not survive it"
        assert verifier.decode_apk(works, "base.apk", 37).package == SHOP
    finally:
        verifier.close()


def test_a_spare_found_dead_is_replaced_and_the_apk_decodes(verifier, folders):
    works, _ = folders
    assert verifier.decode_apk(works, "base.apk", 37).package == SHOP
    zygotes, spare = verifier_zygotes(), the_spare()
    os.kill(spare, signal.SIGKILL)
    gone(spare)
    assert verifier.decode_apk(works, "base.apk", 37).package == SHOP
    assert verifier_zygotes() == zygotes


def test_each_apk_is_decoded_by_a_process_no_earlier_decode_reached(verifier, folders):
    works, _ = folders
    verifier.decode_apk(works, "base.apk", 37)
    first = the_spare()
    verifier.decode_apk(works, "base.apk", 37)
    gone(first)
    assert the_spare() != first


def test_the_spare_holds_nothing_open_but_its_pipes_and_may_start_no_process(verifier, folders):
    works, _ = folders
    verifier.decode_apk(works, "base.apk", 37)
    spare = the_spare()
    fd_dir = Path(f"/proc/{spare}/fd")
    targets = sorted(os.readlink(fd_dir / fd) for fd in os.listdir(fd_dir))
    assert [t for t in targets if not t.startswith("pipe:")] == ["/dev/null"] * 3, targets
    assert len(targets) == 5  # stdin, stdout, stderr; its request pipe and its answer pipe
    [limit] = [line.split()[2:4] for line in Path(f"/proc/{spare}/limits").read_text().splitlines()
               if line.startswith("Max processes")]
    assert limit == ["0", "0"]  # so killing it ends all it ran: nothing of its uid to sweep


def test_a_pipe_named_like_the_apk_is_refused_without_blocking_the_verifier(verifier, folders):
    works, pipe = folders
    with pytest.raises(ApkError) as refused:
        verifier.decode_apk(pipe, "base.apk", 37)
    assert (refused.value.reason, refused.value.detail) == ("INSTALL_FAILED_INVALID_APK",
                                                           f"{pipe / 'base.apk'} is not a regular file")
    assert verifier.decode_apk(works, "base.apk", 37).package == SHOP


def test_the_spare_ends_with_its_zygote(verifier, folders):
    works, _ = folders
    verifier.decode_apk(works, "base.apk", 37)
    spare = the_spare()
    [zygote] = verifier_zygotes()
    os.kill(zygote, signal.SIGKILL)
    gone(spare)


@pytest.mark.parametrize("shutdown", ["Device.shutdown", "zygote killed"])
def test_no_process_of_the_spare_outlives_the_device(tmp_path, shutdown):
    device = Device(tmp_path / "data", isolated_apps=False)
    try:
        device.install(APKS / "shop.apk")
        spare = the_spare()
        uid = running_processes()[spare][1]
        if shutdown == "zygote killed":
            os.kill(verifier_zygotes()[0], signal.SIGKILL)
    finally:
        device.shutdown()
    gone(spare)
    if os.geteuid() == 0:  # the spare ran under an isolated uid of its own
        assert uid != 0
        eventually(f"every process of uid {uid} to end", lambda: uid not in {u for _, u in running_processes().values()},
                   30, lambda: f"running: {[p for p, (_, u) in running_processes().items() if u == uid]}")


@needs_root
@pytest.mark.parametrize("uids", [1, 2])
def test_no_verification_runs_app_code_under_the_uid_a_spare_waits_under(tmp_path, uids):
    """With two uids the device gives a verification the other one, and the spare waits on;
    with one, the verification's uid is the spare's: the zygote ends the spare first."""
    user = claim_os_user()
    isolated = user.isolated_uids()
    try:
        with Device(tmp_path / "data", isolated_apps=False,
                    verifier=CodeVerifier(range(isolated[0], isolated[0] + uids))) as device:
            device.install(APKS / "shop.apk")
            spare = the_spare()
            device.install(app_whose_import_runs(tmp_path, "alone", ALONE_UNDER_MY_UID))
            assert device.registry.get("com.example.alone") is not None
            if uids == 2:
                assert the_spare() == spare
            else:
                gone(spare)
            device.install(APKS / "shop.apk")  # the spare ended is forked again
            assert device.registry.get(SHOP) is not None
    finally:
        user.release()
