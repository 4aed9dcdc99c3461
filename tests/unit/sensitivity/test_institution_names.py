# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Institutions, bodies, documents and places whose names look like a person's: a board or a
council ('Danışma Kurulu', 'Yüksek Disiplin Kurulu'), an office addressed with 'Sayın', a
heading in capitals after a role word, an airport named after a historic person, a unit of
time after a number. A person named next to them stays a name."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier

PUBLIC = [
    "Taslak yönetmelik Yüksek Disiplin Kurulu'na gönderildi, karar gelecek ay bekleniyor.",
    "Park projesinin çizimleri Belediye Meclisi'ne salı günü sunulacak.",
    "Sayın Kaymakamlık Makamına,\nİlçemizdeki kütüphanenin çalışma saatlerinin uzatılmasını arz ederiz.",
    "Sayın Vergi Dairesi Müdürlüğüne, ekte beyannamemizin düzeltilmiş hâli sunulmuştur.",
    "Arıza durumunda 155 Polis İmdat Merkezi yerine önce site yönetimini arayınız.",
    "EMPLOYEE BENEFITS GUIDE — 2026 edition for the Ankara office.",
    "PATIENT INFORMATION LEAFLET: read all of it before you start.",
    "The Employee Assistance Programme is free and runs all year.",
    "How long is the shuttle from Sabiha Gökçen to Kadıköy on a Sunday morning?",
    "Fatih Sultan Mehmet Köprüsü'nde bakım çalışması nedeniyle iki şerit kapalı.",
    "Cihazın yanıt süresi 0,5 sn Ortalama değer olarak ölçülmüştür.",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_institution_and_place_names_are_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


PERSONAL = [
    # a person next to the same institution words
    "Disiplin Kurulu üyesi Selin Arslan toplantıya katılamayacağını bildirdi.",
    "Sayın Hülya Korkmaz, Belediye Meclisi'ne yaptığınız başvuru alınmıştır.",
    "Employee Murat Kaya joined the Ankara office on Monday.",
    "PATIENT AYŞE DEMİR — discharge summary attached for the ward.",
    "Sabiha Yücel'in uçuşu Sabiha Gökçen'den 19:40'ta kalkıyor.",
    "Sn. Kemal Özkan, randevunuz 14:00'e alındı.",
]


@pytest.mark.parametrize("text", PERSONAL)
def test_people_named_near_them_stay_personal(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "public"
