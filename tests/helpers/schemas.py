"""The project's JSON schemas (dreamhome/schemas) as validators, for the tests that check a file
against its schema (docs/formats.md)."""

from __future__ import annotations

import json
from typing import Any


def schema(name: str) -> dict:
    """A shipped schema, by file name (`house.schema.json`)."""
    from importlib.resources import files

    return json.loads(files("dreamhome.schemas").joinpath(name).read_text(encoding="utf-8"))


def validator(name: str) -> Any:
    """A validator that resolves the record schema's reference to the house schema."""
    import jsonschema
    from referencing import Registry, Resource

    house = schema("house.schema.json")
    registry = Registry().with_resource("house.schema.json", Resource.from_contents(house))
    checked = schema(name)
    cls = jsonschema.validators.validator_for(checked)
    cls.check_schema(checked)
    return cls(checked, registry=registry)
