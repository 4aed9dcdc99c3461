"""Special-category wording named by its proper names and its formal steps: unions without a
hyphenated name and foundations, party abbreviations, offices and named armed organisations,
religious orders and rites, schools of belief, marriages the civil code does not know, the
parties and steps of a criminal file, police measures short of a charge, Travellers and the two
communities of Cyprus. Each makes the first stage ask whom its sentence concerns; the everyday
words they resemble (a vehicle's range, a curtain's fabric, 'ten elections', an adulterated
food, a traveller with a passport) fire nothing."""

from __future__ import annotations

import pytest

from tests.unit.sensitivity.helpers import check_family, family_cases

_ABOUT_SOMEONE = [
    ("Vardiya amirimiz Teksif'e üye, her ay bordrosundan kesiliyor.", "membership"),
    ("Yeğenim TÜGVA'nın kamplarına gidiyor, başvuruda bunu yazmış.", "membership"),
    ("Ustamız Recep geçen hafta işyerinde temsilci seçildi.", "membership"),
    (
        "Sendika aidatı maaşından kesiliyor, Fatma Hanım bunu bordroda görmek istemiyor.",
        "membership",
    ),
    ("Komşum Yeniden Refah'tan, YRP'li olduğunu herkes biliyor.", "political_opinion"),
    ("Eniştem partinin ilçe teşkilatında görev alıyor.", "political_opinion"),
    ("Kuzenim bu yıl belediye meclis üyesi adayı oldu.", "political_opinion"),
    ("Dayım temayül yoklamasında ikinci çıktı.", "political_opinion"),
    ("Müvekkil hakkında DHKP-C üyeliği iddiasıyla dava var.", "political_opinion"),
    ("Babam Menzilci, her bayram dergâha gidiyor.", "religion"),
    ("Ayşe her hafta pazar ayinine katılıyor, vardiyasını ona göre ayarlayalım.", "religion"),
    ("Ev arkadaşım Şamanist, evde tütsü yakıyor.", "religion"),
    ("Bölüm başkanımız Marksist, derslerde bunu saklamıyor.", "philosophical_belief"),
    ("Ağabeyim antimilitarist olduğu için askerlikten kaçıyor.", "philosophical_belief"),
    ("Amcam ikinci eşiyle imam nikahlı yaşıyor.", "sexual_life"),
    ("Müvekkilim eşinin zina yaptığını ileri sürüyor.", "sexual_life"),
    ("Çalışanımız Kemal dosyada müşteki olarak geçiyor.", "criminal_record"),
    ("Kardeşimin cezası Yargıtay'da onandı, cezası onandı diye çok üzgün.", "criminal_record"),
    ("Kiracım hakkında takipsizlik kararı verildi.", "criminal_record"),
    ("Eski müdürümüz KHK ile ihraç edildi, referans ister misin?", "criminal_record"),
    ("Komşumuz sınır dışı edildi, çocukları burada kaldı.", "criminal_record"),
    ("Kuzenimin pasaportuna şerh konmuş, yurt dışına çıkamıyor.", "criminal_record"),
    ("Eşim Kıbrıslı Rum, ailesi Lefkoşa'da.", "ethnicity"),
    ("Our new hire was cautioned by police last year.", "criminal_record"),
    ("My brother was interviewed under caution on Monday.", "criminal_record"),
    ("Her son lives in a probation hostel since his release.", "criminal_record"),
    ("My neighbour was deported last spring.", "criminal_record"),
    ("My husband had an affair with a colleague.", "sexual_life"),
    ("Our tenant is an Irish Traveller and the landlord keeps mentioning it.", "ethnicity"),
    ("My uncle stood as a candidate for the council in May.", "political_opinion"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    ("Bu elektrikli aracın menzili 400 kilometre.", "religion"),
    ("Pazar günü pazara gidip sebze aldık.", "religion"),
    ("Perdenin kumaşı çok ince, kalınını bulabilir miyiz?", "sexual_life"),
    ("Müşteri temsilcisi beni iki kez aradı.", "membership"),
    ("Site aidatını bu ay geç ödedim.", "membership"),
    ("Bu çay derdime deva oldu.", "political_opinion"),
    ("Emniyet teşkilatı bu yıl yeni araçlar aldı.", "political_opinion"),
    ("Kamu bankaları konut kredisi faizini indirdi.", "criminal_record"),
    ("The honey was adulterated with cheap syrup.", "sexual_life"),
    ("Every traveller needs a valid passport at the border.", "ethnicity"),
    ("Put the price on a tag next to each item.", "criminal_record"),
    ("The wedding was a lavish affair by the lake.", "sexual_life"),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_named_family(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category, typed with Turkish letters or without; each everyday
    sense fires none of the category it resembles."""
    check_family(check, text, category)
