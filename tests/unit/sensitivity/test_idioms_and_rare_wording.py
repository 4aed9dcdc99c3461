"""Wording found on sets written by others to be lexically diverse: a topic named by a rarer
word (a people such as the Garifuna or the Hakka, a movement such as Theosophy, a union such as
the IWW, a garment such as a Franciscan habit, a prison's 'koğuş ağası' or its name, a
protective order, a palm or face scan, a sibship or ancestry test, a dating site, 'Mr and Mr'),
covering named by 'kapandı' after one's own women, probation typed 'serbestliğe' (a phrase's
softened last word), a spouse of the same gender as a named man or woman ("Sofia's wife",
"Mehmet'in kocası"), each still firing when typed without Turkish letters; and idioms that use a
topic word for something else ('arap saçına döndü', 'kalp krizi geçirtecek', 'evde hapis',
'hırsız polis', a firm's 'DNA', 'religiously', 'fingerprints all over' a record, a party with a
cake, 'Arnavut kaldırımı', 'ramazan pidesi', GM food, a file's 'fingerprintini', a 'conservative
estimate', a white picket fence, a race condition, a syndicated loan, a courier 'taşıyıcı
firma', 'sick of meetings'), which fire nothing."""

from __future__ import annotations

import pytest

from tests.unit.sensitivity.helpers import check_family, family_cases

_ABOUT_SOMEONE = [
    ("My aunt has been a Theosophist since the seventies.", "philosophical_belief"),
    (
        "Kerem anthroposophy'ye çok bağlı, çocukları Steiner okuluna gidiyor.",
        "philosophical_belief",
    ),
    ("Our receptionist follows ahimsa and won't even swat a fly.", "philosophical_belief"),
    ("The canteen kept a face map of my daughter without asking.", "biometric"),
    ("They scanned my palm at the gym entrance.", "biometric"),
    ("Nur'un yüzünü turnike sistemine kaydettiler.", "biometric"),
    ("Kurye Murat'tan her sabah yüz eşleme için fotoğraf istiyorlar.", "biometric"),
    ("Please send Ali Kaya's ten-print cards again.", "biometric"),
    ("Dad has carried a red card from the IWW since 1978.", "membership"),
    ("Tanya pays her CWA dues every month.", "membership"),
    ("Our cleaner Rosa is Garifuna, from the coast of Honduras.", "ethnicity"),
    ("My in-laws are Hakka Chinese and speak Hakka at home.", "ethnicity"),
    ("The client is Mhallami, his family came from Midyat.", "ethnicity"),
    ("Sister Clare wears the full Franciscan habit at work.", "appearance"),
    ("The applicant is LDS and will serve a two-year mission.", "religion"),
    ("Cousin Ray ran on the Working Families Party line.", "political_opinion"),
    ("My brother got 150 hours of community service for the graffiti.", "criminal_record"),
    ("Bizim Cem içerideyken koğuş ağasıymış.", "criminal_record"),
    ("Müvekkilim hakkında uzaklaştırma tedbiri verildi.", "criminal_record"),
    ("Eşi hakkında yaklaşmama kararı çıktı.", "criminal_record"),
    ("Bed 7, Mr Okafor, missed his haemodialysis today.", "health"),
    ("The sibship test for my client and her half-brother came back.", "genetic"),
    ("My husband had a PlanetRomeo profile all along.", "sexual_life"),
    ("Müvekkilim eşinin Ashley Madison hesabını buldu.", "sexual_life"),
    ("Komşumuz Hakan'ın Hornet'te profili varmış.", "sexual_life"),
    ("She told me her husband has been seeing a dominatrix.", "sexual_life"),
    ("Danışanım eşinin kendisiyle yatmadığını söyledi.", "sexual_life"),
    ("Kızım geçen ay kapandı, okulda dışlanıyor.", "appearance"),
    ("My fiancé and I are two grooms planning one wedding.", "sexual_life"),
    ("as a bi guy i hate these dating filters", "sexual_life"),
    ("Please stop my Unite subscription from next month.", "membership"),
    ("Since getting out of Pentonville I can't find work.", "criminal_record"),
    ("Facial template for employee 4471 was captured again.", "biometric"),
    ("Kerem bu akşam Hornet'ten tanıştığı biriyle buluşacak.", "sexual_life"),
    ("Geçen ay ata testi yaptırdım, yüzde 38 Kafkas çıktı.", "genetic"),
    ("Ben de 2013'te Gezi'deydim.", "political_opinion"),
    ("Our nanny Sofia's wife is her emergency contact.", "sexual_life"),
    ("Tom's husband picked him up from work.", "sexual_life"),
    ("Mehmet'in kocası da düğüne gelecek.", "sexual_life"),
    ("Zeynep'in karısı bu akşam bize gelecek.", "sexual_life"),
    ("Cem perşembeleri denetimli serbestliğe imza atmaya gidiyor.", "criminal_record"),
    ("My wife and I are ethically non-monogamous.", "sexual_life"),
    ("My daughter told me she likes girls.", "sexual_life"),
    ("Please address the letters to Mr and Mr Whitfield.", "sexual_life"),
    ("I'm one of the volunteer phone bankers for her campaign.", "political_opinion"),
    ("Marched again today, third Saturday calling for a ceasefire.", "political_opinion"),
    ("I stood at the marae and said my pepeha.", "ethnicity"),
    ("Drove up to see Jamal at Pelican Bay again.", "criminal_record"),
    ("I stopped wearing anything from animals years ago.", "philosophical_belief"),
    ("Since I started studying with the Kingdom Hall we skip birthdays.", "religion"),
    ("The new door system made us register our faces.", "biometric"),
    ("Sam keeps glucose tabs at his workstation.", "health"),
    ("Nazlı kendini Roman olarak tanımlamış.", "ethnicity"),
    ("He's coming out to his parents this weekend.", "sexual_life"),
    ("She's been sick with flu all week.", "health"),
    # the literal senses of the idioms below
    ("Komşumuz Arap, Hatay'dan geldi.", "ethnicity"),
    ("Babam dün kalp krizi geçirdi.", "health"),
    ("Ahmet ev hapsi cezası aldı.", "criminal_record"),
    ("Ahmet evde hapis cezasını çekiyor.", "criminal_record"),
    ("Ayşe'nin DNA testi sonuçlandı.", "genetic"),
    ("The patient's DNA was sequenced last week.", "genetic"),
    ("Ahmet partiye üye oldu, kongreye gidecek.", "political_opinion"),
    ("Ahmet'in parmak izi kapıdaki kilitte vardı.", "biometric"),
    ("She is religious and prays five times a day.", "religion"),
]
_EVERYDAY = [
    ("Bu proje arap saçına döndü, kimse bir şey bulamıyor.", None),
    ("Borsada kalp krizi geçirtecek bir hafta oldu.", None),
    ("Kedimiz bütün gün evde hapis, dışarı çıkmak istiyor.", None),
    ("Çocuklar bahçede hırsız polis oynuyor.", None),
    ("Müşteri odaklılık şirketin DNA'sında var.", None),
    ("Innovation is in our company's DNA.", None),
    ("Quality is part of the brand DNA.", None),
    ("I watch that show religiously every Sunday.", None),
    ("The producer left his fingerprints all over this album.", None),
    ("Partiye kim geliyor? Pastayı ben sipariş ediyorum.", None),
    ("The steward brought coffee to her seat.", None),
    ("Hakk'a yürüdü, mekânı cennet olsun.", None),
    ("Dükkan geçen ay kapandı, yerine kafe açılacak.", None),
    ("Our startup is finally coming out of stealth next week.", None),
    ("I'm so sick of meetings; this calendar is a total headache.", None),
    ("How do I paint a white picket fence without drips?", None),
    ("Roasting a turban squash tonight.", None),
    ("That book is my kitchen bible.", None),
    ("I keep hitting a race condition in Go.", None),
    ("Sendikasyon kredisini beş bankayla kapattık.", None),
    ("git-lfs says the object fingerprint does not match.", None),
    ("Taşıyıcı firma değişti, artık başka kargo ile gönderiyoruz.", None),
    ("Kubbenin taşıyıcı sistemi hâlâ derslerde okutuluyor.", None),
    ("Arnavut ciğeri ve piyaz söyledik.", None),
    ("Yılbaşı partisi cuma akşamı, dress code yok.", None),
    ("Dress code: smart casual.", None),
    ("Ramazan abinin numarası sende var mı?", None),
    ("Ayşe'nin kocası doktor, Mehmet'in karısı öğretmen.", None),
    ("Tom's wife and Sofia's husband run the bakery.", None),
    ("Dosyanın sha256 fingerprintini nasıl alırım?", None),
    ("Ramazan pidesi bu yıl kaç lira olmuş?", None),
    ("Genetiği değiştirilmiş içerik yok, ama fiyatı yüksek.", None),
    ("Arnavut kaldırımı için İngilizcede hangi kelime kullanılır?", None),
    ("A conservative estimate is thirty minutes saved a day.", None),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_rare_wording_fires_and_idioms_do_not(check: str, text: str, category: str | None) -> None:
    check_family(check, text, category)
