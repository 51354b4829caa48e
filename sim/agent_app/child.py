"""An agent app's agent process, forked by its keeper (sim/agent_app/keeper.py, started by
launch.py), which outlives it and ends whatever it starts.

It becomes the app first (sim/zygote/specialize.py, or Landlock), moves into the app's folder,
reaches the device as the app, and only then loads the app's code: the agent its manifest
declares (declaration.py), or none. ``--console`` runs droidsim agent's console on the
terminal it was given (the stock agent where the app declares none); ``--tools-fd N`` serves
the agent's tools to the MCP bridge on that socket (tool_server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import signal
import socket
import sys
from pathlib import Path

from droid.content.context import Context, connect
from droid.content.device_address import CredentialNotFoundError, read_credential_file
from sim.zygote import landlock
from sim.zygote.child_start import move_into
from sim.zygote.specialize import code_folders, specialize

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def main(argv: list[str], keeper: int) -> None:
    parser = argparse.ArgumentParser(prog="sim.agent_app.child")
    parser.add_argument("--package", required=True)
    parser.add_argument("--home", required=True, help="the app's own folder")
    parser.add_argument("--code-dir", required=True, help="the device's installed copy of the app's code")
    parser.add_argument("--config-fd", type=int, required=True)
    parser.add_argument("--uid", type=int, help="become this uid before anything of the app's is read")
    parser.add_argument("--confine", action="store_true", help="confine this process with Landlock first")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--console", action="store_true")
    mode.add_argument("--tools-fd", type=int)
    args = parser.parse_args(argv)
    with os.fdopen(args.config_fd) as pipe:
        config = json.load(pipe)
    home = Path(args.home)
    folder, code_dir = _become_the_app(args, home, Path(args.code_dir))
    _end_with_the_keeper(keeper)
    move_into(home, folder)
    context = _connect(folder, args.package)
    if args.console:
        sys.exit(_console(context, code_dir, config))
    asyncio.run(_serve_tools(socket.socket(fileno=args.tools_fd), context, code_dir))


def _become_the_app(args: argparse.Namespace, home: Path, code_dir: Path) -> tuple[Path, Path]:
    """The names this process reaches the app's folder and code by, once it is the app."""
    if args.uid is not None:
        reachable = specialize(args.uid, (code_dir, home))
        home, code_dir = reachable[home], reachable[code_dir]
    if args.confine and not landlock.confine([*map(Path, code_folders()), code_dir], [home]):
        print(f"warning: this kernel has no Landlock: {args.package}'s agent runs as uid {os.geteuid()}, "
              "unconfined, and can read whatever that user can (docs/security.md)", file=sys.stderr)
    return home, code_dir


def _end_with_the_keeper(keeper: int) -> None:
    """Killed with its keeper, should the keeper itself be killed (a new uid clears the kernel's
    parent-death signal, so it is set after the drop; SIGKILL, which the app cannot catch)."""
    if _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != keeper:
        sys.exit(f"the keeper of this agent (pid {keeper}) has ended")


def _connect(data_dir: Path, package: str) -> Context:
    """The app's own connection: its credential, on the address it was given (the app socket
    where the device names apps by their uids)."""
    try:
        credential = read_credential_file(data_dir / "credential", package)
    except CredentialNotFoundError as error:
        sys.exit(f"error: {error}")
    context = connect(os.environ["DROIDSIM_DEVICE"], credential, data_dir)
    if context.package_name != package:
        sys.exit(f"error: the device names this process {context.package_name}, not {package}")
    return context


def _console(context: Context, code_dir: Path, config: dict) -> int:
    from droid.agent.console import run_agent_console
    from sim.agent_app.declaration import AgentDeclarationError, build_app_agent

    if "model_relay_fd" in config:  # the command holds the key and makes the calls (model_relay.py)
        from sim.agent_app.model_relay import RelayTransport

        config["model_options"] = {**(config.get("model_options") or {}),
                                   "transport": RelayTransport(config.pop("model_relay_fd"))}
    try:
        agent = build_app_agent(code_dir, context)
    except AgentDeclarationError as error:
        if config.get("json_output"):
            print(json.dumps({"type": "error", "message": str(error)}), flush=True)
        print(f"error: {error}", file=sys.stderr)
        return 1
    return run_agent_console(context, config.pop("prompt", None), agent=agent, **config)


async def _serve_tools(connection: socket.socket, context: Context, code_dir: Path) -> None:
    from sim.agent_app.declaration import AgentDeclarationError, build_app_agent
    from sim.agent_app.tool_server import refuse, serve_tools

    try:
        agent = build_app_agent(code_dir, context)
    except AgentDeclarationError as error:
        await refuse(connection, str(error))
        return
    await serve_tools(connection, context, agent)

