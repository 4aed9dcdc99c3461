"""A part the classifier cannot read makes the request special, and the decision's explanation
says which part; the policy can choose to classify only the text around it."""

from __future__ import annotations

from typing import Any

from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.explain import route
from gateway.policy.loader import load_text
from gateway.sensitivity import Classifier

POLICY = """
version: 1
backends:
  onprem: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:1", model: m}
aliases:
  a: {backends: [onprem]}
"""


def _trace(sensitivity: str = "") -> dict[str, Any]:
    compiled = load_text(POLICY + sensitivity)
    request = ChatRequest.model_validate(
        {
            "model": "a",
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Bu resimde ne görüyorsun?"},
                        {
                            "type": "image_url",
                            "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="},
                        },
                    ],
                }
            ],
        }
    )
    decision = route(
        compiled, Classifier(compiled.policy.sensitivity), RequestContext(request_id="t"), request
    )
    return decision.trace()


def test_an_image_makes_the_request_special_and_the_explanation_names_the_part() -> None:
    trace = _trace()
    assert trace["data_class"] == "special"
    note = str(trace["sensitivity"]["note"])
    assert "cannot read" in note and "messages[0].content[1] (image_url)" in note


def test_the_policy_can_classify_only_the_text_around_unreadable_parts() -> None:
    trace = _trace("sensitivity: {unreadable_parts: as_text_only}\n")
    assert trace["data_class"] == "public"
    assert "note" not in trace["sensitivity"]
