"""Policy YAML the end-to-end tests share: the priced cloud backend that may receive public and
personal data under a Turkish SCC (notified, so the transfer check passes), for tests that
watch what reaches a cloud."""

from __future__ import annotations

TIMEOUTS = "{connect_s: 1, first_token_s: 5, total_s: 10}"


def cloud_backend(
    base_url: str,
    *,
    price_in: str = "0.1",
    price_out: str = "0.2",
    timeouts: str = TIMEOUTS,
) -> str:
    """The `cloud:` entry of a `backends:` map, indented for it (no newline at its end)."""
    return f"""  cloud:
    kind: openai_compat
    zone: cloud
    base_url: "{base_url}"
    model: m
    price: {{input_per_mtok: "{price_in}", output_per_mtok: "{price_out}"}}
    timeouts: {timeouts}
    transfer:
      mechanism: tr_scc
      module: C2P
      provider_legal_name: Emülatör Bulut A.Ş.
      signed: 2025-01-06
      notified: 2025-01-08
      notification_channel: kep
      classes: [public, personal]"""
