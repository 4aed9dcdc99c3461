"""Texts made of nothing but numbers or name cues cost a bounded amount of work per window (the
looks are counted; the time they take is bench/classify.py's to measure, so the budget here is
wide enough for a busy test machine and only says the text is read to its end); and a window
dense with real identifiers is still hidden whole when redacted."""

from __future__ import annotations

import pytest

from gateway.sensitivity import identifiers, name_cues
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.digit_runs import MAX_NUMBER_LOOKS
from gateway.sensitivity.name_cues import MAX_LOOKS

SIZE = 512 << 10
WINDOWS = SIZE // (16 << 10) + 1  # classifier._WINDOW
# ~0.6-0.7 s of one idle core for 512 KB of repeated names; the CI machine took 2.0 s with its
# servers running, so a 2 s budget made the count test a timing test
BUDGET_MS = 20_000


def _repeated(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize(
    "unit", ["0049 30 12345678 ", "+44 20 7946 0958, ", "0532 417 28 93 ", "48213907765 "]
)
def test_numbers_only_text_checks_a_bounded_count(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    calls = _counting(monkeypatch, identifiers, "_classify_digits")
    result = Classifier(SensitivityConfig(time_budget_ms=BUDGET_MS), cache_entries=0).classify(
        [_repeated(unit)]
    )
    assert result.reason is None
    assert calls[0] <= MAX_NUMBER_LOOKS * WINDOWS


@pytest.mark.parametrize("unit", ["Aaaa Bbbblu'nun ", "Melis Karabağlı'ya ", "Ccccoglu Dddd "])
def test_apostrophe_and_surname_text_checks_a_bounded_count(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    calls = _counting(monkeypatch, name_cues, "_pair_ok")
    result = Classifier(SensitivityConfig(time_budget_ms=BUDGET_MS), cache_entries=0).classify(
        [_repeated(unit)]
    )
    assert result.reason is None
    # two apostrophe marks and the '-oğlu' ending, MAX_LOOKS each, per window
    assert calls[0] <= 3 * MAX_LOOKS * WINDOWS


def test_a_dense_list_of_numbers_is_still_hidden_whole() -> None:
    """A window holding hundreds of phone numbers has every one checked and hidden: the
    bound on looks per window is above what real text holds."""
    rows = [f"Ayşe Yılmaz ({i}): +49 30 {1000 + i * 7} {2000 + i * 11}" for i in range(400)]
    text = "\n".join(rows)
    result = Classifier(cache_entries=0).classify([text])
    assert result.data_class == "personal"
    spans = [(f.start, f.end) for f in result.findings if f.kind == "TELEFON"]
    for row_start in (text.index(r) for r in rows):
        number_at = text.index("+49", row_start)
        assert any(s <= number_at + 1 < e for s, e in spans), text[row_start : row_start + 40]


def test_a_log_of_timestamps_stays_public() -> None:
    text = "\n".join(f"{1701234567890 + i * 7919} GET /health 200" for i in range(600))
    assert Classifier(cache_entries=0).classify([text]).data_class == "public"


def test_an_identifier_after_hundreds_of_other_numbers_is_still_found() -> None:
    """A log of timestamps does not use up the checks: the TCKN in its 300th line is found."""
    from tests.unit.sensitivity.helpers import make_tckn

    lines = [f"{1701234567890 + i * 7919} GET /health 200" for i in range(300)]
    lines.append(f"1701236943590 POST /patients tckn={make_tckn('123456789')}")
    found = Classifier(cache_entries=0).classify(["\n".join(lines)])
    assert "TCKN" in {e.type for e in found.entities}
