"""Institutional text names no one: team mailboxes, a civil court as a contract's forum,
company property on a custody form, a vehicle's inspection, field names in a schema, stock
example names. The same words about a named person, a criminal court, embezzlement, a
person's own mailbox or a checksum-valid identifier in an example still count."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.emails import generic_address
from gateway.sensitivity.placeholder_names import stock_name
from tests.unit.sensitivity.helpers import make_luhn, make_tckn


@pytest.mark.parametrize(
    "local",
    [
        "bt-destek",
        "tum-calisanlar",
        "all-staff",
        "comms",
        "people-team",
        "insan.kaynaklari",
        "bilgi_islem2",
        "kalite.birimi",
        "events",
        "duyurular",
    ],
)
def test_team_mailboxes_are_role_addresses(local: str) -> None:
    assert generic_address(local, "lojistikfirmasi.com.tr")


@pytest.mark.parametrize(
    "local", ["selin.aydogan", "s.aydogan", "saydogan84", "destek.murat", "burakcelik"]
)
def test_mailboxes_with_a_name_stay_personal(local: str) -> None:
    assert not generic_address(local, "lojistikfirmasi.com.tr")


def test_notice_between_team_mailboxes_is_public(clf: Classifier) -> None:
    text = (
        "Kimden: Kalite Birimi <kalite@demirdokum-ornek.com.tr>\n"
        "Kime: tum-personel@demirdokum-ornek.com.tr\n"
        "Konu: Yangın tatbikatı\n\n"
        "Perşembe 14:00'te yangın tatbikatı yapılacaktır; alarm çaldığında "
        "toplanma alanına gidiniz."
    )
    assert clf.classify([text]).data_class == "public"


def test_personal_sender_stays_personal(clf: Classifier) -> None:
    text = (
        "From: Selin Aydoğan <selin.aydogan@harbourline.io>\nTo: all-staff@harbourline.io\n\nHi all"
    )
    assert clf.classify([text]).data_class == "personal"


# text that names no one, by kind: each must stay public
PUBLIC_CASES = [
    # a court as a contract's forum, a custody form, an inspection, a law's title
    "İşbu sözleşmeden doğacak ihtilaflarda Ankara Mahkemeleri ve İcra Daireleri yetkilidir.",
    "BURSA 3. ASLİYE TİCARET MAHKEMESİ'NE sunulmak üzere hazırlanan cevap dilekçesidir.",
    "Kıdem tazminatı alacağı için İzmir İş Mahkemesi'nde dava açılabilir mi?",
    "Any dispute arising from this agreement shall be settled by the courts of Istanbul.",
    "Yeni gelen laptop zimmet formu imzalanıp İK'ya iletilecek.",
    "Aracınızın muayene tarihi yaklaşıyor; TÜVTÜRK istasyonundan randevu alabilirsiniz.",
    "4857 sayılı İş Kanunu ve 6356 sayılı Sendikalar ve Toplu İş Sözleşmesi Kanunu özetlensin.",
    # field names in a schema
    "CREATE TABLE tani_kayitlari (\n  hasta_id BIGINT,\n  diabetes_type SMALLINT,\n"
    "  diagnosed_on DATE\n);",
    "Fields: hiv_test_done (bool), pregnancy_week (int), religion_code (nullable).",
    "ALTER TABLE personel ADD COLUMN sendika_uyeligi BOOLEAN DEFAULT FALSE;",
    "fingerprint_auth:\n  enabled: true\n  max_attempts: 5\n",
    # stock example names
    "fixture = {'ad_soyad': 'Ali Veli', 'sehir': 'Ankara'}",
    "const user = { name: 'Jane Doe', role: 'viewer' };",
    "Kayıt formunda ad alanına 'Zeynep Kara (örnek)' yazılmıştır.",
    "Örnek kayıt: Test Kullanıcı, rol: editör.",
    # notices to every reader
    "Kurban Bayramı nedeniyle fabrikamız arife günü öğleden sonra kapalı olacaktır.",
    "Berat Kandili'nizi kutlar, ailenizle birlikte huzurlu günler dileriz.",
    "All employees must finish the anti-bribery e-learning before the quarterly audit.",
    "Our parental leave policy applies equally to employees in same-sex partnerships.",
]


@pytest.mark.parametrize("text", PUBLIC_CASES)
def test_text_that_names_no_one_is_public(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "public", result.findings


@pytest.mark.parametrize(
    "text",
    [
        "Sanık Orhan Kılıç'ın Kartal Ağır Ceza Mahkemesi'nde yargılanmasına devam edildi.",
        "Muhasebeci Derya Tan kasadaki parayı zimmetine geçirdiği için savcılığa verildi.",
        "Hastamız Cem Arslan göz muayenesinde glokom tanısı aldı.",
    ],
)
def test_criminal_court_embezzlement_and_exams_stay_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


def test_field_name_in_a_row_about_a_person_still_counts(clf: Classifier) -> None:
    text = "INSERT INTO hastalar (ad_soyad, hiv_status) VALUES ('Gökhan Erdem', 'pozitif');"
    assert clf.classify([text]).data_class == "special"


def test_stock_name_beside_a_valid_identifier_stays_personal(clf: Classifier) -> None:
    tckn, card = make_tckn("318274650"), make_luhn("454360000001234")
    text = f"fixture = {{'ad': 'Ali Veli', 'tckn': '{tckn}', 'kart': '{card}'}}"
    result = clf.classify([text])
    assert result.data_class == "personal"
    assert {e.type for e in result.entities} >= {"TCKN", "KART"}


def test_stock_name_rule_leaves_real_names() -> None:
    text = "Ali Veli ve Mehmet Öztürk"
    assert stock_name(text, 0, 8)
    assert not stock_name(text, 12, len(text))


@pytest.mark.parametrize(
    "text",
    [
        "Duyuru: muhasebeden Gülay Şen kemoterapi gördüğü için bu ay yarı zamanlı çalışacak.",
        "Staff notice: Owen Price was convicted of fraud last spring and has left the company.",
    ],
)
def test_the_same_registers_naming_a_person_stay_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"
