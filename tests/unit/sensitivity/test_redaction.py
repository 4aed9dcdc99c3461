from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.core.types import ChatRequest
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.redaction import RedactionMap, Redactor

from .helpers import group4, make_iban, make_tckn

TCKN = make_tckn("123456789")
IBAN = group4(make_iban("TR", "0006100519786457841326"))
NAME = "Ayşe Yılmaz"
PHONE = "0532 123 45 67"


def _request() -> ChatRequest:
    return ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "system", "content": f"Müşteri: Sayın {NAME}, tel {PHONE}"},
                {"role": "user", "content": [{"type": "text", "text": f"TC {TCKN}, IBAN {IBAN}"}]},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "function": {"name": "pay", "arguments": f'{{"iban": "{IBAN}"}}'},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": f"ok {TCKN}"},
            ],
        }
    )


def test_backend_receives_no_original_value_and_original_request_untouched() -> None:
    req = _request()
    before = req.model_dump_json()
    redacted, mapping = Redactor(Classifier()).redact_request(req)
    wire = redacted.model_dump_json()
    for value in (TCKN, IBAN, NAME, PHONE):
        assert value not in wire
    assert req.model_dump_json() == before
    assert "[TCKN_1]" in wire and "[IBAN_1]" in wire and "[AD_SOYAD_1]" in wire
    # the same value gets the same placeholder everywhere
    assert wire.count("[IBAN_1]") == 2 and "[IBAN_2]" not in wire
    assert len(mapping) == 4
    assert TCKN not in repr(mapping)


def test_restore_non_streamed() -> None:
    _, mapping = Redactor(Classifier()).redact_request(_request())
    answer = "Kaydedildi: [AD_SOYAD_1], [TCKN_1], [IBAN_1]. [UNKNOWN_9] kalır."
    assert mapping.restore(answer) == f"Kaydedildi: {NAME}, {TCKN}, {IBAN}. [UNKNOWN_9] kalır."


def _stream(mapping: RedactionMap, chunks: list[str]) -> str:
    r = mapping.stream_restorer()
    return "".join(r.feed(c) for c in chunks) + r.flush()


def test_stream_restore_every_split_point() -> None:
    _, mapping = Redactor(Classifier()).redact_request(_request())
    answer = "Sn. [AD_SOYAD_1] ([TCKN_1]) hesabı [IBAN_1] [x] [TCKN_"
    expected = mapping.restore(answer)
    for i in range(len(answer) + 1):
        for j in range(i, len(answer) + 1):
            assert _stream(mapping, [answer[:i], answer[i:j], answer[j:]]) == expected


@given(cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=12))
def test_stream_restore_random_chunking(cuts: list[int]) -> None:
    mapping = RedactionMap()
    ph = mapping.placeholder_for("TCKN", TCKN)
    answer = f"a[{ph}]b{ph}{ph}[ c [TC"
    points = sorted({min(c, len(answer)) for c in cuts})
    chunks = [answer[a:b] for a, b in zip([0, *points], [*points, len(answer)], strict=True)]
    assert _stream(mapping, chunks) == answer.replace(ph, TCKN)


def test_stream_holds_back_only_possible_placeholders() -> None:
    mapping = RedactionMap()
    mapping.placeholder_for("IBAN", "TR00")
    r = mapping.stream_restorer()
    assert r.feed("x [a") == "x [a"  # cannot start a placeholder: emitted at once
    assert r.feed(" [IB") == " "
    assert r.feed("AN_1] y") == "TR00 y"
    assert r.flush() == ""


def test_redaction_refuses_when_classifier_fails_closed() -> None:
    from gateway.sensitivity.config import SensitivityConfig

    clf = Classifier(SensitivityConfig(time_budget_ms=1e-6))
    with pytest.raises(RuntimeError, match="cannot redact"):
        Redactor(clf).redact_request(_request())


def _python_steps(fn: Callable[[], object]) -> int:
    """How many Python frames (calls and generator resumptions) `fn` runs: a count of work
    that does not depend on the machine's speed."""
    steps = 0

    def count(_frame: object, event: str, _arg: object) -> None:
        nonlocal steps
        if event == "call":
            steps += 1

    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return steps


def _redact_emails(n: int) -> Callable[[], object]:
    text = " ".join(f"kisi{i}@ornek.com.tr" for i in range(n))
    clf = Classifier()
    clf.classify([text])  # the detectors' work is the same for both sizes: only the map counts

    def run() -> object:
        result = clf.classify([text])
        return Redactor(clf).redact_texts([text], RedactionMap(), result)

    return run


def test_redaction_work_grows_linearly_with_the_number_of_values() -> None:
    """The map's placeholder prefixes are added per new value, never rebuilt from all values:
    twice the values is about twice the work (a rebuild per value made it four times)."""
    small, large = _python_steps(_redact_emails(300)), _python_steps(_redact_emails(600))
    assert large < 2.5 * small


def test_redaction_map_grows_by_each_new_placeholders_own_prefixes() -> None:
    mapping = RedactionMap()
    for i in range(1, 1001):
        mapping.placeholder_for("EPOSTA", f"kisi{i}@ornek.com.tr")
    r = mapping.stream_restorer()
    assert r.feed("x [EPOSTA_10") == "x "
    assert r.feed("00] y") == "kisi1000@ornek.com.tr y"
