"""A special category shown rather than named: a vote or a party office, a partner's gender or
coming out, a language spoken at home or a people, a garment, an office in a union, the stage
of a case or the time served, a genetic test, a drug or an aid, a practice of worship. The
first stage must see such wording in Turkish (with its suffixes, in lower case and without
Turkish letters) and in English; general talk about the same things stays public."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from tests.unit.sensitivity.helpers import topics_of


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Referandumda hayır oyu verdim, ailem hâlâ kızgın.", "political_opinion"),
        ("babam yillardir parti teskilatinda calisiyor, il baskanligina aday", "political_opinion"),
        ("Komşumuz Nihat Bey barış bildirisini imzaladığı için işinden oldu.", "political_opinion"),
        ("I voted Leave and my brother still won't talk to me about it.", "political_opinion"),
        ("my uncle stood for election as a councillor last spring", "political_opinion"),
        ("Kardeşim hemcinsine ilgi duyduğunu geçen ay bize söyledi.", "sexual_life"),
        ("My daughter came out to us at Christmas and we're so proud of her.", "sexual_life"),
        ("oglum onur yuruyusune katildi, fotograflari gordum", "sexual_life"),
        ("Anneannem evde Lazca konuşurdu, annem anlamaz.", "ethnicity"),
        ("My grandmother grew up speaking Yiddish in Vilnius.", "ethnicity"),
        ("dedem ahiska turku, 1990'larda buraya gelmisler", "ethnicity"),
        ("Stajyerimiz Zehra Hanım eşarp takıyor, vesikalık için sorun olur mu?", "appearance"),
        ("My colleague Harpreet wears a patka and was told to remove it.", "appearance"),
        ("Eşim fabrikada baştemsilci, toplu görüşmelerde masada.", "membership"),
        ("My dad is a union steward at the depot and handles every grievance.", "membership"),
        ("Abim cezasını çekip geçen yıl çıktı, iş arıyor.", "criminal_record"),
        ("Our new hire did time for fraud in his twenties, he told HR himself.", "criminal_record"),
        ("Kızımın topuk kanı taramasında bir sonuç çıktı, uzmana yönlendirdiler.", "genetic"),
        ("I did carrier screening before IVF and I'm a carrier for cystic fibrosis.", "genetic"),
        ("babam valtrex kullaniyor, ucuk yine cikti", "health"),
        ("My mum uses a walking frame since the fall and needs the ground floor room.", "health"),
        ("Annem her sabah seccadesini serip teheccüde kalkar.", "religion"),
        ("My son's husband is joining us for Christmas.", "sexual_life"),
        ("Çalışanımızın erkek eşi izin formunda yakını olarak yazılmış.", "sexual_life"),
        ("dedem hemsinli, evde hemsince konusurduk", "ethnicity"),
        ("my uncle was a delegate at the party conference last year", "political_opinion"),
        ("my cousin did three years for burglary", "criminal_record"),
        ("Our new tenant, Mr. Stefan Horvat, is Roma and keeps to himself.", "ethnicity"),
        ("Danışanımız Ece vajinismus nedeniyle terapiye başladı.", "sexual_life"),
        ("kuzenim idam karşıtı ve abolisyonist bir avukat", "philosophical_belief"),
        ("My brother's on the spectrum and needs a quiet desk.", "health"),
        ("Abimin eski eşine yaklaşma yasağı var.", "criminal_record"),
        ("The airport e-gate matched my face to my passport photo.", "biometric"),
        ("esimin sesini bankanin sesli dogrulama sistemine kaydetmisler", "biometric"),
    ],
)
def test_a_category_shown_about_a_person_is_special(
    clf: Classifier, text: str, category: str
) -> None:
    assert category in topics_of(text)
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("REFERANDUMDA HAYIR OYU VERDIM", "political_opinion"),
        ("referandumda hayir oyu verdim", "political_opinion"),
        ("esarp takiyorum", "appearance"),
        ("bastemsilcisiyim", "membership"),
        ("cezasini cekti", "criminal_record"),
        ("hemcinsime ilgi duyuyorum", "sexual_life"),
        ("evde zazaca konusuruz", "ethnicity"),
    ],
)
def test_shown_wording_fires_in_any_case_and_without_turkish_letters(
    text: str, category: str
) -> None:
    assert category in topics_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Referandum sonuçları hangi tarihte resmî gazetede yayımlanır?",
        "How do postal votes get counted in a general election?",
        "Onur yürüyüşü bu yıl hangi gün yapılacak, yol kapanacak mı?",
        "What is the difference between a union steward and a union official?",
        "Ahıska Türklerinin 1944 sürgünü hakkında kısa bir özet yazar mısın?",
        "Eşarp ve şal arasındaki fark nedir, hangi kumaş daha iyi?",
        "Şartlı tahliye hangi koşullarda uygulanır, genel kurallar nelerdir?",
        "Explain how newborn screening with a heel prick works.",
        "Koltuk değneği fiyatları eczanede ne kadar?",
        "Seccade yıkanır mı, makinede hangi programda yıkanmalı?",
        # everyday senses of words that are a topic only in another frame
        "I came out of the store with way too many snacks.",
        "I did two years of French at school.",
        "His brother's wife is a doctor.",
        "Our son's wife is expecting in May.",
        "Bu bina aslen bir hamamdı, sonra müzeye çevrildi.",
        "How do I politely say I'm not into team sports?",
        "What was the abolitionist movement in the 19th century?",
        "Hayat arkadaşı seçerken nelere dikkat edilmeli, genel tavsiyeler?",
        "How do airport e-gates work in general?",
        "The company joined the industry association last year.",
    ],
)
def test_general_talk_about_the_same_things_stays_public(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "public", found.as_record()
