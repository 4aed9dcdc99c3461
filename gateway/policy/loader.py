"""YAML -> models -> semantic checks -> an immutable compiled policy.

Every problem is reported with its YAML path and line number, all at once.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from gateway.policy.checks import semantic_issues, warnings
from gateway.policy.destinations import DEFAULT_CREDENTIAL_PREFIX, destination_issues
from gateway.policy.schema import BACKEND_KINDS, Policy
from gateway.policy.yamlsafe import YamlLimits, YamlRefused, decode, parse

PathT = tuple[str | int, ...]
log = logging.getLogger("gateway.policy")


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "line ?"
        return f"{self.path or '<root>'} ({where}): {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path or "<root>", "line": self.line, "message": self.message}


class PolicyError(Exception):
    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        listing = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"policy {source} refused, {len(problems)} problem(s):\n{listing}")


class PolicyFileError(PolicyError):
    """The policy file could not be read at all (missing, unreadable): one line says so."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, [Problem("", None, f"cannot read file: {reason}")])
        self.args = (f"cannot read policy file {path}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class PolicyLimits:
    """What an untrusted policy document may be: its YAML size/depth/node limits and the
    prefix every credential variable a backend names must carry (see destinations.py)."""

    yaml: YamlLimits = field(default_factory=YamlLimits)
    credential_prefix: str = DEFAULT_CREDENTIAL_PREFIX


@dataclass(frozen=True, slots=True)
class CompiledPolicy:
    policy: Policy
    sha256: str
    source: str
    warnings: tuple[Problem, ...] = ()

    @property
    def aliases(self) -> list[str]:
        return list(self.policy.aliases)


def load_file(path: str | Path, limits: PolicyLimits = PolicyLimits()) -> CompiledPolicy:
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(limits.yaml.max_bytes + 1)
    except OSError as exc:
        raise PolicyFileError(str(p), str(exc.strerror or exc)) from None
    return load_bytes(raw, source=str(p), limits=limits)


def load_bytes(
    raw: bytes, source: str = "<policy>", limits: PolicyLimits = PolicyLimits()
) -> CompiledPolicy:
    return load_text(decode_text(raw, source, limits), source=source, limits=limits)


def decode_text(raw: bytes, source: str = "<policy>", limits: PolicyLimits = PolicyLimits()) -> str:
    """The document as text; PolicyError when it is too large or not UTF-8."""
    try:
        return decode(raw, limits.yaml)
    except YamlRefused as exc:
        raise PolicyError(source, [Problem("", p.line, p.message) for p in exc.problems]) from None


def load_text(
    text: str, source: str = "<policy>", limits: PolicyLimits = PolicyLimits()
) -> CompiledPolicy:
    """The compiled policy, or PolicyError listing every problem; nothing else escapes, so
    no caller (admin API, CLI, file watcher) can show a traceback for a document."""
    try:
        return _load_text(text, source, limits)
    except PolicyError:
        raise
    except Exception as exc:  # a check that choked on some input: still a listed problem
        log.error("policy %s could not be checked: %s", source, type(exc).__name__)
        raise PolicyError(
            source, [Problem("", None, f"the policy could not be checked ({type(exc).__name__})")]
        ) from None


def _load_text(text: str, source: str, limits: PolicyLimits) -> CompiledPolicy:
    try:
        node, data = parse(text, limits.yaml)
    except YamlRefused as exc:
        raise PolicyError(source, [Problem("", p.line, p.message) for p in exc.problems]) from None
    lines = _line_map(node) if node is not None else {}
    if not isinstance(data, dict):
        raise PolicyError(source, [Problem("", 1, "the policy must be a mapping")])
    try:
        policy = Policy.model_validate(data)
    except ValidationError as exc:
        raise PolicyError(source, _pydantic_problems(exc, lines)) from None
    problems = semantic_problems(policy, lines, limits)
    if problems:
        raise PolicyError(source, problems)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    warn = tuple(Problem(_fmt(p), _line(lines, p), m) for p, m in warnings(policy))
    return CompiledPolicy(policy=policy, sha256=digest, source=source, warnings=warn)


def semantic_problems(
    policy: Policy, lines: dict[PathT, int], limits: PolicyLimits = PolicyLimits()
) -> list[Problem]:
    issues = [*destination_issues(policy, limits.credential_prefix), *semantic_issues(policy)]
    return [Problem(_fmt(p), _line(lines, p), m) for p, m in issues]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the policy file (what `policies/schema.json` holds)."""
    schema = Policy.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Geçit policy"
    return schema


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def _fmt(path: PathT) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line(lines: dict[PathT, int], path: PathT) -> int | None:
    p = path
    while p:
        if p in lines:
            return lines[p]
        p = p[:-1]
    return lines.get((), None)


def _line_map(node: yaml.Node) -> dict[PathT, int]:
    out: dict[PathT, int] = {}

    def walk(n: yaml.Node, path: PathT) -> None:
        out[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key: Any = k.value
                child = (*path, key)
                walk(v, child)
                out[child] = k.start_mark.line + 1
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                walk(v, (*path, i))

    walk(node, ())
    return out


def _pydantic_problems(exc: ValidationError, lines: dict[PathT, int]) -> list[Problem]:
    out: list[Problem] = []
    for err in exc.errors():
        path = _strip_tags(tuple(err["loc"]), lines)
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        out.append(Problem(_fmt(path), _line(lines, path), msg))
    return out


def _strip_tags(loc: tuple[Any, ...], lines: dict[PathT, int]) -> PathT:
    """Drop the discriminator tags pydantic inserts into locations (e.g. 'openai_compat')."""
    path: list[str | int] = []
    for part in loc:
        if (
            isinstance(part, str)
            and part in BACKEND_KINDS
            and (*path, part) not in lines
            and path
            and path[0] == "backends"
        ):
            continue
        path.append(part)
    return tuple(path)
