"""Topic words in a sense that says nothing about anyone, found wrongly fired on text written
by others: a bank named after a foundation ('Vakıfbank') as the payee of a refund, a birthday
or a New Year's party, a key's or a browser's fingerprint, a genetic algorithm and its mutation
rate, a view held 'with full conviction', water drained or a tenant evicted ('tahliye'), the
zodiac's Cancer, a lock that reads fingerprints, a man named Ramazan, a surname that names a
people ('Selçuk Tatar'), a clamp put on a hose; and, sensitive, dress named by 'kapalı' after a
colleague's role, a party named by its emblem, an ankle tag or handcuffs, a prison's name, a
union's shop reps. Then wording found on dev s: headscarves as a shop's goods ('başörtüsü
modelleriniz'), a bus stop ('durağı', not a durag), a team's 'our conviction', and a face
taught to a phone, a strike told by those on it, a pregnancy by its screening, a vegan way of
life, an affair, a Travellers' halting site. Each with its sensitive sense, which still fires."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from tests.unit.sensitivity.helpers import check_family, family_cases

_ABOUT_SOMEONE = [
    ("Ayşe Demir vakıf üyesi, aidatını her ay ödüyor.", "membership"),
    ("Ahmet işçi partisi üyesi, mitinge gitti.", "political_opinion"),
    ("Ahmet'in fingerprint kaydı bozuk, tekrar alalım.", "biometric"),
    ("Her genetic test found a BRCA1 mutation.", "genetic"),
    ("He has two convictions for fraud.", "criminal_record"),
    ("yeni muhasebeci kapali, musteri toplantilarina o mu gitsin", "appearance"),
    ("stajyerimiz kapalı, fotoğraf çekiminde başörtüsüyle olacak", "appearance"),
    ("Ahmet Yılmaz cezaevinden tahliye edildi.", "criminal_record"),
    ("Avukatı Ahmet için tahliye istedi, başvurusu reddedildi.", "criminal_record"),
    ("Ahmet kanser tedavisi görüyor.", "health"),
    ("Ahmet'in parmak izi kaydı alındı.", "biometric"),
    ("parmak izi okuyucu Selda hanımın izini okumuyor, yeniden kayıt yapın", "biometric"),
    ("Ahmet ramazanda otuz gün oruç tutuyor.", "religion"),
    ("biz ailece hep altı okluya veririz, babam da öyle", "political_opinion"),
    ("Melike Hanım profil fotoğrafına bozkurt işareti koymuş.", "political_opinion"),
    ("Emre'nin ayağına kelepçe taktılar, akşam sekizden sonra çıkamıyor.", "criminal_record"),
    ("Emre'ye kelepçe taktılar, karakola götürdüler.", "criminal_record"),
    ("how do i explain a gap on my cv? i was in silivri for most of it", "criminal_record"),
    ("Ramazan and Ferhat are the shop reps, they'll be at the gate all day.", "membership"),
    ("Selin 1 Mayıs yürüyüşünde olacak, toplantıyı erteleyelim.", "political_opinion"),
    ("ablam 'sen de mi deme verdin' diye yazmış, evet verdim.", "political_opinion"),
    ("Hüseyin will be at his village for the kurban next week.", "religion"),
    ("babamın yüzünü telefonuna tanıttım, artık şifre sormuyor", "biometric"),
    ("yarın fabrikada iş bırakıyoruz, temsilcimiz kapıda toplanın dedi", "membership"),
    ("sabah 12. hafta taraması var, ense kalınlığına bakacaklar", "health"),
    ("ilkim hayvansal hiçbir şey kullanmıyor, deri ceket bile giymiyor", "philosophical_belief"),
    (
        "he hasn't used any animal products in eight years, it's an ethics thing",
        "philosophical_belief",
    ),
    ("hannah has been sleeping with her manager since the offsite", "sexual_life"),
    ("tolga hooked up with the new guy from accounts", "sexual_life"),
    ("My dad's side grew up on a halting site outside Galway.", "ethnicity"),
    ("Ayşe başörtüsü renkleri konusunda çok seçici, hep lacivert takar.", "appearance"),
    ("Kev wears a durag to the gym every day.", "appearance"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    ("Ödemeyi Vakıfbank hesabıma yaptım, Ayşe Demir.", "membership"),
    ("Ödemeyi Vakıf Katılım hesabıma yaptım.", "membership"),
    ("Ahmet'in doğum günü partisi cumartesi, Ayşe de gelecek.", "political_opinion"),
    ("Davetiyeye 'yılbaşı partisi' mi yazalım?", "political_opinion"),
    ("Is the Christmas party on Friday?", "political_opinion"),
    ("git says the host key fingerprint has changed", "biometric"),
    ("what is browser fingerprinting and how do i block it?", "biometric"),
    ("my genetic algorithm converges too early, mutation rate 0.01", "genetic"),
    ("i say this with full conviction: tabs over spaces", "criminal_record"),
    ("muhasebeci kapalı ofiste çalışıyor, pencere yok", "appearance"),
    ("Klimanın su tahliye hortumu tıkalı olabilir mi?", "criminal_record"),
    ("Kiracı tahliye taahhütnamesi imzalamıştı, süresi doldu.", "criminal_record"),
    ("kanser burcu erkeği kıskanç olur mu?", "health"),
    ("Parmak izli kapı kilidi önerir misin?", "biometric"),
    ("Sayın yetkili, adım Ramazan Öztaş, sokak lambası yanmıyor.", "religion"),
    ("esp ramazan and ferhat, they're the shop reps at the gate", "religion"),
    ("Ramazan Bey yarın saat onda gelecek.", "religion"),
    ("Hortuma yeni bir kelepçe taktık, sızıntı durdu.", "criminal_record"),
    ("Nisan'da avans alan Selçuk Tatar'ın avansı bordrodan kesilecek.", "ethnicity"),
    ("Ayla Türkmen ve Cem Çerkez toplantıya gelecek.", "ethnicity"),
    ("1 Mayıs yürüyüşü nedeniyle Taksim'e çıkan yollar kapalı.", "political_opinion"),
    ("İpek eşarp ve başörtüsü modellerinizde lacivert var mı? Kargo kaç günde gelir?", None),
    ("Yeni evime en yakın durağı 25 dakika yürüme mesafesinde.", "appearance"),
    ("our conviction is that the new pricing tiers are right", "criminal_record"),
    ("işi bırakıyorum, yeni yere geçiyorum", "membership"),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_everyday_senses(check: str, text: str, category: str | None) -> None:
    check_family(check, text, category)


@pytest.mark.parametrize(
    "text",
    [
        "i was charged twice for march, pls refund one to TR840001500000158204736918 "
        "(vakifbank, name on acc: baran oz)",
        "Ahmet'in doğum günü partisi cumartesi, Ayşe Demir de gelecek.",
    ],
)
def test_a_payee_bank_or_a_birthday_party_leaves_personal_data_personal(
    clf: Classifier, text: str
) -> None:
    assert clf.classify([text]).data_class == "personal"
