"""The device's gRPC face: servicers, authentication, reflection and health."""
