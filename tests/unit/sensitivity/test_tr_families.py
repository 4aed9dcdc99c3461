"""Turkish families of indirect wording (lexicon_tr_families): a covered woman named by her
role, a people by its community, a feast or a dietary rule, a belief by what someone will not
eat or believe, two mothers or an affair, a DNA match or a tissue type, a fingerprint template,
eye and heart care, lab values, a criminal file's records, an office in a union or an
association. Typed with Turkish letters or without, each makes the first stage ask whom its
sentence concerns; everyday senses of the same words ('kapalı ortam', a first name that is a
feast) fire nothing. The training frames of training/tr_records give the second stage case
files that name a client by initials."""

from __future__ import annotations

import random

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.training.generate import _name
from gateway.sensitivity.training.tr_records import record_examples
from gateway.sensitivity.training.vocab import TOPICS
from tests.unit.sensitivity.helpers import check_family, family_cases, topics_of

_ABOUT_SOMEONE = [
    ("Muhasebedeki yeni kasiyer kapalı, bunu sorun eden müşteri oldu.", "appearance"),
    ("Geçen yıl kapandım, ailem hâlâ alışamadı.", "appearance"),
    ("Kuzenim başı açık gezmeye başladı, dedem çok kızdı.", "appearance"),
    ("Komşumuz Ahıska Türklerinden, Kazakistan'dan gelmişler.", "ethnicity"),
    ("Eşim Gagavuz, evde çocuklarla kendi dilini konuşuyor.", "ethnicity"),
    ("Oğlum domuz eti yemiyor, okul menüsüne not düşer misiniz?", "religion"),
    ("Bayramda kayınpederimle büyükbaş hissesine girdik, kesime gideceğim.", "religion"),
    ("Annem bu yıl kurbanlık koçu köyde kestirecek, ben de izin alıyorum.", "religion"),
    ("Bankanın göz tarayıcısı beni yine tanımadı, kimlikle girdim.", "biometric"),
    ("Selin'in kulağında cihaz var, toplantıda dudaktan okuyor.", "health"),
    ("Kuzenim kimsenin duymadığı sesler duyduğunu söylüyor.", "health"),
    ("Oğlum maça parti atkısıyla gitmiş, öğretmeni uyarmış.", "political_opinion"),
    ("Yeğenim hayvansal ürün kullanmıyor, menüyü buna göre yapalım.", "philosophical_belief"),
    ("Ben tanrıya inanmıyorum ama annem bunu bilmiyor.", "philosophical_belief"),
    ("Sınıftaki Mert'in iki annesi var, veli toplantısına ikisi de geliyor.", "sexual_life"),
    ("Müvekkilimin eşinin yasak aşk yaşadığı iddiası dosyaya girdi.", "sexual_life"),
    ("Şüpheli Koray'ın DNA örneği olay yerindeki izle karşılaştırıldı.", "genetic"),
    ("Kardeşimle HLA tiplemesi yapıldı, ilik nakli için uygunmuşum.", "genetic"),
    ("Personel Cem Aktaş'ın parmak izi şablonu sisteme yüklendi.", "biometric"),
    ("Annemde keratokonus var, kornea nakli sırası bekliyor.", "health"),
    ("Babamın LDL ve troponin değerleri yüksek çıktı.", "health"),
    ("Teyzem Brilinta kullanıyor, diş çekimi öncesi ne yapmalı?", "health"),
    ("Müvekkil A.Y. hakkındaki HTS kayıtları dosyaya girdi.", "criminal_record"),
    ("Ustabaşımız Kenan Bey işyeri temsilcisi seçildi.", "membership"),
    ("Hastamızda nötropeni gelişti, G-CSF başlandı.", "health"),
    ("Kaan masasına bozkurt rozeti koymuş, müşteriler fark etmiş.", "political_opinion"),
    ("Bankanın uygulamasında artık sesimle giriş yapıyorum.", "biometric"),
    ("Kilide parmağımı iki kere okuttum, kapı açılmadı.", "biometric"),
    ("Resepsiyondaki Elif başını şalla örtmek istediğini söyledi.", "appearance"),
    ("Müvekkilimde MLH1 varyantı pozitif çıktı.", "genetic"),
    ("Hastam MSM, PrEP başlamak istiyor.", "sexual_life"),
    ("Eski eşim hakkında uzaklaştırma var, yine kapıya geldi.", "criminal_record"),
]

# 'kapalı' and 'kapandı' said of a car park, a room or an account are no dress
_EVERYDAY: list[tuple[str, str | None]] = [
    ("Stajyer kapalı otoparka park etti, anahtarı bıraktı.", "appearance"),
    ("Sekreter kapalı alandaki toplantıyı iptal etti.", "appearance"),
    ("Hesap kapandı mı, bankaya sorar mısın?", "appearance"),
    # a victim ('kurbanı') and a property's shares ('hisseli tapu') are no feast
    ("Dolandırıcılık kurbanı müşterilere iade yapıldı mı?", "religion"),
    ("Hisseli tapuda satış için diğer hissedarların onayı gerekiyor.", "religion"),
    # a school's suspension and a firm named after the wolf are no record and no party
    ("Öğrenci okuldan uzaklaştırma cezası aldı mı?", "criminal_record"),
    ("Bozkurt Lojistik'in faturası geldi, ödeyelim.", "political_opinion"),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_family_wording(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category, typed with Turkish letters or without; closed and
    indoor are no dress, a victim and a shared deed no feast."""
    check_family(check, text, category)


def test_a_first_name_that_is_a_feast_is_a_name() -> None:
    """'Ramazan Kaya' is a person: no religion topic, and the name stays visible to the second
    stage, so his disability report is about him."""
    text = "Ramazan Kaya'nın engelli raporu bugün geldi, bordroya işleyelim."
    assert topics_of(text) == {"health"}
    found = Classifier(cache_entries=0).classify([text])
    assert found.data_class == "special", found.as_record()
    assert "religion" in topics_of("Ramazan ayında oruç tutuyorum.")


def test_record_frames_give_both_labels_and_initials() -> None:
    made = list(record_examples(random.Random(5), TOPICS["health"], 200, _name))
    labels = {label for _, label, _ in made}
    assert labels == {0, 1}
    assert any("Müvekkil" in text and "." in text.split()[1] for text, label, _ in made if label)
