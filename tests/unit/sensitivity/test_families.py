"""Families of wording the first stage must know beyond the category's own name: a condition
by a drug sold in Turkey, a scan, a device, a symptom or a disability word; an origin by a
people, a skin or a refuge; a vote by a party's short name or a bloc; religious dress by the
garment; a faith by its order or rite; a relationship by its shape; a genetic finding by its
syndrome; an association by its name. Said about someone, each is special; general talk about
the same things stays public; everyday words that merely begin like a term fire no topic."""

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
        ("Kayınvalidem Sintrom kullandığı için pıhtı kontrolüne gidiyor.", "health"),
        ("ben atarax olmadan uyuyamiyorum artik", "health"),
        ("Eniştem Tegretol ve Trileptal birlikte kullanıyor.", "health"),
        ("My flatmate takes Descovy every morning.", "health"),
        ("Babamın kolostomisi var, torbasını hemşire değiştiriyor.", "health"),
        ("Oğlumun koklear implantı var, sınıfta ön sırada oturmalı.", "health"),
        ("Gece terlemesi yüzünden iki haftadır uyuyamıyorum.", "health"),
        ("Eşim bebek bekliyor, doğuma yakın izin alacağım.", "health"),
        ("Annem zihinsel engelli kardeşime bakıyor.", "health"),
        ("My aunt has a stoma and needs a private bathroom at work.", "health"),
        ("Bekçimiz Suriyeli bir mülteci, ailesi Halep'ten gelmiş.", "ethnicity"),
        ("My neighbour is an asylum seeker from Eritrea.", "ethnicity"),
        ("Komşumuz Rıza Bey evde Abhazca konuşuyor.", "ethnicity"),
        ("Kuzenim Yeniden Refah Partisi'nin ilçe yöneticisi.", "political_opinion"),
        ("My cousin canvassed for the Lib Dems last spring.", "political_opinion"),
        ("Yeni sekreterimiz Hatice nikap takıyor.", "appearance"),
        ("Our cashier wears a crucifix and was asked to hide it.", "appearance"),
        ("Dayım her perşembe tekkeye gidip zikre katılıyor.", "religion"),
        ("My sister-in-law is a Quaker and won't swear the oath.", "religion"),
        ("Ben ve eşim açık ilişki yaşıyoruz, kimse bilmiyor.", "sexual_life"),
        ("I'm in a polyamorous relationship with two partners.", "sexual_life"),
        ("Kızımın testinde Turner sendromu çıktı.", "genetic"),
        ("I'm heterozygous for a Gaucher variant, says my report.", "genetic"),
        ("Ben TEMA Vakfı gönüllüsüyüm, hafta sonu fidan dikiyoruz.", "membership"),
        ("Teyzem her gün dört saat makineye bağlı kalıyor, böbrekleri çalışmıyor.", "health"),
        ("Dedem hafızasını kaybediyor, torunlarını karıştırıyor.", "health"),
        ("Kardeşim özel gereksinimli, okul servisine refakatçi lazım.", "health"),
        (
            "Kayınbiraderim annesiyle hep kendi dilinde konuşuyor, Mardin'den gelmişler.",
            "ethnicity",
        ),
        ("My lodger is Circassian and teaches the dances on weekends.", "ethnicity"),
        ("Amcam belediye meclisine aday oldu, afiş metni lazım.", "political_opinion"),
        ("My aunt is running for council and I'm writing her leaflet.", "political_opinion"),
        ("Bizim muhasebedeki Nuray artık örtmüyor, ailesi küsmüş.", "appearance"),
        ("Halam hacdan döndü, akşam ziyarete gidiyoruz.", "religion"),
        ("Murat'la dört yıldır birlikteyiz ama annem hâlâ bilmiyor.", "sexual_life"),
        ("I met my boyfriend on a dating app for gay men.", "sexual_life"),
        ("Sendika aidatım her ay maaştan kesiliyor, bordroda göremiyorum.", "membership"),
        ("Bankaya ses imzamı kaydettirdim, şimdi silinmesini istiyorum.", "biometric"),
        (
            "My client is under judicial control and signs in at the station weekly.",
            "criminal_record",
        ),
    ],
)
def test_family_wording_about_a_person_is_special(
    clf: Classifier, text: str, category: str
) -> None:
    assert category in topics_of(text)
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "Tramadol ile parasetamolün etki mekanizmalarını karşılaştıran bir tablo hazırla.",
        "Explain how a stoma is formed during bowel surgery, for a nursing textbook.",
        "Mülteci hukukunun temel ilkelerini maddeler halinde yaz.",
        "Write a neutral summary of the history of the Quaker movement.",
        "Açık ilişki kavramını sosyoloji dersine uygun biçimde tanımla.",
        "Turner sendromu hangi kromozom farkından kaynaklanır?",
        "Cumhur İttifakı ile Millet İttifakı'nın 2023 oy oranlarını karşılaştır.",
        "Mevlevi semasının tarihçesini anlatan bir broşür metni yaz.",
        "Belediye meclisi üyeleri hangi usulle seçilir, kısaca anlat.",
        "Explain what judicial control means in Turkish criminal procedure.",
        "Yurt dışına çıkış yasağı hangi kurum tarafından kaldırılır?",
    ],
)
def test_general_talk_about_the_same_things_stays_public(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "public", found.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "Bu tatlıya bayıldım, tarifini verir misin?",
        "Dükkan saat altıda kapandı, yarın gelin.",
        "Taraflar arasındaki uyuşmazlık arabulucuya gitti.",
        "I had a stomach bug after the conference dinner.",
        "Kasaptan sakatat aldım, nasıl pişirilir?",
        "The ambient temperature in the server room is too high.",
        "A bumblebee flew into the meeting room.",
        "Siparişte 40 adet vida ve 12 adet dübel var.",
        "The hinge on the cabinet door is loose.",
        "Kağıt makineye girdi ve sıkıştı, teknik servisi arayalım.",
        "Bu metni kendi dilinde yazdım, İngilizceye çevirir misin?",
        "Kız kapalı ortamda sıkıldı, parka çıktık.",
    ],
)
def test_everyday_words_that_begin_like_a_term_fire_no_topic(text: str) -> None:
    assert topics_of(text) == set()
