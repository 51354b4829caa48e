"""Python doubles of com.example.bank's functions (docs/responses.md)."""
