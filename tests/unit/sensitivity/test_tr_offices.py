"""Turkish wording of special categories by office, procedure and practice (lexicon_tr_families):
party work named by its office or campaign, a union office, a prison visit, a Roma or Abdal
family, an accent mocked, a voice or face enrolled as a key, leave a pregnancy is owed, an
allergy pen. Typed with Turkish letters or without, each makes the first stage ask whom its
sentence concerns; the everyday senses next to them ('roman' a novel, 'açık' open, a bank
branch) fire nothing. The second stage's cues: a body template ('yüz şablonu'), a union named
'Eğitim-Sen' and a statute cited by number in a named person's file are no general talk."""

from __future__ import annotations

import pytest

from gateway.sensitivity.subject import cues_of
from gateway.sensitivity.textnorm import fold
from tests.unit.sensitivity.helpers import check_family, family_cases

_ABOUT_SOMEONE = [
    ("Komşumuz Rıza Bey partinin ilçe başkan yardımcısıymış.", "political_opinion"),
    ("Kuzenim bu hafta sonu seçim çalışmasında, telefona bakamaz.", "political_opinion"),
    ("Eniştem sandıkta müşahitlik yaptı, sabaha kadar dönmedi.", "political_opinion"),
    ("Öğretmenimiz sendikanın şube yönetim kuruluna girdi.", "membership"),
    ("Ustabaşı Kenan baştemsilci oldu, toplantıya o katılacak.", "membership"),
    ("Ağabeyim için cumartesi açık görüşe gideceğiz.", "criminal_record"),
    ("Dayım yine içeri düştü, annem perişan.", "criminal_record"),
    ("Yeni kiracı Roman ailesiymiş, komşular itiraz ediyor.", "ethnicity"),
    ("Yeni çocuğun aksanıyla dalga geçiyorlar, veliye ne diyelim?", "ethnicity"),
    ("Müşteri Selin Hanım'ın ses profili oluşturuldu.", "biometric"),
    ("Çalışan Ozan Er'in yüz vektörü sisteme kaydedildi.", "biometric"),
    ("Satıştaki Gül Hanım doğum öncesi izne ayrılıyor.", "health"),
    ("Kızımın adrenalin kalemi çantasında, öğretmeni bilsin.", "health"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    ("Bu roman çok sürükleyici, ailece okuduk.", "ethnicity"),
    ("Mağaza açık, görüşmeye gelebilirsiniz.", "criminal_record"),
    ("Bankanın şube müdürü kredi dosyasını onayladı.", "membership"),
    ("Ses kaydı net değil, toplantıyı tekrar dinleyelim.", "biometric"),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_office_and_practice_wording(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category, typed with Turkish letters or without; the everyday
    neighbours ('roman' a novel, 'açık' open, a bank branch) fire none of it."""
    check_family(check, text, category)


def _general(sentence: str, named: bool = False) -> bool:
    folded = fold(sentence).encode("ascii", "ignore")
    return cues_of(folded, False, False, named, False).general


def test_a_body_template_is_no_document_template() -> None:
    assert not _general("Personel için yüz şablonu sunucuya yüklendi.")
    assert not _general("Parmak izi şablonu cihazda tanınmadı.")
    assert _general("Sözleşme şablonu ekte, doldurup gönderin.")


def test_a_union_named_egitim_is_no_education_talk() -> None:
    assert not _general("Eğitim-Sen işyeri temsilcisi seçildi.")
    assert _general("Eğitim programı gelecek ay başlıyor.")


def test_a_cited_statute_in_a_named_file_is_no_law_talk() -> None:
    sentence = "Sendika temsilcisinin tayini 6356 sayılı Kanun uyarınca geçersizdir."
    assert not _general(sentence, named=True)
    assert _general(sentence, named=False)
    assert _general("Kanun bu konuda ne diyor?", named=True)


def _possessive(sentence: str) -> bool:
    folded = fold(sentence).encode("ascii", "ignore")
    return cues_of(folded, False, False, False, False).possessive


def test_our_bookkeeper_is_someone_but_your_doctor_is_any_reader() -> None:
    assert _possessive("Yeni muhasebecimiz Rusça da konuşuyor.")
    assert _possessive("Kuryemiz bugün gelemedi.")
    assert not _possessive("Kullanmadan önce doktorunuza danışınız.")
    assert not _possessive("Muhasebeci ilanı yayında.")


def test_first_person_typed_as_spoken_is_first_person() -> None:
    def first(sentence: str) -> bool:
        return cues_of(fold(sentence).encode("ascii"), False, False, False, False).first_person

    assert first("bu ay oruc tutuyom")
    assert first("yarin hastaneye gidicem")
    assert not first("cam kirildi, ekonomi kotu")
