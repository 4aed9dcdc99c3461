"""What the soak benchmark (bench/soak.py) sends: the policy documents it PUTs (valid ones and
the hostile ones an admin API must refuse) and the bad chat requests, each built once."""

from __future__ import annotations

import json
import os

MIB = 1024 * 1024

# the policy PUT cycle: every third PUT is one of these, in turn; the others are valid
INVALID_POLICIES = (
    "yaml_bomb",
    "binary",
    "secret_env",
    "metadata_host",
    "duplicate_keys",
    "deep_nesting",
)

# the bad chat inputs, picked in turn at random during a bad phase
BAD_KINDS = (
    "oversized",
    "malformed_json",
    "unknown_fields",
    "huge_int",
    "unauthenticated",
    "identifier_dense",
    "client_reset",
)


def policy_text(upstream: str, n: int) -> str:
    """A valid policy, different at each `n` (its comment and objective), so every PUT is a
    real swap: a new compiled policy and new providers."""
    objective = ("ordered", "cheapest")[n % 2]
    return f"""# soak policy #{n}
version: 1
backends:
  primary:
    kind: openai_compat
    zone: on_prem
    base_url: "{upstream}"
    model: emulated-model
    timeouts: {{connect_s: 2, first_token_s: 10, total_s: 30}}
aliases:
  chat: {{backends: [primary]}}
defaults: {{objective: {objective}}}
"""


def invalid_policy(kind: str, upstream: str) -> bytes:
    """A policy document the gateway must refuse (4xx, the running policy unchanged)."""
    valid = policy_text(upstream, 0)
    if kind == "yaml_bomb":  # 447 bytes, 9^8 nodes once expanded
        lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 8)]
        return ("\n".join(lines) + "\n").encode()
    if kind == "binary":
        return os.urandom(4096)
    if kind == "secret_env":  # a backend elsewhere handed the admin key as its credential
        return valid.replace(
            f'base_url: "{upstream}"',
            'base_url: "http://127.0.0.1:9/v1"\n    api_key_env: GECIT_ADMIN_KEY',
        ).encode()
    if kind == "metadata_host":
        return valid.replace(upstream, "http://169.254.169.254/v1").encode()
    if kind == "duplicate_keys":
        return (valid + "version: 1\n").encode()
    if kind == "deep_nesting":
        return ("x: " + "[" * 5000 + "]" * 5000 + "\n").encode()
    raise ValueError(kind)


def make_tckn(first9: str) -> str:
    """A checksum-valid Turkish identity number."""
    d = [int(c) for c in first9]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return f"{first9}{d10}{d11}"


def identifier_dense(values: int = 4000) -> bytes:
    """One message of `values` distinct e-mails and identity numbers (about 150 KB): the
    classification that once held the event loop for tens of seconds."""
    parts = []
    for i in range(values):
        if i % 2:
            parts.append(f"musteri{i}@firma{i % 97}.com.tr")
        else:
            parts.append(make_tckn(f"{10000000 + i * 7:09d}"[:9].replace("0", "1", 1)))
    return chat_body(" ".join(parts))


def chat_body(content: str, **extra: object) -> bytes:
    return json.dumps(
        {"model": "chat", "messages": [{"role": "user", "content": content}], **extra}
    ).encode()


def bad_bodies() -> dict[str, bytes]:
    """The body of each bad chat input that is a plain POST (client_reset and
    unauthenticated are sent differently, see soak.py)."""
    return {
        "oversized": chat_body("x" * (8 * MIB + 1024)),  # past the 8 MiB default: 413
        "malformed_json": b'{"model": "chat", "messages": [',
        "unknown_fields": chat_body(
            "hi",
            base_url="http://127.0.0.1:9/v1",
            api_base="http://127.0.0.1:9/v1",
            fallbacks=[{"model": "x", "api_base": "http://127.0.0.1:9"}],
            mock_response="owned",
        ),
        "huge_int": chat_body("hi", max_tokens=10**30, seed=10**30),
        "identifier_dense": identifier_dense(),
        "unauthenticated": chat_body("who am i"),
    }
