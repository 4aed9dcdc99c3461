"""Request validation for the Vertex emulator: a `generateContent` body checked against
google-genai's own types (the SDK's models of Vertex's REST resources: camelCase names, no
unknown fields, typed values), then the rules on `contents` that the types cannot express. A
finding is answered as Vertex answers it: 400 INVALID_ARGUMENT.

Messages name the field path and the broken rule, never the value (values can be prompt text).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import pydantic
from google.genai import types

ROLES = ("user", "model")
# the data members of a Part: exactly one of them per part (the rest is metadata about it)
PART_DATA = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
)


@cache
def _fields() -> Mapping[str, pydantic.TypeAdapter[Any]]:
    """The fields of a GenerateContentRequest and the SDK type each must validate as."""
    return {
        "contents": pydantic.TypeAdapter(list[types.Content]),
        "systemInstruction": pydantic.TypeAdapter(types.Content),
        "tools": pydantic.TypeAdapter(list[types.Tool]),
        "toolConfig": pydantic.TypeAdapter(types.ToolConfig),
        "safetySettings": pydantic.TypeAdapter(list[types.SafetySetting]),
        "generationConfig": pydantic.TypeAdapter(types.GenerationConfig),
        "modelArmorConfig": pydantic.TypeAdapter(types.ModelArmorConfig),
        "labels": pydantic.TypeAdapter(dict[str, str]),
        "cachedContent": pydantic.TypeAdapter(str),
    }


def _path(field: str, loc: tuple[int | str, ...]) -> str:
    out = field
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def type_findings(body: Mapping[str, Any]) -> list[str]:
    """What google-genai's types find wrong with a generateContent body."""
    fields = _fields()
    findings = [
        f'Invalid JSON payload received. Unknown name "{name}": Cannot find field.'
        for name in body
        if name not in fields
    ]
    for name, adapter in fields.items():
        if body.get(name) is None:
            continue
        try:
            adapter.validate_python(body[name])
        except pydantic.ValidationError as exc:
            findings.extend(
                f"Invalid value at '{_path(name, tuple(e['loc']))}': {e['msg']}"
                for e in exc.errors(include_input=False, include_url=False)
            )
    return findings


def contents_findings(body: Mapping[str, Any]) -> list[str]:
    """Vertex's rules on `contents` beyond the types: present, known roles, parts that carry
    exactly one kind of data each."""
    contents = body.get("contents")
    if not contents:
        return ["Unable to submit request because it has an empty contents field."]
    for i, content in enumerate(contents):
        if content.get("role") not in ROLES:
            return [f"Please use a valid role: {', '.join(ROLES)} (contents[{i}].role)."]
        parts = content.get("parts") or []
        if not parts:
            return [
                f"Unable to submit request because it must include at least one parts "
                f"field, which describes the prompt input (contents[{i}].parts)."
            ]
        for j, part in enumerate(parts):
            if sum(part.get(k) is not None for k in PART_DATA) != 1:
                return [
                    f"Unable to submit request because contents[{i}].parts[{j}] must "
                    "have exactly one data field."
                ]
    return []


def findings(body: Mapping[str, Any]) -> list[str]:
    return type_findings(body) or contents_findings(body)
