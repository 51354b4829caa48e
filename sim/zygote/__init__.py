"""Process management: each app runs in its own OS process (or, for in-process
devices, on its own thread), started on the first call to one of its functions."""
