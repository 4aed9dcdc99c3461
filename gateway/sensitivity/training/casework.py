# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Training sentences for case registers: HR notes, support tickets, meeting minutes and
messages about a relative, where one person (a role and a name, 'müşterimiz', 'annem') is the
subject and the topic sits mid-sentence as the reason for a request, a complaint or an absence
('Çalışanımız X, cuma namazı için öğle arasının kaydırılmasını istedi'). Label 1. Matched with
the same registers in general form: rules for every employee, ticket categories, counts, a
hypothetical 'bir çalışan' (label 0), so the register alone does not read as 'about someone'.
Written for this purpose; nothing here is copied from an evaluation set."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from gateway.sensitivity.training.registers import Made, NameOf

# what a person has or does that a case note gives as the reason: noun phrases that stand
# before 'nedeniyle' / 'için' and after 'because of' / 'for'
CASE_TR: dict[str, tuple[str, ...]] = {
    "health": (
        "kemoterapi",
        "beyin kanaması",
        "diyaliz",
        "diz ameliyatı",
        "depresyon",
        "Humira tedavisi",
        "kanser tedavisi",
        "fizik tedavi",
        "panik atak",
        "epilepsi",
        "tüp bebek tedavisi",
        "migren",
        "bel fıtığı ameliyatı",
        "hamilelik",
        "kalp krizi",
        "diyabet",
        "psikiyatri tedavisi",
        "MS tedavisi",
        "Remicade infüzyonu",
    ),
    "religion": (
        "cuma namazı",
        "Ramazan orucu",
        "pazar ayini",
        "cemevi ziyareti",
        "Kuran kursu",
        "hac ziyareti",
        "kilise korosu",
        "bayram namazı",
        "teravih namazı",
        "Şabat",
        "sinagog",
    ),
    "ethnicity": (
        "Kürt kökeni",
        "Roman kökeni",
        "Ermeni kökeni",
        "Boşnak kökeni",
        "Çerkez kökeni",
        "Arap kökeni",
        "Süryani kökeni",
        "Laz kökeni",
    ),
    "political_opinion": (
        "parti üyeliği",
        "CHP üyeliği",
        "AKP'deki görevi",
        "miting",
        "HDP üyeliği",
        "siyasi parti faaliyeti",
        "MHP il teşkilatındaki görevi",
    ),
    "philosophical_belief": (
        "veganlık",
        "pasifizm",
        "vicdani ret",
        "vejetaryenlik",
        "hümanist görüşleri",
    ),
    "membership": (
        "sendika üyeliği",
        "sendika temsilciliği",
        "Eğitim-Sen üyeliği",
        "DİSK üyeliği",
        "grev",
        "sendika toplantısı",
        "işyeri sendika temsilciliği",
        "Hizmet-İş üyeliği",
        "Tez-Koop-İş üyeliği",
    ),
    "sexual_life": (
        "cinsel yönelim",
        "eşcinsel ilişki",
        "cinsiyet geçiş süreci",
        "cinsel yolla bulaşan enfeksiyon",
        "biseksüellik",
    ),
    "criminal_record": (
        "hırsızlık suçu",
        "dolandırıcılık davası",
        "adli sicil kaydı",
        "denetimli serbestlik",
        "tutukluluk",
        "ceza davası",
        "rüşvet soruşturması",
        "hapis cezası",
    ),
    "biometric": (
        "parmak izi kaydı",
        "yüz tanıma kaydı",
        "avuç içi damar izi kaydı",
        "ses izi kaydı",
    ),
    "genetic": (
        "genetik test",
        "BRCA testi",
        "taşıyıcılık testi",
        "DNA testi",
        "genetik danışmanlık",
    ),
    "appearance": ("başörtüsü", "türban", "sakal", "dövme", "peçe", "takke", "çarşaf"),
}
CASE_EN: dict[str, tuple[str, ...]] = {
    "health": (
        "chemotherapy",
        "a stroke",
        "dialysis",
        "knee surgery",
        "depression",
        "Humira injections",
        "cancer treatment",
        "physiotherapy",
        "panic attacks",
        "epilepsy",
        "IVF treatment",
        "migraines",
        "a heart attack",
        "diabetes",
        "a psychiatric admission",
        "long covid",
    ),
    "religion": (
        "Friday prayers",
        "Ramadan fasting",
        "Shabbat",
        "Yom Kippur",
        "church services",
        "mosque attendance",
        "the Hajj",
        "Diwali prayers",
    ),
    "ethnicity": (
        "Kurdish origin",
        "Roma origin",
        "Armenian roots",
        "Traveller background",
        "Romani descent",
        "Pakistani heritage",
    ),
    "political_opinion": (
        "Labour Party membership",
        "party canvassing",
        "a protest march",
        "the Green Party campaign",
        "Conservative Party activism",
        "a political rally",
        "the election campaign",
    ),
    "philosophical_belief": ("veganism", "pacifism", "conscientious objection", "humanist beliefs"),
    "membership": (
        "union duties",
        "union meetings",
        "shop steward duties",
        "Unite membership",
        "strike action",
        "trade union membership",
        "union rep duties",
    ),
    "sexual_life": ("sexual orientation", "a same-sex relationship", "an STI test", "bisexuality"),
    "criminal_record": (
        "a fraud conviction",
        "a prison sentence",
        "a pending assault charge",
        "probation appointments",
        "a theft conviction",
        "a criminal record",
        "a DUI conviction",
    ),
    "biometric": (
        "fingerprint enrolment",
        "face recognition enrolment",
        "a voiceprint",
        "an iris scan",
    ),
    "genetic": (
        "a BRCA test",
        "genetic counselling",
        "a DNA test",
        "carrier screening",
        "genetic testing",
    ),
    "appearance": (
        "a headscarf",
        "a turban",
        "a kippah",
        "a niqab",
        "visible tattoos",
        "a long beard",
        "a hijab",
    ),
}
# categories where a person asks for time or an arrangement because of the topic
_REQUESTS: frozenset[str] = frozenset(
    ("health", "religion", "membership", "philosophical_belief", "appearance", "political_opinion")
)
ASK_TR = (
    "izin",
    "esnek çalışma",
    "vardiya değişikliği",
    "evden çalışma",
    "yarım gün çalışma",
    "öğle arasının kaydırılması",
    "görev yeri değişikliği",
    "ücretsiz izin",
    "mesai düzenlemesi",
)
ASK_EN = (
    "flexible hours",
    "a shift change",
    "remote work",
    "unpaid leave",
    "a later lunch break",
    "reduced hours",
    "a quieter desk",
    "a change of duties",
    "time off",
)
WHO_TR = (
    "Çalışanımız {name}",
    "Personelimiz {name}",
    "Muhasebeden {first}",
    "Satış ekibinden {name}",
    "Depo sorumlusu {name}",
    "Ekip lideri {first}",
    "Yazılımcı {name}",
    "Kasiyer {first}",
    "Stajyer {first}",
    "Müşterimiz {name}",
    "Üyemiz {name}",
    "Müşteri {name}",
    "{first} Hanım",
    "{first} Bey",
    "{first} hoca",
    "Yönetici {name}",
    "Öğretmenimiz {name}",
    "Şoförümüz {first}",
    "Hemşire {name}",
    "Kiracımız {name}",
    "Üretim bandından {name}",
    "Çağrı merkezinden {first}",
    "{name}",
    "{name}",
)
KIN_TR = (
    "Annem",
    "Babam",
    "Eşim",
    "Kardeşim",
    "Ablam",
    "Oğlum",
    "Kızım",
    "Kayınvalidem",
    "Dedem",
    "Teyzem",
    "Abim",
)
WHO_EN = (
    "Our employee {name}",
    "{first} from finance",
    "{first} in the warehouse",
    "Customer {name}",
    "Member {name}",
    "Team lead {first}",
    "Cashier {first}",
    "Driver {name}",
    "{name}",
    "{name}",
    "Ms {last}",
    "Mr {last}",
    "Nurse {name}",
    "{first} on the night shift",
    "Our tenant {name}",
    "Apprentice {first}",
)
KIN_EN = (
    "My mum",
    "My dad",
    "My wife",
    "My husband",
    "My brother",
    "My sister",
    "My son",
    "My daughter",
    "My grandmother",
)

# {w}: the person; {x}: the case noun; {a}: what they ask for; {n}: a number
POS_TR_ASK = (
    "{w}, {x} nedeniyle {a} talep etti.",
    "{w} {x} için {a} istiyor; yöneticisi onayladı.",
    "{w}, {x} gerekçesiyle {a} başvurusunda bulundu.",
    "İK notu: {w} {x} sebebiyle {a} rica ediyor, uygun mu?",
    "{w} {x} nedeniyle bu ay {a} kullanacak, vardiya planını güncelleyin.",
    "Toplantı tutanağı: {w}, {x} yüzünden cuma toplantılarına katılamıyor; {a} önerildi.",
)
POS_TR = (
    "{w}, {x} nedeniyle bu hafta işe gelemeyecek.",
    "{w} {x} yüzünden ekipte dışlandığını söyledi.",
    "Görüşme notu: {w}, {x} konusunda ayrımcılığa uğradığını belirtti.",
    "Şikâyet no {n}: {w}, {x} nedeniyle kendisine kötü davranıldığını bildirdi.",
    "{w}, {x} ile ilgili durumunu yalnızca İK ile paylaştı; dosyası kilitli tutulsun.",
    "{w} {x} sonrası işe dönüyor, ilk ay yarım gün çalışacak.",
    "{w} {x} yüzünden uyarı aldı ve itiraz etmek istiyor.",
    "Disiplin dosyası: {w} hakkında {x} gerekçesiyle tutanak tutuldu.",
    "{w}, {x} sürecinde olduğu için vardiyası değiştirildi.",
    "Destek talebi {n}: {w}, {x} yüzünden hizmet verilmediğini söyleyerek şikâyet etti.",
    "Kısa not: {w} {x} konusunu ekip arkadaşlarıyla paylaşmak istemiyor.",
    "İzin talebi: {name}, {x} ({d} gün); yöneticisi onayladı.",
    "{w}, {x} gerekçesiyle verilen görevi reddetti.",
)
# someone elected to or holding a union or association role: the role is the membership
POS_TR_ROLE = (
    "{w} {o} işyeri temsilcisi seçildi; temsilci güvencesi kapsamında.",
    "{o} temsilcimiz {first} bugün toplantıya katılmadı.",
    "{w} geçen ay {o} üyesi oldu, aidatı bordrodan kesilsin.",
)
ORGS_TR = (
    "Hizmet-İş Sendikası",
    "Eğitim-Sen",
    "Tez-Koop-İş",
    "DİSK",
    "Türk-İş",
    "Öz Gıda-İş",
    "Birleşik Metal-İş",
    "sendika",
)
NEG_TR_ROLE = (
    "{o} işyeri temsilcileri temsilci güvencesi kapsamındadır.",
    "{o} temsilcilerinin toplantı izni toplu sözleşmede düzenlenir.",
    "{o} üyelerinin aidatları bordrodan kesilebilir mi?",
)
KIN_POS_TR = (
    "{k} {x} nedeniyle çok yıprandı, ona nasıl destek olabilirim?",
    "{k} {x} yüzünden işten çıkarıldı, ne yapabiliriz?",
    "{k} {x} sonrası eve döndü, bakım için izin almam lazım.",
    "{k} {x} yüzünden okulda dışlanıyor, öğretmenle nasıl konuşayım?",
    "dün {k_low} {x} meselesini ilk kez açtı, ne diyeceğimi bilemedim",
)
NEG_TR = (
    "Çalışanlar {x} nedeniyle {a} talep edebilir; form İK'da.",
    "{x} için {a} talepleri yöneticiye yazılı olarak iletilir.",
    "Bir çalışan {x} nedeniyle {a} isterse süreç nasıl işler?",
    "Müşterilerden {x} ile ilgili bir şikâyet gelirse şube müdürüne iletin.",
    "Toplantı tutanağı: {x} kaynaklı {a} talepleri için yeni form hazırlandı.",
    "Hiçbir personel {x} nedeniyle ayrımcılığa uğratılamaz.",
    "Şikâyet kategorileri güncellendi: {x}, teslimat gecikmesi, faturalama.",
    "İK duyurusu: {x} sürecindeki çalışanlara {a} imkânı tanınır.",
    "Yöneticiler ekip üyelerine {x} hakkında soru sormamalıdır.",
    "Geçen ay {n} talep {x} ile ilgiliydi; isimler raporda yer almıyor.",
    "Destek ekibi: {x} konulu talepleri öncelikli işaretleyin.",
    "Disiplin yönetmeliği: {x} gerekçesiyle tutanak tutulamaz.",
    "Aileler çocuklarıyla {x} hakkında nasıl konuşmalı?",
    "Eğitim notu: {x} sonrası işe dönüş planı iş yeri hekimiyle birlikte hazırlanır.",
    # the function words of the case notes above ('yalnızca', 'söyledi', 'bildirdi'), so that
    # they do not by themselves read as 'about someone'
    "{x} ile ilgili bilgiler yalnızca İK ile paylaşılır; dosyalar kilitli tutulur.",
    "Anket sonuçları {x} konusunda çalışanların yarısının bilgi sahibi olmadığını gösterdi.",
    "İzin talep formu: ad soyad, gerekçe ({x}), gün sayısı, onay.",
    "{x} konusunu anlatan, ders kitabı tarzında tarafsız bir metin yaz.",
    "{x} gerekçesiyle görevi reddeden çalışanlar İK'ya yönlendirilir.",
    "Uyum birimi, {x} gerekçesiyle hizmet verilmediğine dair şikâyetlerin yalnızca yazılı kabul edileceğini bildirdi.",
)
POS_EN_ASK = (
    "{w} asked for {a} because of {x}.",
    "{w} needs {a} for {x}; the manager approved it.",
    "HR note: {w} requested {a} on account of {x}.",
    "Meeting notes: {w} will need {a} during {x}, rota to be updated.",
)
POS_EN = (
    "{w} will be off this week because of {x}.",
    "{w} reported being mocked over {x} by a supervisor.",
    "Ticket {n}: {w} complained about staff remarks on {x}.",
    "Phased return plan for {name} after {x}: mornings only for four weeks.",
    "{w} was written up after a dispute about {x}.",
    "HR file, {name}: {x} disclosed in confidence; restrict access.",
    "{w} told HR about {x} and asked for only the line manager to be told.",
    "{w} is back after {x} and needs a lighter workload.",
    "Case {n}: {w} says the branch refused service because of {x}.",
    "Minutes: {w} raised {x} as the reason for missing the night shifts.",
    "Leave request: {name}, {x} ({d} days); approved by the line manager.",
    "{w} refused the assignment, citing {x}.",
    "Uniform order: {w} wears {x} at work; get the branded version in navy.",
)
POS_EN_ROLE = (
    "{w} was elected {o} rep for the site last week.",
    "Our {o} rep {first} skipped the overtime again today.",
    "{w} joined {o} last month; set up the dues deduction.",
)
ORGS_EN = ("Unite", "Unison", "the GMB", "the Teamsters", "the union", "the RCN", "the NEU")
NEG_EN_ROLE = (
    "{o} reps are protected from dismissal for union activities.",
    "How are {o} dues deducted from payroll?",
    "{o} reps may take paid time off for training.",
)
KIN_POS_EN = (
    "{k} lost her job over {x}, what can we do?",
    "{k} is struggling with {x}; how can I support them?",
    "{k} came home after {x} and I need carer's leave.",
    "{k_low} finally told us about {x} last night, not sure what to say",
)
NEG_EN = (
    "Employees may request {a} for {x} through the HR portal.",
    "Requests for {a} related to {x} are reviewed within five working days.",
    "If a customer complains about {x}, escalate the ticket to the branch manager.",
    "Managers must not ask candidates about {x}.",
    "Meeting notes: the {x} accommodation form was updated and shared with all teams.",
    "Ticket categories: {x}, delivery, billing, other.",
    "No employee may be treated differently because of {x}.",
    "Last quarter {n} requests concerned {x}; no names are kept.",
    "How should a manager handle a request for {a} due to {x}?",
    "Phased return plans after {x} follow the occupational health template.",
    "Parents often ask how to talk to children about {x}.",
    "Support team: tag tickets that mention {x} as priority.",
    # as above: 'that', 'only', 'told', 'says' without a person
    "Remind all staff that {x} is never a reason to refuse service.",
    "Details of {x} are shared only with occupational health.",
    "The survey says that most employees never discuss {x} at work.",
    "Make sure that complaints about {x} reach the branch manager the same day.",
    "Leave request form: name, reason ({x}), number of days, approval.",
    "Staff who wear {x} at work can order the uniform version from stores.",
    "Write a neutral, textbook-style paragraph describing {x}.",
    "Employees who refuse an assignment citing {x} should be referred to HR.",
)


# each language's frames and vocabularies, so one loop writes both
_KEYS = ("case", "ask", "pos_ask", "pos", "who", "kin", "kin_pos", "neg")
_TR = (CASE_TR, ASK_TR, POS_TR_ASK, POS_TR, WHO_TR, KIN_TR, KIN_POS_TR, NEG_TR)
_EN = (CASE_EN, ASK_EN, POS_EN_ASK, POS_EN, WHO_EN, KIN_EN, KIN_POS_EN, NEG_EN)
_TABLES: dict[str, dict[str, Any]] = {
    lang: dict(zip(_KEYS, t, strict=True)) for lang, t in (("tr", _TR), ("en", _EN))
}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def case_examples(rng: random.Random, cat: str, n: int, name_of: NameOf) -> Iterator[Made]:
    """`n` sentences for one category: about half a case note naming one person or a relative
    (label 1), half the same registers about no one (label 0)."""
    frames: tuple[str, ...]
    asks = cat in _REQUESTS
    for _ in range(n):
        lang = "tr" if rng.random() < 0.55 else "en"
        kind = rng.random()
        person = name_of(rng, lang)
        num, days = str(rng.randint(10, 9999)), str(rng.randint(1, 10))
        if cat == "membership" and kind < 0.25:
            tr = lang == "tr"
            pos = rng.random() < 0.6
            frames = (
                (POS_TR_ROLE if pos else NEG_TR_ROLE)
                if tr
                else (POS_EN_ROLE if pos else NEG_EN_ROLE)
            )
            o = rng.choice(ORGS_TR if tr else ORGS_EN)
            w = rng.choice(WHO_TR if tr else WHO_EN).format(**person)
            yield _cap(rng.choice(frames).format(o=o, w=w, **person)), int(pos), lang
        else:
            t = _TABLES[lang]
            x, a = rng.choice(t["case"][cat]), rng.choice(t["ask"])
            if kind < 0.38:
                frames = t["pos_ask"] + t["pos"] if asks else t["pos"]
                w = rng.choice(t["who"]).format(**person)
                yield rng.choice(frames).format(w=w, x=x, a=a, n=num, d=days, **person), 1, lang
            elif kind < 0.5:
                k = rng.choice(t["kin"])
                yield rng.choice(t["kin_pos"]).format(k=k, k_low=k.lower(), x=x), 1, lang
            else:
                yield _cap(rng.choice(t["neg"]).format(x=x, a=a, n=num)), 0, lang
