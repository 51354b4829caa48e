"""Table booking: a sample app to search, book and cancel restaurant tables."""
