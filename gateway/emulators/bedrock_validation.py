"""Request validation for the Bedrock emulator, the way Bedrock Runtime validates: the JSON body
against botocore's own service model for `bedrock-runtime` (required members, types, enums,
lengths, ranges, patterns, unions with exactly one member, no unknown members), then the
conversation rules the model cannot express. Every finding is answered as Bedrock answers it:
a `ValidationException` with status 400.

Messages name the member path and the broken constraint (AWS's wording), never the value:
values can be prompt text.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from botocore.model import (
    ListShape,
    MapShape,
    OperationModel,
    ServiceModel,
    Shape,
    StringShape,
    StructureShape,
)

MAX_REPORTED = 10  # AWS lists at most this many findings in one message

TOOL_CONFIG_REQUIRED = (
    "The toolConfig field must be defined when using toolUse and toolResult content blocks."
)
FIRST_TURN_USER = (
    "A conversation must start with a user message. Try again with a "
    "conversation that starts with a user message."
)
ALTERNATE_ROLES = (
    "A conversation must alternate between user and assistant roles. Make sure "
    "the conversation alternates between user and assistant roles and try again."
)


@cache
def service_model() -> ServiceModel:
    """botocore's model of bedrock-runtime (loaded once per process: it is read-only)."""
    import botocore.session

    model: ServiceModel = botocore.session.get_session().get_service_model("bedrock-runtime")
    return model


def operation(name: str) -> OperationModel:
    return service_model().operation_model(name)


class ShapeValidator:
    """Walks a JSON value along a botocore shape and collects AWS-worded findings."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def _fail(self, path: str, constraint: str) -> None:
        self.errors.append(f"Value at '{path}' failed to satisfy constraint: {constraint}")

    def check(self, shape: Shape, value: Any, path: str) -> None:
        if value is None:
            return  # JSON null is an absent member; `required` is checked by the parent
        if shape.metadata.get("document") or getattr(shape, "is_document_type", False):
            return  # any JSON value
        kind = shape.type_name
        checker = getattr(self, f"_{kind}", None)
        if checker is not None:
            checker(shape, value, path)

    def _structure(self, shape: Shape, value: Any, path: str) -> None:
        assert isinstance(shape, StructureShape)
        if not isinstance(value, dict):
            self._fail(path, "Member must be a structure")
            return
        members = shape.members
        for key in value:
            if key not in members:
                self._fail(f"{path}.{key}" if path else key, "Member is not a known member")
        present = [k for k in members if value.get(k) is not None]
        for key in shape.required_members:
            if key not in present and members[key].serialization.get("location") is None:
                self._fail(f"{path}.{key}" if path else key, "Member must not be null")
        if getattr(shape, "is_tagged_union", False) and len(present) != 1:
            self._fail(path, "Member must have exactly one member set")
        for key in present:
            self.check(members[key], value[key], f"{path}.{key}" if path else key)

    def _list(self, shape: Shape, value: Any, path: str) -> None:
        if not isinstance(value, list):
            self._fail(path, "Member must be a list")
            return
        self._length(shape, len(value), path)
        member = cast(ListShape, shape).member
        for i, item in enumerate(value, 1):
            self.check(member, item, f"{path}.{i}.member")

    def _map(self, shape: Shape, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            self._fail(path, "Member must be a map")
            return
        self._length(shape, len(value), path)
        map_shape = cast(MapShape, shape)
        for key, item in value.items():
            self.check(map_shape.key, key, f"{path}.{key}.key")
            self.check(map_shape.value, item, f"{path}.{key}.value")

    def _string(self, shape: Shape, value: Any, path: str) -> None:
        if not isinstance(value, str):
            self._fail(path, "Member must be a string")
            return
        enum = cast(StringShape, shape).enum
        if enum and value not in enum:
            self._fail(path, f"Member must satisfy enum value set: [{', '.join(enum)}]")
        self._length(shape, len(value), path)
        pattern = shape.metadata.get("pattern")
        if pattern and not _matches(pattern, value):
            self._fail(path, f"Member must satisfy regular expression pattern: {pattern}")

    def _integer(self, shape: Shape, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            self._fail(path, "Member must be an integer")
            return
        self._range(shape, value, path)

    _long = _integer

    def _float(self, shape: Shape, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            self._fail(path, "Member must be a number")
            return
        self._range(shape, value, path)

    _double = _float

    def _boolean(self, shape: Shape, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            self._fail(path, "Member must be a boolean")

    def _blob(self, shape: Shape, value: Any, path: str) -> None:
        if not isinstance(value, str):  # base64 text in a JSON body
            self._fail(path, "Member must be base64-encoded binary data")

    def _timestamp(self, shape: Shape, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            self._fail(path, "Member must be a timestamp")

    def _length(self, shape: Shape, size: int, path: str) -> None:
        low, high = shape.metadata.get("min"), shape.metadata.get("max")
        if low is not None and size < low:
            self._fail(path, f"Member must have length greater than or equal to {low}")
        if high is not None and size > high:
            self._fail(path, f"Member must have length less than or equal to {high}")

    def _range(self, shape: Shape, value: float, path: str) -> None:
        low, high = shape.metadata.get("min"), shape.metadata.get("max")
        if low is not None and value < low:
            self._fail(path, f"Member must have value greater than or equal to {low}")
        if high is not None and value > high:
            self._fail(path, f"Member must have value less than or equal to {high}")


@cache
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:  # a Java-only construct: the constraint is not checked here
        return None


def _matches(pattern: str, value: str) -> bool:
    compiled = _compiled(pattern)
    # the service matches the whole value (Java's Pattern.matches): a tool name with a dot
    # fails `[a-zA-Z0-9_-]+` although the pattern carries no anchors
    return compiled is None or compiled.fullmatch(value) is not None


def shape_findings(
    operation_name: str, body: Mapping[str, Any], uri: Mapping[str, str]
) -> list[str]:
    """What botocore's model finds wrong with a request: body members and URI labels."""
    shape = operation(operation_name).input_shape
    if shape is None:  # an operation without input: nothing to check
        return []
    validator = ShapeValidator()
    validator.check(shape, dict(body), "")
    for name, value in uri.items():
        validator.check(shape.members[name], value, name)
    return validator.errors


def conversation_findings(body: Mapping[str, Any]) -> list[str]:
    """Bedrock's rules on a Converse conversation that its service model cannot express."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    if not messages or messages[0].get("role") != "user":
        return [FIRST_TURN_USER]
    for i, message in enumerate(messages):
        if not message.get("content"):
            return [
                f"The content field in the Message object at messages.{i} is empty. Add a "
                "ContentBlock object to the content field and try again."
            ]
    roles = [m.get("role") for m in messages]
    if any(a == b for a, b in itertools.pairwise(roles)):
        return [ALTERNATE_ROLES]
    blocks = [
        (i, b)
        for i, m in enumerate(messages)
        for b in m.get("content") or []
        if isinstance(b, dict)
    ]
    if any("toolUse" in b or "toolResult" in b for _, b in blocks) and not body.get("toolConfig"):
        return [TOOL_CONFIG_REQUIRED]
    return _tool_result_findings(messages)


def _tool_result_findings(messages: list[dict[str, Any]]) -> list[str]:
    """A user turn's toolResult blocks answer toolUse blocks of the assistant turn just before."""
    for i, message in enumerate(messages):
        content = [b for b in message.get("content") or [] if isinstance(b, dict)]
        results = [
            b["toolResult"].get("toolUseId")
            for b in content
            if isinstance(b.get("toolResult"), dict)
        ]
        if not results:
            continue
        previous = messages[i - 1].get("content") or [] if i else []
        uses = {
            b["toolUse"].get("toolUseId")
            for b in previous
            if isinstance(b, dict) and isinstance(b.get("toolUse"), dict)
        }
        if len(results) > len(uses):
            return [
                f"The number of toolResult blocks at messages.{i}.content exceeds the number "
                "of toolUse blocks of previous turn."
            ]
        if any(r not in uses for r in results):
            return [
                f"The toolUseId of a toolResult block at messages.{i}.content does not match "
                "a toolUse block of the previous turn."
            ]
    return []


def validation_message(findings: list[str]) -> str:
    """AWS's wording for a list of constraint findings."""
    shown = findings[:MAX_REPORTED]
    noun = "error" if len(findings) == 1 else "errors"
    return f"{len(findings)} validation {noun} detected: " + "; ".join(shown)
