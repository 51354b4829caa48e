"""Entry point of an app process: ``python -I -m sim.zygote.app_main``.

The device starts it with one end of a socketpair; it serves calls from that
socket on its main thread's event loop until the device closes the socket. The
loop itself watches the socket (no reader thread), so a call reaches the app's
code without a thread switch.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Callable

from droid.binder import wire
from droid.content.context import Context, connect
from droid.os.cancellation import CancellationSignal
from droidsim.v1 import app_function_service_pb2 as app_pb2
from sim.responses.loader import load_service_class
from sim.zygote.runtime import AppRuntime, Outcome
from sim.zygote import landlock
from sim.zygote.child_start import move_into
from sim.zygote.specialize import code_folders, specialize
from sim.zygote.wire import FrameSocket

log = logging.getLogger("droidsim.app")


class AppProcessMain:
    def __init__(self, frames: FrameSocket, runtime: AppRuntime, loop: asyncio.AbstractEventLoop) -> None:
        self._frames = frames
        self._runtime = runtime
        self._loop = loop
        self._signals: dict[int, CancellationSignal] = {}

    def start(self) -> None:
        self._loop.add_reader(self._frames.fileno(), self._on_readable)

    def _on_readable(self) -> None:
        """On the main thread: run every call that arrived; stop the loop at EOF."""
        try:
            calls = self._frames.read_available(app_pb2.AppCall)
        except ConnectionError as error:
            log.error("the device sent a bad frame: %s", error)
            calls = None
        if calls is None:
            self._loop.remove_reader(self._frames.fileno())
            self._loop.stop()
            return
        for call in calls:
            self._handle(call)

    def _handle(self, call: app_pb2.AppCall) -> None:
        if call.WhichOneof("body") == "cancel":
            signal = self._signals.get(call.call_id)
            if signal is not None:
                signal.cancel()
            return
        execute = call.execute
        signal = CancellationSignal()
        self._signals[call.call_id] = signal
        self._runtime.execute(
            wire.request_from_proto(execute.request),
            execute.calling_package,
            execute.service_name,
            signal,
            lambda outcome, call_id=call.call_id: self._reply(call_id, outcome),
        )

    def _reply(self, call_id: int, outcome: Outcome) -> None:
        self._signals.pop(call_id, None)
        reply = app_pb2.AppReply(call_id=call_id)
        wire.result_to_proto(outcome, reply.result)
        try:
            self._frames.send(reply)
        except OSError:
            pass  # the device went away; nothing is waiting for this reply


def _context_factory(data_dir: Path | None) -> Callable[[], Context | None]:
    """The app's own binder connection, with the credential in its data folder."""

    def create() -> Context | None:
        address = os.environ.get("DROIDSIM_DEVICE")
        credential_file = data_dir / "credential" if data_dir is not None else None
        if not address or credential_file is None or not credential_file.exists():
            return None
        return connect(address, credential_file.read_text().strip(), data_dir)

    return create


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--app-dir", required=True)
    parser.add_argument("--data-dir", help="the app's own folder: its working folder and HOME once it is the app")
    parser.add_argument("--uid", type=int, help="become this uid before any app code runs")
    parser.add_argument("--confine", action="store_true", help="confine this process with Landlock first")
    args = parser.parse_args()
    app_dir = Path(args.app_dir)
    home = data_dir = Path(args.data_dir) if args.data_dir else None
    own = (app_dir, *([home] if home is not None else []))
    if args.uid is not None:
        reachable = specialize(args.uid, own)
        app_dir, data_dir = reachable[app_dir], reachable.get(home) if home is not None else None
    elif args.confine:
        landlock.confine([*map(Path, code_folders()), app_dir], [home] if home is not None else [])
    if home is not None:
        move_into(home, data_dir)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname).1s %(name)s: %(message)s")

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    frames = FrameSocket(socket.socket(fileno=args.fd))
    runtime = AppRuntime(args.package, app_dir, _context_factory(data_dir), load_service_class)
    app = AppProcessMain(frames, runtime, loop)
    app.start()
    try:
        loop.run_forever()
    finally:
        runtime.shutdown()


if __name__ == "__main__":
    main()
