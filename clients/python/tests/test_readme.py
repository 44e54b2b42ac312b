"""The package as an integrator gets it: `pip install`ed, its README's programs run as written against the
service, and `mypy --strict` clean on the package and on those programs."""

from __future__ import annotations

import ast
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from petstore import PetStore
from support import resources as expected
from support.service import Service

PACKAGE = Path(__file__).resolve().parents[1]
PROGRAMS = re.findall(r"```python\n(.*?)```", (PACKAGE / "README.md").read_text(encoding="utf-8"), re.DOTALL)
EXAMPLE, ASYNC_EXAMPLE, PER_CALL, LIFECYCLE, METADATA, REQUEST_LOG, RECEIVER = PROGRAMS


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a virtual environment the package was pip-installed in: no index, this interpreter's httpx."""
    environment = tmp_path_factory.mktemp("venv")
    venv.create(environment, system_site_packages=True)
    python = environment / "bin" / "python"
    # A copy, as a fresh checkout has it: setuptools builds in the tree, and a build/ left by an earlier run could ship a file since removed.
    source = tmp_path_factory.mktemp("source") / "python"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__", ".mypy_cache"))
    done = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return python


def run(python: Path, program: str, service: Service, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs `program` as its README says: configured by PETSTORE_API_KEY and PETSTORE_BASE_URL alone."""
    environment = {"PATH": os.environ["PATH"], "PETSTORE_API_KEY": service.api_key, "PETSTORE_BASE_URL": service.base_url}
    return subprocess.run([python, "-c", program], cwd=cwd, env=environment, capture_output=True, text=True, timeout=60)


def test_installs_with_pip_as_the_package_with_its_types(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run(
        [installed, "-c", "import petstore, pathlib; print(pathlib.Path(petstore.__file__).parent)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert "site-packages" in where and (Path(where) / "py.typed").exists()


def test_runs_the_readme_s_program_as_written(installed: Path, service: Service, tmp_path: Path) -> None:
    done = run(installed, EXAMPLE, service, tmp_path)
    assert done.returncode == 0, done.stderr
    rex_id = int(re.search(r"^order \d+ for pet (\d+) is placed$", done.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert re.search(rf"^{rex_id} Rex$", done.stdout, re.MULTILINE), "Rex among the available pets"
    assert re.search(r"^404 ORDER_NOT_FOUND [\w-]+$", done.stdout, re.MULTILINE)
    assert done.stdout.endswith(f"new pet {rex_id} Rex\n")


def test_runs_the_readme_s_asyncio_program_as_written(installed: Path, service: Service, tmp_path: Path) -> None:
    done = run(installed, ASYNC_EXAMPLE, service, tmp_path)
    assert done.returncode == 0, done.stderr
    added = [int(n) for n in re.findall(r"\d+", re.search(r"^added \[(.*)\]$", done.stdout, re.MULTILINE).group(1))]  # type: ignore[union-attr]
    assert len(added) == 3 and all(re.search(rf"^{pet_id} Pup \d$", done.stdout, re.MULTILINE) for pet_id in added)
    assert re.search(r"^\d+ orders on the first page; more: (True|False)$", done.stdout, re.MULTILINE)


def test_runs_the_readme_s_program_of_per_call_options_whole_answers_and_the_log_as_written(
    installed: Path, service: Service, tmp_path: Path
) -> None:
    done = run(installed, PER_CALL, service, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "first page: request readme-listing"
    created = re.fullmatch(rf"201 {re.escape(service.base_url)}/pets/(\d+) replayed: no", lines[1])
    assert created, done.stdout
    assert lines[2].startswith("Rex True {"), done.stdout
    assert ast.literal_eval(lines[2].removeprefix("Rex True ")) == expected.pet(id=int(created.group(1)), name="Rex", categoryId=3)
    assert re.fullmatch(r"Inventory\(available=\d+, pending=\d+, sold=\d+\)", lines[3])
    assert re.search(r"^petstore INFO GET /pets\?limit=5: 200 in \d+ ms, request readme-listing \(attempt 1 of 1\)$", done.stderr, re.M)
    assert service.api_key not in done.stderr
    again = run(installed, PER_CALL, service, tmp_path)
    assert again.stdout.splitlines()[1] == f"201 {service.base_url}/pets/{created.group(1)} replayed: true"


def test_runs_the_readme_s_program_of_the_lifecycle_as_written(installed: Path, service: Service, tmp_path: Path) -> None:
    done = run(installed, LIFECYCLE, service, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"order \d+ is approved", lines[0]), done.stdout
    assert lines[1:] == [
        "PRECONDITION_FAILED: it changed; current ETag known",
        "not modified",
        "no pending pet changed",
        "cancelled True",
        "INVALID_TRANSITION",
        "PET_HAS_ORDERS",
        "Rex II available",
        "Tom deleted",
    ]


def test_runs_the_readme_s_program_of_metadata_as_written(installed: Path, service: Service, tmp_path: Path) -> None:
    done = run(installed, METADATA, service, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["{'shelf': 'B2'} True", "{'kennel': 'K7'}", "found order True", "{}"]


def test_runs_the_readme_s_program_of_the_request_log_as_written(installed: Path, service: Service, tmp_path: Path) -> None:
    done = run(installed, REQUEST_LOG, service, tmp_path)
    assert done.returncode == 0, done.stderr
    found, *refused = done.stdout.splitlines()
    assert found == "True POST /v1/pets createPet 400 VALIDATION_FAILED"
    # Newest first: the program's own refusal, then those of other tests of the session (a reused Idempotency-Key's 422).
    assert 1 <= len(refused) <= 10 and refused[0].endswith(" 400 VALIDATION_FAILED"), refused
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00 4\d\d [A-Z_]+", line) for line in refused), refused


def test_the_readme_s_receiver_hears_a_new_pet_from_the_service(installed: Path, service: Service, tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with PetStore(api_key=service.api_key, base_url=service.base_url) as petstore:
        endpoint = petstore.webhook_endpoints.create(url=f"http://127.0.0.1:{port}/hooks", events=["pet.created"])
        environment = {"PATH": os.environ["PATH"], "PETSTORE_WEBHOOK_SECRET": endpoint.secret, "PORT": str(port)}
        receiver = subprocess.Popen([installed, "-c", RECEIVER], cwd=tmp_path, env=environment, stdout=subprocess.PIPE, text=True)
        try:
            _wait_for_port(port)
            pet = petstore.pets.create(name="Heard", category_id=5)
            assert receiver.stdout is not None
            readable, _, _ = select.select([receiver.stdout], [], [], 10)
            assert readable, "the receiver said nothing within 10 s"
            assert receiver.stdout.readline() == f"new pet {pet.id} Heard\n"
        finally:
            receiver.terminate()
            receiver.wait(timeout=10)
            petstore.webhook_endpoints.delete(endpoint.id)


@pytest.mark.once
def test_mypy_strict_passes_the_package_and_the_readme_s_programs(tmp_path: Path) -> None:
    names = ("example.py", "example_async.py", "per_call.py", "lifecycle.py", "metadata.py", "request_log.py", "receiver.py")
    for name, program in zip(names, PROGRAMS):
        (tmp_path / name).write_text(program, encoding="utf-8")
    # mypy's own cache (.mypy_cache, ignored by git), kept from run to run as mypy keeps it: a module whose
    # file changed is checked again, and an unchanged package takes 0.2 s of processor time instead of 8.
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "petstore", *sorted(map(str, tmp_path.glob("*.py")))],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found in 29 source files" in checked.stdout


def _wait_for_port(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port}")
