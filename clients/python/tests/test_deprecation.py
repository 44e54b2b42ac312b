"""The deprecated pets.get as a program meets it: struck through by the editor (PEP 702, checked by pyright, Pylance's
engine), and warned of at run time at the program's own line, whichever of its modules the call is in."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from petstore.resources.pets import AsyncPets, AsyncPetsWithRawResponse, Pets, PetsWithRawResponse
from support.service import REPOSITORY, Service

PACKAGE = Path(__file__).resolve().parents[1]

# A module of a program's own, not its __main__: where a DeprecationWarning would never be shown.
SHELTER = """\
from petstore import AsyncPetStore, PetStore, Pet


def read(petstore: PetStore, pet_id: int) -> Pet:
    return petstore.pets.get(pet_id)


def read_raw(petstore: PetStore, pet_id: int) -> Pet:
    return petstore.pets.with_raw_response.get(pet_id).data


async def read_async(pet_id: int) -> Pet:
    async with AsyncPetStore() as petstore:
        return await petstore.pets.get(pet_id)
"""

PROGRAM = """\
import asyncio

import shelter
from petstore import PetStore

with PetStore() as petstore:
    pet = petstore.pets.create(name="Old ways", category_id=1)
    assert shelter.read(petstore, pet.id) == shelter.read_raw(petstore, pet.id) == asyncio.run(shelter.read_async(pet.id))
"""


def test_warns_from_the_caller_s_line_in_any_module_under_python_s_default_filters(service: Service, tmp_path: Path) -> None:
    (tmp_path / "shelter.py").write_text(SHELTER, encoding="utf-8")
    environment = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(PACKAGE),
        "PETSTORE_API_KEY": service.api_key,
        "PETSTORE_BASE_URL": service.base_url,
    }
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    warning = r"^(.*):(\d+): PetStoreDeprecationWarning: getPet is deprecated and removed on 5 December 2030"
    warned = [(Path(file).name, int(line)) for file, line in re.findall(warning, done.stderr, re.M)]
    assert warned == [("shelter.py", 5), ("shelter.py", 9), ("shelter.py", 14)], done.stderr


@pytest.mark.once
def test_marks_get_deprecated_for_the_editor_as_pep_702_says(tmp_path: Path) -> None:
    for method in (Pets.get, AsyncPets.get, PetsWithRawResponse.get, AsyncPetsWithRawResponse.get):
        assert "5 December 2030" in getattr(method, "__deprecated__")

    # pyright (npm ci installs it) reads the package as Pylance does; it sees PEP 702's decorator whatever is installed here.
    (tmp_path / "shelter.py").write_text(SHELTER, encoding="utf-8")
    settings = {"reportDeprecated": "error", "extraPaths": [str(PACKAGE)], "pythonVersion": "3.10"}
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(settings), encoding="utf-8")
    pyright = REPOSITORY / "node_modules" / "pyright" / "index.js"
    checked = subprocess.run(
        ["node", str(pyright), "--outputjson", "--pythonpath", sys.executable],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    diagnostics = json.loads(checked.stdout)["generalDiagnostics"]
    assert [(d["rule"], d["range"]["start"]["line"] + 1, d["message"]) for d in diagnostics] == [
        ("reportDeprecated", 5, 'The method "get" in class "Pets" is deprecated'),
        # with_raw_response's method has the mark of its own (its overloads, for if_none_match=, are written out).
        ("reportDeprecated", 9, 'The method "get" in class "PetsWithRawResponse" is deprecated'),
        ("reportDeprecated", 14, 'The method "get" in class "AsyncPets" is deprecated'),
    ], diagnostics
