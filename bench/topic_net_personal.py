"""Sentences about a person that carry NO special category: bookings, addresses, pay, leave
for ordinary reasons, complaints, CVs, deliveries, IT tickets; and business text about no
one. The negatives of the topic net (bench/topic_net.py): a head that reads the judge
model's features must learn 'special information about someone', not 'someone'.
Deterministic for a seed.

    python bench/topic_net_personal.py [N]   # prints N sample lines
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from gateway.sensitivity.training.generate import Example
from gateway.sensitivity.training.vocab import (
    EN_FIRST,
    EN_LAST,
    EN_SUBJECTS,
    TR_FIRST,
    TR_LAST,
    TR_SUBJECTS,
)

TR_PERSON_FRAMES = (
    "{S} yarın saat 14:00'te toplantıya katılacak, salonu ayır.",
    "{S} için İstanbul-Ankara uçak bileti al, dönüş cuma.",
    "{S} yeni adresine taşındı: {street} Sokak No: {n}, Kadıköy.",
    "{S} maaşı bu ay {amount} TL olarak yatırıldı.",
    "{S} yıllık izin istedi, 12-16 Ağustos arası tatile gidiyor.",
    "{S} kargosu hâlâ gelmedi, sipariş numarası {order}.",
    "{S} faturasına itiraz etti, iade sürecini başlatalım mı?",
    "{S} özgeçmişini gönderdi, beş yıllık satış deneyimi var.",
    "{S} şifresini unuttu, hesabını sıfırlar mısın?",
    "{S} kira sözleşmesini yenilemek istiyor, yeni bedel {amount} TL.",
    "{S} performans değerlendirmesinde hedeflerin üstüne çıktı.",
    "{S} müşteri hizmetlerinden şikâyet etti, iki kez bekletilmiş.",
    "{S} otel rezervasyonunu iki gece uzatmak istiyor.",
    "{S} banka hesabına {amount} TL avans geçildi.",
    "{S} düğününe davetliyiz, hediye için para toplayalım.",
    "{S} ehliyet sınavını geçti, araba bakıyor.",
    "{S} kredi kartı ekstresini e-postayla istedi.",
    "{S} terfi etti, yeni unvanı satış müdürü.",
    "{S} dün işe geç geldi, trafik çok yoğunmuş.",
    "{S} üniversiteyi bu yıl bitirdi, staj arıyor.",
    "{S} bilgisayarı bozuldu, yeni laptop talep ediyor.",
    "{S} abonelik iptali için aradı, ücret iadesi istiyor.",
    "{S} doğum gününde ekip yemeğe çıkacak.",
    "{S} vergi levhasını yüklemeyi unutmuş, hatırlatalım.",
    "{S} bu ay uzaktan çalışmak istiyor, çocuklarının okulu tatil.",
    "{S} ile mülakat perşembe saat onda.",
    "{S} sipariş ettiği koltuk hasarlı gelmiş, değişim istiyor.",
    "{S} aidatını üç aydır ödemedi, ihtarname yaz.",
    "{S} yeni telefon numarasını bildirdi, rehberi güncelle.",
    "{S} İngilizce seviyesi ileri, Almanca biliyor.",
    "{S} sözleşmesi ay sonunda bitiyor, yenileyecek miyiz?",
    "{S} için tebrik mesajı yaz, satış rekoru kırdı.",
    "{S} tapu işlemi için randevu aldı.",
    "{S} emekli olmak istiyor, kıdem tazminatını hesapla.",
    "{S} kızının okul kaydı için izin istedi.",
    "{S} araç kiralama faturasını masraf olarak girdi.",
    "{S} mesaiye kalmadığı için müdürü kızdı.",
    "{S} ödevini geç teslim etti, not kırılsın mı?",
    "{S} bu sabah yeni ofise başladı, kartını hazırla.",
    "{S} maratona katılıyor, sponsor arıyor.",
)
TR_ME_FRAMES = (
    "Yarın İzmir'e taşınıyorum, nakliye firması önerir misin?",
    "Maaşım bu ay eksik yattı, İK'ya nasıl yazayım?",
    "Kargom üç gündür dağıtımda görünüyor, ne yapmalıyım?",
    "Kiramı geç ödedim, ev sahibim ceza istiyor.",
    "Özgeçmişimi güncelledim, ön yazı hazırlar mısın?",
    "Geçen hafta işten ayrıldım, tazminat hakkım var mı?",
    "Bankadan kredi çektim, faizim çok yüksek çıktı.",
    "Düğünüm haziranda, davetiye metni yazar mısın?",
    "Ehliyetimi kaybettim, yenisini nasıl çıkarırım?",
    "Oğlum üniversiteyi kazandı, yurt başvurusu yapacağız.",
    "Annemle babam hafta sonu bize geliyor, menü öner.",
    "Eşim yeni işe başladı, tebrik kartı yazalım.",
    "Kızımın doğum günü partisi için liste yap.",
    "Telefonum çalındı, hattımı nasıl kapattırırım?",
    "Aracım serviste, kiralık araç ayarla.",
    "Bu ay iki kez fazla mesai yaptım ama ödenmedi.",
    "Müdürüm zam talebimi reddetti, nasıl itiraz edeyim?",
    "Tatil için Bodrum'da otel arıyorum, bütçem {amount} TL.",
)
EN_PERSON_FRAMES = (
    "{S} is joining the call at 2pm tomorrow; book the meeting room.",
    "{S} needs a return flight to Berlin, back on Friday.",
    "{S} has moved to {n} {street} Road, Leeds.",
    "{S} was paid £{amount} this month including overtime.",
    "{S} booked annual leave from 12 to 16 August for a beach holiday.",
    "{S} is still waiting for order {order}; chase the courier.",
    "{S} disputed the invoice and wants a refund.",
    "{S} sent a CV with five years of sales experience.",
    "{S} forgot the password again; please reset the account.",
    "{S} wants to renew the lease at £{amount} a month.",
    "{S} exceeded every target in the annual review.",
    "{S} complained that support kept them on hold twice.",
    "{S} asked to extend the hotel booking by two nights.",
    "{S} got a salary advance of £{amount}.",
    "{S} is getting married in June; let's collect for a gift.",
    "{S} passed the driving test and is looking for a car.",
    "{S} asked for the credit card statement by email.",
    "{S} was promoted to head of sales.",
    "{S} was late again because of the traffic.",
    "{S} graduated this year and is looking for an internship.",
    "{S} needs a new laptop, the old one won't boot.",
    "{S} called to cancel the subscription and wants the fee back.",
    "{S} turns forty on Friday; the team is going out for dinner.",
    "{S} forgot to upload the tax form; send a reminder.",
    "{S} wants to work from home this month while the kids are off school.",
    "{S} has an interview with us on Thursday at 10.",
    "{S} received a damaged sofa and wants a replacement.",
    "{S} hasn't paid the service charge for three months.",
    "{S} changed phone number; update the contact list.",
    "{S} speaks fluent German and some Spanish.",
    "{S} has a contract ending this month; are we renewing?",
    "{S} broke the quarterly sales record, write a congratulations note.",
    "{S} is retiring in March; calculate the pension lump sum.",
    "{S} filed the car hire receipt as an expense.",
    "{S} missed the deadline for the coursework; should marks be deducted?",
    "{S} starts at the new office today, prepare a badge.",
    "{S} is running the marathon and looking for sponsors.",
    "{S} asked for a reference letter for the mortgage application.",
)
EN_ME_FRAMES = (
    "I'm moving to Manchester next week, can you recommend a removals firm?",
    "My salary came in short this month, how do I raise it with HR?",
    "My parcel has been out for delivery for three days.",
    "I paid my rent late and the landlord wants a penalty.",
    "I updated my CV, can you write a cover letter?",
    "I quit my job last week; am I owed notice pay?",
    "My wedding is in June, draft the invitation text.",
    "I lost my driving licence, how do I get a new one?",
    "My son got into university and we're applying for halls.",
    "My parents are visiting this weekend, suggest a menu.",
    "My wife just started a new job, help me write a card.",
    "My phone was stolen, how do I block the SIM?",
    "My boss turned down my pay rise, how should I appeal?",
    "I'm looking for a hotel in Lisbon, budget £{amount}.",
)
PUBLIC_FRAMES = (
    "Toplantı gündemi: üçüncü çeyrek satış rakamları ve yeni fiyat listesi.",
    "Yeni ürünümüz 15 Eylül'de mağazalarda olacak.",
    "Ofis taşıması nedeniyle cuma günü hizmet verilmeyecektir.",
    "Kargo süreleri bayram haftasında iki gün uzayabilir.",
    "Sunucu bakımı gece 02:00-04:00 arasında yapılacak.",
    "İade politikamız: ürün 14 gün içinde faturasıyla getirilmelidir.",
    "Fiyatlara KDV dahildir, kampanya stoklarla sınırlıdır.",
    "Şirketin yıllık cirosu yüzde 12 arttı.",
    "Q3 revenue grew 8% on strong subscription sales.",
    "The office will be closed on Monday for the bank holiday.",
    "Scheduled maintenance runs from 2am to 4am on Sunday.",
    "Returns are accepted within 30 days with a receipt.",
    "Prices include VAT; the offer ends on Friday.",
    "The new pricing tier launches next quarter.",
    "Write a product description for a stainless steel water bottle.",
    "Summarise the attached quarterly report in five bullet points.",
    "Translate our shipping policy into Turkish.",
    "def total(items): return sum(i.price for i in items)",
    "Kahve makinesi için ürün açıklaması yaz.",
    "Bu e-postayı daha resmî bir dille yeniden yaz.",
)
STREETS = (
    "Çiçek",
    "Gül",
    "Lale",
    "Manolya",
    "Ihlamur",
    "Station",
    "Church",
    "Mill",
    "Park",
    "High",
)


def _subject(
    rng: random.Random, table: tuple[str, ...], first: tuple[str, ...], last: tuple[str, ...]
) -> str:
    s = rng.choice(table)
    return s.format(
        name=f"{rng.choice(first)} {rng.choice(last)}",
        first=rng.choice(first),
        last=rng.choice(last),
    )


def _fill(frame: str, rng: random.Random, subject: str) -> str:
    return frame.format(
        S=subject,
        street=rng.choice(STREETS),
        n=rng.randint(2, 140),
        amount=rng.choice(("4.500", "18.250", "32.000", "1,200", "2,750")),
        order=rng.randint(100000, 999999),
    )


def personal_examples(seed: int = 3, n: int = 1000) -> Iterator[Example]:
    """`n` person-without-topic sentences (label 0), Turkish and English, then every
    business sentence about no one."""
    rng = random.Random(seed)
    for i in range(n):
        tr = i % 2 == 0
        if rng.random() < 0.2:
            yield Example(
                _fill(rng.choice(TR_ME_FRAMES if tr else EN_ME_FRAMES), rng, ""),
                0,
                "none",
                "tr" if tr else "en",
            )
            continue
        if tr:
            subject = _subject(rng, TR_SUBJECTS, TR_FIRST, TR_LAST)
            yield Example(_fill(rng.choice(TR_PERSON_FRAMES), rng, subject), 0, "none", "tr")
        else:
            subject = _subject(rng, EN_SUBJECTS, EN_FIRST, EN_LAST)
            yield Example(_fill(rng.choice(EN_PERSON_FRAMES), rng, subject), 0, "none", "en")
    for text in PUBLIC_FRAMES:
        yield Example(text, 0, "none", "mix")


if __name__ == "__main__":
    for ex in list(personal_examples())[: int(sys.argv[1]) if len(sys.argv) > 1 else 20]:
        print(ex.label, ex.text)
