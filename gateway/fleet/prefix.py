"""Prompt-prefix blocks: chained hashes over what a request shares with earlier ones (the system
prompt, then the conversation so far), and Geçit's own model of which node holds which.

A block's hash covers every block before it, so two requests share a block hash exactly when
they share the whole prefix up to it. Each block carries its estimated token count; the index
keeps, per node, the most recently sent blocks up to that node's KV capacity in tokens (an
LRU, as the engine's own prefix cache evicts), so it forgets what the engine has likely evicted.
Hashes are BLAKE2b digests: no prompt text is kept.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gateway.core.tokens import estimate_text_tokens

BLOCK_CHARS = 512  # ~128 tokens of Turkish or English text


@dataclass(frozen=True, slots=True)
class PrefixBlock:
    key: int
    tokens: int


def prefix_blocks(
    messages: Iterable[tuple[str, str]], block_chars: int = BLOCK_CHARS
) -> tuple[PrefixBlock, ...]:
    """Chained blocks over (role, text) pairs in order: each message is cut into pieces of
    `block_chars` characters; a piece shorter than that ends its message's block."""
    out: list[PrefixBlock] = []
    prev = b""
    for role, text in messages:
        pieces = [text[i : i + block_chars] for i in range(0, len(text), block_chars)] or [""]
        for i, piece in enumerate(pieces):
            head = f"{role}\x00" if i == 0 else ""
            digest = hashlib.blake2b(prev + (head + piece).encode(), digest_size=8).digest()
            tokens = max(1, estimate_text_tokens(piece))
            out.append(PrefixBlock(int.from_bytes(digest, "big"), tokens))
            prev = digest
    return tuple(out)


class PrefixIndex:
    """Per node, an LRU of the prefix blocks last sent there, bounded in tokens."""

    def __init__(self, capacity_tokens: dict[str, int]) -> None:
        self._capacity = dict(capacity_tokens)
        self._blocks: dict[str, OrderedDict[int, int]] = {n: OrderedDict() for n in capacity_tokens}
        self._tokens: dict[str, int] = dict.fromkeys(capacity_tokens, 0)

    def set_capacity(self, node: str, tokens: int) -> None:
        self._capacity[node] = tokens
        self._blocks.setdefault(node, OrderedDict())
        self._tokens.setdefault(node, 0)
        self._evict(node)

    def matched_tokens(self, node: str, blocks: Sequence[PrefixBlock]) -> int:
        """Tokens of the longest leading run of `blocks` the node is thought to hold."""
        held = self._blocks.get(node)
        if not held:
            return 0
        n = 0
        for b in blocks:
            if b.key not in held:
                break
            n += b.tokens
        return n

    def record(self, node: str, blocks: Sequence[PrefixBlock]) -> None:
        held = self._blocks.setdefault(node, OrderedDict())
        self._tokens.setdefault(node, 0)
        # tail first, so the head of a prefix is the most recent and is evicted last
        for b in reversed(blocks):
            if b.key in held:
                held.move_to_end(b.key)
            else:
                held[b.key] = b.tokens
                self._tokens[node] += b.tokens
        self._evict(node)

    def _evict(self, node: str) -> None:
        held, cap = self._blocks[node], self._capacity.get(node, 0)
        while held and self._tokens[node] > cap:
            _, tokens = held.popitem(last=False)
            self._tokens[node] -= tokens
