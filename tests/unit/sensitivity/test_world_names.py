"""Names beyond the hand-kept Turkish and English lists (names_world.txt: census and
international given names and surnames) and the cues that need no list: a title before
initials or a surname, initials with an age, a newborn's 'baby girl', the writer introducing
themself, '... Hoca', a double first name with a case ending. Everyday words that are also
names, headings and company names must stay public."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.lexicon_names import FIRST_NAMES, LISTED_FIRST_NAMES, SURNAMES


def test_the_wider_vocabulary_is_loaded_without_everyday_words() -> None:
    assert len(FIRST_NAMES) > 2 * len(LISTED_FIRST_NAMES)
    assert {"priyanka", "kwame", "rivka", "tigran", "berivan", "dmitri"} <= FIRST_NAMES
    assert {"mensah", "okafor", "petrosyan", "goldberg", "kowalczyk", "papadopoulos"} <= SURNAMES
    # English words, places, months and Turkish words that are also someone's name somewhere
    everyday = {"will", "grace", "hope", "june", "jordan", "christian", "paris", "morgan"}
    assert not everyday & (FIRST_NAMES - LISTED_FIRST_NAMES)
    assert not {"gore", "boyle", "ana", "anne", "elma", "alma", "ogle"} & (FIRST_NAMES | SURNAMES)


@pytest.mark.parametrize(
    "text",
    [
        "The purchase order was approved by Priyanka Sharma yesterday afternoon.",
        "Please forward the signed lease to Kwame Mensah before Friday.",
        "Rivka Goldberg covers the front desk from Monday to Wednesday.",
        "Tigran Petrosyan sent the updated floor plan this morning.",
        "Mehdi Karaaslan ile yarın sabah sözleşmeyi imzalayacağız.",
        "Dmitri Kowalczyk moved to the Krakow office last spring.",
    ],
)
def test_international_full_names_are_personal(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal", result.as_record()
    assert any(e.type == "AD_SOYAD" for e in result.entities)


@pytest.mark.parametrize(
    "text",
    [
        "Patient R. Okafor was moved to ward 4 after lunch.",
        "The delivery note was signed by D. Petrosyan at the gate.",
        "Hasta K.M. (kadın, 41) kontrol randevusuna geldi.",
        "Danışan (T.Y., 37) bugünkü seansa katılmadı.",
        "Baby boy Delgado was weighed again this morning.",
        "Dr. A. B. Yazıcıoğlu ile randevu saatini değiştirdik.",
        "my name's oliver, can you help me write a letter to my landlord",
        "merhaba, ismim defne, 2001 doğumluyum, kayıt formunu doldurdum",
        "murat hoca yarın sınav kağıtlarını dağıtacakmış",
        "ayşe nur'un telefonunu bilen var mı",
    ],
)
def test_people_told_by_titles_initials_and_introductions(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    # 'hasta' (patient) is a health word: a named patient is special, never public
    assert result.data_class != "public", result.as_record()
    assert any(e.type in ("AD", "AD_SOYAD") for e in result.entities)


@pytest.mark.parametrize(
    "text",
    [
        "Will Power and Grace Period are two chapters of the handbook.",
        "Jordan Valley exports rose sharply this quarter.",
        "Morgan Stanley and Dow Jones figures are attached.",
        "Mercedes Benz Türk yeni fabrikasını Aksaray'da açtı.",
        "Paris Agreement targets were discussed at the summit.",
        "Hope Street Bakery opens at seven.",
        "İmam Hatip Lisesi mezunları için burs başvurusu başladı.",
        "Father Christmas visits the office party on Friday.",
        "Mod 97 algoritmasını adım adım anlatır mısın?",
        "A.Ş. (15 kişi) ve U.S. (2024) rakamları tabloda.",
        "The report by J. White covers the 2019 audit.",
        "Bebek Parkı'nın yenileme ihalesi açıldı.",
        "Sister Act is the musical of the season.",
        "Kelly Services and Wendy Restaurants reported higher sales.",
        "Taylor Series converge quickly near zero.",
        "E.U. (27) members and the Q.A. (12) tickets are in the annex.",
        "Hasta C.T. ve MR sonuçlarını nasıl yorumlamalı?",
    ],
)
def test_everyday_words_headings_and_companies_stay_public(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "public", result.as_record()


def test_a_named_patient_makes_a_faith_remark_special(clf: Classifier) -> None:
    text = "Patient Y. Haddad refuses porcine insulin for religious reasons."
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "2025-01-02T10:00:00Z auth: user=k.mensah result=ok",
        "INFO login: zeynep.kaya attempts=3 locked=false",
        '{"owner": "j_okafor", "ticket": 4412}',
    ],
)
def test_account_names_made_of_a_name_are_personal(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal", result.as_record()


@pytest.mark.parametrize(
    "text",
    ["user=svc.backup status=ok", "user=admin login ok", "user=j.white ok", "owner=build_bot"],
)
def test_service_accounts_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"
