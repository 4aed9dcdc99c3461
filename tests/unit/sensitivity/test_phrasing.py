"""Special categories as people write them in English, misspelled, or framed by a person
('she is Roma', 'I'm bi', 'his husband'), and the everyday words that must stay text: a word
only in another frame ('AS Roma', 'bi-weekly', 'type 1 error'), a case ending after an
apostrophe ('Öztürkoğlu'nun'), a company's 'Şti.', and ordinary Turkish and English words that
merely start like a topic ('veremeyecektir', 'keşke', 'local', 'warranty')."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.lexicon_names import FIRST_NAMES, SURNAMES
from gateway.sensitivity.special import build_lexicon
from gateway.sensitivity.typos import Taken, typo_terms, variants

from .helpers import group4, make_iban


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Our cashier Lena is partially sighted and needs the large-font till.", "health"),
        ("i cant do mondays, hospital appointment for my knee every week", "health"),
        ("He's on statins and painkillers since the fall, go easy on the stairs.", "health"),
        ("My girlfriend and I are moving to Izmir in spring.", "sexual_life"),
        ("her brother served four years for robbery before joining us", "criminal_record"),
        ("The kiosk scanned my face before it let me into the server room.", "biometric"),
        ("Kiz arkadasimla ayni evde yasiyoruz, ev sahibi sorun cikariyor.", "sexual_life"),
        ("Teyzem evde bakım hizmeti alıyor, hemşire haftada iki kez geliyor.", "health"),
        # a stem's softened form: 'çölyak' -> 'çölyağı', 'böbrek' -> 'böbreği'
        ("kızımın çölyağı var, okulda glutensiz menü lazım", "health"),
        ("babamın böbreği alındı, iki hafta raporlu", "health"),
        ("Hasta Kemal Arslan, 68 yaş, bilinen HT ve KAH, dün opere edildi.", "health"),
    ],
)
def test_everyday_english_and_turkish_about_a_person(
    clf: Classifier, text: str, category: str
) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my sister was diagnosed with schizofrenia in may", "health"),
        ("I have bad deppression since the divorce", "health"),
        ("my husband got his chemoterapy today", "health"),
        ("annem kemoterpi goruyor, bu hafta gelemem", "health"),
        ("my brother was arested last night", "criminal_record"),
    ],
)
def test_misspelled_topic_words_about_a_person(clf: Classifier, text: str, category: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("My neighbour Maria is Roma and the landlord keeps refusing her.", "ethnicity"),
        ("I'm bi and I haven't told my parents yet.", "sexual_life"),
        ("Our tenant is legally blind, please read the letter to him.", "health"),
        ("He listed his husband as the emergency contact.", "sexual_life"),
        ("my son has type 1 so he carries snacks to football", "health"),
        ("Payroll note: Tariq is on phased return after his breakdown.", "health"),
        # a case ending after an apostrophe tells whose it is: 'fingerprint'imi' is mine
        ("fingerprint'imi izinsiz kaydetmişler, silinmesini istiyorum", "biometric"),
        ("Eğitim-Sen üyesi olan öğretmenimiz Selin Hanım greve katılacak.", "membership"),
    ],
)
def test_a_word_in_its_person_frame_is_a_topic(clf: Classifier, text: str, category: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


@pytest.mark.parametrize(
    "text",
    [
        "AS Roma won the derby and I watched it twice.",
        "I'm bi-weekly on the payroll rota this quarter.",
        "My car is black and I parked it in bay 4.",
        "I keep getting a type 1 error in my test harness.",
        "I checked the blind spot mirror on my van.",
        "this husband-and-wife bakery chain is our new client",
        "I attached the cost breakdown and the condition report for my landlord.",
        "Okulu'nun bahçesi yenilendi, Koru'nun yanındaki park açıldı.",
        "Bakım nedeniyle internet bankacılığı hizmet veremeyecektir, anlayışınız için teşekkürler.",
        "Keşke toplantıya ben de gelebilseydim, notları paylaşır mısın?",
        "Bu iki çizginin kesiştiği noktayı hesapladım, grafiği ekliyorum.",
        "Şakalaşmayı bırakın, sunumu bitirmem lazım.",
        "I work at the local office and my warranty claim was rejected.",
        "Sanat camiası bu ödülü çok konuştu, ben de izledim.",
        "Seyhan barajına gittim, fotoğrafları yolluyorum.",
        "Peçete siparişimi iptal ettim, yenisini açarım.",
        "Tez-Koop-İş'in toplu sözleşme süreci genel olarak nasıl işler?",
        "Bahçelievler'deki depoya ben gideceğim, sayımı yarın yaparız.",
        "Kardeşim içeri girdi, kapıyı kapattı, ben de arkasından geldim.",
    ],
)
def test_everyday_words_that_look_like_topics_stay_public(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "public", found.as_record()


def test_a_company_suffix_is_no_health_term(clf: Classifier) -> None:
    found = clf.classify(["Kaya Yapı Ltd. Şti. adına Ahmet Demir sözleşmeyi imzaladı."])
    assert found.data_class == "personal", found.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "pasaport no a13197114, vize için yeterli mi",
        "kiralık aracın plakası 58-uup-663, hasar tutanağı yanlış",
        "ben 17 mayıs 1970 doğumluyum, emeklilik hesabı yapar mısın",
        "Date of birth: March 12, 1987. Please update the file.",
        "alıcı adresi: aydınevler mah. nergis sok. 4/12 maltepe/ist.",
        "Adres: Yenişehir Mahallesi Gazi Bulvarı 45/3 Çankaya",
        "cv'yi zeynep.arslan [at] gmail [dot] com adresine yollayın",
        "reach me at d.whitfield(at)mailbox.org after six",
        "araç iadesi: kiralayan doğan yavuz, hasar tutanağı ekte",
        "ben sevgi durmaz, emeklilik hesabı yapar mısın",
        "deniz kaya'nın bordrosunu hazırla, yarın lazım",
    ],
)
def test_identifiers_as_people_type_them_are_personal(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "personal", found.as_record()


def test_an_iban_typed_without_its_country_code(clf: Classifier) -> None:
    iban = make_iban("TR", "0006100519786457841326")
    found = clf.classify([f"IBAN: {group4(iban[2:])} hesabına yatırın"])
    assert found.data_class == "personal", found.as_record()
    assert [e.type for e in found.entities] == ["IBAN"]
    # the same digits as an order number, with no IBAN or account word near, stay public
    found = clf.classify([f"Sipariş {iban[2:]} kargoya verildi"])
    assert found.data_class == "public", found.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "Our supplier Delta Kimya Ltd. is registered at Büyükdere Cad. No:201, Şişli/İstanbul.",
        "Teklif mektubu: Yıldız Ambalaj San. Tic. A.Ş., Manisa OSB 3. Kısım, 10.000 koli.",
        "Sayın Müşterimiz, kampanya 17 mayıs 2026 tarihinde başlıyor.",
        "Alıcı: muhasebe departmanı, ben can sıkıntısından öldüm bugün.",
        "can sıkıcı bir gün, deniz kenarına gidelim mi",
        "Build 34 abc 123 passed all checks on the staging cluster last night, and the new"
        " release notes for the fleet vehicle module are ready.",
    ],
)
def test_company_data_and_dates_stay_public(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "public", found.as_record()


def test_misspellings_never_are_a_listed_word_or_a_name() -> None:
    lexicon = build_lexicon()
    names = FIRST_NAMES | SURNAMES
    terms = typo_terms(Taken.of((), names))
    spelled = {t.rstrip("*") for t, _ in terms}
    assert "depresion" in spelled and "kemoterpi" in spelled
    assert not spelled & names
    assert not spelled & {k.decode() for k in lexicon.exact_keys}
    # a short stem keeps its length: no variant with a letter dropped ('caner' is a name)
    assert "caner" not in set(variants("cancer", Taken.of((), names)))
