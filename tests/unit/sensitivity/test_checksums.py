from __future__ import annotations

import pytest

from gateway.sensitivity.checksums import iban_valid, luhn_valid, tckn_valid, vkn_valid
from gateway.sensitivity.classifier import Classifier

from .helpers import group4, make_iban, make_luhn, make_tckn, make_vkn

TCKN = make_tckn("100000001")
VKN = make_vkn("123456789")
IBAN = make_iban("TR", "0006100519786457841326")
CARD = make_luhn("411111111111111")


def kinds(text: str) -> list[str]:
    return [e.type for e in Classifier().classify([text]).entities]


def test_known_public_examples_validate() -> None:
    assert TCKN == "10000000146"  # the algorithm-valid fake id cited in KVKK.md
    assert tckn_valid("10000000146")
    assert iban_valid("TR330006100519786457841326")
    assert luhn_valid("4111111111111111")


@pytest.mark.parametrize(
    ("fn", "valid", "invalid"),
    [
        (tckn_valid, TCKN, "10000000147"),
        (tckn_valid, make_tckn("123456789"), "02345678901"),  # leading zero never valid
        (vkn_valid, VKN, VKN[:-1] + str((int(VKN[-1]) + 1) % 10)),
        (iban_valid, IBAN, IBAN[:-1] + str((int(IBAN[-1]) + 1) % 10)),
        (iban_valid, make_iban("DE", "370400440532013000"), "DE89370400440532013001"),
        (luhn_valid, CARD, "4111111111111112"),
    ],
)
def test_valid_and_invalid(fn: object, valid: str, invalid: str) -> None:
    assert callable(fn)
    assert fn(valid) is True
    assert fn(invalid) is False


@pytest.mark.parametrize("fn", [tckn_valid, vkn_valid, iban_valid, luhn_valid])
def test_garbage_never_raises(fn: object) -> None:
    assert callable(fn)
    for junk in ["", "abc", "1" * 40, "TR", "TRxx0006", "١٢٣٤٥٦٧٨٩٠١"]:
        assert fn(junk) is False


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (f"T.C. kimlik numaram {TCKN} olarak kayıtlı.", "TCKN"),
        (f"TCKN: {TCKN[:3]} {TCKN[3:6]} {TCKN[6:9]} {TCKN[9:]}", "TCKN"),
        (f"kimlik no {TCKN[:3]}.{TCKN[3:6]}.{TCKN[6:9]}.{TCKN[9:]}", "TCKN"),
        (f"müşterinin numarası{TCKN}dir", "TCKN"),
        (f"Vergi no: {VKN} (şahıs)", "VKN"),
        (f"IBAN: {group4(IBAN)} hesabına", "IBAN"),
        (f"iban {IBAN.lower()}", "IBAN"),
        (f"pay to {group4(make_iban('GB', 'WEST12345698765432'))} today", "IBAN"),
        (f"kart no {group4(CARD, '-')} son kullanma 12/27", "KART"),
        ("Beni 0532 123 45 67'den arayın", "TELEFON"),
        ("tel: +90 (532) 123-45-67", "TELEFON"),
        ("ev telefonu 0 (212) 555 12 34", "TELEFON"),
        ("call me at +44 20 7946 0958", "TELEFON"),
        ("ayse.yilmaz@gmail.com adresine yaz", "EPOSTA"),
        ("aracın plakası 34 ABC 123 olarak görüldü", "PLAKA"),
        ("06 AB 1234 plakalı araç", "PLAKA"),
        ("pasaport no: U12345678", "PASAPORT"),
        ("passport number C01X00T47 is not ours but P12345678 is", "PASAPORT"),
        ("Ilse de Wit, Dutch passport NXC7R4P13, arrives 14 July", "PASAPORT"),
        ("doğum tarihi: 12.05.1985", "DOGUM_TARIHI"),
        ("date of birth 1990-02-28", "DOGUM_TARIHI"),
        ("Sayın Ayşe Yılmaz, başvurunuz alındı.", "AD_SOYAD"),
        ("Müvekkilimiz Kerem Akbaşlı duruşmaya gelmedi.", "AD_SOYAD"),
        ("Zeynep Hanım yarın gelecek.", "AD_SOYAD"),
        ("Please forward this to Mary Johnson.", "AD_SOYAD"),
        ("Adres: Moda Mah. Bahariye Cad. No: 12 Daire 3 Kadıköy/İstanbul", "ADRES"),
    ],
)
def test_identifier_found_in_text(text: str, kind: str) -> None:
    assert kind in kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sipariş no 12345678901 kargoya verildi.",  # 11 digits, fails TCKN
        "Kargo takip numarası 1Z999AA10123456784",
        "Order #4111111111111112 shipped",  # fails Luhn
        "IBAN örneği TR33 0006 1005 1978 6457 8413 27 geçersizdir",  # fails mod-97
        "Çağrı merkezi: 444 0 444",
        "Müşteri hizmetleri 0850 222 0 600",
        "build 20240512.1733 released; version 3.11.4",
        "Toplam 1.234.567,89 TL ciro yapıldı.",
        "destek@firma.com.tr adresine yazabilirsiniz",  # a role address, not a person
        "Deniz Kuvvetleri tatbikatı yapıldı.",
        "SELECT tckn, iban, email FROM customers WHERE id = 42;",
        "Passport photos must be 35x45mm; my passport expired in 2019.",
        "passport: required2024 is a field name, passport:ABCDEFGH a placeholder",
    ],
)
def test_lookalikes_are_not_personal(text: str) -> None:
    assert Classifier().classify([text]).data_class == "public", kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        # 456 is an area code (Gümüşhane): the digits also read as a landline without its 0
        "Serbest çalışıyorum, faturayı 4561237896 vergi numarama kesin lütfen",
        "Vergi kimlik no: 4561237896 (Hakan Sezer, şahıs şirketi)",
    ],
)
def test_a_labelled_tax_number_that_looks_like_a_phone_is_a_vkn(text: str) -> None:
    assert "VKN" in kinds(text)


def test_a_phone_with_its_trunk_zero_beside_the_tax_office_stays_a_phone() -> None:
    assert kinds("vergi dairesini arayın: 0456 123 78 96") == ["TELEFON"]
