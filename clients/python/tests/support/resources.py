"""The whole pet or order a test expects: the fields it names over what the service answers for a field not set.

The defaults come from openapi.json: a new optional field's follows by itself, and every
whole-object comparison with it.
`pet` and `order` give the wire form (camelCase, as `to_wire()` and a webhook body have it);
`pet_model` and `order_model` the SDK's models (snake_case fields). Import as
`from support import resources as expected`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from petstore import Order, Pet


_SCHEMAS: dict[str, Any] = json.loads((Path(__file__).parents[4] / "openapi.json").read_text(encoding="utf-8"))["components"][
    "schemas"
]


def _resolved(schema: dict[str, Any]) -> dict[str, Any]:
    """A property's schema, through its `$ref` when it names a component (an enum's)."""
    reference = schema.get("$ref")
    return _SCHEMAS[reference.rsplit("/", 1)[1]] if isinstance(reference, str) else schema


def _defaults(answer: str, create: str) -> dict[str, Any]:
    """What `answer` always holds for a field `create` may leave out, or never takes: its default, null when nullable, `{}` for an object."""
    defaults: dict[str, Any] = {}
    sent = _SCHEMAS[create]
    for name, schema in _SCHEMAS[answer]["properties"].items():
        if name not in _SCHEMAS[answer].get("required", []) or name in sent.get("required", []):
            continue
        if name not in sent["properties"]:
            # A field only the service gives (livemode): its document default, when it has one.
            if "default" in _resolved(schema):
                defaults[name] = _resolved(schema)["default"]
            continue
        created = _resolved(sent["properties"][name])
        if "default" in created:
            defaults[name] = created["default"]
        elif _resolved(schema).get("nullable"):
            defaults[name] = None
        elif _resolved(schema).get("type") == "object":
            defaults[name] = {}
    return defaults


def _pet_defaults() -> dict[str, Any]:
    """What a pet answers with when a field was not set (a fresh dict each call: a test may change it)."""
    return _defaults("Pet", "NewPet")


def _order_defaults() -> dict[str, Any]:
    """What an order answers with when a field was not set; shipDate is absent when none was given, complete false until delivered."""
    return {**_defaults("Order", "NewOrder"), "complete": False}


def _snake_case(defaults: dict[str, Any]) -> dict[str, Any]:
    """The defaults under the models' field names (categoryId is category_id)."""
    return {re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower(): value for name, value in defaults.items()}


def pet(**fields: Any) -> dict[str, Any]:
    """The whole pet as JSON: `fields` (id, name, categoryId, and any other it sets) over a pet's defaults."""
    return {**_pet_defaults(), **fields}


def order(**fields: Any) -> dict[str, Any]:
    """The whole order as JSON: `fields` (id, petId, quantity, and any other it sets) over an order's defaults."""
    return {**_order_defaults(), **fields}


def pet_model(**fields: Any) -> Pet:
    """The whole pet as the SDK's model: `fields` (id, name, category_id...) over a pet's defaults."""
    return Pet(**{**_snake_case(_pet_defaults()), **fields})


def order_model(**fields: Any) -> Order:
    """The whole order as the SDK's model: `fields` (id, pet_id, quantity...) over an order's defaults."""
    return Order(**{**_snake_case(_order_defaults()), **fields})
