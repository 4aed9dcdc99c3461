"""The second stage's rule cues: a Turkish noun whose -im/-um belongs to the word ('eğitim',
'yönetim', 'teslim', 'yazılım') is not 'my' or 'I'; a verb or possessive that ends the same way
still is."""

from __future__ import annotations

import pytest

from gateway.sensitivity.subject import SubjectModel, cues_of, features, slot
from gateway.sensitivity.textnorm import fold


def _first_person(sentence: str) -> bool:
    cues = cues_of(fold(sentence).encode("ascii", "ignore"), False, False, False, False)
    return cues.first_person


@pytest.mark.parametrize(
    "sentence",
    [
        "Diyabet eğitim programı yönetim kurulunda görüşülecek.",
        "Yazılım ekibi sendika üyelik formunun teslim tarihini sordu.",
        "Kanser bölüm başkanlığının deneyim raporu hazır.",
        "Bu konuda eğitim var mı?",
        "Biyometrik veri için bir DPIA template'i hazırla.",
        "Etnik çeşitlilik belgeseli için tanıtım metni yaz.",
        "Takvimin ilk haftası için bir eğitim biçiminden söz edildi.",
    ],
)
def test_nouns_ending_in_im_are_not_first_person(sentence: str) -> None:
    assert not _first_person(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Dün doktora gittim, diyabet dediler.",
        "Sendikaya üye oldum.",
        "Bilgilerim silinsin.",
        "Migren ağrım var.",
        "Partimin gençlik kolu için bir afiş hazırla.",
        "Görevimden istifa ettiğimi bildiren bir mektup yaz.",
    ],
)
def test_first_person_endings_still_count(sentence: str) -> None:
    assert _first_person(sentence)


def _general(sentence: str) -> bool:
    cues = cues_of(fold(sentence).encode("ascii", "ignore"), False, False, False, False)
    return cues.general


@pytest.mark.parametrize(
    "sentence",
    [
        "Sabıka kaydım var, memurluğa başvurabilir miyim?",
        "Seyahat yasağım hâlâ sürüyor.",
        "Geçen yıl zor bir dönem yaşadım.",
    ],
)
def test_first_person_questions_and_yasak_are_not_general_talk(sentence: str) -> None:
    assert not _general(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["Yasaya göre bu veri nasıl saklanır?", "Bu bilgi açık rıza olmadan işlenebilir."],
)
def test_law_and_passive_rules_stay_general_talk(sentence: str) -> None:
    assert _general(sentence)


def test_our_alone_is_an_organisation_not_the_writer() -> None:
    sentence = fold("Our dress code allows religious attire.").encode("ascii")
    cues = cues_of(sentence, False, False, False, False)
    names = features(sentence, (4, 14), "appearance", b"", cues)
    assert "R:our" in names
    assert "R:fp" not in names


def test_turkish_son_is_not_an_english_son() -> None:
    sentence = fold("Kronik hastalıkların etkisi son yıllarda arttı.").encode("ascii")
    assert not cues_of(sentence, False, False, False, False).third_person
    sentence = fold("Her son has asthma.").encode("ascii")
    assert cues_of(sentence, False, False, False, False).third_person


def test_a_feature_counts_once_as_in_training() -> None:
    model = SubjectModel({slot("w:is"): 1.0}, 0.0)
    assert model.probability(["w:is", "w:is"]) == model.probability(["w:is"])


def test_about_a_named_person_is_not_general_talk() -> None:
    sentence = fold("Şüpheli Mert Avcı hakkında adli kontrol kararı verildi.").encode("ascii")
    term = sentence.index(b"adli kontrol")
    assert not cues_of(sentence, False, False, True, False, term_start=term).general
    # the same words without a name, or 'hakkında' after the topic, stay general talk
    assert cues_of(sentence, False, False, False, False, term_start=term).general
    sentence = fold("Adli kontrol hakkında bilgi ver.").encode("ascii")
    assert cues_of(sentence, False, False, True, False, term_start=0).general


def test_her_history_is_not_history_as_a_subject() -> None:
    sentence = fold("He asked about her dating history at work.").encode("ascii")
    assert not cues_of(sentence, False, False, False, False).general
    sentence = fold("Write a page on union history in Turkey.").encode("ascii")
    assert cues_of(sentence, False, False, False, False).general


def test_endearing_kin_words_and_kendisi_point_at_someone() -> None:
    sentence = fold("Ablacığımın bebeğinin tarama sonucu geldi.").encode("ascii")
    assert cues_of(sentence, False, False, False, False).possessive
    sentence = fold("Ayfer Hanım izin istedi; kendisine bilgi verin.").encode("ascii")
    assert cues_of(sentence, False, False, False, False).third_person
