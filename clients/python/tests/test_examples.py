"""docs/TESTING.md's sample pytest suite (examples/pytest), run as an integrator's CI runs it: with a live key
that holds only the sandboxes' scopes, against the real service, in a sandbox of its own that it deletes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from petstore import NotFoundError, PetStore
from support.service import Service

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "examples" / "pytest"


def test_the_sample_pytest_suite_passes_in_a_sandbox_of_its_own_and_deletes_it(service: Service) -> None:
    ci_key = service.mint_key("ci", ["sandboxes:read", "sandboxes:write"])
    environment = {
        "PATH": os.environ["PATH"],
        "PETSTORE_CI_KEY": ci_key,
        "PETSTORE_BASE_URL": service.base_url,
        # The checkout's client, as the integrator's installed one.
        "PYTHONPATH": str(PACKAGE),
    }
    # Its own rootdir and no configuration of ours (-c): as it runs in the integrator's repository.
    command = [sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir", str(SAMPLE), str(SAMPLE)]
    done = subprocess.run(command, cwd=SAMPLE, env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b3 passed\b", done.stdout), done.stdout
    made = re.search(r"Pet Store sandbox (sbx_\S+) for this run", done.stdout)
    assert made, done.stdout

    with PetStore(api_key=service.api_key, base_url=service.base_url) as live:
        with pytest.raises(NotFoundError):
            live.sandboxes.get(made.group(1))
        # What the suite made stayed in its sandbox.
        assert "Rex" not in [pet.name for pet in live.pets.list(status="sold")]
