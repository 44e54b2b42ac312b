# Written by clients/python/scripts/generate.py from openapi.json: do not edit.
"""The version of this package: the API version it was made for, as the document says it."""

__version__ = "1.6.0"
