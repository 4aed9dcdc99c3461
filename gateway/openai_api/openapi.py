"""`GET /openapi.json`: the OpenAPI 3.1 document of the public API (chat completions,
Responses, Anthropic Messages, legacy completions, embeddings, models, health), so standard
clients and API fuzzers can be pointed at a gateway.

The request schemas are generated from the strict models the edge validates with (`ChatRequest`
in gateway/core/types.py, and the client APIs' request models), so the document follows them;
`model` lists the aliases of the running policy. Every error answer has the OpenAI error shape
(Anthropic's on /v1/messages); the statuses listed per operation are the ones the edge can give
(limits, auth, policy, upstream)."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.responses import Response

from gateway.core.types import ChatRequest
from gateway.openai_api.anthropic_wire import CountTokensRequest, MessagesRequest
from gateway.openai_api.completions import CompletionRequest
from gateway.openai_api.responses_wire import ResponsesRequest
from gateway.service.embeddings import MAX_INPUTS

_REF = "#/components/schemas/{model}"
_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["message", "type", "param", "code"],
            "properties": {
                "message": {"type": "string"},
                "type": {"type": "string"},
                "param": {"type": ["string", "null"]},
                "code": {"type": ["string", "null"]},
            },
        }
    },
}
_USAGE = {
    "type": "object",
    "required": ["prompt_tokens", "completion_tokens", "total_tokens"],
    "properties": {
        "prompt_tokens": {"type": "integer"},
        "completion_tokens": {"type": "integer"},
        "total_tokens": {"type": "integer"},
    },
}
_COMPLETION = {
    "type": "object",
    "required": ["id", "object", "created", "model", "choices"],
    "properties": {
        "id": {"type": "string"},
        "object": {"type": "string"},
        "created": {"type": "integer"},
        "model": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "object"}},
        "usage": {"$ref": "#/components/schemas/Usage"},
    },
}
_EMBEDDINGS_REQUEST = {
    "type": "object",
    "required": ["model", "input"],
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "input": {
            "oneOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_INPUTS,
                    "items": {"type": "string", "minLength": 1},
                },
            ]
        },
        "encoding_format": {"type": "string", "enum": ["float", "base64"]},
        "dimensions": {"type": "integer", "minimum": 1},
        "user": {"type": "string"},
    },
}
_EMBEDDINGS = {
    "type": "object",
    "required": ["object", "data", "model", "usage"],
    "properties": {
        "object": {"type": "string"},
        "data": {"type": "array", "items": {"type": "object"}},
        "model": {"type": "string"},
        "usage": {"type": "object"},
    },
}
_MODELS = {
    "type": "object",
    "required": ["object", "data"],
    "properties": {
        "object": {"type": "string"},
        "data": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "object"],
                "properties": {"id": {"type": "string"}, "object": {"type": "string"}},
            },
        },
    },
}
_RESPONSE = {
    "type": "object",
    "required": ["id", "object", "status", "output"],
    "properties": {
        "id": {"type": "string"},
        "object": {"type": "string"},
        "status": {"type": "string"},
        "output": {"type": "array", "items": {"type": "object"}},
        "usage": {"type": ["object", "null"]},
    },
}
_MESSAGE = {
    "type": "object",
    "required": ["id", "type", "role", "content"],
    "properties": {
        "id": {"type": "string"},
        "type": {"type": "string"},
        "role": {"type": "string"},
        "content": {"type": "array", "items": {"type": "object"}},
        "usage": {"type": "object"},
    },
}
_TOKEN_COUNT = {
    "type": "object",
    "required": ["input_tokens"],
    "properties": {"input_tokens": {"type": "integer"}},
}
_ANTHROPIC_ERROR = {
    "type": "object",
    "required": ["type", "error"],
    "properties": {
        "type": {"type": "string"},
        "error": {
            "type": "object",
            "required": ["type", "message"],
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
        },
    },
}
_HEALTH = {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}}

# what each kind of operation can answer besides 200 (all in the OpenAI error shape)
_AUTH = ("401", "403", "429")
_BODY = ("400", "413", "415")
_ROUTED = ("404", "502", "503", "504")
_DESCRIPTIONS = {
    "400": "invalid request (schema, limits, or the upstream refused it as invalid)",
    "401": "missing or invalid API key",
    "403": "blocked by the policy, or no permission",
    "404": "unknown model alias",
    "413": "body larger than the limit",
    "415": "keyless mode: the body must be application/json",
    "429": "rate, budget or failed-authentication limit",
    "501": "not configured",
    "502": "the upstream failed",
    "503": "no backend available",
    "504": "no backend answered within the deadline",
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _responses(ok: dict[str, Any], *statuses: str, error: str = "Error") -> dict[str, Any]:
    out: dict[str, Any] = {"200": {"description": "OK", **ok}}
    err = _json({"$ref": f"#/components/schemas/{error}"})
    for status in statuses:
        out[status] = {"description": _DESCRIPTIONS[status], **err}
    return out


def _bearer() -> list[dict[str, list[str]]]:
    return [{"bearer": []}, {}]  # keyless (loopback) gateways accept no key


def _request_schema(
    model: type[BaseModel], prefix: str, components: dict[str, Any]
) -> dict[str, Any]:
    """`model`'s JSON schema; its definitions go into `components` under `prefix` (two
    client APIs may each name a part alike, e.g. their stream options)."""
    schema = model.model_json_schema(ref_template="#/components/schemas/" + prefix + "{model}")
    components.update({prefix + name: d for name, d in schema.pop("$defs", {}).items()})
    return schema


def _post(
    operation: str, request: str, ok: dict[str, Any], *, anthropic: bool = False
) -> dict[str, Any]:
    security = [{"bearer": []}, {"x-api-key": []}, {}] if anthropic else _bearer()
    return {
        "post": {
            "operationId": operation,
            "security": security,
            "requestBody": {"required": True, **_json({"$ref": f"#/components/schemas/{request}"})},
            "responses": _responses(
                ok, *_BODY, *_AUTH, *_ROUTED, error="AnthropicError" if anthropic else "Error"
            ),
        }
    }


def _client_api_paths(aliases: list[str], components: dict[str, Any]) -> dict[str, Any]:
    """The client APIs beside chat: OpenAI Responses, Anthropic Messages, legacy completions."""
    for name, model, prefix in (
        ("ResponsesRequest", ResponsesRequest, "Responses"),
        ("MessagesRequest", MessagesRequest, "Messages"),
        ("CountTokensRequest", CountTokensRequest, "Messages"),
        ("CompletionRequest", CompletionRequest, "Completion"),
    ):
        schema = _request_schema(model, prefix, components)
        if aliases:
            schema["properties"]["model"] = {
                **schema["properties"]["model"],
                "enum": sorted(aliases),
            }
        components[name] = schema
    components.update(
        Response=_RESPONSE,
        Message=_MESSAGE,
        TokenCount=_TOKEN_COUNT,
        AnthropicError=_ANTHROPIC_ERROR,
    )
    stream = {"text/event-stream": {"schema": {"type": "string"}}}

    def ok(schema: str, streamed: bool = True) -> dict[str, Any]:
        body = _json({"$ref": f"#/components/schemas/{schema}"})["content"]
        return {"content": {**body, **(stream if streamed else {})}}

    return {
        "/v1/responses": _post("createResponse", "ResponsesRequest", ok("Response")),
        "/v1/messages": _post("createMessage", "MessagesRequest", ok("Message"), anthropic=True),
        "/v1/messages/count_tokens": _post(
            "countMessageTokens",
            "CountTokensRequest",
            ok("TokenCount", streamed=False),
            anthropic=True,
        ),
        "/v1/completions": _post("createCompletion", "CompletionRequest", ok("ChatCompletion")),
    }


def build_document(aliases: list[str]) -> dict[str, Any]:
    """The document for a gateway serving `aliases`."""
    chat = ChatRequest.model_json_schema(ref_template=_REF)
    components: dict[str, Any] = dict(chat.pop("$defs", {}))
    if aliases:
        chat["properties"]["model"] = {**chat["properties"]["model"], "enum": sorted(aliases)}
    components.update(
        ChatRequest=chat,
        Error=_ERROR,
        Usage=_USAGE,
        ChatCompletion=_COMPLETION,
        EmbeddingsRequest=_EMBEDDINGS_REQUEST,
        Embeddings=_EMBEDDINGS,
        ModelList=_MODELS,
        Health=_HEALTH,
    )
    stream = {"text/event-stream": {"schema": {"type": "string"}}}
    completion_ok = {
        "content": {**_json({"$ref": "#/components/schemas/ChatCompletion"})["content"], **stream}
    }
    client_apis = _client_api_paths(aliases, components)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Geçit",
            "version": "1",
            "description": "An OpenAI-compatible gateway; errors use the OpenAI shape.",
        },
        "paths": {
            "/v1/chat/completions": {
                "post": {
                    "operationId": "createChatCompletion",
                    "security": _bearer(),
                    "requestBody": {
                        "required": True,
                        **_json({"$ref": "#/components/schemas/ChatRequest"}),
                    },
                    "responses": _responses(completion_ok, *_BODY, *_AUTH, *_ROUTED),
                }
            },
            **client_apis,
            "/v1/embeddings": {
                "post": {
                    "operationId": "createEmbedding",
                    "security": _bearer(),
                    "requestBody": {
                        "required": True,
                        **_json({"$ref": "#/components/schemas/EmbeddingsRequest"}),
                    },
                    "responses": _responses(
                        _json({"$ref": "#/components/schemas/Embeddings"}),
                        *_BODY,
                        *_AUTH,
                        *_ROUTED,
                        "501",
                    ),
                }
            },
            "/v1/models": {
                "get": {
                    "operationId": "listModels",
                    "security": _bearer(),
                    "responses": _responses(
                        _json({"$ref": "#/components/schemas/ModelList"}), *_AUTH
                    ),
                }
            },
            "/healthz": {
                "get": {
                    "operationId": "healthz",
                    "security": [{}],
                    "responses": _responses(_json({"$ref": "#/components/schemas/Health"})),
                }
            },
            "/readyz": {
                "get": {
                    "operationId": "readyz",
                    "security": [{}],
                    "responses": {
                        **_responses(_json({"$ref": "#/components/schemas/Health"})),
                        "503": {
                            "description": "not ready (or draining)",
                            **_json({"$ref": "#/components/schemas/Health"}),
                        },
                    },
                }
            },
        },
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "x-api-key": {"type": "apiKey", "in": "header", "name": "x-api-key"},
            },
        },
    }


def build_openapi_router() -> APIRouter:
    router = APIRouter()

    @router.get("/openapi.json")
    async def openapi(request: Request) -> Response:
        rt = request.app.state.runtime
        doc = build_document(list(rt.policy.aliases))
        return Response(orjson.dumps(doc), media_type="application/json")

    return router
