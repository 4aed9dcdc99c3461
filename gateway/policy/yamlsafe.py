"""Reading a policy document that nobody vouches for (an admin PUT, a mounted file).

PyYAML's own `safe_load` expands aliases into shared objects, so a few hundred bytes of
nested anchors (`a: &a [x, x]`, `b: &b [*a, *a]`, ...) become billions of nodes the moment
anything walks the tree (the line map, pydantic, `json.dumps`). Its composer also recurses
once per nesting level, so a deeply nested file ends in a RecursionError. This reader
composes the document itself with every limit checked while the events arrive, before any
tree exists to walk:

- anchors and aliases are refused outright (a policy never needs them);
- nesting depth and the number of nodes are capped;
- a key repeated in one mapping is refused with both lines (PyYAML keeps the last silently);
- text that is not UTF-8, or holds characters YAML forbids, is a problem with its line.

Every refusal is a `YamlProblem` (line + message); nothing here raises anything else for
any input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from yaml.events import AliasEvent, CollectionStartEvent, NodeEvent

DEFAULT_MAX_BYTES = 1_000_000
DEFAULT_MAX_DEPTH = 64
DEFAULT_MAX_NODES = 200_000


@dataclass(frozen=True, slots=True)
class YamlLimits:
    max_bytes: int = DEFAULT_MAX_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_nodes: int = DEFAULT_MAX_NODES


@dataclass(frozen=True, slots=True)
class YamlProblem:
    line: int | None
    message: str


class YamlRefused(Exception):
    def __init__(self, problems: list[YamlProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class _Abort(yaml.YAMLError):
    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _line_of(event: Any) -> int | None:
    mark = getattr(event, "start_mark", None)
    return mark.line + 1 if mark is not None else None


class _GuardedLoader(yaml.SafeLoader):
    """SafeLoader whose composer refuses anchors/aliases and counts depth and nodes as the
    parser's events arrive (the parser itself keeps an explicit stack, so only the composer
    and constructor recurse, and both stop at `max_depth`)."""

    def __init__(self, text: str, limits: YamlLimits) -> None:
        super().__init__(text)
        self._limits = limits
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent):
            raise _Abort(_line_of(event), "YAML aliases (*name) are not allowed in a policy")
        if isinstance(event, NodeEvent) and event.anchor is not None:
            raise _Abort(_line_of(event), "YAML anchors (&name) are not allowed in a policy")
        self._nodes += 1
        if self._nodes > self._limits.max_nodes:
            raise _Abort(
                _line_of(event), f"the policy has more than {self._limits.max_nodes} YAML nodes"
            )
        if not isinstance(event, CollectionStartEvent):
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > self._limits.max_depth:
            raise _Abort(
                _line_of(event), f"the policy nests deeper than {self._limits.max_depth} levels"
            )
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def decode(raw: bytes, limits: YamlLimits = YamlLimits()) -> str:
    """The document's text, or YamlRefused (too large, not UTF-8)."""
    if len(raw) > limits.max_bytes:
        raise YamlRefused(
            [YamlProblem(None, f"the policy is larger than {limits.max_bytes} bytes ({len(raw)})")]
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlRefused([YamlProblem(line, "not UTF-8 text (a binary file?)")]) from None


def parse(text: str, limits: YamlLimits = YamlLimits()) -> tuple[yaml.Node | None, Any]:
    """Compose and construct one document under `limits`: (root node, plain data)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise YamlRefused(
            [YamlProblem(None, f"the policy is larger than {limits.max_bytes} bytes ({size})")]
        )
    loader: _GuardedLoader | None = None
    try:
        loader = _GuardedLoader(text, limits)  # the reader checks the characters here
        node = loader.get_single_node()
        if node is None:
            return None, None
        duplicates = _duplicate_keys(node)
        if duplicates:
            raise YamlRefused(duplicates)
        return node, loader.construct_document(node)
    except _Abort as exc:
        raise YamlRefused([YamlProblem(exc.line, exc.message)]) from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise YamlRefused([YamlProblem(line, f"not valid YAML: {_reason(exc)}")]) from None
    except yaml.YAMLError as exc:
        raise YamlRefused(
            [YamlProblem(_error_line(exc), f"not valid YAML: {_reason(exc)}")]
        ) from None
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:
        # a construct the limits did not foresee (e.g. a tag with an odd value)
        raise YamlRefused([YamlProblem(None, f"not valid YAML ({type(exc).__name__})")]) from None
    finally:
        if loader is not None:
            loader.dispose()


def _duplicate_keys(root: yaml.Node) -> list[YamlProblem]:
    out: list[YamlProblem] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for k, v in n.value:
                stack.append(v)
                if not isinstance(k, yaml.ScalarNode):
                    continue
                line = k.start_mark.line + 1
                if k.value in seen:
                    out.append(
                        YamlProblem(
                            line, f"duplicate key '{k.value}' (first on line {seen[k.value]})"
                        )
                    )
                else:
                    seen[k.value] = line
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    out.sort(key=lambda p: p.line or 0)
    return out


def _error_line(exc: yaml.YAMLError) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        return int(mark.line) + 1
    return None


def _reason(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError):
        return (
            f"a character YAML does not allow (#x{exc.character:04x})"
            if isinstance(exc.character, int)
            else "unreadable characters"
        )
    problem = getattr(exc, "problem", None)
    return str(problem) if problem else type(exc).__name__
