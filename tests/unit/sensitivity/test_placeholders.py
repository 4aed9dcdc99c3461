"""Contact details nobody owns stay public: phone numbers written as placeholders, shared
role mailboxes (at any domain, one reserved for examples included); and feasts whose first word
is also a first name are not people. Real numbers and personal mailboxes next to them still
count, and so does a person's name before a domain reserved for examples: writers put real
names there, and an example value is still treated as personal data."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.emails import generic_address


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    "text",
    [
        "assert is_valid_msisdn('05440000000')  # fixture value",
        "Formu doldururken telefon alanına 0532 555 55 55 gibi bir örnek yazın.",
        "Placeholder in the sign-up form: +44 7000 000000",
        "Yatırımcı ilişkileri için: yatirimci.iliskileri@tekstil.com.tr",
        "Send the press kit to media@harbourline.io before Friday.",
        "Docs: set SMTP_FROM=noreply@mail.test and ADMIN=admin@acme.example",
        '{"name": "John Doe", "email": "test@example.com"}',
        "Kurban Bayramı'nda kargo teslimatları iki gün gecikecek.",
        "Kadir Gecesi bu yıl hangi güne denk geliyor?",
        "Şeker Bayramı tatili için ofis 3 gün kapalı.",
    ],
)
def test_placeholders_and_roles_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        "Beni 0544 318 06 27 numarasından arayabilirsiniz.",
        "Yazışma için: tolga.sarac@tekstil.com.tr",
        "Ask for the invoice from ir.mehmetoz@gmail.com",
        "Ramazan Kocabaş bayram tatilinde nöbetçi.",
        "Hesabım başka adrese bağlanmış, benim adresim tunc.karadag@example.com",
        "Docs: set ADMIN=deniz.kara@acme.example",
    ],
)
def test_real_contacts_next_to_them_still_count(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "public"


@pytest.mark.parametrize(
    ("local", "domain", "generic"),
    [
        ("ir", "firma.com.tr", True),
        ("customer-service2", "shop.io", True),
        ("test", "example.com", True),
        ("ornek", "ornek.com", True),
        ("john.doe", "example.com", True),
        ("john.doe", "gmail.com", False),
        ("selin.aras", "firma.example", False),
        ("selin.aras", "example.org", False),
        ("x", "mail.invalid", True),
        ("selin.aras", "firma.com.tr", False),
        ("sales.selin", "firma.com.tr", False),
    ],
)
def test_generic_address(local: str, domain: str, generic: bool) -> None:
    assert generic_address(local, domain) is generic


@pytest.mark.parametrize(
    "text",
    [
        "Yazışma için adresim nilay.korkmaz [@] proton [.] me, akşam bakarım.",
        "reach me: d.vance at fastmail dot com",
        "mailim tunahan_eker (at) gmail (nokta) com",
        "cv'mi yolladım, adresim umay.berk @ yandex . com.tr",
        "Contact: lukas.brandt [at] posteo [dot] de",
    ],
)
def test_addresses_spelled_to_dodge_scrapers(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal"
    assert any(f.kind == "EPOSTA" for f in result.findings)


@pytest.mark.parametrize(
    "text",
    [
        "Look at this dot product before the standup.",
        "We met at noon. Dot matrix printers at home. Com ports were busy.",
        "Yatırımcılar için: ir [at] holding [dot] com",
    ],
)
def test_at_and_dot_as_everyday_words_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"
