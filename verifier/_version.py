"""The installed distribution's version (a source tree that is not installed says 0+unknown)."""

from __future__ import annotations

import importlib.metadata as _metadata

try:
    VERSION = _metadata.version("finverify")
except _metadata.PackageNotFoundError:  # pragma: no cover
    VERSION = "0+unknown"
