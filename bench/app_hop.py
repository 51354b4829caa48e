"""The device <-> app hop alone: the shipped framing against the gRPC prototype.

DESIGN.md leaves the internal hop open (gRPC, or lighter framing over a
socketpair) and asks for both to be measured. This process plays the device:
it calls one generated app through ``ProcessAppHost`` (length-prefixed protobuf
over a socketpair, what the device ships) and through ``GrpcAppHop``
(bench.grpc_app_hop), alternately, with a raw Unix-socket round trip as the floor.
"""

from __future__ import annotations

from bench import appgen
from bench.grpc_app_hop import GrpcAppHop
from bench.report import Report, Row
from bench.stats import Summary
from bench.timing import interleaved
from bench.transport import BareTransports
from bench.workspace import Workspace
from droid.binder import wire
from droid.os.binder import SHELL_PACKAGE

CALLER = SHELL_PACKAGE


def run(report: Report, workspace: Workspace, transports: BareTransports, *, rounds: int, per_round: int) -> None:
    from droid.os.cancellation import CancellationSignal
    from sim.zygote.hosts import ProcessAppHost

    package = appgen.package_name(0)
    app_dir = workspace.apps / package
    service = f"{package}.{appgen.SERVICE_CLASS}"
    request, expected = appgen.sum_request(package)
    framed_host = ProcessAppHost(package, app_dir, {}, cancellation_timeout=5.0)
    grpc_hop = GrpcAppHop(workspace.root, package, app_dir)
    try:
        framed = lambda: framed_host.execute(request, CALLER, service, CancellationSignal())  # noqa: E731
        grpc_call = grpc_hop.execute_call(request, CALLER, service)
        appgen.check_sum(framed(), expected)
        appgen.check_sum(grpc_call(), expected)
        raw = transports.raw_round_trip(wire.request_to_proto(request).SerializeToString())
        samples = interleaved({"raw": raw, "framed": framed, "grpc": grpc_call},
                              warmup=per_round, rounds=rounds, per_round=per_round)
    finally:
        framed_host.stop()
        grpc_hop.close()
    baseline = report.baseline("raw socket round trip p50", Summary.of(samples["raw"]).p50, "ns")
    for name, figure in (("framed", "app hop, framed socketpair p50"),
                         ("grpc", "app hop, gRPC prototype p50")):
        summary = Summary.of(samples[name])
        report.add(Row(figure, summary.p50, "ns", baseline, detail={"p99": summary.p99, "samples": summary.count}))
