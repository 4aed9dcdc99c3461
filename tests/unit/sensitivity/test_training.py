"""The second stage's model is rebuilt from the repository's files by one command, the same
files give the same weights, and the overlap check prints counts only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gateway.sensitivity import train
from gateway.sensitivity.subject import MODEL_PATH
from gateway.sensitivity.training import overlap
from gateway.sensitivity.training.generate import examples, handwritten


def test_generated_sentences_are_deterministic_and_labelled_both_ways() -> None:
    first = list(examples(seed=5, per_category=40))
    assert first == list(examples(seed=5, per_category=40))
    assert {e.label for e in first} == {0, 1}
    assert {e.label for e in handwritten()} == {0, 1}


def test_training_rebuilds_the_shipped_model(tmp_path: Path) -> None:
    out = tmp_path / "model.json"
    assert train.main(["--out", str(out), "--dev", str(tmp_path / "absent.jsonl")]) == 0
    assert json.loads(out.read_text()) == json.loads(MODEL_PATH.read_text()), (
        "the shipped model is stale: run python -m gateway.sensitivity.train"
    )


def test_overlap_counts_shared_normalised_sentences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = next(e.text for e in handwritten() if len(e.text) > 20)
    secret = "Bu cümle eğitim verisinde hiç geçmeyen bir cümledir."
    path = tmp_path / "set.jsonl"
    path.write_text(
        json.dumps({"id": "x1", "text": shared.upper() + " " + secret}) + "\n", encoding="utf-8"
    )
    assert overlap.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith("shared: 1")
    assert secret not in out and shared not in out and "x1" not in out


def test_a_model_file_is_replaced_whole(tmp_path: Path) -> None:
    # a classifier loading the model while it is rebuilt reads the old file or the new one
    target = tmp_path / "model.json"
    target.write_text('{"old": true}\n', encoding="utf-8")
    seen: list[str] = []
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        seen.append(Path(dst).read_text(encoding="utf-8"))  # still the old one, whole
        real_replace(src, dst)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "replace", replace)
        train.write_replacing(target, '{"new": true}\n')
    assert seen == ['{"old": true}\n']
    assert target.read_text(encoding="utf-8") == '{"new": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]
