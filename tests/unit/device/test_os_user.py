"""Which OS user (uid range) a device claims: its own from before where free, else the one
claimed least recently, so a device that restarts finds its user, and its apps their uids."""

from __future__ import annotations

import os
import time

import pytest

from sim.zygote import os_user
from sim.zygote.os_user import claim_os_user


@pytest.fixture(autouse=True)
def lock_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(os_user, "LOCK_DIR", tmp_path / "users")
    monkeypatch.setattr(os_user, "MAX_USERS", 3)


def claimed_at(user, seconds_ago):
    lock = os_user.LOCK_DIR / f"user-{user}.lock"
    then = time.time() - seconds_ago
    os.utime(lock, (then, then))


def test_a_device_gets_the_user_it_asks_for_when_no_one_holds_it():
    first = claim_os_user()
    assert first.user_id == 0
    first.release()
    assert claim_os_user(2).user_id == 2


def test_a_device_that_asks_for_a_held_user_gets_another():
    held = claim_os_user(1)
    assert claim_os_user(1).user_id != 1
    held.release()


def test_without_a_preference_a_device_takes_the_user_claimed_least_recently():
    for user in range(3):
        claim_os_user(user).release()
    claimed_at(0, 10)
    claimed_at(1, 30)
    claimed_at(2, 20)
    assert claim_os_user().user_id == 1


def test_a_user_never_claimed_goes_first():
    claim_os_user(0).release()
    assert claim_os_user().user_id == 1


def test_when_every_user_is_held_the_error_says_so():
    held = [claim_os_user() for _ in range(3)]
    assert sorted(user.user_id for user in held) == [0, 1, 2]
    with pytest.raises(OSError, match="3 devices already run as root on this machine: no user is free"):
        claim_os_user()


def test_a_lock_folder_someone_else_can_enter_is_refused():
    os_user.LOCK_DIR.mkdir(mode=0o755)
    os_user.LOCK_DIR.chmod(0o755)
    with pytest.raises(PermissionError, match="must belong to uid .* with mode 0700: someone else made it"):
        claim_os_user()
