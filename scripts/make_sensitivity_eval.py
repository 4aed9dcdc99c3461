# ruff: noqa: E501  (data tables: long literal sentences read better unwrapped)
"""Writes tests/data/sensitivity_eval.jsonl: the labelled evaluation set for the sensitivity
classifier (Turkish and English; ~40% public with hard negatives, ~35% personal, ~25% special;
long prompts with the item buried in the middle). Seeded, so re-running reproduces the file.
Identifiers are generated fakes (checksum-valid where the label needs it, failing where the
record is a look-alike); no real person's data is used."""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "sensitivity_eval.jsonl"
R = random.Random(6698)


def tckn(valid: bool = True) -> str:
    while True:
        d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
        d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
        d11 = (sum(d) + d10) % 10
        s = "".join(map(str, d)) + f"{d10}{d11}"
        if valid:
            return s
        bad = s[:-1] + str((d11 + R.randint(1, 9)) % 10)
        return bad


def luhn(body: str) -> str:
    for c in "0123456789":
        s = body + c
        t = sum(
            (int(x) * 2 - 9 if int(x) * 2 > 9 else int(x) * 2) if i % 2 else int(x)
            for i, x in enumerate(reversed(s))
        )
        if t % 10 == 0:
            return s
    raise AssertionError


def card(valid: bool = True) -> str:
    c = luhn("4" + "".join(str(R.randint(0, 9)) for _ in range(14)))
    if not valid:
        c = c[:-1] + str((int(c[-1]) + 3) % 10)
    return " ".join(c[i : i + 4] for i in range(0, 16, 4))


def iban(valid: bool = True) -> str:
    bban = "".join(str(R.randint(0, 9)) for _ in range(22))
    num = int(bban + "2927" + "00")
    s = f"TR{98 - num % 97:02d}{bban}"
    if not valid:
        s = s[:-1] + str((int(s[-1]) + 1) % 10)
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


def phone() -> str:
    p = f"5{R.choice('0345')}{R.randint(0, 9)}"
    n = f"{R.randint(100, 999)} {R.randint(10, 99)} {R.randint(10, 99)}"
    return R.choice([f"0{p} {n}", f"+90 {p} {n}", f"0 ({p}) {n}", f"0{p}{n.replace(' ', '')}"])


FIRST = [
    "Ayşe",
    "Mehmet",
    "Zeynep",
    "Ali",
    "Elif",
    "Mustafa",
    "Fatma",
    "Emre",
    "Selin",
    "Burak",
    "Hatice",
    "Kerem",
    "Merve",
    "Hakan",
    "Ebru",
    "Cem",
]
LAST = [
    "Yılmaz",
    "Kaya",
    "Demir",
    "Şahin",
    "Çelik",
    "Yıldız",
    "Öztürk",
    "Aydın",
    "Arslan",
    "Doğan",
    "Kılıç",
    "Aslan",
    "Korkmaz",
    "Polat",
    "Erdem",
]
EN_FIRST = ["John", "Mary", "David", "Sarah", "Michael", "Emma", "James", "Laura"]
EN_LAST = ["Smith", "Johnson", "Brown", "Taylor", "Walker", "Wright", "Evans", "Cooper"]


def name() -> str:
    return f"{R.choice(FIRST)} {R.choice(LAST)}"


def en_name() -> str:
    return f"{R.choice(EN_FIRST)} {R.choice(EN_LAST)}"


FILLER_TR = [
    "Üçüncü çeyrek satış sonuçları beklentinin üzerinde geldi ve bölge müdürlükleri hedeflerini büyük ölçüde tuttu.",
    "Yeni depo yönetim sistemine geçiş planı üç aşamada yürütülecek; ilk aşamada stok kodları yeniden düzenlenecek.",
    "Toplantıda pazarlama bütçesinin dijital kanallara kaydırılması ve kampanya takviminin güncellenmesi konuşuldu.",
    "Bilgi işlem ekibi sunucu bakımını cumartesi gecesi yapacak; bu sırada raporlama ekranları erişilemez olacak.",
    "Tedarikçilerle yapılan sözleşmelerde ödeme vadesi 60 günden 45 güne indirildi ve teslimat cezaları netleştirildi.",
    "Müşteri memnuniyeti anketinde en düşük puanı teslimat süresi aldı; lojistik ortağıyla yeni bir plan hazırlanıyor.",
    "Eğitim programı kapsamında tüm ekiplerin yıl sonuna kadar iş sağlığı ve güvenliği modülünü tamamlaması gerekiyor.",
    "Fiyat listesi güncellemesi önümüzdeki ayın ilk gününden itibaren geçerli olacak ve bayilere duyurulacak.",
]
FILLER_EN = [
    "The quarterly review showed steady growth in the enterprise segment, while the SMB pipeline slowed slightly.",
    "Our migration to the new message queue will happen in three phases, starting with the billing services.",
    "The design team proposed a simplified onboarding flow that reduces the number of required form fields.",
    "Latency on the search endpoint improved after we moved the ranking step behind a cache with a short TTL.",
    "Procurement asked every department to submit next year's hardware requests before the end of the month.",
    "The retrospective highlighted flaky integration tests as the main source of wasted time in the last sprint.",
    "Marketing will run an A/B test on the pricing page to compare annual and monthly plan emphasis.",
    "Support tickets about password resets dropped by a third after the new self-service page went live.",
]


def long_doc(item: str, lang: str, kb: int) -> str:
    pool = FILLER_TR if lang == "tr" else FILLER_EN
    paras: list[str] = []
    while sum(len(p) for p in paras) < kb * 1024:
        paras.append(" ".join(R.sample(pool, 4)))
    mid = len(paras) // 2
    return "\n\n".join([*paras[:mid], item, *paras[mid:]])


PUBLIC = [
    # topic talk (health, law, religion, politics, etc.)
    "Diyabetin belirtileri nelerdir?",
    "Tip 2 diyabet nasıl önlenir?",
    "What are the early symptoms of diabetes?",
    "How is HIV transmitted and how can it be prevented?",
    "Depresyon ile anksiyete arasındaki fark nedir?",
    "Explain how chemotherapy works in simple terms.",
    "Kanser taramaları hangi yaşta başlamalı?",
    "What does a migraine aura feel like in general?",
    "KVKK'ya göre özel nitelikli kişisel veriler nelerdir?",
    "Summarise GDPR Article 9 for a training slide.",
    "Sabıka kaydı nasıl silinir, genel prosedür nedir?",
    "What is the difference between parole and probation?",
    "Türkiye'de Alevi ve Sünni mezhepleri hakkında tarihsel bilgi ver.",
    "Give an overview of Ramadan traditions.",
    "Sendikalaşma hakkı Anayasa'da nasıl düzenlenmiştir?",
    "What rights do trade unions have in Germany?",
    "Seçim barajı düşürülürse meclis aritmetiği nasıl değişir?",
    "Compare the Labour Party and Conservative Party manifestos.",
    "Vegan beslenmenin çevreye etkileri nelerdir?",
    "What is conscientious objection in international law?",
    "Parmak izi okuyucuları nasıl çalışır?",
    "How does facial recognition technology work?",
    "Genetik testler hangi hastalıkları öngörebilir?",
    "Explain what a BRCA mutation means for breast cancer risk.",
    "Kılık kıyafet yönetmeliğinin tarihçesini anlat.",
    "Write a neutral dress code policy for an office.",
    "LGBT hakları konusunda AB mevzuatını özetle.",
    "What is the history of the Armenian diaspora?",
    "Etnik köken verisi neden özel nitelikli sayılır?",
    "Why is racial data considered sensitive under GDPR?",
    "Hastane randevu sistemi için kullanıcı hikayeleri yaz.",
    "Draft an FAQ about our health insurance benefits.",
    "İlaç fiyatları 2024'te ne kadar arttı?",
    "List common side effects of metformin.",
    "Ceza muhakemesinde tutukluluk süresi ne kadardır?",
    "What does 'charged with' mean in a criminal case?",
    # company data
    "Firmamızın vergi numarası {cvkn} olup Kadıköy Vergi Dairesi'ne bağlıdır. Faturaları bu bilgilerle kesin.",
    "Çağrı merkezimiz 444 0 {d3} numarasından hafta içi 09:00-18:00 arası hizmet verir.",
    "Kurumsal destek için destek@ornekfirma.com.tr adresine yazabilir veya 0850 222 {d2} {d2} numarasını arayabilirsiniz.",
    "Our support team can be reached at support@acme-corp.com or via the help center.",
    "ABC Teknoloji A.Ş. (VKN {cvkn}) 2023 yılında 45 milyon TL ciro yaptı.",
    "Şirket merkezimiz Levent'tedir; ziyaretçiler resepsiyona kayıt olmalıdır.",
    "Q3 revenue was 12.4M USD, up 8% year over year; EBITDA margin was 21%.",
    # look-alikes that fail checksums
    "Sipariş numaranız {bad_tckn}, kargoya verildi.",
    "Kargo takip no: {bad_tckn} — teslimat 2 gün içinde.",
    "Order {bad_card} has been refunded.",
    "Fatura no {bad_tckn} için ödeme alındı.",
    "Test verisi olarak geçersiz IBAN kullan: {bad_iban}",
    "Ticket #{bad_tckn} was closed by the on-call engineer.",
    "Seri numarası {bad_tckn} olan cihaz garantide.",
    "Transaction id {bad_card} failed with code 502.",
    # code and SQL that mention the fields
    "SELECT tckn, ad, soyad, iban FROM musteriler WHERE kayit_tarihi > '2024-01-01';",
    "CREATE TABLE patients (id SERIAL, diagnosis TEXT, religion TEXT, email VARCHAR(255));",
    "def validate_tckn(value: str) -> bool:\n    return len(value) == 11 and value.isdigit()",
    "Write a regex that matches Turkish IBANs like TRkk bbbb b0xx xxxx xxxx xxxx xx.",
    "class Employee(BaseModel):\n    name: str\n    phone: str\n    union_member: bool\n    health_notes: str | None",
    "ALTER TABLE users ADD COLUMN date_of_birth DATE; -- needed for age verification",
    "Fix the race condition in the cache invalidation code below:\n\nasync def refresh(): ...",
    "GraphQL mutation updatePatient(id: ID!, diagnosis: String) returns Patient",
    "Bu Python fonksiyonu kredi kartı numarasını Luhn ile doğruluyor mu, kontrol et.",
    "Generate fake test data: names, emails like user@example.com, and placeholder phone numbers.",
    "Mehmet Akif Ersoy'un İstiklal Marşı'nı yazdığı yılı söyle.",
    "Orhan Pamuk'un romanlarını yayın sırasına göre listele.",
]

PERSONAL = [
    "Müşterimizin TC kimlik numarası {tckn}, kaydı güncelleyebilir misin?",
    "TCKN: {tckn_sp} olan başvurunun durumu nedir?",
    "Kimlik no {tckn} ile e-Devlet girişinde hata alıyor.",
    "Lütfen {iban} numaralı hesaba 5.000 TL havale yapın.",
    "IBAN bilgim: {iban}, ödemeyi buraya yapabilirsiniz.",
    "Beni {phone} numarasından arayabilirsiniz.",
    "Müşteri geri dönüş istedi, cep: {phone}.",
    "Please call the customer back at {phone}.",
    "E-posta adresim {email}, faturayı oraya gönderin.",
    "Send the contract to {email} before Friday.",
    "Sayın {name}, başvurunuz onaylanmıştır.",
    "{first} Hanım'ın siparişi yarın teslim edilecek.",
    "{first} Bey toplantıya katılamayacak.",
    "Müvekkilimiz {name} adına ihtarname hazırla.",
    "Çalışanımız {name} için izin belgesi düzenle.",
    "Dear Mr. {en_last}, your application has been received.",
    "Please prepare the onboarding pack for {en_name}.",
    "Teslimat adresi: {street} Mah. {street2} Sok. No: {d2} Daire {d1} {ilce}/{il}",
    "Adres: {street2} Cad. No:{d2}/{d1}, {il} — kargo buraya gelecek.",
    "Aracın plakası {plate}, otopark kaydına ekle.",
    "{plate} plakalı araç sahibine ceza kesildi mi?",
    "Pasaport numaram {passport}, vize formuna yaz.",
    "Passport no: {passport}, expiry 2031.",
    "Doğum tarihi {dob} olan {name} için sigorta teklifi hazırla.",
    "Date of birth: {dob_iso}, please verify the age.",
    "Kart numaram {card}, son kullanma 11/27.",
    "Charge the card {card} for the annual plan.",
    "{name} ({email}) toplantı davetini kabul etti.",
    "Yeni çalışan: {name}, tel {phone}, e-posta {email}",
    "Kiracı {name} kirayı {iban} hesabına yatırdı.",
    "Hi, I'm {en_name}, my number is {phone}.",
    "Vergi no {pvkn} olan serbest meslek erbabı {name} için makbuz kes.",
]

SPECIAL = [
    "Hastamız {name}'a tip 2 diyabet tanısı kondu, diyet listesi hazırla.",
    "Diyabetim var, şekerim sabah 180 çıktı, ne yapmalıyım?",
    "I was diagnosed with HIV last month.",
    "Annem kemoterapi görüyor, yan etkileri için ne önerirsin?",
    "My wife is pregnant and has gestational diabetes.",
    "Çalışanımız {name} depresyon nedeniyle raporlu.",
    "Our patient {en_name} has a history of epilepsy.",
    "Hastaya teshis konuldu: astim. İlaç listesini düzenle.",
    "Ben bipolar bozukluk tanısıyla ilaç kullanıyorum.",
    "Çalışanımız {name} Alevi olduğu için cemevine gitmek üzere izin istedi.",
    "I'm a practising Muslim and fast during Ramadan.",
    "Başvuran {name} Kürt kökenli olduğunu belirtti.",
    "The applicant {en_name} is of Armenian descent.",
    "Ben CHP'ye oy verdim ama müdürüm AKP'li, sorun olur mu?",
    "My manager found out I voted for the Labour Party.",
    "Ben veganım, yemek listesini buna göre hazırla.",
    "He is a conscientious objector and refused the draft.",
    "Çalışanımız {name} sendika üyesi oldu, bordroya aidat kesintisi ekle.",
    "Our employee {en_name} joined the union last week.",
    "Müvekkilimiz eşcinsel olduğu için işten çıkarıldığını söylüyor.",
    "I'm bisexual and my parents don't know yet.",
    "Adayımız {name}'ın sabıka kaydı var, işe alalım mı?",
    "My brother was convicted of fraud in 2019.",
    "Personelimiz {name}'in parmak izi verisi sisteme yüklendi.",
    "Store my fingerprint template for the door lock.",
    "Hastamızın BRCA1 genetik test sonucu pozitif çıktı.",
    "My 23andMe report says I carry a hereditary mutation.",
    "Çalışanımız {first} Hanım başörtülü, müşteri ziyaretine gönderelim mi?",
    "She wears a hijab; should she be on the front desk?",
    "Hastamız {name} (TC {tckn}) HIV pozitif, tedavi planını yaz.",
    "Müvekkilimiz {name} tutuklandı, savunma taslağı hazırla.",
    "Oğlum otizm tanısı aldı, okula nasıl anlatmalıyım?",
    "I have been on antidepressants for two years.",
]


def fill(t: str) -> str:
    il = R.choice(["İstanbul", "Ankara", "İzmir", "Bursa", "Antalya"])
    return t.format(
        tckn=tckn(),
        tckn_sp=" ".join([(s := tckn())[:3], s[3:6], s[6:9], s[9:]]),
        bad_tckn=tckn(False),
        iban=iban(),
        bad_iban=iban(False),
        card=card(),
        bad_card=card(False).replace(" ", ""),
        phone=phone(),
        email=f"{R.choice(['ayse.k', 'mehmet_d', 'j.smith', 'zeynep88'])}"
        f"{R.randint(1, 99)}@{R.choice(['gmail.com', 'hotmail.com', 'outlook.com', 'yandex.com'])}",
        name=name(),
        first=R.choice(FIRST),
        en_name=en_name(),
        en_last=R.choice(EN_LAST),
        street=R.choice(["Moda", "Bahçelievler", "Kızılay", "Alsancak"]),
        street2=R.choice(["Gül", "Lale", "Atatürk", "Cumhuriyet"]),
        d1=R.randint(1, 9),
        d2=R.randint(10, 99),
        d3=R.randint(100, 999),
        ilce=R.choice(["Kadıköy", "Çankaya", "Konak"]),
        il=il,
        plate=f"{R.choice(['34', '06', '35'])} {R.choice(['AB', 'KL', 'TR'])} {R.randint(100, 9999)}",
        passport=f"{R.choice('UPS')}{R.randint(10**7, 10**8 - 1)}",
        dob=f"{R.randint(1, 28):02d}.{R.randint(1, 12):02d}.{R.randint(1950, 2005)}",
        dob_iso=f"{R.randint(1950, 2005)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}",
        cvkn="1234567890",
        pvkn="1234567890",
    )


def lang_of(t: str) -> str:
    return "tr" if any(c in t for c in "çğıöşüÇĞİÖŞÜ") else "en"


def main() -> None:
    rows: list[dict[str, str]] = []
    plan = [("public", PUBLIC, 170), ("personal", PERSONAL, 145), ("special", SPECIAL, 105)]
    for label, bank, n in plan:
        for k in range(n):
            base = bank[k % len(bank)]
            text = fill(base)
            lang = lang_of(text)
            if k % 9 == 4:  # several KB with the item buried in the middle
                text = long_doc(text, lang, R.choice([2, 4, 8]))
            rows.append({"id": f"{label[:2]}-{k:03d}", "lang": lang, "label": label, "text": text})
    R.shuffle(rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} records to {OUT}")


if __name__ == "__main__":
    main()
