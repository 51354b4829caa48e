"""Attaching ``droidsim eval --ray`` to Ray: a local one started for the run, or a running cluster.

A local Ray starts only with its token (its servers listen on every interface). A
cluster's address is tried with a plain connection first, since Ray itself retries one
that nothing answers at for minutes; a refusal says what Ray said, and, when this process
sends no token, how to send the one the cluster checks.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

CONNECT_SECONDS = 10  # for a cluster's head to accept a connection


class UnprotectedRay(Exception):
    """A local Ray would start without its token, open to every process and machine."""


class RayUnreachable(Exception):
    """The Ray cluster named by --ray or RAY_ADDRESS cannot be attached to."""


def _require_ray_token() -> None:
    """Ray's servers listen on every interface, whatever the node address (Ray 2.60 binds its
    gRPC servers so, with no option to change it), so its token (on by default since Ray
    2.5x) is what keeps other processes, installed apps included, and other machines out of
    the local Ray the eval starts, and the token file is made its user's alone."""
    mode = os.environ.get("RAY_AUTH_MODE", "token")
    if mode == "disabled":
        raise UnprotectedRay(f"RAY_AUTH_MODE={mode}: the local Ray listens on every interface, and without its "
                             "token anyone who reaches it runs code as you; unset RAY_AUTH_MODE (or set it to token)")


def _private_ray_token() -> None:
    token = Path.home() / ".ray" / "auth_token"  # where Ray keeps the token it made
    try:
        if token.stat().st_uid == os.geteuid():
            token.chmod(0o600)
    except FileNotFoundError:
        pass


def connect(ray: Any, address: str | None) -> None:
    """A local Ray started for the run (``address`` None or ``local``), else the cluster at
    ``address`` (``HOST:PORT`` of a head started with ``ray start --head``, or ``auto``)."""
    options = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    if address in (None, "local"):
        _require_ray_token()
        ray.init(address="local", **options)
        _private_ray_token()
        return
    _check_answers(address)
    try:
        ray.init(address=address, **options)
    except Exception as error:  # noqa: BLE001 - Ray's ConnectionError, AuthenticationError...: said with the fix
        hint = ""
        if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":  # Ray sends no token without it
            hint = ("; a cluster that checks tokens refuses a driver that sends none: set RAY_AUTH_MODE=token, "
                    "with the cluster's token in ~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN")
        raise RayUnreachable(f"cannot attach to the Ray cluster at {address}: {type(error).__name__}: "
                             f"{first_line(error)}{hint}") from None


def _check_answers(address: str) -> None:
    """A head's HOST:PORT that nothing answers at is refused at once: Ray itself retries for
    minutes before it gives up."""
    host, _, port = address.rpartition(":")
    if "://" in address or not port.isdigit():
        return  # auto, ray://: Ray's to resolve
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise RayUnreachable(f"nothing answers at {address} ({error.strerror or error}): is the cluster's head "
                             f"running there (ray start --head --port={port})?") from None


def cluster_nodes(ray: Any) -> list[dict[str, Any]]:
    """The cluster's live nodes: id, address, CPUs."""
    return [{"node": n["NodeID"], "address": n["NodeManagerAddress"], "cpus": n["Resources"].get("CPU", 0)}
            for n in ray.nodes() if n["Alive"]]


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [""])[0]
