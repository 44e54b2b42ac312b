"""The models are the document's: regenerated when it changes, and the package's version is the API's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import generate  # clients/python/scripts/generate.py
import petstore
from petstore._models import API_VERSION, Event, EventCause, OrderPatch, PetPatch, RequestLogEntry
from support.service import REPOSITORY

DOCUMENT = json.loads((REPOSITORY / "openapi.json").read_text(encoding="utf-8"))


def test_the_committed_models_are_what_the_generator_writes_from_openapi_json() -> None:
    committed = (Path(petstore.__file__).parent / "_models.py").read_text(encoding="utf-8")
    assert committed == generate.render(DOCUMENT), "openapi.json changed: run python3 clients/python/scripts/generate.py"


def test_the_generator_follows_a_change_of_the_document() -> None:
    changed = json.loads(json.dumps(DOCUMENT))
    changed["components"]["schemas"]["PetStatus"]["enum"].append("adopted")
    changed["components"]["schemas"]["Pet"]["properties"]["nickName"] = {"type": "string", "description": "What it answers to."}
    models = generate.render(changed)
    assert 'PetStatus = Literal["available", "pending", "sold", "adopted"]' in models
    assert 'nick_name: str | None = None\n    """What it answers to."""' in models
    assert 'nick_name=wire.get("nickName"),' in models


def test_the_package_s_version_is_the_api_version_it_was_made_for() -> None:
    committed = (Path(petstore.__file__).parent / "_version.py").read_text(encoding="utf-8")
    assert committed == generate.render_version(DOCUMENT), "openapi.json's version changed: run npm run openapi"
    assert petstore.__version__ == API_VERSION == DOCUMENT["info"]["version"]


def test_a_required_field_no_release_had_defaults_when_absent_and_one_without_an_empty_value_is_refused() -> None:
    released = json.loads(json.dumps(DOCUMENT))
    released["info"]["version"] = "1.4.0"
    del released["components"]["schemas"]["Pet"]["properties"]["metadata"]
    models = generate.render(DOCUMENT, [released])
    assert "    metadata: dict[str, str] = field(default_factory=dict)\n" in models
    assert 'metadata=dict(wire["metadata"]) if "metadata" in wire else {},' in models
    added = f"Added in {DOCUMENT['info']['version']}: an answer of an older version, or an event recorded before, has none, read as {{}}."
    assert added in " ".join(
        line.strip() for line in models.splitlines()
    )
    # Order had metadata in that release (this one was made from the current document): no default.
    assert 'metadata=dict(wire["metadata"]),' in models

    changed = json.loads(json.dumps(DOCUMENT))
    changed["components"]["schemas"]["Pet"]["properties"]["nickName"] = {"type": "string"}
    changed["components"]["schemas"]["Pet"]["required"].append("nickName")
    with pytest.raises(ValueError, match=f"Pet.nickName is required and added in {DOCUMENT['info']['version']}: an older answer lacks it"):
        generate.render(changed, [released])
    changed["components"]["schemas"]["Pet"]["properties"]["nickName"]["default"] = "none"
    assert "    nick_name: str = 'none'\n" in generate.render(changed, [released])


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
    }
    assert RequestLogEntry.from_wire(entry).to_wire() == entry
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
