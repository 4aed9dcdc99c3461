# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Training sentences in an institution's voice: notices to all staff, procedures, policies,
training calls, fraud warnings, holiday greetings, counts of unnamed people, general
questions. A topic named there concerns no identifiable individual (label 0). The same
registers naming one person by name get label 1, so the context model learns the register is
not what makes a statement public — the missing individual is. Written for this purpose;
nothing here is copied from an evaluation set."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gateway.sensitivity.training.registers import Made, NameOf
from gateway.sensitivity.training.vocab import Topic

NOTICE_TR = (
    "Değerli çalışma arkadaşlarımız, {t} hakkında bilgilendirme semineri perşembe günü konferans salonunda yapılacaktır.",
    "Tüm personelin {t} eğitim modülünü ay sonuna kadar tamamlaması gerekmektedir.",
    "Kurumumuzun {t} politikası güncellenmiştir; yeni metin intranette yayımlandı.",
    "{t} ile ilgili sık sorulan sorular ve yanıtları ekte bilgilerinize sunulmuştur.",
    "Hastanemizde {t} süreçleri yazılı prosedüre göre yürütülür ve her yıl gözden geçirilir.",
    "Duyuru: {t} hakkında farkındalık haftası kapsamında broşürler dağıtılacaktır.",
    "Kimse sizden {t} bahanesiyle para veya şifre isteyemez; böyle bir aramada kurumumuzu arayın.",
    "Genel bir soru: {t} açısından işverenin yasal yükümlülükleri nelerdir?",
    "Personel seçiminde adayların {t} durumu hiçbir şekilde değerlendirmeye alınmaz.",
    "Bu çeyrekte {n} çalışan {t} şikâyetiyle revire başvurdu; isimler raporda yer almaz.",
    "Okulumuzda velilere yönelik {t} semineri düzenlenecektir, katılım ücretsizdir.",
    "Bültenin bu sayısında {t} ile ilgili genel istatistikler yer alıyor.",
    "Yönetmeliğin 5. maddesi {t} bilgilerinin nasıl saklanacağını düzenler.",
    "Sayın müşterilerimiz, {t} kampanyamız hakkında bilgi almak için çağrı merkezimizi arayabilirsiniz.",
)
NOTICE_EN = (
    "All staff must complete the {t} training module by the end of the month.",
    "Reminder to everyone: the {t} awareness session is on Thursday in the main hall.",
    "Our {t} policy applies to all employees equally and is published on the intranet.",
    "The updated procedure for {t} is attached; please read it before the audit.",
    "Fraud warning: callers claiming to handle {t} matters may ask for money; never pay them.",
    "FAQ: what does the law say about {t} at work?",
    "This quarter {n} employees reported {t} to the occupational health unit; no names are recorded.",
    "Candidates' {t} is never a factor in hiring or promotion decisions.",
    "Dear all, the {t} guidance for managers has been revised and is now available.",
    "The newsletter this month covers {t} statistics for the region.",
    "Section 4 of the handbook explains how {t} information is stored and who may see it.",
    "Our clinic follows the national protocol for {t}; the checklist is on the ward wall.",
)
# the same registers about one named person
NAMED_TR = (
    "Değerli çalışma arkadaşlarımız, {name} {p}; bu hafta görevlerini {other} üstlenecektir.",
    "Duyuru: {name} {p}, toplantıya katılamayacak.",
    "İK bilgilendirmesi: çalışanımız {name} {p}.",
    "Revir kaydı: {name} {p}.",
    "{name} {p}; bu nedenle başvurusu askıya alındı.",
    "Kiracı adayı {name} {p}, sözleşme onayı bekletiliyor.",
    "Bilgi: {name} {p}, bu hafta ofiste olmayacak.",
    "Haberden öğrendiğimize göre {name} {p}.",
    "Vardiya notu: {name} {p}, programı buna göre düzenleyelim.",
)
NAMED_EN = (
    "Dear all, {name} {p}, so {other} will cover the team this week.",
    "Staff notice: {name} {p} and will be away until further notice.",
    "HR update: our colleague {name} {p}.",
    "Occupational health record: {name} {p}.",
    "Applicant {name} {p}; the application is on hold.",
    "We learned from a news article that {name} {p}.",
    "FYI: {name} {p}, so {other} takes the Monday shifts.",
    "Tenant screening: {name} {p}; approval paused.",
)
# religious holidays greeted by an institution: about everyone, no one in particular
HOLIDAYS_TR = (
    "Ramazan Bayramı",
    "Kurban Bayramı",
    "Miraç Kandili",
    "Berat Kandili",
    "Regaip Kandili",
    "Mevlid Kandili",
    "Kadir Gecesi",
    "Noel",
    "Paskalya",
    "Hamursuz Bayramı",
)
HOLIDAYS_EN = (
    "Eid al-Fitr",
    "Eid al-Adha",
    "Christmas",
    "Easter",
    "Hanukkah",
    "Diwali",
    "Ramadan",
    "Passover",
    "Yom Kippur",
)
GREETING_TR = (
    "{h} nedeniyle şirketimiz arife günü öğleden sonra kapalı olacaktır.",
    "{h} münasebetiyle tüm çalışanlarımızı ve ailelerini kutlarız.",
    "Kurumumuz adına {h} dolayısıyla sağlık ve huzur dolu günler dileriz.",
    "{h} tatili süresince çağrı merkezimiz hizmet vermeye devam edecektir.",
    "Değerli müşterilerimiz, {h} boyunca kargo teslimatlarında gecikme olabilir.",
)
GREETING_EN = (
    "The office will close early on the eve of {h}; happy holidays to all.",
    "We wish all our staff and their families a peaceful {h}.",
    "During {h} the support line keeps its normal hours.",
    "Deliveries may be delayed over {h}; thank you for your patience.",
)
# the same greetings addressed to the reader ('Kandiliniz', 'Bayramınızı'): 'your' here is
# every reader of a circular, not one person's faith
GREETING_YOURS_TR = (
    "Ramazan Bayramınız mübarek olsun, sevdiklerinizle nice güzel bayramlara.",
    "Kurban Bayramınızı en içten dileklerimizle kutlarız.",
    "Berat Kandiliniz hayırlı olsun; yönetim olarak tüm ekibe teşekkür ederiz.",
    "Regaip Kandili'nizi tebrik eder, ailenize sağlıklı günler dileriz.",
    "Mevlid Kandili'nizi kutlar, tüm çalışanlarımıza esenlikler dileriz.",
    "Kadir Gecenizi kutlarız, değerli müşterilerimiz.",
    "Yeni yılınızı ve Noel'inizi kutlar, başarılarla dolu bir yıl dileriz.",
)
# what institutions warn everyone about or train everyone on: crime as a subject, no offender
CRIME_NOTICES = (
    (
        "Uyarı: kendini banka görevlisi olarak tanıtan dolandırıcılar müşterilerimizi arıyor; şifrenizi kimseyle paylaşmayın.",
        "tr",
    ),
    ("Bölgemizde oto hırsızlığı vakaları arttı, araçlarınızı kilitlemeyi unutmayın.", "tr"),
    ("Sahte kargo mesajlarıyla dolandırıcılık yapılıyor; bu bağlantılara tıklamayın.", "tr"),
    (
        "Kurumumuz adına telefonla para isteyen kişiler dolandırıcıdır, lütfen polise bildirin.",
        "tr",
    ),
    ("Finans ekibi bu çeyrekte rüşvet ve yolsuzlukla mücadele eğitimini tamamlamalıdır.", "tr"),
    (
        "Şüpheli işlemler aynı gün içinde uyum birimine bildirilmelidir; kara para aklama eğitimi zorunludur.",
        "tr",
    ),
    (
        "Warning: fraudsters posing as tax officers are calling customers; never share your PIN.",
        "en",
    ),
    ("Car thefts in the staff car park have increased; please lock your vehicles.", "en"),
    ("All finance staff must complete the anti-bribery and anti-fraud course this quarter.", "en"),
    (
        "Suspicious transactions must be reported to compliance within one working day; money laundering training is mandatory.",
        "en",
    ),
    ("Spent convictions need not be disclosed on the application form, as the law provides.", "en"),
)
# a hospital's or a company's written procedures and benefits: rules for everyone
PROCEDURES = (
    ("Serviste {x} uygulaması iki hemşire tarafından kontrol edilerek yapılır.", "tr"),
    ("Yüksek riskli {x} ayrı dolapta, kırmızı etiketle saklanır.", "tr"),
    ("{x} uygulamadan önce kimlik bilekliği ve order karşılaştırılır.", "tr"),
    ("Ameliyathaneye girişte el hijyeni ve {x} kontrol listesi doldurulur.", "tr"),
    ("Poliklinikte {x} randevuları hasta kabul biriminden verilir.", "tr"),
    ("On the wards, {x} is double-checked by two nurses before it is given.", "en"),
    ("High-alert {x} is stored in a separate, labelled cabinet.", "en"),
    ("Before giving {x}, staff confirm the wristband against the prescription.", "en"),
    ("The benefits plan covers {x} for all employees and their registered partners.", "en"),
    ("Employees with same-sex partners are eligible for every partner benefit.", "en"),
    ("Eşcinsel partnerler de tüm yan haklardan aynı koşullarla yararlanır.", "tr"),
)
PROCEDURE_ITEMS = (
    "ilaç",
    "insülin",
    "kan transfüzyonu",
    "kemoterapi",
    "antibiyotik",
    "aşı",
    "medication",
    "insulin",
    "blood transfusion",
    "chemotherapy",
    "vaccination",
)
GREETING_NAMED_TR = ("{name} {p}; {h} için izin aldı.",)
GREETING_NAMED_EN = ("{name} {p_en}; leave booked over {h}.",)


def notice_examples(
    rng: random.Random, cat: str, t: Topic, n: int, name_of: NameOf
) -> Iterator[Made]:
    """`n` sentences for one category: about half institutional notices (label 0), half the
    same registers naming one person (label 1), so recall holds."""
    frames: tuple[str, ...]
    topics: tuple[str, ...]
    for _ in range(n):
        lang = "tr" if rng.random() < 0.5 else "en"
        kind = rng.random()
        person, other = name_of(rng, lang), name_of(rng, lang)
        if cat == "criminal_record" and kind < 0.2:
            text, lang = rng.choice(CRIME_NOTICES)
            yield text, 0, lang
        elif cat in ("health", "sexual_life") and kind < 0.2:
            frame, lang = rng.choice(PROCEDURES)
            text = frame.format(x=rng.choice(PROCEDURE_ITEMS))
            yield text[:1].upper() + text[1:], 0, lang
        elif cat == "religion" and kind < 0.3:
            if lang == "tr" and rng.random() < 0.4:
                yield rng.choice(GREETING_YOURS_TR), 0, lang
            elif lang == "tr":
                yield rng.choice(GREETING_TR).format(h=rng.choice(HOLIDAYS_TR)), 0, lang
            else:
                yield rng.choice(GREETING_EN).format(h=rng.choice(HOLIDAYS_EN)), 0, lang
        elif kind < 0.55:
            frames, topics = (NOTICE_TR, t.tr_topic) if lang == "tr" else (NOTICE_EN, t.en_topic)
            text = rng.choice(frames).format(t=rng.choice(topics), n=str(rng.randint(3, 40)))
            yield text[:1].upper() + text[1:], 0, lang
        elif cat == "religion" and kind < 0.75:
            if lang == "tr":
                text = rng.choice(GREETING_NAMED_TR).format(
                    h=rng.choice(HOLIDAYS_TR), p=rng.choice(t.tr_about), name=person["name"]
                )
            else:
                text = rng.choice(GREETING_NAMED_EN).format(
                    h=rng.choice(HOLIDAYS_EN), p_en=rng.choice(t.en_about), name=person["name"]
                )
            yield text, 1, lang
        else:
            frames, about = (NAMED_TR, t.tr_about) if lang == "tr" else (NAMED_EN, t.en_about)
            text = rng.choice(frames).format(
                p=rng.choice(about), name=person["name"], other=other["name"]
            )
            yield text, 1, lang
