"""People who give their own name in passing, and identifiers told by the words around them:
a writer's 'ben selin, ...', a plate after a car's make, a passport number asked for by name,
and a home address with a courier firm named after it."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


def _types(clf: Classifier, text: str) -> set[str]:
    return {e.type for e in clf.classify([text]).entities}


@pytest.mark.parametrize(
    "text",
    [
        "ben selin, 4 yıldır bir sigorta şirketinde hasar uzmanıyım, cv özetimi yazar mısın",
        "i'm tariq, 31, night shift nurse at a care home, how do i ask for a pay rise?",
        "Hi all, this is Ingrid - the new tenant in flat 2, the parcel downstairs is mine.",
        "I am Farhan, the new intern in the finance team, where do I pick up my badge?",
        "his name is burak and he handles our invoices, can you draft a thank-you note",
        "please book it under her name's sofia, she arrives friday",
    ],
)
def test_a_name_given_by_its_owner_is_personal(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "personal", text


@pytest.mark.parametrize(
    "text",
    [
        "ben de, sen de aynı şeyi düşündük; toplantı yarın",
        "I'm sorry, the build is red again",
        "I am done, the report is uploaded",
        "the name is misleading, rename the function",
        "ben umut ediyorum ki yarın hava güzel olur",
    ],
)
def test_everyday_words_in_the_same_frames_stay_text(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public", text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("gri Egea 16 BK 3382 kimin? servis yolunu kapatmış", "PLAKA"),
        ("The blue Corolla 35 R 40117 near the loading bay belongs to a visitor?", "PLAKA"),
        ("mom, the embassy wants your passport number again, is it 531904276?", "PASAPORT"),
        ("Parcel held. Recipient: Ewan Doherty. Collect at the depot with ID.", "AD_SOYAD"),
        ("Please send my parcel to 22 Rathmines Crescent, Dublin 6, I'm home after 5.", "ADRES"),
        (
            "teslimat adresi: nur demir, cumhuriyet mah. gül sk. no 8 daire 2 izmit."
            " kargo firmasına iletir misiniz",
            "ADRES",
        ),
    ],
)
def test_identifiers_told_by_the_words_around_them(clf: Classifier, text: str, kind: str) -> None:
    assert kind in _types(clf, text), text


@pytest.mark.parametrize(
    "text",
    [
        # nine digits without a passport number asked for: an order, not a passport
        "Order 531904276 shipped together with the passport cover you bought.",
        # a plate-shaped group with no car and no parking near it
        "Table 16 BK 3382 in the spreadsheet lists stock codes by aisle.",
        # a firm's own address, its name before the street
        "Merkez ofisimiz: Deniz Lojistik Ltd. Şti., Atatürk Cad. No 5, Kadıköy.",
        "Our office moved to 5 Merrion Terrace; the phone line stays the same.",
        "Recipient: Customer Service Team",
    ],
)
def test_the_same_shapes_without_their_context_are_not_personal(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public", text
