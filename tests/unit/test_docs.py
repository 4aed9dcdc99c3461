"""The docs say what the code does: README and docs/ link only inside the repository, the
backends example is a valid policy, `gateway policy schema` describes every endpoint field, and
the emulator's `/_emulator/mode` body is documented field by field."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import orjson
import pytest

from gateway.emulators.base import Mode, ModeKind
from gateway.policy.loader import json_schema_text, load_text

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_stay_inside_the_repository_and_resolve(doc: Path) -> None:
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https://, mailto:
            continue
        path = target.split("#", 1)[0]
        if not path:
            continue
        resolved = (doc.parent / path).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name} links outside the repository: {target}"
        assert resolved.exists(), f"{doc.name} links to a missing file: {target}"


def test_backends_example_is_a_valid_policy_with_every_kind_at_a_private_endpoint() -> None:
    text = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    block = text.split("<!-- backends-example -->", 1)[1].split("```yaml", 1)[1].split("```")[0]
    policy = load_text(block).policy
    by_kind = {b.kind: b for b in policy.backends.values()}
    assert set(by_kind) == {
        "local",
        "openai_compat",
        "ollama",
        "bedrock",
        "vertex",
        "replicate",
        "litellm",
    }
    assert by_kind["bedrock"].endpoint_url  # type: ignore[union-attr]
    assert by_kind["vertex"].base_url and by_kind["vertex"].access_token_file  # type: ignore[union-attr]
    assert by_kind["replicate"].base_url  # type: ignore[union-attr]
    assert by_kind["openai_compat"].base_url  # type: ignore[union-attr]
    assert by_kind["ollama"].host != "http://127.0.0.1:11434"  # type: ignore[union-attr]
    assert by_kind["litellm"].api_base  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("definition", "field"),
    [
        ("BedrockBackend", "endpoint_url"),
        ("VertexBackend", "base_url"),
        ("VertexBackend", "access_token_env"),
        ("VertexBackend", "access_token_file"),
        ("VertexBackend", "credentials_env"),
        ("ReplicateBackend", "base_url"),
        ("OpenAICompatBackend", "base_url"),
        ("OllamaBackend", "host"),
        ("LiteLLMBackend", "api_base"),
    ],
)
def test_policy_schema_describes_endpoint_fields(definition: str, field: str) -> None:
    schema = orjson.loads(json_schema_text())
    prop = schema["$defs"][definition]["properties"][field]
    assert len(prop.get("description", "")) > 20, prop


def test_readme_documents_the_emulator_mode_body() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("/_emulator/mode`", 1)[1].split("```sh", 1)[0]
    for f in dataclasses.fields(Mode):
        assert f"`{f.name}`" in section, f"README lacks the mode field {f.name}"
    for kind in typing.get_args(ModeKind):
        assert f"`{kind}`" in section, f"README lacks the mode kind {kind}"


def test_readme_documents_the_classify_jsonl_line_format() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("gateway classify --jsonl", 1)[1].split("## ", 1)[0]
    sample = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert sample is not None
    line = orjson.loads(sample.group(1))
    assert isinstance(line["text"], str) and "id" in line
    assert '"label"' in section and '"entities"' in section
