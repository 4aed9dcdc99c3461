"""The router's classifiers: one per sensitivity configuration, shared with the redactor. A
policy change that leaves `sensitivity` alone keeps the classifier; a new configuration is
built on a worker thread (compiling the lexicons takes ~0.3 s, which the event loop must not
spend), once however many requests wait for it."""

from __future__ import annotations

import asyncio
import threading

from gateway.core.types import ChatRequest
from gateway.policy.loader import CompiledPolicy, load_text
from gateway.sensitivity import Classifier, SensitivityConfig
from gateway.service.router import ClassifierCache, redactor_for


def _policy(budget_ms: int = 250, comment: str = "") -> CompiledPolicy:
    return load_text(f"""
version: 1
# {comment}
backends:
  node: {{kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: m}}
aliases:
  chat: {{backends: [node]}}
sensitivity: {{time_budget_ms: {budget_ms}}}
""")


class _Recording(ClassifierCache):
    """Records the thread each classifier is built on."""

    def __init__(self) -> None:
        super().__init__()
        self.built_on: list[str] = []

    def _build(self, config: SensitivityConfig) -> Classifier:
        self.built_on.append(threading.current_thread().name)
        return super()._build(config)


def test_another_policy_with_the_same_sensitivity_keeps_the_classifier() -> None:
    cache = _Recording()
    first = cache.for_policy(_policy(comment="one"))
    other = _policy(comment="two")
    assert other.sha256 != _policy(comment="one").sha256
    assert asyncio.run(cache.for_policy_off_loop(other)) is first
    assert len(cache.built_on) == 1


def test_new_sensitivity_settings_are_built_once_off_the_loop_thread() -> None:
    cache = _Recording()
    cache.for_policy(_policy())
    changed = _policy(budget_ms=500)

    async def many() -> list[Classifier]:
        return list(await asyncio.gather(*(cache.for_policy_off_loop(changed) for _ in range(20))))

    built = asyncio.run(many())
    assert all(c is built[0] for c in built)
    assert built[0].config.time_budget_ms == 500
    main = threading.main_thread().name
    assert cache.built_on[0] == main  # start-up, before serving
    assert cache.built_on[1:] != [] and main not in cache.built_on[1:]
    assert len(cache.built_on) == 2


def test_the_redactor_uses_the_cache_it_is_given_and_builds_nothing_more() -> None:
    compiled = _policy()
    cache = _Recording()
    cache.for_policy(compiled)  # as the router does at start-up
    redact = redactor_for(lambda: compiled, cache)
    request = ChatRequest.model_validate(
        {"model": "chat", "messages": [{"role": "user", "content": "yazın: ali@ornek.com.tr"}]}
    )
    redacted, mapping = asyncio.run(redact(request, None))
    assert "ali@ornek.com.tr" not in redacted.model_dump_json()
    assert len(mapping) == 1
    assert len(cache.built_on) == 1  # the router's classifier, not a second one
