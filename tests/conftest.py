"""Shared test helpers: paths to fixtures and to the shared corpora (which a user's
checkout may not have; tests that need them skip with the reason)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SCENARIOS = FIXTURES / "scenarios"
CORPORA = ROOT.parent / "shared" / "corpora"


@pytest.fixture
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA} (only present beside the team's checkout)")
    return CORPORA
