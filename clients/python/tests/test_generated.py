"""The models are the document's: regenerated when it changes, and the package's version is the API's."""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import generate  # clients/python/scripts/generate.py
import petstore
from petstore._models import API_VERSION, Event, EventCause, OrderPatch, PetPatch, RequestLogEntry
from petstore._not_modified import OMITTED
from petstore.resources.pets import AsyncPets, Pets
from petstore.resources.store import AsyncOrders, Orders
from support import resources as expected
from support.service import REPOSITORY

# Each reads the document and the package, never the service: once per run (the `once` marker).
pytestmark = pytest.mark.once

DOCUMENT = json.loads((REPOSITORY / "openapi.json").read_text(encoding="utf-8"))


def test_the_committed_models_are_what_the_generator_writes_from_openapi_json() -> None:
    committed = (Path(petstore.__file__).parent / "_models.py").read_text(encoding="utf-8")
    assert committed == generate.render(DOCUMENT), "openapi.json changed: run python3 clients/python/scripts/generate.py"


@pytest.mark.parametrize("module", sorted(generate.CALLS))
def test_the_committed_calls_take_the_keywords_the_generator_writes_from_openapi_json(module: str) -> None:
    committed = (Path(petstore.__file__).parent / "resources" / module).read_text(encoding="utf-8")
    assert committed == generate.render_calls(committed, DOCUMENT, generate.CALLS[module]), (
        f"petstore/resources/{module}: a create's or an update's keywords differ from openapi.json's fields:"
        " run python3 clients/python/scripts/generate.py (npm run openapi does), and edit no line between"
        " `# <Schema>'s fields as ...` and `# end of <Schema>'s fields`"
    )


def test_every_field_of_a_request_schema_is_a_keyword_of_its_calls_sync_and_async() -> None:
    calls = {
        "NewPet": (Pets.create, AsyncPets.create),
        "PetPatch": (Pets.update, AsyncPets.update),
        "NewOrder": (Orders.create, AsyncOrders.create),
        "OrderPatch": (Orders.update, AsyncOrders.update),
    }
    assert set(calls) == {schema for schemas in generate.CALLS.values() for schema in schemas}
    for schema, methods in calls.items():
        declared = DOCUMENT["components"]["schemas"][schema]
        for wire_name, property_schema in declared["properties"].items():
            name = generate.snake(wire_name)
            if wire_name in declared.get("required", []):
                expected: object = inspect.Parameter.empty
            else:
                expected = OMITTED if property_schema.get("nullable") and schema.endswith("Patch") else None
            for method in methods:
                parameters = inspect.signature(method).parameters
                fix = f"{method.__qualname__} should take {name}={expected!r} ({schema}.{wire_name}): run python3 clients/python/scripts/generate.py"
                assert name in parameters and parameters[name].default == expected, fix


def test_a_field_added_to_the_document_is_a_keyword_of_the_calls_with_no_hand_edit(tmp_path: Path) -> None:
    changed = json.loads(json.dumps(DOCUMENT))
    schemas = changed["components"]["schemas"]
    # A made-up field: no field will ever take its name.
    made_up = {"type": "string", "minLength": 1, "maxLength": 60, "description": "Made up for this test."}
    for name in ("Pet", "NewPet"):
        schemas[name]["properties"]["noSuchFieldForTests"] = made_up
    schemas["PetPatch"]["properties"]["noSuchFieldForTests"] = {**made_up, "nullable": True}
    package = tmp_path / "petstore"
    shutil.copytree(Path(petstore.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "_models.py").write_text(generate.render(changed), encoding="utf-8")
    for module, names in generate.CALLS.items():
        path = package / "resources" / module
        path.write_text(generate.render_calls(path.read_text(encoding="utf-8"), changed, names), encoding="utf-8")
    pets = (package / "resources" / "pets.py").read_text(encoding="utf-8")
    assert pets.count("        no_such_field_for_tests: str | None = None,\n") == 2
    assert pets.count("        no_such_field_for_tests: str | None | Omitted = OMITTED,\n") == 2
    assert pets.count("            no_such_field_for_tests=no_such_field_for_tests,\n") == 4

    # What each call sends, through the copy: left out is not sent, None on a PATCH is null.
    program = f"""
import asyncio, json, httpx
from petstore import AsyncPetStore, PetStore

sent = []
def answer(request):
    sent.append(json.loads(request.content))
    return httpx.Response(200 if request.method == "PATCH" else 201, json={expected.pet(id=1, name="Rex", categoryId=3)!r})

with PetStore(api_key="k", base_url="http://pets.test/v1", http_client=httpx.Client(transport=httpx.MockTransport(answer))) as client:
    client.pets.create(name="Rex", category_id=3, no_such_field_for_tests="Rexy")
    client.pets.create(name="Rex", category_id=3)
    client.pets.update(1, no_such_field_for_tests=None)
    client.pets.update(1, name="Max")
async def main():
    transport = httpx.MockTransport(answer)
    async with AsyncPetStore(api_key="k", base_url="http://pets.test/v1", http_client=httpx.AsyncClient(transport=transport)) as client:
        await client.pets.update(1, no_such_field_for_tests="Maxi")
asyncio.run(main())
print(json.dumps(sent))
"""
    run = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        {"name": "Rex", "categoryId": 3, "noSuchFieldForTests": "Rexy"},
        {"name": "Rex", "categoryId": 3},
        {"noSuchFieldForTests": None},
        {"name": "Max"},
        {"noSuchFieldForTests": "Maxi"},
    ]


def test_a_call_without_its_region_of_keywords_is_refused_naming_the_fix() -> None:
    pets = (Path(petstore.__file__).parent / "resources" / "pets.py").read_text(encoding="utf-8")
    handwritten = pets.replace("# PetPatch's fields as parameters, from openapi.json (scripts/generate.py):", "# PetPatch's fields")
    with pytest.raises(ValueError, match=r"no region of PetPatch's fields as parameters: .* and run python3 clients/python/scripts/generate.py"):
        generate.render_calls(handwritten, DOCUMENT, generate.CALLS["pets.py"])
    with pytest.raises(ValueError, match="a region of NewPet's fields, which CALLS"):
        generate.render_calls(pets, DOCUMENT, ("PetPatch",))


def test_a_region_whose_end_was_lost_is_refused_naming_it_rather_than_swallowing_the_code_up_to_the_next_end() -> None:
    pets = (Path(petstore.__file__).parent / "resources" / "pets.py").read_text(encoding="utf-8")
    unended = pets.replace("# end of PetPatch's fields\n", "", 1)
    with pytest.raises(ValueError, match=r"PetPatch's fields as parameters at line \d+ has no `# end of PetPatch's fields`"):
        generate.render_calls(unended, DOCUMENT, generate.CALLS["pets.py"])


def test_the_generator_follows_a_change_of_the_document() -> None:
    changed = json.loads(json.dumps(DOCUMENT))
    changed["components"]["schemas"]["PetStatus"]["enum"].append("adopted")
    changed["components"]["schemas"]["Pet"]["properties"]["noSuchFieldForTests"] = {"type": "string", "description": "Made up for this test."}
    models = generate.render(changed)
    assert 'PetStatus = Literal["available", "pending", "sold", "adopted"]' in models
    assert 'no_such_field_for_tests: str | None = None\n    """Made up for this test."""' in models
    assert 'no_such_field_for_tests=wire.get("noSuchFieldForTests"),' in models


def test_the_package_s_version_is_the_api_version_it_was_made_for() -> None:
    committed = (Path(petstore.__file__).parent / "_version.py").read_text(encoding="utf-8")
    assert committed == generate.render_version(DOCUMENT), "openapi.json's version changed: run npm run openapi"
    assert petstore.__version__ == API_VERSION == DOCUMENT["info"]["version"]


def test_a_required_field_no_release_had_defaults_when_absent_and_one_without_an_empty_value_is_refused() -> None:
    # Made-up versions, so that no release of ours changes what this case reads.
    released = json.loads(json.dumps(DOCUMENT))
    released["info"]["version"] = "1.90.0"
    del released["components"]["schemas"]["Pet"]["properties"]["metadata"]
    document = json.loads(json.dumps(DOCUMENT))
    document["info"]["version"] = "1.91.0"
    models = generate.render(document, [released])
    assert "    metadata: dict[str, str] = field(default_factory=dict)\n" in models
    assert 'metadata=dict(wire["metadata"]) if "metadata" in wire else {},' in models
    assert "Added in 1.91.0: an answer of an older version, or an event recorded before, has none, read as {}." in " ".join(
        line.strip() for line in models.splitlines()
    )
    # Order had metadata in that release (this one was made from the current document): no default.
    assert 'metadata=dict(wire["metadata"]),' in models

    changed = json.loads(json.dumps(document))
    changed["components"]["schemas"]["Pet"]["properties"]["noSuchFieldForTests"] = {"type": "string"}
    changed["components"]["schemas"]["Pet"]["required"].append("noSuchFieldForTests")
    with pytest.raises(ValueError, match="Pet.noSuchFieldForTests is required and added in 1.91.0: an older answer lacks it"):
        generate.render(changed, [released])
    changed["components"]["schemas"]["Pet"]["properties"]["noSuchFieldForTests"]["default"] = "none"
    assert "    no_such_field_for_tests: str = 'none'\n" in generate.render(changed, [released])

    # One rule with the TypeScript SDK's (scripts/sdk-added-fields.ts): one that may be null reads as None.
    changed["components"]["schemas"]["Pet"]["properties"]["noSuchFieldForTests"] = {"type": "string", "nullable": True}
    assert 'no_such_field_for_tests=wire["noSuchFieldForTests"] if "noSuchFieldForTests" in wire else None,' in generate.render(changed, [released])


def test_a_merge_patch_member_that_may_be_null_is_omitted_when_left_out_and_null_when_none() -> None:
    assert "    metadata: dict[str, str | None] | None | Omitted = OMITTED\n" in generate.render(DOCUMENT)
    assert PetPatch(name="Rex").to_wire() == {"name": "Rex"}
    assert PetPatch(metadata=None).to_wire() == {"metadata": None}
    assert OrderPatch(metadata={"a": None, "b": "2"}).to_wire() == {"metadata": {"a": None, "b": "2"}}
    assert (PetPatch.from_wire({"metadata": None}), PetPatch.from_wire({})) == (PetPatch(metadata=None), PetPatch())


def test_a_required_field_that_may_be_null_is_required_and_none_both_ways() -> None:
    models = generate.render(DOCUMENT)
    assert "    error: AnsweredError | None\n" in models and "    operation: str | None\n" in models
    assert 'error=None if wire["error"] is None else AnsweredError.from_wire(wire["error"]),' in models
    entry = {
        "id": "r-1",
        "createdAt": "2026-11-26T10:00:00.000Z",
        "method": "DELETE",
        "path": "/v1/nowhere",
        "operation": None,
        "status": 404,
        "durationMs": 1,
        "idempotencyKey": None,
        "replayed": False,
        "error": None,
        "count": 1,
        "livemode": True,
    }
    assert RequestLogEntry.from_wire(entry).to_wire() == entry
    # count came in 1.5.1: an older server's entry, without it, stands for one request.
    assert RequestLogEntry.from_wire({name: value for name, value in entry.items() if name != "count"}).count == 1
    with pytest.raises(KeyError, match="error"):
        RequestLogEntry.from_wire({name: value for name, value in entry.items() if name != "error"})


def test_a_field_outside_a_merge_patch_that_may_be_null_or_absent_is_none_either_way() -> None:
    assert "    request: EventCause | None = None\n" in generate.render(DOCUMENT)
    event = {"id": "evt_1", "type": "pet.created", "createdAt": "2026-11-26T10:00:00.000Z", "apiVersion": "1.4.0", "data": {"object": {}}}
    assert Event.from_wire(event).request is None
    assert Event.from_wire({**event, "request": None}).request is None
    caused = Event.from_wire({**event, "request": {"id": "r-1", "idempotencyKey": None}})
    assert caused.request == EventCause(id="r-1", idempotency_key=None)


def test_an_enumeration_named_by_two_schemas_of_the_same_values_is_written_once() -> None:
    # The Error schema's inline code and the ErrorCode schema an AnsweredError refers to: mypy refuses a second definition.
    assert generate.render(DOCUMENT).count("\nErrorCode = Literal[") == 1
