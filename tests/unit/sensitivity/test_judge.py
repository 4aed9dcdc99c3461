"""The language-model judge of the special categories' second stage: asked only for sentences
where a topic fired and the context model is unsure, at most `max_sentences` per request,
never past the time budget; when the model is missing or fails the context model decides.
The last tests load the real model (the `local` extra) and check clear cases each way."""

from __future__ import annotations

import importlib.util
import math
import time
from collections.abc import Iterator

import pytest

from gateway.core.types import ChatRequest
from gateway.sensitivity import detect, judge_file
from gateway.sensitivity import judge as judge_mod
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import Judge as JudgeSettings
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.judge import Allowance, Head, Judge, load_head

# the context model is unsure about each of these (probability inside the judge's band)
UNSURE = (
    "Komşunun oğlu da şeker hastası, onun için tatlı tarifi lazım.",
    "Toplantıya diyabetli bir misafir gelecek, ikram ne olsun?",
    "Sendikaya üye olanların listesi İK'da duruyor.",
)
NO_TOPIC = "Üçüncü çeyrek satış sonuçlarını tabloya dök ve bölge müdürlerine gönder."


class FakeModel:
    """Stands for JudgeModel: one feature, recorded calls, or a given exception."""

    def __init__(self, feature: float = 5.0, error: Exception | None = None) -> None:
        self.feature = feature
        self.error = error
        self.sentences: list[str] = []

    def features(self, sentence: str, deadline: float = math.inf) -> list[float]:
        self.sentences.append(sentence)
        if self.error is not None:
            raise self.error
        return [self.feature]


def _head() -> Head:
    # z = logit(context p) + feature: a feature of +5 makes an unsure sentence special
    return Head((1.0, 1.0), 0.0, 0.03, 0.97, "test")


def _judge(model: FakeModel | None, settings: JudgeSettings | None = None) -> Judge:
    return Judge(settings or JudgeSettings(enabled=True), head=_head(), _model=model)  # type: ignore[arg-type]


@pytest.fixture
def with_judge(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Judge]]:
    """Classifiers built in the test get the judge the test puts in the list."""
    made: list[Judge] = []
    monkeypatch.setattr(detect, "shared_judge", lambda settings: made[0])
    yield made


def _classifier(**judge: object) -> Classifier:
    judge.setdefault("enabled", True)
    config = SensitivityConfig(time_budget_ms=60_000, judge=JudgeSettings(**judge))  # type: ignore[arg-type]
    return Classifier(config, cache_entries=16)


def test_an_unsure_sentence_is_put_to_the_judge_and_it_decides(with_judge: list[Judge]) -> None:
    model = FakeModel(feature=5.0)
    with_judge.append(_judge(model))
    res = _classifier().classify([UNSURE[0]])
    assert model.sentences == [UNSURE[0]]
    assert res.data_class == "special" and res.stage == "judge"
    model.feature = -5.0
    res = _classifier().classify([UNSURE[1]])
    assert res.data_class == "public" and res.stage == "judge"


def test_no_topic_and_sure_sentences_never_reach_the_judge(with_judge: list[Judge]) -> None:
    model = FakeModel()
    with_judge.append(_judge(model))
    clf = _classifier()
    clf.classify([NO_TOPIC])
    clf.classify(["Annem geçen ay meme kanseri teşhisi aldı."])  # the context model is sure
    clf.classify(["Diyabetim var, şekerim 300 çıktı."])  # the rules decide
    assert model.sentences == []


def test_the_cap_limits_sentences_per_request_and_the_rest_falls_back(
    with_judge: list[Judge],
) -> None:
    model = FakeModel()
    with_judge.append(_judge(model))
    clf = _classifier(max_sentences=2)
    res = clf.classify(list(UNSURE))
    assert len(model.sentences) == 2
    assert res.data_class == "special"
    # the text the cap left to the context model is not remembered: next time it may be judged
    assert len(clf._cache) == 2
    model.sentences.clear()
    clf.classify([UNSURE[2]])
    assert model.sentences == [UNSURE[2]]


def test_the_band_includes_its_edges_and_nothing_outside() -> None:
    judge = _judge(FakeModel())
    head = judge.head
    assert head is not None
    assert judge.wants(head.low) and judge.wants(head.high)
    assert not judge.wants(math.nextafter(head.low, 0.0))
    assert not judge.wants(math.nextafter(head.high, 1.0))


# questions about a topic and log lines that point at no one; the context model is unsure
# of each
NOBODYS_QUESTIONS = (
    "Sendikaya üye olmak için işverenden izin almak gerekir mi?",
    "Oruç tutarken ilaç almak orucu bozar mı?",
    "2025-03-01 INFO [lab-sync] rows=120 diagnoses_merged=17 status=OK",
    "config: { diagnosis_visible: false }",
)


@pytest.mark.parametrize("text", NOBODYS_QUESTIONS)
def test_the_judge_cannot_make_a_question_or_log_line_about_no_one_special(
    with_judge: list[Judge], text: str
) -> None:
    model = FakeModel(feature=8.0)  # the judge is sure it is about someone
    with_judge.append(_judge(model))
    res = _classifier().classify([text])
    assert model.sentences, "the question was not put to the judge"
    # public whichever hit of the sentence the verdict names (the judge's or a lower one)
    assert res.data_class == "public"


def test_the_judge_still_lowers_a_question_about_no_one(with_judge: list[Judge]) -> None:
    model = FakeModel(feature=-8.0)
    with_judge.append(_judge(model))
    res = _classifier().classify([NOBODYS_QUESTIONS[0]])
    assert res.data_class == "public" and res.stage == "judge" and res.band == "confident"


def test_the_judge_can_still_make_a_question_about_someone_special(
    with_judge: list[Judge],
) -> None:
    model = FakeModel(feature=8.0)
    with_judge.append(_judge(model))
    # the neighbour's son is someone, though no first-person cue points at him; the
    # context model is unsure of it
    res = _classifier().classify(["Komşunun oğlu da şeker hastası, onun için tatlı tarifi var mı?"])
    assert model.sentences and res.data_class == "special" and res.stage == "judge"


def test_a_cap_of_zero_turns_the_judge_off(with_judge: list[Judge]) -> None:
    model = FakeModel()
    with_judge.append(_judge(model))
    res = _classifier(max_sentences=0).classify([UNSURE[0]])
    assert model.sentences == [] and res.stage == "model"


def test_the_time_budget_is_honoured() -> None:
    allowance = Allowance(sentences=5, time_s=0.05, reserve_s=0.1)
    judge = _judge(FakeModel())
    assert judge.probability(UNSURE[0], 0.5, allowance) is None
    assert allowance.wanted == 1 and allowance.judged == 0
    allowance = Allowance(sentences=5, time_s=10, reserve_s=0.1)
    assert judge.probability(UNSURE[0], 0.5, allowance) == pytest.approx(1 / (1 + math.exp(-5)))
    assert allowance.judged == 1


def test_a_model_stopped_at_the_deadline_leaves_the_context_model_in_charge(
    with_judge: list[Judge],
) -> None:
    from gateway.sensitivity.judge_model import JudgeTimeout

    model = FakeModel(error=JudgeTimeout("late"))
    judge = _judge(model)
    with_judge.append(judge)
    clf = _classifier()
    res = clf.classify([UNSURE[0]])
    assert res.stage == "model" and res.reason is None
    assert judge.error is None  # a timeout is no failure: the next sentence is asked again
    assert len(clf._cache) == 0


def test_a_failing_model_leaves_the_context_model_in_charge(with_judge: list[Judge]) -> None:
    model = FakeModel(error=RuntimeError("llama_decode returned -1"))
    judge = _judge(model)
    with_judge.append(judge)
    res = _classifier().classify([UNSURE[0]])
    assert res.stage == "model" and res.reason is None
    assert judge.error is not None and "RuntimeError" in judge.error
    assert not judge.wants(0.5)  # not asked again in this process


def test_a_missing_model_package_leaves_the_context_model_in_charge(
    with_judge: list[Judge], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    pytest.importorskip("numpy")
    from gateway.sensitivity.judge_model import prompt_digest

    monkeypatch.setattr(judge_file, "CHUNKS", (("gecit_no_such_chunk_package", "x.part00"),))
    head = Head((1.0, 1.0), 0.0, 0.03, 0.97, prompt_digest())
    judge = Judge(JudgeSettings(enabled=True, cache_dir=str(tmp_path)), head=head)
    with_judge.append(judge)
    assert not judge.load()
    res = _classifier().classify([UNSURE[0]])
    assert res.stage == "model"
    assert judge.error is not None and "not installed" in judge.error


def test_a_model_not_loaded_yet_is_loaded_in_the_background(
    with_judge: list[Judge], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading takes seconds: a classification never waits for it, the context model decides
    until the model is there."""
    judge = _judge(None)
    loaded = FakeModel()

    def slow_open(settings: JudgeSettings, head: Head | None) -> tuple[FakeModel, None]:
        time.sleep(0.05)
        return loaded, None

    monkeypatch.setattr(judge_mod, "_open", slow_open)
    with_judge.append(judge)
    clf = _classifier()
    t0 = time.perf_counter()
    assert clf.classify([UNSURE[0]]).stage == "model"
    assert time.perf_counter() - t0 < 0.05
    assert judge._loader is not None
    judge._loader.join()
    assert clf.classify([UNSURE[0]]).stage == "judge"  # the first answer was not remembered


def test_a_head_for_another_prompt_is_not_used(with_judge: list[Judge]) -> None:
    pytest.importorskip("numpy")
    judge = Judge(JudgeSettings(), head=_head())  # prompt digest "test"
    assert not judge.load()
    assert judge.error is not None and "another prompt" in judge.error


def test_on_by_default_and_off_when_the_policy_says_so() -> None:
    assert SensitivityConfig().judge.enabled
    assert Classifier().judge is not None
    clf = Classifier(SensitivityConfig(judge=JudgeSettings(enabled=False)))
    assert clf.judge is None
    assert not clf.warm_judge()
    assert clf.wall_budget_s == pytest.approx(clf.config.time_budget_ms / 1000)
    assert clf.classify([UNSURE[0]]).stage == "model"


class SlowModel(FakeModel):
    """A model that takes `cost_s` per sentence and, like llama.cpp's abort callback, stops
    at the deadline it is given."""

    def __init__(self, cost_s: float, feature: float = 5.0) -> None:
        super().__init__(feature)
        self.cost_s = cost_s

    def features(self, sentence: str, deadline: float = math.inf) -> list[float]:
        from gateway.sensitivity.judge_model import JudgeTimeout

        self.sentences.append(sentence)
        left = deadline - time.perf_counter()
        time.sleep(max(0.0, min(self.cost_s, left)))
        if left < self.cost_s:
            raise JudgeTimeout("late")
        return [self.feature]


def test_the_judges_time_comes_on_top_of_the_detectors_budget(with_judge: list[Judge]) -> None:
    """A model call longer than the detectors' whole budget does not make the classification
    fail closed: the judge has its own time."""
    with_judge.append(_judge(SlowModel(0.12), JudgeSettings(enabled=True, time_budget_ms=500)))
    config = SensitivityConfig(
        time_budget_ms=60, judge=JudgeSettings(enabled=True, time_budget_ms=500)
    )
    res = Classifier(config, cache_entries=0).classify([UNSURE[0]])
    assert res.reason is None
    assert res.stage == "judge" and res.data_class == "special"


def test_the_judges_own_budget_bounds_what_it_adds(with_judge: list[Judge]) -> None:
    """A second sentence that would overrun the judge's time is stopped at it, a third is not
    started; the context model decides those, and the classification is not failed."""
    model = SlowModel(0.08)
    settings = JudgeSettings(enabled=True, max_sentences=3, time_budget_ms=120, reserve_ms=0)
    with_judge.append(_judge(model, settings))
    config = SensitivityConfig(time_budget_ms=60_000, judge=settings)
    res = Classifier(config, cache_entries=0).classify(list(UNSURE))
    assert model.sentences == list(UNSURE[:2])  # the second was stopped, the third not begun
    assert res.reason is None and res.data_class == "special"


async def test_the_event_loop_waits_for_the_judges_time_too(with_judge: list[Judge]) -> None:
    """The request path waits for the detectors' budget and the judge's, not the first only."""
    settings = JudgeSettings(enabled=True, time_budget_ms=500)
    with_judge.append(_judge(SlowModel(0.12), settings))
    clf = Classifier(SensitivityConfig(time_budget_ms=60, judge=settings), cache_entries=0)
    assert clf.wall_budget_s == pytest.approx(0.56)
    res = await clf.classify_request_bounded(_request(UNSURE[1]))
    assert res.reason is None and res.stage == "judge"


def _request(text: str) -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": text}]}
    )


async def test_the_event_loop_never_waits_for_the_model(with_judge: list[Judge]) -> None:
    """A short request is classified on the loop without the judge; only one that wants it
    goes to a worker thread."""
    import threading

    seen: list[str] = []

    class ThreadModel(FakeModel):
        def features(self, sentence: str, deadline: float = math.inf) -> list[float]:
            seen.append(threading.current_thread().name)
            return super().features(sentence, deadline)

    with_judge.append(_judge(ThreadModel()))
    clf = _classifier()
    res = await clf.classify_request_bounded(_request(UNSURE[0]))
    assert res.stage == "judge" and res.data_class == "special"
    assert seen and threading.main_thread().name not in seen
    res = await clf.classify_request_bounded(_request(NO_TOPIC))
    assert res.data_class == "public" and len(seen) == 1


def test_the_shipped_head_fits_the_shipped_prompt() -> None:
    pytest.importorskip("numpy")
    from gateway.sensitivity.judge_model import N_FEATURES, prompt_digest

    head = load_head()
    assert head is not None, "judge_head.json is missing: python -m gateway.sensitivity.train_judge"
    assert head.prompt_sha == prompt_digest()
    assert len(head.weights) == 1 + N_FEATURES
    assert 0.0 < head.low < head.high < 1.0


_REAL = (
    importlib.util.find_spec("llama_cpp") is not None
    and importlib.util.find_spec(judge_file.CHUNKS[0][0]) is not None
)
real_model = pytest.mark.skipif(not _REAL, reason="the `local` extra (llama.cpp, the model)")


@pytest.fixture(scope="module")
def real_judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    judge = Judge(JudgeSettings(enabled=True, cache_dir=str(tmp_path_factory.mktemp("judge"))))
    assert judge.load(), judge.error
    return judge


def _own_opinion(judge: Judge, text: str) -> float | None:
    """The head's probability with the context model's log-odds cancelling the head's lean
    towards `special`: what the language model itself makes of the sentence."""
    from gateway.sensitivity.train_judge import LEAN

    neutral = 1 / (1 + math.exp(LEAN))
    return judge.probability(text, neutral, Allowance(1, 60.0, 0.0))


# clear cases each way
ABOUT_A_PERSON = (
    "Annem Alevi, cemevine gidiyor.",
    "I voted Labour last time and my boss found out.",
    "Babam geçen hafta kalp krizi geçirdi, yoğun bakımda yatıyor.",
    "Kız kardeşim şizofreni tanısıyla tedavi görüyor.",
    "My husband was diagnosed with multiple sclerosis last spring.",
    "Our employee Daniel told HR he is HIV positive.",
)
GENERAL = (
    "Alevilik ve Sünnilik arasındaki farklar nelerdir?",
    "How did Labour do in the 2019 election?",
    "Şizofreni tedavisinde hangi ilaçlar kullanılır, genel bir özet yaz.",
    "What are the common symptoms of multiple sclerosis?",
    "Write a short article about how HIV is transmitted.",
)


@real_model
@pytest.mark.parametrize("text", ABOUT_A_PERSON)
def test_real_model_about_a_person(real_judge: Judge, text: str) -> None:
    p = _own_opinion(real_judge, text)
    assert p is not None and p > 0.5


@real_model
@pytest.mark.parametrize("text", GENERAL)
def test_real_model_general_talk(real_judge: Judge, text: str) -> None:
    p = _own_opinion(real_judge, text)
    assert p is not None and p < 0.5


@real_model
def test_real_model_decides_an_unsure_sentence_in_the_classifier(
    real_judge: Judge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(detect, "shared_judge", lambda settings: real_judge)
    res = _classifier().classify(
        ["Kız kardeşim şizofreni tanısıyla tedavi görüyor ama işe gidiyor."]
    )
    assert res.data_class == "special"
    res = _classifier().classify([UNSURE[0]])
    assert res.stage == "judge"


# long notices to everyone: sensitive words about no one, sentences the context model is
# unsure of (or wrongly sure of: the menu's 'vejetaryen')
PUBLIC_NOTICES = (
    "Konu: Aralık ayı duyuruları\n\nMerhaba arkadaşlar,\n\n"
    "Yılbaşı yemeği 20 Aralık cuma akşamı yapılacak; menüde vejetaryen ve glütensiz "
    "seçenekler bulunacak.\n"
    "Grip aşısı için işyeri hekimimiz salı ve perşembe günleri revirde olacak, aşı "
    "gönüllülük esasına dayanır.\n"
    "Sendika temsilcileriyle yapılacak toplu sözleşme görüşmesinin tarihi ocak ayında ilan "
    "edilecek.\n"
    "Kandil gecelerinde mesai bitimi yarım saat öne alınmıştır.\n"
    "Sağlık raporları yalnızca İnsan Kaynakları'na teslim edilir; yöneticilere tanı bilgisi "
    "iletilmez.\n\nİyi çalışmalar,\nİnsan Kaynakları",
    "Subject: Reminder - wellbeing week and the new reasonable-adjustments process\n\n"
    "Hi all,\n\nNext week is our wellbeing week. The occupational health team will run "
    "drop-in sessions on stress, sleep and back pain in the main meeting room.\n"
    "From March, requests for reasonable adjustments go through the new HR form; only HR and "
    "occupational health see the medical details, and line managers are told the "
    "adjustment, never the diagnosis.\n"
    "The multi-faith room on the second floor stays open during Ramadan for prayer, and the "
    "canteen will keep iftar boxes until 8 pm.\n"
    "Union representatives can book the small room for their monthly surgery as before.\n"
    "Please do not forward screenshots of the old sickness-absence spreadsheet; it is being "
    "retired.\n\nThanks,\nPeople Team",
)


@real_model
@pytest.mark.parametrize("text", PUBLIC_NOTICES)
def test_real_model_keeps_a_long_notice_about_no_one_public(
    real_judge: Judge, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setattr(detect, "shared_judge", lambda settings: real_judge)
    answers: list[float] = []
    ask = real_judge.probability

    def probability(sentence: str, context_p: float, allowance: Allowance) -> float | None:
        q = ask(sentence, context_p, allowance)
        if q is not None:
            answers.append(q)
        return q

    monkeypatch.setattr(real_judge, "probability", probability)
    res = _classifier(time_budget_ms=10_000).classify([text])
    assert answers, "no sentence of the notice reached the judge"
    assert res.data_class == "public"


@real_model
def test_real_model_is_stopped_at_the_deadline(real_judge: Judge) -> None:
    allowance = Allowance(1, 0.01, 0.0)
    t0 = time.perf_counter()
    assert real_judge.probability(ABOUT_A_PERSON[0], 0.5, allowance) is None
    assert time.perf_counter() - t0 < 0.05 and allowance.wanted == 1
    assert real_judge.error is None


def test_a_model_that_fails_part_way_frees_what_it_made_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A llama.cpp that lacks what the judge needs (another build, a stand-in package) makes
    loading fail with an error the judge records, never a traceback from the finaliser in
    the gateway's log."""
    import gc
    import sys
    import types
    from pathlib import Path

    pytest.importorskip("numpy")
    from gateway.sensitivity.judge_model import JudgeModel

    monkeypatch.setitem(sys.modules, "llama_cpp", types.ModuleType("llama_cpp"))
    raised: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    with pytest.raises(AttributeError):
        JudgeModel(Path("missing.gguf"))
    gc.collect()
    assert raised == []
