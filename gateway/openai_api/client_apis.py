"""The client APIs served beside OpenAI chat, each a thin translation onto the chat path:
OpenAI Responses, Anthropic Messages, legacy completions."""

from __future__ import annotations

from fastapi import APIRouter

from gateway.openai_api.anthropic import build_anthropic_router
from gateway.openai_api.completions import build_completions_router
from gateway.openai_api.responses import build_responses_router


def build_client_apis_router() -> APIRouter:
    router = APIRouter()
    for sub in (build_responses_router(), build_anthropic_router(), build_completions_router()):
        router.include_router(sub)
    return router
