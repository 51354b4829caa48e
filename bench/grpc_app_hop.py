"""A bench-only prototype of the other way to build the device <-> app hop: gRPC.

DESIGN.md leaves the internal hop open ("gRPC or a lighter framing over a
socketpair; measure both"). This is the strongest gRPC version we could build:
the app process serves ``droidsim.v1.AppFunctionService`` with ``grpc.aio`` on
its own main loop, so a call reaches the app's code with no extra thread
switch, exactly as the shipped framed hop (sim.zygote.app_main) does. Both
sides do the same conversions and run the same ``AppRuntime``; only the
transport differs. ``python -m bench.grpc_app_hop`` is the app side.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
from pathlib import Path
from typing import Callable

from bench.child import ChildProcess, announce_ready, socket_path, wait_for_parent
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.binder import wire
from droid.binder.channel import CHANNEL_OPTIONS, open_channel
from droidsim.v1 import app_function_service_pb2 as app_pb2
from droidsim.v1 import app_function_service_pb2_grpc as app_grpc


class GrpcAppHop:
    """The device side: one app process behind a gRPC stub."""

    def __init__(self, workdir: Path, package_name: str, app_dir: Path) -> None:
        listen = f"unix:{socket_path(workdir, 'app-grpc.sock')}"
        self.app = ChildProcess("bench.grpc_app_hop", "--listen", listen, "--package", package_name,
                                "--app-dir", str(app_dir))
        self._channel = open_channel(listen)
        self._stub = app_grpc.AppFunctionServiceStub(self._channel)

    def execute_call(self, request: ExecuteAppFunctionRequest, calling_package: str,
                     service_name: str) -> Callable[[], object]:
        stub = self._stub

        def call() -> object:
            message = app_pb2.ExecuteFunctionCall(calling_package=calling_package, service_name=service_name)
            message.request.CopyFrom(wire.request_to_proto(request))
            return wire.result_from_proto(stub.ExecuteFunction(message))

        return call

    def close(self) -> None:
        self._channel.close()
        self.app.stop()


def _servicer(runtime, loop: asyncio.AbstractEventLoop):
    from droid.os.cancellation import CancellationSignal

    main_thread = threading.get_ident()

    class AppFunctionServicer(app_grpc.AppFunctionServiceServicer):
        async def ExecuteFunction(self, call, context):  # noqa: N802 - gRPC's name
            outcome = loop.create_future()

            def deliver(result) -> None:  # any thread; the runtime calls it once
                if threading.get_ident() == main_thread:
                    outcome.set_result(result)
                else:
                    loop.call_soon_threadsafe(outcome.set_result, result)

            runtime.execute(wire.request_from_proto(call.request), call.calling_package,
                            call.service_name, CancellationSignal(), deliver)
            return wire.result_to_proto(await outcome)

    return AppFunctionServicer()


async def _serve(listen: str, package: str, app_dir: Path) -> None:
    import grpc

    from droid.appfunctions.loader import load_app_service_class
    from sim.zygote.runtime import AppRuntime

    runtime = AppRuntime(package, app_dir, lambda: None, load_app_service_class)
    server = grpc.aio.server(options=CHANNEL_OPTIONS)
    app_grpc.add_AppFunctionServiceServicer_to_server(_servicer(runtime, asyncio.get_running_loop()), server)
    if server.add_insecure_port(listen) == 0:
        raise OSError(f"cannot listen on {listen}")
    await server.start()
    announce_ready()
    await asyncio.to_thread(wait_for_parent)
    await server.stop(0)
    runtime.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--app-dir", required=True, type=Path)
    args = parser.parse_args()
    asyncio.run(_serve(args.listen, args.package, args.app_dir))


if __name__ == "__main__":
    main()
