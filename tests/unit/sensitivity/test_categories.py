"""Every KVKK Art. 6 category, Turkish and English: data about a person is special, talk about
the topic is not."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier

ABOUT_A_PERSON = [
    ("health", "Hastamız Ayşe Yılmaz'a tip 2 diyabet tanısı kondu."),
    ("health", "I was diagnosed with HIV last year."),
    ("health", "DİYABETİM var, şekerim sabah 180 çıktı."),
    ("health", "Annem geçen ay kemoterapiye başladı, çok yorgun."),
    ("health", "teshis: astim, hastaya inhaler verildi"),
    ("religion", "Çalışanımız Mehmet Kaya Alevi olduğu için izin istedi."),
    ("religion", "I'm a practising Muslim and need a prayer room."),
    ("ethnicity", "Başvuran Kürt kökenli olduğunu belirtti."),
    ("ethnicity", "The applicant is of Armenian descent."),
    ("political_opinion", "Benim oy verdiğim parti CHP, bunu müdürüm bilmesin."),
    ("political_opinion", "My manager found out I voted for the Labour Party."),
    ("philosophical_belief", "Ben veganım, yemek listesini buna göre hazırlayın."),
    ("philosophical_belief", "He is a conscientious objector and refused service."),
    ("membership", "Çalışanımız Ali Demir sendika üyesi oldu."),
    ("membership", "Our employee John Smith is a trade union representative."),
    ("sexual_life", "Müvekkilimiz eşcinsel olduğu için işten çıkarıldığını söylüyor."),
    ("sexual_life", "I'm bisexual and my family doesn't know."),
    ("criminal_record", "Adayımızın sabıka kaydı var mı kontrol edin: Murat Kılıç."),
    ("criminal_record", "My brother was convicted of fraud in 2019."),
    ("biometric", "Personelimiz Elif Şahin'in parmak izi verisi sisteme yüklendi."),
    ("biometric", "Store my fingerprint template for the door lock."),
    ("genetic", "Hastamızın BRCA1 genetik test sonucu pozitif."),
    ("genetic", "My 23andMe report says I carry a hereditary mutation."),
    ("appearance", "Çalışanımız Fatma Hanım başörtülü olduğu için müşteriyle görüştürülmesin."),
    ("appearance", "She wears a hijab; should the client see her?"),
]

ABOUT_A_TOPIC = [
    "Diyabetin belirtileri nelerdir?",
    "What are the early symptoms of HIV infection?",
    "Türkiye'de Alevi nüfusu hakkında genel bilgi verir misin?",
    "Explain the history of the Armenian diaspora.",
    "Seçim sisteminde barajın etkisi nedir?",
    "Sendikalaşma oranı Avrupa'da nasıl değişti?",
    "What is the difference between a trade union and a professional association?",
    "Vegan beslenmenin çevreye etkisi nedir?",
    "Summarise the court's reasoning on criminal record expungement.",
    "Parmak izi okuyucularının güvenlik açıkları nelerdir?",
    "How does genetic testing for BRCA work in general?",
    "Kılık kıyafet yönetmeliği ne zaman değişti?",
    "LGBT hakları konusunda AB mevzuatını özetle.",
]


@pytest.mark.parametrize(("category", "text"), ABOUT_A_PERSON)
def test_category_about_person_is_special(category: str, text: str) -> None:
    result = Classifier().classify([text])
    assert result.data_class == "special"
    assert category in result.categories


def test_every_category_is_covered_in_both_languages() -> None:
    from gateway.sensitivity.config import SPECIAL_CATEGORIES

    covered = {c for c, _ in ABOUT_A_PERSON}
    assert covered == set(SPECIAL_CATEGORIES)
    for cat in SPECIAL_CATEGORIES:
        assert sum(1 for c, _ in ABOUT_A_PERSON if c == cat) >= 2


@pytest.mark.parametrize("text", ABOUT_A_TOPIC)
def test_topic_talk_is_not_special(text: str) -> None:
    result = Classifier().classify([text])
    assert result.data_class == "public", result.as_record()


@pytest.mark.parametrize(
    "word", ["diyabet", "diyabetli", "diyabetim", "diyabetini", "DİYABETLİYİM", "DIYABET"]
)
def test_suffixes_and_turkish_case_folding(word: str) -> None:
    result = Classifier().classify([f"Hastamız Ayşe Yılmaz {word} olarak takip ediliyor."])
    assert "health" in result.categories


@pytest.mark.parametrize("text", ["Babama teshis kondu: kanser.", "Babama teşhis kondu: kanser."])
def test_diacritic_free_spelling(text: str) -> None:
    assert "health" in Classifier().classify([text]).categories


def test_term_far_from_a_person_in_long_text_is_not_special() -> None:
    filler = "Bu rapor genel bir değerlendirmedir. " * 60
    text = "Sayın Ayşe Yılmaz, toplantı notları ektedir. " + filler + "Diyabet nedir?"
    result = Classifier().classify([text])
    assert result.data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "Müvekkilimiz Ahmet Kaya Türk-İş temsilcisidir.",
        "Müvekkilimiz Ahmet Kaya Türk İş temsilcisidir.",
        "Çalışanımız Ayşe Demir Eğitim-Sen'e geçti.",
    ],
)
def test_hyphenated_terms_match_with_a_hyphen_or_a_space(text: str) -> None:
    # lexicon terms such as 'turk-is' and 'egitim-sen*' used to never match at all
    result = Classifier().classify([text])
    assert result.data_class == "special"
    assert "membership" in result.categories
