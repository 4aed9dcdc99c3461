"""`gateway policy explain` shows the class, the band and the stage that decided it: a
discharge summary for a named patient is health data, decided by the rules (an identifier in
the sentence); topic talk is public, decided by the model."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.cli import main
from gateway.sensitivity import judge_file

DEFAULT = Path(__file__).resolve().parents[3] / "policies" / "default.yaml"


def _explain(text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["policy", "explain", str(DEFAULT), "--model", "smollm2", "--text", text]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_epikriz_for_a_named_patient_is_special(capsys: pytest.CaptureFixture[str]) -> None:
    trace = _explain("Hastamız Ayşe Yılmaz (TC 10000000146) için epikriz yaz", capsys)
    assert trace["data_class"] == "special"
    sens = trace["sensitivity"]
    assert isinstance(sens, dict)
    assert sens["categories"] == ["health"]
    assert (sens["band"], sens["stage"]) == ("confident", "rules")
    assert "10000000146" not in json.dumps(trace)


def test_topic_talk_is_public_and_names_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    trace = _explain("Epikriz nasıl yazılır, genel bir şablon ver.", capsys)
    assert trace["data_class"] == "public"
    sens = trace["sensitivity"]
    assert isinstance(sens, dict)
    assert sens["stage"] == "model" and sens["band"] in ("confident", "uncertain")


# the context model is unsure whom this concerns: the language-model judge decides it
UNSURE = "Komşunun oğlu da şeker hastası, onun için tatlı tarifi lazım."
_JUDGE = (
    importlib.util.find_spec("llama_cpp") is not None
    and importlib.util.find_spec(judge_file.CHUNKS[0][0]) is not None
)


@pytest.mark.skipif(not _JUDGE, reason="the `local` extra (llama.cpp, the model)")
def test_a_fresh_process_explains_with_the_judge_as_the_gateway_decides() -> None:
    """`policy explain` in a new process loads the judge before classifying: it shows the
    judge's answer, not the context model's while the model would load in the background."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gateway",
            "policy",
            "explain",
            str(DEFAULT),
            "--model",
            "smollm2",
            "--text",
            UNSURE,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-500:]
    sens = json.loads(proc.stdout)["sensitivity"]
    assert sens["stage"] == "judge"
