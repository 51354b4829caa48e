"""τ²-bench's retail and airline tasks run against the device: ``droidsim eval tau2`` (docs/benchmarks.md)."""
