"""The package's version: the API version it was made for (tests/test_generated.py keeps them equal)."""

__version__ = "1.3.0"
