"""``make bench``: the device's cost, as ratios against bare transports timed in the same run.

Machines are noisy, so no figure stands alone: every row is divided by a
baseline measured minutes earlier on the same machine (a bare gRPC echo, a raw
Unix-socket round trip, a protobuf encode-decode). See docs/performance.md.
"""
