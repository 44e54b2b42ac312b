#!/usr/bin/env python3
"""Writes petstore/_models.py, petstore/_version.py and the keywords of petstore/resources/'s calls from the service's OpenAPI document (openapi.json at the repository root).

Run it whenever the document changes (`npm run openapi` rewrites openapi.json):

    python3 clients/python/scripts/generate.py

tests/test_generated.py fails while a committed module differs from what this writes, as the
TypeScript SDK's openapi.ts is kept. Only the standard library, so it runs wherever Python does.

What it writes, from the document alone:
- each object schema as a frozen dataclass with snake_case fields, `from_wire` (the JSON answer,
  camelCase, to the model; date-times to aware datetimes) and `to_wire` (back, leaving out what is None),
  on petstore/_api_model.py's ApiModel (the request id of the answer it came in); a map of strings
  (`additionalProperties`) as a `dict` of its values' type;
- a required field that a released document of the same major version (contract/openapi-X.Y.Z.json)
  did not have with a default: an older server's answer, and an event recorded before (stored as it
  was), lack it, so it reads as its default there (`{}` for a map, `[]` for a list, else the schema's
  `default`), and a program that makes the model without it still runs;
- a required field that may be null (a log entry's `error`) as `X | None`, required all the same;
- a field of a Merge Patch that may be null but may also be left out (`metadata`) as defaulting to
  OMITTED: None sends null, OMITTED sends nothing; elsewhere (an event's `request`) a field that
  may be null or absent is None either way;
- each enumeration as a Literal alias, inline ones named after their schema and property;
- a schema that is only another object schema (`allOf` of one `$ref`, nullable or not: a name a
  release gave it) as an alias of its class, written after the classes;
- the union a callback delivers (a webhook's event), with a table from its discriminator to its class;
- the error codes of every HTTP status (the Error schema's `x-codes-by-status`); the Error schema
  itself becomes the exceptions of petstore/_errors.py, not a model;
- the package's version, the document's `info.version` (API_VERSION, src/config/api-version.ts),
  where pyproject.toml reads it without importing the package;
- in the hand-written modules of petstore/resources/ (CALLS), the lines between
  `# NewPet's fields as parameters, from openapi.json (scripts/generate.py):` and
  `# end of NewPet's fields`: a create's or an update's keyword for each field of its request
  schema, in the schema's order (one required is required; one a Merge Patch may null defaults to
  OMITTED, as in the model; any other to None, which is not sent), a mapping taken as any Mapping;
  and, between `...as arguments...` and the same end, the model built of them. A field added to
  the document is a keyword of the call with no hand edit; the rest of the module is left as it is.
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
RELEASES = ROOT / "contract"
MODELS = ROOT / "clients" / "python" / "petstore" / "_models.py"
VERSION = ROOT / "clients" / "python" / "petstore" / "_version.py"
RESOURCES = ROOT / "clients" / "python" / "petstore" / "resources"
# The modules whose calls take a request schema's fields as keywords, and those schemas.
CALLS = {"pets.py": ("NewPet", "PetPatch"), "store.py": ("NewOrder", "OrderPatch")}
REGION = re.compile(
    r"^(?P<indent> *)# (?P<schema>\w+)'s fields as (?P<kind>parameters|arguments), from openapi\.json \(scripts/generate\.py\):\n"
    r"(?P<lines>.*?)"
    r"^(?P=indent)# end of (?P=schema)'s fields\n",
    re.MULTILINE | re.DOTALL,
)

REGION_START = re.compile(r"^ *# \w+'s fields as (parameters|arguments), from openapi\.json", re.MULTILINE)

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


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def released_documents(document: Schema, folder: Path = RELEASES) -> list[Schema]:
    """The documents of the releases of `document`'s major version kept in contract/, oldest first."""
    major = version_key(document["info"]["version"])[0]
    releases = [json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("openapi-*.json")]
    return sorted(
        (release for release in releases if version_key(release["info"]["version"])[0] == major),
        key=lambda release: version_key(release["info"]["version"]),
    )


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
    def __init__(self, document: Schema, releases: list[Schema]) -> None:
        self.document = document
        self.releases = releases
        self.schemas: dict[str, Schema] = document["components"]["schemas"]
        self.aliases: list[str] = []
        self.classes: list[str] = []
        self.class_aliases: list[str] = []
        self.literal_names: dict[tuple[str, ...], str] = {}
        self.merge_patches = {
            content["schema"]["$ref"].rsplit("/", 1)[1]
            for operation in self.operations()
            for media_type, content in operation.get("requestBody", {}).get("content", {}).items()
            if media_type == "application/merge-patch+json" and "$ref" in content["schema"]
        }

    def render(self) -> str:
        for name, schema in self.schemas.items():
            if name == "Error":
                self.enum_alias(schema["properties"]["code"], "ErrorCode")
            elif self.is_object(schema):
                self.dataclass(name, schema)
            elif self.is_object(self.resolve(schema)):
                self.class_alias(name, schema)
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
                "from dataclasses import dataclass, field",
                "from datetime import datetime",
                "from typing import Any, Final, Literal",
                "",
                "from ._api_model import ApiModel",
                "from ._not_modified import OMITTED, Omitted",
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
                *self.class_aliases,
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
            if self.literal_names.get(tuple(schema["enum"])) == name:
                return  # named already, by the Error schema's code of the same values (ErrorCode)
            self.literal_names.setdefault(tuple(schema["enum"]), name)
            annotation = literal(schema["enum"])
        else:
            annotation = self.type_of(schema, name).annotation
        description = schema.get("description", "")
        if "default" in schema:
            description += f" The service's default: {json.dumps(schema['default'])}."
        self.aliases += [f"{name} = {annotation}", *docstring(description, ""), ""] if description else [f"{name} = {annotation}", ""]

    def class_alias(self, name: str, schema: Schema) -> None:
        """Another name of an object schema's class (one a release gave it, kept for code that names it)."""
        target = self.type_of(schema, name).annotation
        self.class_aliases += [f"{name} = {target}", *docstring(schema.get("description", ""), ""), "", ""]

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
            if self.is_object(target) or self.is_object(self.resolve(target)):
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
        if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            value = self.type_of(schema["additionalProperties"], context + "Value", about)
            if value.from_wire is not identity:
                raise ValueError(f"{context}: no Python type for a map of {json.dumps(schema['additionalProperties'])}")
            annotation = f"{value.annotation} | None" if schema["additionalProperties"].get("nullable") else value.annotation
            return PyType(f"dict[str, {annotation}]", lambda v: f"dict({v})", lambda v: f"dict({v})")
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
        sends_null = False
        for wire_name, property_schema in schema["properties"].items():
            field = snake(wire_name)
            py = self.type_of(property_schema, name + pascal(wire_name), f"The `{field}` of a {name}.")
            source = f'wire["{wire_name}"]'
            description = self.field_description(property_schema)
            since = self.added_since(name, wire_name) if wire_name in required else None
            nullable = bool(property_schema.get("nullable") or self.resolve(property_schema).get("nullable"))
            annotation = f"{py.annotation} | None" if nullable else py.annotation
            if wire_name in required:
                # A required field that may be null is sent as null, never left out: None both ways.
                sends_null = sends_null or nullable
                read = py.from_wire(source) if not nullable or py.from_wire is identity else f"None if {source} is None else {py.from_wire(source)}"
                own = f"self.{field}"
                written = py.to_wire(own) if not nullable or py.to_wire is identity else f"None if {own} is None else {py.to_wire(own)}"
                to_wire_required.append(f'            "{wire_name}": {written},')
            if since is not None:
                default, absent = self.absent_value(property_schema, f"{name}.{wire_name}", since, nullable)
                fields.append(f"    {field}: {annotation} = {default}")
                from_wire.append(f'            {field}={read} if "{wire_name}" in wire else {absent},')
                description += f" Added in {since}: an answer of an older version, or an event recorded before, has none, read as {absent}."
            elif wire_name in required:
                fields.append(f"    {field}: {annotation}")
                from_wire.append(f"            {field}={read},")
            elif nullable and name in self.merge_patches:
                fields.append(f"    {field}: {py.annotation} | None | Omitted = OMITTED")
                value = f'OMITTED if "{wire_name}" not in wire else None if {source} is None else {py.from_wire(source)}'
                from_wire.append(f"            {field}={value},")
                to_wire_optional += [
                    f"        if not isinstance(self.{field}, Omitted):",
                    f'            wire["{wire_name}"] = None if self.{field} is None else {py.to_wire(f"self.{field}")}',
                ]
                description += " Left out (OMITTED) it is unchanged; None sends null."
            else:
                fields.append(f"    {field}: {py.annotation} | None = None")
                value = f'wire.get("{wire_name}")' if py.from_wire is identity else f'None if wire.get("{wire_name}") is None else {py.from_wire(source)}'
                from_wire.append(f"            {field}={value},")
                to_wire_optional += [
                    f"        if self.{field} is not None:",
                    f'            wire["{wire_name}"] = {py.to_wire(f"self.{field}")}',
                ]
            if description:
                fields += docstring(description.strip(), "    ")
        left_out = ", or OMITTED where None is null," if any("Omitted" in line for line in fields) else ""
        kept = ", but required ones, sent as null" if sends_null else ""
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
            f'        """Its JSON form, as the service reads it; fields that are None{left_out} are left out{kept}."""',
            *(["        wire: dict[str, Any] = {", *to_wire_required, "        }"] if to_wire_required else ["        wire: dict[str, Any] = {}"]),
            *to_wire_optional,
            "        return wire",
            "",
            "",
        ]

    def keywords(self, name: str) -> tuple[list[str], list[str]]:
        """The schema `name`'s fields as a call's keyword parameters, and as the arguments that build its model of them.

        The same rule as the model's: None (a keyword left out) is not sent; where a Merge Patch may
        null a field, OMITTED is not sent and None sends null. A map is taken as any Mapping and
        copied into the model's dict (map_of, patch_of: petstore/_metadata.py).
        """
        schema = self.schemas[name]
        required = set(schema.get("required", []))
        parameters: list[str] = []
        arguments: list[str] = []
        for wire_name, property_schema in schema["properties"].items():
            field = snake(wire_name)
            annotation = self.type_of(property_schema, name + pascal(wire_name)).annotation
            nullable = bool(property_schema.get("nullable") or self.resolve(property_schema).get("nullable"))
            is_map = annotation.startswith("dict[")
            taken = f"Mapping{annotation[len('dict'):]}" if is_map else annotation
            if wire_name in required:
                parameters.append(f"{field}: {taken} | None," if nullable else f"{field}: {taken},")
                value = (f"map_of({field})" if nullable else f"dict({field})") if is_map else field
            elif nullable and name in self.merge_patches:
                parameters.append(f"{field}: {taken} | None | Omitted = OMITTED,")
                value = f"patch_of({field})" if is_map else field
            else:
                parameters.append(f"{field}: {taken} | None = None,")
                value = f"map_of({field})" if is_map else field
            arguments.append(f"{field}={value},")
        return parameters, arguments

    def added_since(self, name: str, wire_name: str) -> str | None:
        """The version that added `wire_name` to the schema `name`, when a release of this major version had the schema without it."""
        lacking = [
            release
            for release in self.releases
            if name in release["components"]["schemas"]
            and wire_name not in release["components"]["schemas"][name].get("properties", {})
        ]
        if not lacking:
            return None
        last_without = version_key(lacking[-1]["info"]["version"])
        later = [release["info"]["version"] for release in self.releases if version_key(release["info"]["version"]) > last_without]
        return later[0] if later else str(self.document["info"]["version"])

    def absent_value(self, schema: Schema, what: str, since: str, nullable: bool) -> tuple[str, str]:
        """The dataclass default and the value read when the wire lacks a field added in `since`."""
        if nullable:
            return "None", "None"
        kind = self.resolve(schema).get("type")
        if kind == "object":
            return "field(default_factory=dict)", "{}"
        if kind == "array":
            return "field(default_factory=list)", "[]"
        if "default" in schema:
            return repr(schema["default"]), repr(schema["default"])
        raise ValueError(
            f"{what} is required and added in {since}: an older answer lacks it, and it has no value to be read as"
            " (give it a default in the document)"
        )

    def field_description(self, schema: Schema) -> str:
        description: str = schema.get("description", "")
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


def render(document: Schema, releases: list[Schema] | None = None) -> str:
    """The text of petstore/_models.py for `document`, whose fields added since `releases` (contract/'s) default when absent."""
    return Generator(document, released_documents(document) if releases is None else releases).render()


def render_calls(text: str, document: Schema, schemas: tuple[str, ...], releases: list[Schema] | None = None) -> str:
    """`text`, a module of petstore/resources/, with its regions of `schemas`' fields written from `document`.

    Refuses a module without a region of parameters and one of arguments for each of `schemas`,
    and a region of another schema: a call written by hand would not follow the document.
    """
    generator = Generator(document, released_documents(document) if releases is None else releases)
    generator.render()  # names the inline enumerations as _models.py does
    written = {schema: generator.keywords(schema) for schema in schemas}
    found: set[tuple[str, str]] = set()

    def region(match: re.Match[str]) -> str:
        indent, schema, kind = match["indent"], match["schema"], match["kind"]
        # A region that lost its end would reach the next region's end and take the code between.
        if REGION_START.search(match["lines"]) or re.search(r"^ *(async )?def ", match["lines"], re.MULTILINE):
            line = text.count("\n", 0, match.start()) + 1
            raise ValueError(
                f"the region of {schema}'s fields as {kind} at line {line} has no `# end of {schema}'s fields` of its own:"
                " put it back after the region's last keyword, and run python3 clients/python/scripts/generate.py"
            )
        if schema not in written:
            raise ValueError(f"a region of {schema}'s fields, which CALLS (clients/python/scripts/generate.py) does not give this module")
        found.add((schema, kind))
        lines = written[schema][0 if kind == "parameters" else 1]
        marker = f"{indent}# {schema}'s fields as {kind}, from openapi.json (scripts/generate.py):\n"
        return marker + "".join(f"{indent}{line}\n" for line in lines) + f"{indent}# end of {schema}'s fields\n"

    rewritten = REGION.sub(region, text)
    missing = [f"{schema}'s fields as {kind}" for schema in schemas for kind in ("parameters", "arguments") if (schema, kind) not in found]
    if missing:
        raise ValueError(
            f"no region of {', '.join(missing)}: its call's keywords would not follow the document. Put them between"
            " `# <Schema>'s fields as parameters, from openapi.json (scripts/generate.py):` (or `as arguments`)"
            " and `# end of <Schema>'s fields`, and run python3 clients/python/scripts/generate.py"
        )
    return rewritten


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


def main(root: Path = ROOT) -> None:
    """Writes the modules of the checkout at `root` (`npm run openapi` gives its staging copy) from its openapi.json and contract/."""
    document = json.loads((root / DOCUMENT.relative_to(ROOT)).read_text(encoding="utf-8"))
    models, version = (root / path.relative_to(ROOT) for path in (MODELS, VERSION))
    releases = released_documents(document, root / RELEASES.relative_to(ROOT))
    # Each module is made whole before any is written: a refusal leaves all of them as they were.
    calls: dict[Path, str] = {}
    for module, schemas in CALLS.items():
        path = root / RESOURCES.relative_to(ROOT) / module
        try:
            calls[path] = render_calls(path.read_text(encoding="utf-8"), document, schemas, releases)
        except ValueError as error:
            raise ValueError(f"{path.relative_to(root)}: {error}") from None
    models.write_text(render(document, releases), encoding="utf-8")
    version.write_text(render_version(document), encoding="utf-8")
    for path, text in calls.items():
        path.write_text(text, encoding="utf-8")
    written = [models, version, *calls]
    print(f"wrote {', '.join(str(path.relative_to(root)) for path in written)}", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
