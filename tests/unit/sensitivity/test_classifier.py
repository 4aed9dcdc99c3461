from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from gateway.core.types import ChatRequest
from gateway.sensitivity import cli
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.declared import declared_class_from, effective_class

from .helpers import make_tckn, make_vkn

TCKN = make_tckn("123456789")


def test_request_texts_all_roles_tools_and_results() -> None:
    req = ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "system", "content": "Sen bir asistansın."},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "1", "function": {"name": "f", "arguments": f'{{"tc": "{TCKN}"}}'}}
                    ],
                },
                {"role": "tool", "tool_call_id": "1", "content": "Hastamızın HIV testi pozitif."},
            ],
        }
    )
    result = Classifier().classify_request(req)
    assert result.data_class == "special"
    assert {e.type for e in result.entities} == {"TCKN"}
    assert result.categories == ("health",)
    record = json.dumps(result.as_record())
    assert TCKN not in record and "HIV" not in record


def test_detector_switched_off() -> None:
    cfg = SensitivityConfig.model_validate({"detectors": {"tckn": False}})
    assert Classifier(cfg).classify([f"TC {TCKN}"]).data_class == "public"


def test_thresholds() -> None:
    text = "Numara 5321234567 kayıtlı"  # bare mobile, 0.6
    assert Classifier().classify([text]).data_class == "personal"
    strict = SensitivityConfig.model_validate({"thresholds": {"personal": 0.9}})
    assert Classifier(strict).classify([text]).data_class == "public"


def test_allow_list_ignores_company_values() -> None:
    vkn = make_vkn("987654321")
    text = f"VKN: {vkn}, iletişim: ayse.kaya@firma.com.tr"
    assert Classifier().classify([text]).data_class == "personal"
    cfg = SensitivityConfig(allow_list=(vkn, "AYSE.KAYA@firma.com.tr"))
    assert Classifier(cfg).classify([text]).data_class == "public"


def test_custom_pattern_with_checksum_and_category() -> None:
    cfg = SensitivityConfig.model_validate(
        {
            "custom_patterns": [
                {
                    "name": "personel",
                    "regex": r"P-\d{11}",
                    "checksum": None,
                    "entity_type": "PERSONEL_NO",
                },
                {"name": "uye", "regex": r"\bU(\d{11})\b", "checksum": "tckn"},
                {"name": "protokol", "regex": r"PRT-\d{6}", "category": "health"},
            ]
        }
    )
    clf = Classifier(cfg)
    assert [e.type for e in clf.classify(["kayıt P-12345678901"]).entities] == ["PERSONEL_NO"]
    assert clf.classify([f"üye U{TCKN}"]).entities[0].type == "UYE"
    assert clf.classify(["üye U12345678901"]).data_class == "public"  # checksum fails
    assert clf.classify(["dosya PRT-123456"]).categories == ("health",)


def test_custom_terms_per_category() -> None:
    cfg = SensitivityConfig.model_validate({"custom_terms": {"health": ["Glifor*"]}})
    assert Classifier(cfg).classify(["Glifor 1000 siparişi"]).categories == ("health",)
    need = SensitivityConfig.model_validate(
        {"custom_terms": {"health": ["Glifor*"]}, "custom_terms_need_subject": True}
    )
    assert Classifier(need).classify(["Glifor 1000 siparişi"]).data_class == "public"
    assert Classifier(need).classify(["Glifor kullanıyorum"]).data_class == "special"


def test_config_rejects_unknown_keys_and_bad_regex() -> None:
    with pytest.raises(ValidationError):
        SensitivityConfig.model_validate({"detectorz": {}})
    with pytest.raises(ValidationError, match="regex does not compile"):
        SensitivityConfig.model_validate({"custom_patterns": [{"name": "x", "regex": "("}]})


def test_fail_closed_on_error(monkeypatch: pytest.MonkeyPatch) -> None:
    clf = Classifier()

    def boom(*_: object) -> None:
        raise ValueError(f"secret {TCKN}")

    monkeypatch.setattr(clf._detectors, "run", boom)
    result = clf.classify(["merhaba"])
    assert result.data_class == "special"
    assert result.reason == "classifier error: ValueError"


def test_fail_closed_on_time_budget() -> None:
    clf = Classifier(SensitivityConfig(time_budget_ms=0.000001))
    result = clf.classify(["merhaba dünya " * 100])
    assert result.data_class == "special"
    assert result.reason is not None and "time budget" in result.reason


@pytest.mark.parametrize(
    ("declared", "detected", "effective"),
    [
        (None, "personal", "personal"),
        ("public", "special", "special"),
        ("special", "public", "special"),
        ("personal", "public", "personal"),
    ],
)
def test_effective_class(declared: str | None, detected: str, effective: str) -> None:
    assert effective_class(declared, detected) == effective  # type: ignore[arg-type]


def test_declared_class_from_header_and_metadata() -> None:
    assert declared_class_from({"X-Data-Class": "Personal"}, None) == "personal"
    assert declared_class_from({}, {"data_class": "special"}) == "special"
    assert declared_class_from({"x-data-class": "public"}, {"data_class": "personal"}) == "personal"
    assert declared_class_from({}, None) is None
    with pytest.raises(ValueError, match="expected one of public, personal, special"):
        declared_class_from({"x-data-class": "secret"}, None)


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    return parser.parse_args(argv)


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    args = _parse(["classify", f"TC {TCKN}"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["label"] == "personal" and out["entities"] == [{"type": "TCKN", "count": 1}]


def test_cli_jsonl(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"id": "a", "text": "Diyabet nedir?"})
        + "\n"
        + json.dumps({"id": "b", "text": "Diyabetim var ve TC'm " + TCKN})
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    args = _parse(["classify", "--jsonl", str(src), "-o", str(out)])
    assert cli.run(args) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == {
        "id": "a",
        "label": "public",
        "entities": [],
        "categories": [],
        "band": "confident",
        "stage": "model",
    }
    assert rows[1]["label"] == "special" and rows[1]["categories"] == ["health"]
    assert rows[1]["band"] == "confident" and rows[1]["stage"] == "rules"
    assert TCKN not in out.read_text(encoding="utf-8")
