"""The models are the document's: regenerated when it changes, and the package's version is the API's."""

from __future__ import annotations

import json
from pathlib import Path

import generate  # clients/python/scripts/generate.py
import petstore
from petstore._models import API_VERSION
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
