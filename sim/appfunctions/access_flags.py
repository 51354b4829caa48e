"""Access flags of an (agent, target) pair: what they mean and which updates are legal.

Ported from AppIdAppFunctionAccessPolicy (QPR2): USER flags decide, else OTHER flags, else
PREGRANTED (or, on Android 17, UPGRADE_GRANTED, the grant a system upgrade gives existing pairs:
AppIdAppFunctionAccessUpgrade); see docs/access-control.md for why USER outranks OTHER here.
"""

from __future__ import annotations

from droid.appfunctions.manager import (
    ACCESS_FLAG_MASK_ALL,
    ACCESS_FLAG_MASK_OTHER,
    ACCESS_FLAG_MASK_USER,
    ACCESS_FLAG_OTHER_GRANTED,
    ACCESS_FLAG_PREGRANTED,
    ACCESS_FLAG_UPGRADE_GRANTED,
    ACCESS_FLAG_USER_GRANTED,
)
from droid.appfunctions.access_flag_numbering import refuse_unknown
from droid.os.exceptions import IllegalArgumentException


def is_access_granted(flags: int) -> bool:
    if flags & ACCESS_FLAG_MASK_USER:
        return bool(flags & ACCESS_FLAG_USER_GRANTED)
    if flags & ACCESS_FLAG_MASK_OTHER:
        return bool(flags & ACCESS_FLAG_OTHER_GRANTED)
    return bool(flags & (ACCESS_FLAG_PREGRANTED | ACCESS_FLAG_UPGRADE_GRANTED))


def validate_update(flag_mask: int, flags: int, valid: int = ACCESS_FLAG_MASK_ALL) -> None:
    """The rules of updateAccessFlags, with its messages; ``valid``: the bits the device's
    version has (access_flag_numbering.valid_flags)."""
    refuse_unknown(flags, valid)
    if flags & flag_mask != flags:
        raise IllegalArgumentException(
            f"Flags {flags & ~flag_mask} specified in flags {flags} for updateAppFunctionAccessFlags, "
            f"but is not included in the mask {flag_mask}"
        )
    _validate_pair(flag_mask, flags, ACCESS_FLAG_MASK_USER, "ACCESS_FLAGS_USER")
    _validate_pair(flag_mask, flags, ACCESS_FLAG_MASK_OTHER, "ACCESS_FLAGS_OTHER")


def _validate_pair(flag_mask: int, flags: int, pair: int, prefix: str) -> None:
    """A GRANTED/DENIED pair: never both, and setting one needs both halves in the mask."""
    if flags & pair == pair:
        raise IllegalArgumentException(f"Cannot set both {prefix}_GRANTED and {prefix}_DENIED together")
    if flags & pair and flag_mask & pair != pair:
        raise IllegalArgumentException(
            f"When setting {prefix}_GRANTED/DENIED, the opposing flag must also be in the mask"
        )


def apply_update(old: int, flag_mask: int, flags: int) -> int:
    return (old & ~flag_mask) | (flags & flag_mask)
