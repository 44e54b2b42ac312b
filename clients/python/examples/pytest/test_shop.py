"""The shop against the Pet Store, in the run's sandbox (conftest.py)."""

from __future__ import annotations

import pytest

from petstore import NotFoundError, PetStore


def test_starts_on_an_empty_store(petstore: PetStore) -> None:
    assert list(petstore.pets.list()) == []
    assert list(petstore.store.orders.list()) == []


def test_sells_a_pet_through_an_order(petstore: PetStore) -> None:
    rex = petstore.pets.create(name="Rex", category_id=3, metadata={"sku": "DOG-1"})
    order = petstore.store.orders.create(pet_id=rex.id, quantity=1)
    assert order.status == "placed"
    petstore.store.orders.update(order.id, status="approved")
    delivered = petstore.store.orders.update(order.id, status="delivered")
    assert delivered.complete
    assert [pet.metadata for pet in petstore.pets.list(status="sold")] == [{"sku": "DOG-1"}]


def test_is_told_an_order_for_a_pet_the_store_does_not_have_is_not_found(petstore: PetStore) -> None:
    with pytest.raises(NotFoundError):
        petstore.store.orders.create(pet_id=987654321, quantity=1)
