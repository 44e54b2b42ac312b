"""One Pet Store sandbox for the whole test run: made before the first test that needs it, deleted after the last.

CI's key (PETSTORE_CI_KEY) is a live key that holds sandboxes:read and sandboxes:write only: it can make
and delete sandboxes, and read or change nothing else. PETSTORE_BASE_URL names the service.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from petstore import PetStore, TestSandbox


@pytest.fixture(scope="session")
def sandbox() -> Iterator[TestSandbox]:
    with PetStore(api_key=os.environ["PETSTORE_CI_KEY"]) as ci:
        # A run killed before the end leaves a sandbox that expires by itself within the hour.
        name = f"ci {os.environ.get('GITHUB_RUN_ID', 'local')}"
        with ci.sandboxes.for_test(name=name, expires_in=3600) as made:
            print(f"Pet Store sandbox {made.id} for this run")
            yield made


@pytest.fixture
def petstore(sandbox: TestSandbox) -> PetStore:
    """A client of the run's sandbox: every call acts there, on a store that was empty when the run began."""
    return sandbox.client
