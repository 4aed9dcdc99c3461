"""The Ollama emulator takes only what Ollama's API reference documents for `/api/chat`, so the
contract suite (the `ollama` client against it) proves the adapter sends documented fields."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway.emulators.base import EmulatorServer
from gateway.emulators.ollama import MODEL, build_app

USER = {"role": "user", "content": "Merhaba"}


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


async def _chat(server: EmulatorServer, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as client:
        return await client.post("/api/chat", json=body)


async def test_a_documented_body_is_answered(server: EmulatorServer) -> None:
    answer = await _chat(
        server,
        {
            "model": MODEL,
            "stream": False,
            "keep_alive": "5m",
            "format": "json",
            "think": False,
            "options": {"temperature": 0.2, "num_predict": 8, "stop": ["\n"], "seed": 1},
            "tools": [
                {
                    "type": "function",
                    "function": {"name": "f", "parameters": {"type": "object", "properties": {}}},
                }
            ],
            "messages": [
                {"role": "system", "content": "Kısa yanıt ver."},
                USER,
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}],
                },
                {"role": "tool", "content": "14", "tool_name": "f"},
            ],
        },
    )
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"messages": [USER]}, "model is required"),
        ({"model": MODEL, "messages": [USER], "max_tokens": 5}, '"max_tokens"'),
        ({"model": MODEL, "messages": [USER], "stream": "yes"}, "request.stream"),
        ({"model": MODEL, "messages": [{"role": "developer", "content": "x"}]}, "messages[0].role"),
        (
            {"model": MODEL, "messages": [{"role": "user", "content": [{"type": "text"}]}]},
            "messages[0].content",
        ),
        (
            {"model": MODEL, "messages": [{"role": "tool", "content": "x", "tool_call_id": "t1"}]},
            '"tool_call_id"',
        ),
        (
            {
                "model": MODEL,
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [{"function": {"name": "f", "arguments": '{"a": 1}'}}],
                    }
                ],
            },
            "messages[0].tool_calls[0].function.arguments",
        ),
        ({"model": MODEL, "messages": [USER], "options": {"max_tokens": 5}}, '"max_tokens"'),
        (
            {
                "model": MODEL,
                "messages": [USER],
                "tools": [{"type": "function", "function": {"name": "f", "strict": True}}],
            },
            '"strict"',
        ),
    ],
)
async def test_refuses_what_the_api_reference_does_not_document(
    server: EmulatorServer, body: dict[str, Any], where: str
) -> None:
    answer = await _chat(server, body)
    assert answer.status_code == 400
    assert where in answer.json()["error"]
