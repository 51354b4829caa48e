"""τ²-bench's airline domain as an app: an airline's reservation functions over its database."""
