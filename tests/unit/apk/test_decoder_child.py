"""APKs are decoded by the verifier zygote's spare decoders (sim/pm/spare_decoder.py): children
forked before their APK comes, one per APK, whose pipes the device holds (sim/pm/spare_channel.py).
One that hangs or dies costs that child alone; it holds no app folder open, waits under a uid no
verification shares, and ends with the zygote; nothing the device starts inherits its pipes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sim.apk.errors import ApkError
from sim.apk.folder import read_apk
from sim.conformance.expect import eventually
from sim.device import Device
from sim.pm.code_verifier import SPARES, CodeVerifier
from sim.pm.spare_channel import hand_over, take_over
from sim.zygote.os_user import claim_os_user
from tests.helpers import EVENT_BOUND, HUNG_AFTER, REPO, app_whose_import_runs, running_processes, verifier_zygotes
from tests.unit.apk.conftest import APKS, SHOP

pytestmark = pytest.mark.usefixtures("own_zygotes")

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


SHOP_APK = (APKS / "shop.apk").read_bytes()


@pytest.fixture
def verifier():
    verifier = CodeVerifier(timeout=5.0)
    yield verifier
    verifier.close()


def the_spares() -> list[int]:
    """The children of this process's one verifier zygote that are not being killed: its SPARES
    spare decoders once forked, oldest first (the next APK's; a used spare is killed by the
    device and reaped later). Seen twice in a row, so that no kill can fall between."""
    [zygote] = verifier_zygotes()
    seen: list[list[int]] = []

    def all_spares_twice() -> bool:
        seen.append(sorted((child for child in _children(zygote) if not _dying(child)), key=_started))
        return len(seen) > 1 and len(seen[-1]) == SPARES and seen[-1] == seen[-2]

    eventually(f"the zygote to fork {SPARES} spare decoders", all_spares_twice, EVENT_BOUND, lambda: f"its children: {seen[-1]}")
    return seen[-1]


def _started(pid: int) -> int:
    """When ``pid`` started, in clock ticks since boot (proc(5), /proc/PID/stat field 22)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])


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
    eventually(f"process {pid} to end", lambda: pid not in running_processes(), EVENT_BOUND, lambda: f"{pid} still runs")


def test_a_hanging_decode_is_ended_and_the_verifier_keeps_working():
    verifier = CodeVerifier(timeout=HUNG_AFTER)
    try:
        assert verifier.decode_apk(SHOP_APK, "base.apk", 37).package == SHOP
        os.kill(the_spares()[0], signal.SIGSTOP)  # the next APK's decoder hangs
        with pytest.raises(ApkError) as refused:
            verifier.decode_apk(SHOP_APK, "base.apk", 37)
        assert refused.value.reason == "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION"
        assert refused.value.detail == f"decoding base.apk took longer than {HUNG_AFTER:g} s, the decoder's bound"
        assert verifier.decode_apk(SHOP_APK, "base.apk", 37).package == SHOP
    finally:
        verifier.close()


def test_a_spare_found_dead_is_replaced_and_the_apk_decodes(verifier):
    assert verifier.decode_apk(SHOP_APK, "base.apk", 37).package == SHOP
    zygotes, spares = verifier_zygotes(), the_spares()
    for spare in spares:
        os.kill(spare, signal.SIGKILL)
        gone(spare)
    assert verifier.decode_apk(SHOP_APK, "base.apk", 37).package == SHOP
    assert verifier_zygotes() == zygotes


def test_each_apk_is_decoded_by_a_process_no_earlier_decode_reached(verifier):
    verifier.decode_apk(SHOP_APK, "base.apk", 37)
    first = the_spares()[0]
    verifier.decode_apk(SHOP_APK, "base.apk", 37)
    gone(first)
    assert first not in the_spares()


def test_the_spare_holds_nothing_open_but_its_pipes_and_may_start_no_process(verifier):
    verifier.decode_apk(SHOP_APK, "base.apk", 37)
    spare = the_spares()[0]
    fd_dir = Path(f"/proc/{spare}/fd")
    targets = sorted(os.readlink(fd_dir / fd) for fd in os.listdir(fd_dir))
    # stdin, stdout, stderr; its own size (read for its memory bound, opened before it was confined)
    assert [t for t in targets if not t.startswith("pipe:")] == ["/dev/null"] * 3 + [f"/proc/{spare}/statm"], targets
    assert len(targets) == 6  # and its request pipe and its answer pipe
    [limit] = [line.split()[2:4] for line in Path(f"/proc/{spare}/limits").read_text().splitlines()
               if line.startswith("Max processes")]
    assert limit == ["0", "0"]  # so killing it ends all it ran: nothing of its uid to sweep


def test_a_pipe_named_like_the_apk_is_refused_without_blocking(tmp_path):
    """The device reads an APK once, before the decoder gets its bytes: a named pipe in its
    place would block that read for ever (nobody writes to it)."""
    os.mkfifo(tmp_path / "app.apk")
    with pytest.raises(ApkError) as refused:
        read_apk(tmp_path / "app.apk")
    assert (refused.value.reason, refused.value.detail) == ("INSTALL_FAILED_INVALID_APK",
                                                           f"{tmp_path / 'app.apk'} is not a regular file")


def test_the_spare_ends_with_its_zygote(verifier):
    verifier.decode_apk(SHOP_APK, "base.apk", 37)
    spares = the_spares()
    [zygote] = verifier_zygotes()
    os.kill(zygote, signal.SIGKILL)
    for spare in spares:
        gone(spare)


@pytest.mark.parametrize("shutdown", ["Device.shutdown", "zygote killed"])
def test_no_process_of_the_spare_outlives_the_device(tmp_path, shutdown):
    device = Device(tmp_path / "data", isolated_apps=False)
    try:
        device.install(APKS / "shop.apk")
        spares = the_spares()
        uids = {running_processes()[spare][1] for spare in spares}
        if shutdown == "zygote killed":
            os.kill(verifier_zygotes()[0], signal.SIGKILL)
    finally:
        device.shutdown()
    for spare in spares:
        gone(spare)
    if os.geteuid() == 0:  # each spare ran under an isolated uid of its own
        assert 0 not in uids and len(uids) == SPARES
        eventually(f"every process of uids {uids} to end", lambda: not uids & {u for _, u in running_processes().values()},
                   30, lambda: f"running: {[p for p, (_, u) in running_processes().items() if u in uids]}")


@needs_root
@pytest.mark.parametrize("uids", [1, SPARES + 1])
def test_no_verification_runs_app_code_under_the_uid_a_spare_waits_under(tmp_path, uids):
    """With a uid more than the spares, the device gives a verification the one no spare waits
    under, and the spares wait on; with one, the verification's uid is theirs: the zygote ends
    them first."""
    user = claim_os_user()
    isolated = user.isolated_uids()
    try:
        with Device(tmp_path / "data", isolated_apps=False,
                    verifier=CodeVerifier(range(isolated[0], isolated[0] + uids))) as device:
            device.install(APKS / "shop.apk")
            spares = the_spares()
            device.install(app_whose_import_runs(tmp_path, "alone", ALONE_UNDER_MY_UID))
            assert device.registry.get("com.example.alone") is not None
            if uids > SPARES:
                assert the_spares() == spares
            else:
                for spare in spares:
                    gone(spare)
            device.install(APKS / "shop.apk")  # the spares ended are forked again
            assert device.registry.get(SHOP) is not None
    finally:
        user.release()



def test_nothing_the_device_starts_inherits_its_hold_on_a_spare():
    """The pipe ends and the pidfd the zygote hands the device are close-on-exec: an app process
    the device starts could otherwise write to a spare, or read the next APK's answer."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    request_read, request_write = os.pipe()
    answer_read, answer_write = os.pipe()
    stand_in = subprocess.Popen(["sleep", "60"])  # a process to hand over, as a spare is one
    try:
        hand_over(theirs, stand_in.pid, None, request_write, answer_read)
        spare = take_over(ours, 5.0)
        assert spare is not None and spare.pid == stand_in.pid and spare.alive()
        held = {os.readlink(f"/proc/self/fd/{fd}") for fd in (spare.pidfd, spare.request_fd, spare.answer_fd)}
        assert "anon_inode:[pidfd]" in held
        child = subprocess.run(["ls", "-l", "/proc/self/fd/"], close_fds=False, capture_output=True, text=True, check=True)
        assert not held & {line.rsplit(" ", 1)[-1] for line in child.stdout.splitlines()}, child.stdout
        spare.end()  # kills what it holds
        assert stand_in.wait(timeout=EVENT_BOUND) == -signal.SIGKILL  # killed by end()
    finally:
        stand_in.kill()
        stand_in.wait()
        for fd in (request_read, request_write, answer_read, answer_write):
            os.close(fd)
        ours.close()
        theirs.close()


def bounded_decode(decode: str, **bounds: int) -> dict:
    """What a process bounded as the spare bounds itself (``bound_decoding``, its constants
    set to ``bounds``) answers for an APK whose decode runs ``decode`` (Python source of a
    function body): the decode is forced past a bound; the bounds and answer are the spare's."""
    probe = ("import json, sys\nimport sim.apk.decode\nimport sim.pm.spare_decoder as spare\n"
             f"def decode(data, name, sdk):\n    {decode}\n"
             "sim.apk.decode.decode_apk = decode\n"
             + "".join(f"spare.{name} = {value}\n" for name, value in bounds.items())
             + "spare.bound_decoding()\nprint(json.dumps(spare.apk_answer(b'', 'app.apk', 37)))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_decode_past_its_memory_bound_is_refused_naming_it():
    assert bounded_decode("return bytearray(1 << 30)") == {"refused": [
        "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", "decoding app.apk needed more than 512 MiB of memory, the decoder's bound"]}


def test_a_decode_past_its_cpu_bound_is_refused_naming_it():
    """The bound set to 1 s here (10 s in the spare), so that the test costs a second of CPU."""
    assert bounded_decode("while True: pass", DECODE_CPU_SECONDS=1) == {"refused": [
        "INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", "decoding app.apk used more than 1 s of CPU, the decoder's bound"]}
