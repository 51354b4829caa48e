"""Orders: a sample store app exposing order tracking and cancellation as AppFunctions."""
