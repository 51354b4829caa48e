"""The ACCESS_FLAG_* numbers on the binder wire: those of the device's Android version.

QPR2 (``--sdk 36``) numbers PREGRANTED 1, OTHER_GRANTED 2, OTHER_DENIED 4, USER_GRANTED 8,
USER_DENIED 16; Android 17 (``--sdk 37``) PREGRANTED 1, UPGRADE_GRANTED 2, USER_GRANTED 4,
USER_DENIED 8, OTHER_GRANTED 16, OTHER_DENIED 32 (AppFunctionManager.java, api/system-current.txt).
A gRPC client of another language sends the numbers its SDK compiled in, so the device reads
and writes flags in its own version's numbering, and Python callers, whose constants are
droidsim's (droid.appfunctions.manager), are translated at both ends.
"""

from __future__ import annotations

from droid.appfunctions import manager as m
from droid.os.exceptions import IllegalArgumentException

# droidsim's bit -> the wire bit, by SDK.
_QPR2 = {
    m.ACCESS_FLAG_PREGRANTED: 1, m.ACCESS_FLAG_OTHER_GRANTED: 2, m.ACCESS_FLAG_OTHER_DENIED: 4,
    m.ACCESS_FLAG_USER_GRANTED: 8, m.ACCESS_FLAG_USER_DENIED: 16,
}
_ANDROID_17 = {
    m.ACCESS_FLAG_PREGRANTED: 1, m.ACCESS_FLAG_UPGRADE_GRANTED: 2, m.ACCESS_FLAG_USER_GRANTED: 4,
    m.ACCESS_FLAG_USER_DENIED: 8, m.ACCESS_FLAG_OTHER_GRANTED: 16, m.ACCESS_FLAG_OTHER_DENIED: 32,
}
_NUMBERING = {36: _QPR2, 37: _ANDROID_17}
_NEWEST = max(_NUMBERING)


def _numbering(sdk_int: int) -> dict[int, int]:
    return _NUMBERING.get(sdk_int, _NUMBERING[_NEWEST] if sdk_int > _NEWEST else _QPR2)


def valid_flags(sdk_int: int) -> int:
    """droidsim's bits that exist on ``sdk_int`` (QPR2 has no UPGRADE_GRANTED)."""
    return sum(_numbering(sdk_int))


def refuse_unknown(flags: int, valid: int) -> None:
    """updateAccessFlags' refusal of a bit outside ``valid``, with its message."""
    if flags & ~valid:
        raise IllegalArgumentException(f"Invalid flag(s) {flags & ~valid} specified in call to updateAppFunctionAccessFlags")


def to_wire(flags: int, sdk_int: int) -> int:
    """droidsim's ``flags`` in ``sdk_int``'s numbering; a bit that version lacks is dropped."""
    return sum(wire for bit, wire in _numbering(sdk_int).items() if flags & bit)


def from_wire(flags: int, sdk_int: int, *, strict: bool) -> int:
    """``sdk_int``'s ``flags`` in droidsim's numbering. ``strict``: a bit that version does not
    define is refused as updateAccessFlags refuses it (a mask drops it instead)."""
    numbering = _numbering(sdk_int)
    if strict:
        refuse_unknown(flags, sum(numbering.values()))
    return sum(bit for bit, wire in numbering.items() if flags & wire)
