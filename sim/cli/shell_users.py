"""``--user`` on the ``cmd app_function`` verbs, read as UserHandle.parseUserArg reads it.

Copied adb scripts pass ``--user 0`` (or ``current``) everywhere; droidsim has the system user
only, so any other user is refused, naming the one there is.
"""

from __future__ import annotations

import click

SYSTEM_USER = 0
_CURRENT = ("current", "cur")


def _check_user(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None or value in _CURRENT:
        return
    try:
        user = int(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a user id (a number, or current)") from None
    if user != SYSTEM_USER:
        raise click.BadParameter(f"user {user} does not exist: this device has user {SYSTEM_USER} only")


def user_option(name: str = "--user", what: str = "the user"):
    """An option that accepts the device's one user and changes nothing."""
    return click.option(name, callback=_check_user, expose_value=False, metavar="USER_ID",
                        help=f"{what[0].upper() + what[1:]}: 0 or current (the device's only user).")
