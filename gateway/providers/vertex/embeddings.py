"""Text embeddings through `client.aio.models.embed_content`.

The SDK picks the Vertex method by model: text-embedding-* / text-multilingual-* use `:predict`
(token counts in each prediction's statistics); gemini-embedding-* use `:embedContent` for one
input and `:batchEmbedContents` for several (token count in usageMetadata).
"""

from __future__ import annotations

from google import genai
from google.genai import types

from gateway.core.errors import FailureKind, ProviderError
from gateway.providers.tokens import estimate_text_tokens

BATCH = 100  # inputs per upstream call (Vertex allows up to 250 for text-embedding models)


async def embed_batches(
    client: genai.Client, model: str, inputs: list[str], config: types.EmbedContentConfig
) -> tuple[list[list[float]], int]:
    vectors: list[list[float]] = []
    tokens = 0
    for start in range(0, len(inputs), BATCH):
        batch = inputs[start : start + BATCH]
        response = await client.aio.models.embed_content(model=model, contents=batch, config=config)
        got = [list(e.values or []) for e in response.embeddings or []]
        if len(got) != len(batch) or any(not v for v in got):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"embedding backend returned {len(got)} vectors for {len(batch)} inputs",
            )
        vectors.extend(got)
        tokens += _tokens(response, batch)
    return vectors, tokens


def _tokens(response: types.EmbedContentResponse, batch: list[str]) -> int:
    meta = response.usage_metadata
    if meta is not None and meta.prompt_token_count:
        return meta.prompt_token_count
    counts = [
        e.statistics.token_count
        for e in response.embeddings or []
        if e.statistics is not None and e.statistics.token_count is not None
    ]
    if len(counts) == len(batch):
        return int(sum(counts))
    return sum(estimate_text_tokens(t) for t in batch)
