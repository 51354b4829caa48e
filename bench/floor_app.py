"""The app process of the device structure floor: ``python -m bench.floor_app --raw PATH``.

The floor is what the device's own design cannot go below: a gRPC handler (in the echo
server, bench.echo_server ``Relay``) that makes one socket round trip to another process,
this one, which writes back whatever it reads. No device code runs on either side.
"""

import argparse

from bench.child import announce_ready, wait_for_parent
from bench.echo_server import raw_echo_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--raw", required=True, help="PATH of the raw echo socket to serve")
    args = parser.parse_args()
    listener = raw_echo_server(args.raw)
    announce_ready()
    wait_for_parent()
    listener.close()


if __name__ == "__main__":
    main()
