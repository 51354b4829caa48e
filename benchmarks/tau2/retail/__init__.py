"""τ²-bench's retail domain as an app: an online store's customer-service functions over its database."""
