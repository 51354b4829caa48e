"""Real APKs: read (safely, in the verifier child) and decoded into the text app-folder shape."""
