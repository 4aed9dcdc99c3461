"""The records written by others that the context model learns from: what is read, what is
skipped, and that the sets kept for measuring never enter training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.sensitivity.training import human


def _write(path: Path, records: list[dict[str, str]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + "\n", encoding="utf-8")


def test_special_records_are_positive_and_long_ones_are_skipped(tmp_path: Path) -> None:
    _write(
        human.set_path("x", tmp_path),
        [
            {"text": "Eşim Tolga Xanax kullanıyor.", "label": "special", "lang": "tr"},
            {"text": "Tolga'nın telefonu 0532 123 45 67.", "label": "personal", "lang": "tr"},
            {"text": "Xanax nedir?", "label": "public", "category": "health", "lang": "tr"},
            {"text": "a" * (human.MAX_CHARS + 1), "label": "special", "lang": "en"},
        ],
    )
    got = list(human.human_examples(("x",), tmp_path))
    assert [(e.text[:5], e.label) for e in got] == [("Eşim ", 1), ("Tolga", 0), ("Xanax", 0)]
    assert got[2].category == "health"


def test_a_missing_set_is_an_error_not_an_empty_set(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="sensitivity_dev_nope"):
        list(human.human_examples(("nope",), tmp_path))


def test_the_measuring_sets_stay_out_of_training() -> None:
    assert not set(human.TRAINED + human.WORDING_ONLY) & set(human.MEASURED)
    for name in (*human.TRAINED, *human.WORDING_ONLY, *human.MEASURED):
        assert human.set_path(name).exists(), name
    trained = {
        e.text for e in human.human_examples(human.TRAINED + human.WORDING_ONLY, max_chars=None)
    }
    for name in human.MEASURED:
        with human.set_path(name).open(encoding="utf-8") as f:
            measured = {json.loads(line)["text"] for line in f if line.strip()}
        assert not trained & measured, name


def test_every_development_set_has_one_role() -> None:
    roles = [*human.TRAINED, *human.MEASURED, *human.TUNED_ONLY, *human.WORDING_ONLY]
    assert len(roles) == len(set(roles))
    on_disk = {p.name for p in human.DATA_DIR.glob("sensitivity_dev_*.jsonl")}
    assert on_disk == {human.set_path(name).name for name in roles}
