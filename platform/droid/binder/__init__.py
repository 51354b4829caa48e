"""The binder: one interface per system service, a local or a remote transport."""
