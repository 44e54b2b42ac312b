#!/usr/bin/env python3
"""Writes petstore/_models.py and petstore/_version.py from the service's OpenAPI document (openapi.json at the repository root).

Run it whenever the document changes (`npm run openapi` rewrites openapi.json):

    python3 clients/python/scripts/generate.py

tests/test_generated.py fails while a committed module differs from what this writes, as the
TypeScript SDK's openapi.ts is kept. Only the standard library, so it runs wherever Python does.

What it writes, from the document alone:
- each object schema as a frozen dataclass with snake_case fields, `from_wire` (the JSON answer,
  camelCase, to the model; date-times to aware datetimes) and `to_wire` (back, leaving out what is None),
  on petstore/_api_model.py's ApiModel (the request id of the answer it came in);
- each enumeration as a Literal alias, inline ones named after their schema and property;
- the union a callback delivers (a webhook's event), with a table from its discriminator to its class;
- the error codes of every HTTP status (the Error schema's `x-codes-by-status`); the Error schema
  itself becomes the exceptions of petstore/_errors.py, not a model;
- the package's version, the document's `info.version` (API_VERSION, src/config/api-version.ts),
  where pyproject.toml reads it without importing the package.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[3]
DOCUMENT = ROOT / "openapi.json"
MODELS = ROOT / "clients" / "python" / "petstore" / "_models.py"
VERSION = ROOT / "clients" / "python" / "petstore" / "_version.py"

# Unions the document gives no schema name to: the body of a callback, named by its operationId.
UNION_NAMES = {"deliverEvent": "WebhookEvent"}

Schema = dict[str, Any]
Convert = Callable[[str], str]


def identity(value: str) -> str:
    return value


@dataclass(frozen=True)
class PyType:
    """A schema as Python sees it: its annotation, and how a value crosses from and to the wire."""

    annotation: str
    from_wire: Convert = identity
    to_wire: Convert = identity


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def snake(name: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return f"{words}_" if keyword.iskeyword(words) else words


def literal(values: list[str]) -> str:
    """`Literal[...]`, one value a line when they do not fit on one."""
    quoted = [json.dumps(value) for value in values]
    one_line = f"Literal[{', '.join(quoted)}]"
    return one_line if len(one_line) <= 80 else "Literal[\n" + "".join(f"    {value},\n" for value in quoted) + "]"


def python_tuple(values: list[str]) -> str:
    items = ", ".join(json.dumps(value) for value in values)
    return f"({items},)" if len(values) == 1 else f"({items})"


def docstring(text: str, indent: str) -> list[str]:
    """A docstring of `text`, wrapped at 100 columns."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').strip()
    lines = textwrap.wrap(text, width=100 - len(indent) - 6, break_long_words=False, break_on_hyphens=False)
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    return [f'{indent}"""{lines[0]}', *(f"{indent}{line}" for line in lines[1:]), f'{indent}"""']


class Generator:
    def __init__(self, document: Schema) -> None:
        self.document = document
        self.schemas: dict[str, Schema] = document["components"]["schemas"]
        self.aliases: list[str] = []
        self.classes: list[str] = []
        self.literal_names: dict[tuple[str, ...], str] = {}

    def render(self) -> str:
        for name, schema in self.schemas.items():
            if name == "Error":
                self.enum_alias(schema["properties"]["code"], "ErrorCode")
            elif self.is_object(schema):
                self.dataclass(name, schema)
            else:
                self.alias(name, schema)
        for operation in self.operations():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query" and "enum" in parameter["schema"]:
                    self.enum_alias(parameter["schema"], pascal(operation["operationId"]) + pascal(parameter["name"]))
        unions = [self.union(callback) for callback in self.callbacks()]
        return "\n".join(
            [
                "# Written by clients/python/scripts/generate.py from openapi.json: do not edit.",
                '"""The types of the Pet Store API, as its OpenAPI document declares them."""',
                "",
                "from __future__ import annotations",
                "",
                "from collections.abc import Mapping",
                "from dataclasses import dataclass",
                "from datetime import datetime",
                "from typing import Any, Final, Literal",
                "",
                "from ._api_model import ApiModel",
                "from ._wire import format_datetime, parse_datetime",
                "",
                "API_VERSION: Final = " + json.dumps(self.document["info"]["version"]),
                '"""The version of the document these types were written from."""',
                "",
                *self.aliases,
                *self.error_codes(),
                "",
                "",
                *self.classes,
                *unions,
            ]
        )

    def operations(self) -> list[Schema]:
        methods = ("get", "put", "post", "delete", "patch")
        return [op for path in self.document["paths"].values() for method, op in path.items() if method in methods]

    def callbacks(self) -> list[Schema]:
        return [
            callback_operation
            for operation in self.operations()
            for callback in operation.get("callbacks", {}).values()
            for expression in callback.values()
            for callback_operation in expression.values()
        ]

    @staticmethod
    def is_object(schema: Schema) -> bool:
        return schema.get("type") == "object" and "properties" in schema

    def resolve(self, schema: Schema) -> Schema:
        while "$ref" in schema or ("allOf" in schema and len(schema["allOf"]) == 1):
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema["allOf"][0]
        return schema

    def alias(self, name: str, schema: Schema) -> None:
        """A schema that is no object: an enumeration, or another schema with a default of its own."""
        if "enum" in schema:
            self.literal_names.setdefault(tuple(schema["enum"]), name)
            annotation = literal(schema["enum"])
        else:
            annotation = self.type_of(schema, name).annotation
        description = schema.get("description", "")
        if "default" in schema:
            description += f" The service's default: {json.dumps(schema['default'])}."
        self.aliases += [f"{name} = {annotation}", *docstring(description, ""), ""] if description else [f"{name} = {annotation}", ""]

    def enum_alias(self, schema: Schema, name: str) -> str:
        """The name of an inline enumeration: the first one with the same values, or `name`."""
        values = tuple(schema["enum"])
        if values not in self.literal_names:
            self.literal_names[values] = name
            self.aliases += [f"{name} = {literal(list(values))}", ""]
        return self.literal_names[values]

    def type_of(self, schema: Schema, context: str, about: str = "") -> PyType:
        """`schema` in Python; `context` names what an inline object or enumeration becomes, `about` says what it is."""
        if "$ref" in schema or ("allOf" in schema and len(schema["allOf"]) == 1):
            reference = schema if "$ref" in schema else schema["allOf"][0]
            if "$ref" not in reference:
                return self.type_of(reference, context)
            name = reference["$ref"].rsplit("/", 1)[1]
            target = self.schemas[name]
            if self.is_object(target):
                return PyType(name, lambda v: f"{name}.from_wire({v})", lambda v: f"{v}.to_wire()")
            inner = self.type_of(self.resolve(target), name)
            return PyType(name, inner.from_wire, inner.to_wire)
        kind = schema.get("type")
        if kind == "string" and "enum" in schema:
            if len(schema["enum"]) == 1:
                return PyType(literal(schema["enum"]))
            return PyType(self.enum_alias(schema, context))
        if kind == "string" and schema.get("format") == "date-time":
            return PyType("datetime", lambda v: f"parse_datetime({v})", lambda v: f"format_datetime({v})")
        if kind == "array":
            item = self.type_of(schema["items"], context + "Item", about)
            if item.from_wire is identity:
                return PyType(f"list[{item.annotation}]", lambda v: f"list({v})", lambda v: f"list({v})")
            return PyType(
                f"list[{item.annotation}]",
                lambda v: f"[{item.from_wire('item')} for item in {v}]",
                lambda v: f"[{item.to_wire('item')} for item in {v}]",
            )
        if self.is_object(schema):
            self.dataclass(context, {"description": about, **schema})
            return PyType(context, lambda v: f"{context}.from_wire({v})", lambda v: f"{v}.to_wire()")
        if kind == "object":
            return PyType("dict[str, Any]", lambda v: f"dict({v})", lambda v: f"dict({v})")
        scalars = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
        if kind in scalars:
            return PyType(scalars[kind])
        raise ValueError(f"{context}: no Python type for the schema {json.dumps(schema)}")

    def dataclass(self, name: str, schema: Schema) -> None:
        required = set(schema.get("required", []))
        fields: list[str] = []
        from_wire: list[str] = []
        to_wire_required: list[str] = []
        to_wire_optional: list[str] = []
        for wire_name, property_schema in schema["properties"].items():
            field = snake(wire_name)
            py = self.type_of(property_schema, name + pascal(wire_name), f"The `{field}` of a {name}.")
            source = f'wire["{wire_name}"]'
            if wire_name in required:
                fields.append(f"    {field}: {py.annotation}")
                from_wire.append(f"            {field}={py.from_wire(source)},")
                to_wire_required.append(f'            "{wire_name}": {py.to_wire(f"self.{field}")},')
            else:
                fields.append(f"    {field}: {py.annotation} | None = None")
                value = f'wire.get("{wire_name}")' if py.from_wire is identity else f'None if wire.get("{wire_name}") is None else {py.from_wire(source)}'
                from_wire.append(f"            {field}={value},")
                to_wire_optional += [
                    f"        if self.{field} is not None:",
                    f'            wire["{wire_name}"] = {py.to_wire(f"self.{field}")}',
                ]
            description = self.field_description(property_schema)
            if description:
                fields += docstring(description, "    ")
        self.classes += [
            "@dataclass(frozen=True, kw_only=True)",
            f"class {name}(ApiModel):",
            *docstring(schema.get("description", name), "    "),
            "",
            *fields,
            "",
            "    @classmethod",
            f"    def from_wire(cls, wire: Mapping[str, Any]) -> {name}:",
            '        """The model of its JSON form, as the service sends it."""',
            "        return cls(",
            *from_wire,
            "        )",
            "",
            "    def to_wire(self) -> dict[str, Any]:",
            '        """Its JSON form, as the service reads it; fields that are None are left out."""',
            *(["        wire: dict[str, Any] = {", *to_wire_required, "        }"] if to_wire_required else ["        wire: dict[str, Any] = {}"]),
            *to_wire_optional,
            "        return wire",
            "",
            "",
        ]

    def field_description(self, schema: Schema) -> str:
        description = schema.get("description", "")
        reference = schema.get("$ref")
        if reference:
            target = self.schemas[reference.rsplit("/", 1)[1]]
            description = description or target.get("description", "")
            if "default" in target:
                description += f" The service's default: {json.dumps(target['default'])}."
        elif "default" in schema:
            description += f" The service's default: {json.dumps(schema['default'])}."
        return description.strip()

    def union(self, operation: Schema) -> str:
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        name = UNION_NAMES.get(operation["operationId"])
        if name is None:
            raise ValueError(f"name the union of {operation['operationId']} in UNION_NAMES")
        members = [reference["$ref"].rsplit("/", 1)[1] for reference in body["oneOf"]]
        mapping = {value: target.rsplit("/", 1)[1] for value, target in body["discriminator"]["mapping"].items()}
        table = "".join(f"    {json.dumps(value)}: {member},\n" for value, member in mapping.items())
        return "\n".join(
            [
                f"{name} = {' | '.join(members)}",
                *docstring(operation.get("summary", name), ""),
                "",
                f"{snake(name).upper()}_TYPES: Final[Mapping[str, type[{name}]]] = {{\n{table}}}",
                f'"""Which class a {name} is, by its `{body["discriminator"]["propertyName"]}`."""',
                "",
            ]
        )

    def error_codes(self) -> list[str]:
        by_status: dict[str, list[str]] = self.schemas["Error"]["x-codes-by-status"]
        table = "".join(f"    {status}: {python_tuple(codes)},\n" for status, codes in by_status.items())
        return [
            f"ERROR_CODES_BY_STATUS: Final[Mapping[int, tuple[ErrorCode, ...]]] = {{\n{table}}}",
            '"""The codes an error answer of each HTTP status carries, as the document lists them."""',
            "",
            *(f"ErrorCode{status} = {literal(codes)}" for status, codes in by_status.items()),
        ]


def render(document: Schema) -> str:
    """The text of petstore/_models.py for `document`."""
    return Generator(document).render()


def render_version(document: Schema) -> str:
    """The text of petstore/_version.py for `document`: the package is versioned as the API it was made for."""
    return "\n".join(
        [
            "# Written by clients/python/scripts/generate.py from openapi.json: do not edit.",
            '"""The version of this package: the API version it was made for, as the document says it."""',
            "",
            "__version__ = " + json.dumps(document["info"]["version"]),
            "",
        ]
    )


def main() -> None:
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    MODELS.write_text(render(document), encoding="utf-8")
    VERSION.write_text(render_version(document), encoding="utf-8")
    print(f"wrote {MODELS.relative_to(ROOT)} and {VERSION.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
