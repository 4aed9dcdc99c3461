"""Bedrock as strict as Bedrock: the emulator refuses what the real service refuses (botocore's
service model and the conversation rules), and the adapter's requests and answers hold up
against that, through boto3."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import botocore.session
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from botocore.validate import ParamValidator

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.emulators import bedrock_validation as rules
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.bedrock import build_app
from gateway.providers.bedrock import BedrockProvider
from gateway.providers.bedrock.mapping import STOP_REASONS
from tests.contract.harnesses.bedrock import REGION, fake_session, make_provider

from .test_contract import FAST

MODEL = "anthropic.claude-3-haiku-20240307-v1:0"
USER = {"role": "user", "content": [{"text": "Merhaba"}]}


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
def emulator(server: EmulatorServer) -> EmulatorServer:
    server.state.reset()
    return server


@pytest.fixture
def raw_client(emulator: EmulatorServer) -> Any:
    """boto3 with its own client-side checks off: what it sends is what the test wrote."""
    return fake_session().client(
        "bedrock-runtime",
        region_name=REGION,
        endpoint_url=emulator.url,
        config=Config(parameter_validation=False, retries={"total_max_attempts": 1}),
    )


@pytest.fixture
async def provider(emulator: EmulatorServer) -> Any:
    p = make_provider(emulator.url, model=MODEL)
    yield p
    await p.aclose()


def _refusal(client: Any, **params: Any) -> str:
    with pytest.raises(ClientError) as err:
        client.converse(modelId=MODEL, **params)
    response = err.value.response
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert response["Error"]["Code"] == "ValidationException"
    return str(response["Error"]["Message"])


def test_a_valid_request_is_answered(raw_client: Any) -> None:
    answer = raw_client.converse(
        modelId=MODEL, messages=[USER], inferenceConfig={"maxTokens": 20, "temperature": 0.5}
    )
    assert answer["stopReason"] == "end_turn"


def test_refuses_a_request_botocores_model_marks_invalid(raw_client: Any) -> None:
    missing_content = {"modelId": MODEL, "messages": [{"role": "user"}]}
    input_shape = (
        botocore.session.get_session()
        .get_service_model("bedrock-runtime")
        .operation_model("Converse")
        .input_shape
    )
    # botocore's own verdict on the same request
    assert ParamValidator().validate(missing_content, input_shape).has_errors()
    message = _refusal(raw_client, messages=[{"role": "user"}])
    assert "messages.1.member.content" in message and "must not be null" in message


@pytest.mark.parametrize(
    ("params", "where"),
    [
        ({"messages": [{"role": "tool", "content": [{"text": "x"}]}]}, "messages.1.member.role"),
        (
            {"messages": [USER], "inferenceConfig": {"temperature": 3}},
            "inferenceConfig.temperature",
        ),
        ({"messages": [USER], "inferenceConfig": {"maxTokens": 0}}, "inferenceConfig.maxTokens"),
        ({"messages": [USER], "inferenceConfig": {"maxTokens": "10"}}, "inferenceConfig.maxTokens"),
        (
            {
                "messages": [USER],
                "toolConfig": {
                    "tools": [{"toolSpec": {"name": "x" * 65, "inputSchema": {"json": {}}}}]
                },
            },
            "toolConfig.tools.1.member.toolSpec.name",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"text": "a", "cachePoint": {"type": "default"}}]}
                ]
            },
            "messages.1.member.content.1.member",
        ),
        (
            {
                "messages": [USER],
                "toolConfig": {
                    "tools": [{"toolSpec": {"name": "hava.durumu", "inputSchema": {"json": {}}}}]
                },
            },
            "toolConfig.tools.1.member.toolSpec.name",
        ),
    ],
)
def test_refuses_every_kind_of_shape_violation(
    raw_client: Any, params: dict[str, Any], where: str
) -> None:
    """Enum, range, type, length, union and pattern constraints: each is in botocore's model,
    and botocore's client-side validation checks only some of them."""
    message = _refusal(raw_client, **params)
    assert f"'{where}'" in message
    assert "Merhaba" not in message and "hava.durumu" not in message, "values are never echoed"


def test_unknown_members_are_findings() -> None:
    """boto3 cannot even serialize an unknown member; any other client gets the 400."""
    findings = rules.shape_findings(
        "Converse", {"messages": [USER], "temperature": 0.2}, {"modelId": MODEL}
    )
    assert findings == [
        "Value at 'temperature' failed to satisfy constraint: Member is not a known member"
    ]


@pytest.mark.parametrize(
    ("messages", "extra", "expected"),
    [
        (
            [{"role": "assistant", "content": [{"text": "Merhaba"}]}, USER],
            {},
            rules.FIRST_TURN_USER,
        ),
        ([USER, USER], {}, rules.ALTERNATE_ROLES),
        ([{"role": "user", "content": []}], {}, "messages.0 is empty"),
        (
            [
                USER,
                {
                    "role": "assistant",
                    "content": [
                        {"toolUse": {"toolUseId": "t1", "name": "get_weather", "input": {}}}
                    ],
                },
                {
                    "role": "user",
                    "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "14"}]}}],
                },
            ],
            {},
            rules.TOOL_CONFIG_REQUIRED,
        ),
        (
            [
                USER,
                {"role": "assistant", "content": [{"text": "Bakıyorum"}]},
                {
                    "role": "user",
                    "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "14"}]}}],
                },
            ],
            {
                "toolConfig": {
                    "tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {}}}}]
                }
            },
            "exceeds the number of toolUse blocks of previous turn",
        ),
    ],
)
def test_refuses_what_the_conversation_rules_forbid(
    raw_client: Any, messages: list[Any], extra: dict[str, Any], expected: str
) -> None:
    assert expected in _refusal(raw_client, messages=messages, **extra)


def _tool_history(tools: bool) -> ChatRequest:
    body: dict[str, Any] = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "İstanbul'da hava nasıl?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "tooluse_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "İstanbul"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "tooluse_1", "content": '{"temp_c": 14}'},
        ],
    }
    if tools:
        body["tools"] = [{"type": "function", "function": {"name": "get_weather"}}]
    return ChatRequest.model_validate(body)


async def test_a_tool_history_without_tools_is_accepted(
    emulator: EmulatorServer, provider: BedrockProvider
) -> None:
    result = await provider.complete(_tool_history(tools=False), FAST)
    assert result.text == emulator.state.mode.reply
    sent = emulator.state.requests[-1].json()
    assert [t["toolSpec"]["name"] for t in sent["toolConfig"]["tools"]] == ["get_weather"]
    chunks = [c async for c in provider.stream(_tool_history(tools=False), FAST)]
    assert "".join(c.text for c in chunks) == emulator.state.mode.reply


async def test_an_assistant_first_conversation_is_never_sent(
    emulator: EmulatorServer, provider: BedrockProvider
) -> None:
    request = ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "assistant", "content": "Merhaba, size nasıl yardımcı olabilirim?"},
                {"role": "user", "content": "Hava nasıl?"},
            ],
        }
    )
    with pytest.raises(ProviderError) as err:
        await provider.complete(request, FAST)
    assert err.value.kind == FailureKind.UNSUPPORTED
    assert emulator.state.requests == []


@pytest.mark.parametrize("reason", sorted(STOP_REASONS))
async def test_every_stop_reason_is_mapped_whole_and_streamed(
    emulator: EmulatorServer, provider: BedrockProvider, reason: str
) -> None:
    emulator.state.mode = Mode(stop_reason=reason)
    request = ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": "Merhaba"}]}
    )
    result = await provider.complete(request, FAST)
    assert result.finish_reason == STOP_REASONS[reason]
    chunks = [c async for c in provider.stream(request, FAST)]
    assert [c.finish_reason for c in chunks if c.finish_reason] == [STOP_REASONS[reason]]


@pytest.mark.parametrize("reason", ["malformed_model_output", "malformed_tool_use"])
async def test_a_malformed_output_is_an_error_finish_not_a_stop(
    emulator: EmulatorServer, provider: BedrockProvider, reason: str
) -> None:
    emulator.state.mode = Mode(stop_reason=reason)
    request = ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": "Merhaba"}]}
    )
    assert (await provider.complete(request, FAST)).finish_reason == "error"
