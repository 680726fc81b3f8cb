"""A bundled numpy demo trainer (``python -m runshepherd.demo.trainer``) used by the examples and tests."""
