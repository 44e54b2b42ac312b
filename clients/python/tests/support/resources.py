"""The whole pet or order a test expects: the fields it names over what the service answers for a field not set.

A new optional field gets its default here, once, and every whole-object comparison follows it.
`pet` and `order` give the wire form (camelCase, as `to_wire()` and a webhook body have it);
`pet_model` and `order_model` the SDK's models (snake_case fields). Import as
`from support import resources as expected`.
"""

from __future__ import annotations

import re
from typing import Any

from petstore import Order, Pet


def _pet_defaults() -> dict[str, Any]:
    """What a pet answers with when a field was not set (a fresh dict each call: a test may change it)."""
    return {"status": "available", "metadata": {}}


def _order_defaults() -> dict[str, Any]:
    """What an order answers with when a field was not set; shipDate is absent when none was given."""
    return {"status": "placed", "complete": False, "metadata": {}}


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
