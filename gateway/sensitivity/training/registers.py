"""Training frames for registers the base templates (generate.py) leave thin, written from the
KVKK Art. 6 category definitions like the rest of this package:

- notes and requests that name a person in passing ('Draft a sick note for Tom Baker, who...',
  'Ms Collins had...', 'Muhasebeden Elif ...'): label 1;
- records that hold someone's biometric data (a template, a scan, a voiceprint): label 1;
- the writer speaks in the first person about their work, a business, or fiction on the topic
  ('I run a pharmacy...', 'I'm writing a novel where a character...'): label 0;
- an organisation's own departments and services named by the topic ('our oncology ward
  moved'): label 0;
- the biometric topic as product or compliance talk: label 0."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from gateway.sensitivity.textnorm import fold
from gateway.sensitivity.training.vocab import Topic

# (text, label, lang)
Made = tuple[str, int, str]
NameOf = Callable[[random.Random, str], dict[str, str]]

EN_NOTE_FRAMES = (
    "Draft a sick note for {name}, who {p}.",
    "{first} in sales {p}.",
    "{first} from accounting {p}, is that a problem?",
    "Re: {first} — {p}.",
    "Ms {last} {p}; see the attached file.",
    "Quick update on {first}: {p}.",
    "Mr {last} {p}, so please move his appointment.",
    "Can you write to {name}'s manager? {first} {p}.",
    "For the record, {name} {p}.",
    "Tenant {name} {p} and asked for an extension.",
    # someone named by a role in a file note ('Note to file:', 'Background check:')
    "Note to file: {name} {p}.",
    "Background check: {name} {p}.",
    "Interview notes: candidate {name} {p}.",
    "Customer {name} {p}; adjust the order.",
    "Supplier owner {name} {p}; onboarding on hold.",
)
TR_NOTE_FRAMES = (
    "{name} için bir yazı hazırla: {p}.",
    "Muhasebeden {first} {p}.",
    "{first} hakkında kısa not: {p}.",
    "Konu: {name} — {p}.",
    "{first} Hanım {p}, randevusunu erteleyelim.",
    "{first} Bey {p}, bunu dosyaya işle.",
    "Kayıt: {name}, {p}.",
    "{name} adlı çalışanımız {p}.",
    "Sınıftaki {first} {p}, velisiyle görüşelim mi?",
    # someone named by a role in a file note ('Mülakat notu:', 'Şüpheli ...')
    "Şüpheli {name} için dosya kaydı: {p}.",
    "Müşteri {name} {p}, siparişi buna göre hazırla.",
    "Mülakat notu: aday {name} {p}.",
    "Disiplin dosyası: {name} {p}.",
    "Tedarikçi sahibi {name} {p}, süreç beklemede.",
)
BIO_RECORDS_EN = (
    "fingerprint template",
    "face scan template",
    "iris template",
    "voiceprint",
    "palm-vein reading",
    "face ID enrolment",
    "retina scan",
)
BIO_RECORDS_TR = (
    "parmak izi şablonu",
    "yüz tanıma kaydı",
    "ses izi kaydı",
    "iris şablonu",
    "avuç içi damar izi verisi",
    "retina taraması",
)
BIO_POS_EN = (
    "Upload {name}'s {r} to the access control system.",
    "Attached is the {r} for employee {n}, {name}.",
    "{name}'s {r} didn't match at the gate this morning.",
    "Delete the {r} of {name}, who left the company.",
    "Re-enrol {first}'s {r}; the old one keeps failing.",
    "Here is my {r} for the lab door.",
)
BIO_POS_TR = (
    "{G} {r} turnikeye aktarılsın.",
    "Personelimiz {name} için {r} güncellendi.",
    "{G} {r} doğrulamada başarısız oldu.",
    "Ayrılan çalışan {name} için {r} silinsin.",
    "{first} Hanım'ın {r} sisteme yeniden yüklensin.",
    "Benim {r} bankada saklanıyor, silinmesini istiyorum.",
)
BIO_NEG_EN = (
    "Compare vendors of {r} readers.",
    "How is a {r} stored securely?",
    "What does the law say about keeping a {r}?",
    "Our turnstiles support {r} login from next month.",
)
BIO_NEG_TR = (
    "{r} okuyucularının fiyatı nedir?",
    "KVKK'ya göre {r} ne kadar saklanabilir?",
    "Yeni turnikeler {r} ile çalışıyor.",
    "{r} teknolojisini kısaca anlat.",
)
EN_WORK_MORE = (
    "I run a {t} clinic and need a booking system.",
    "I'm writing a novel where one character {p}.",
    "I organise {t} events for our community; draft an invitation.",
    "As a {prof}, I often get asked about {t}; write an FAQ.",
    "I run a pharmacy and need to reorder stock for {t}; draft the email.",
    "I'm building a dashboard on {t} for our board.",
    "I moderate a forum about {t}; write the house rules.",
    "My team voted to move the {t} workshop to Friday.",
)
TR_WORK_MORE = (
    "{t} polikliniğinde çalışıyorum, hasta bilgilendirme formu hazırla.",
    "Bir roman yazıyorum, karakterlerden biri {p}.",
    "{t} konusunda gönüllü çalışıyorum, broşür hazırla.",
    "Hastanede {t} biriminde hemşireyim, nöbet çizelgesi yap.",
    "Ben bir {prof}, {t} üzerine soru-cevap metni yaz.",
    "Eczanem için {t} ürünlerinin siparişini hazırla.",
    "{t} hakkında bir dizi senaryosu yazıyorum, bir sahne öner.",
    "Ekibimiz {t} atölyesini cumaya almak için oy verdi.",
)
ORG_FRAMES_TR = (
    "Hastanemizin {t} bölümü yeni binaya taşındı.",
    "Kliniğimizin {t} birimi yeni randevu sistemine geçti.",
    "{t} servisinin telefon numarası değişti.",
    "Şirketimiz {t} alanında yeni bir hizmet başlattı.",
    "Derneğimizin {t} komisyonu yarın toplanıyor.",
)
ORG_FRAMES_EN = (
    "Our hospital's {t} department moved to the new building.",
    "The {t} unit switched to online booking.",
    "The phone number of the {t} service has changed.",
    "Our company launched a new {t} service.",
    "The {t} committee meets tomorrow.",
)
# source code and schemas that name a category as a field: about no one
CODE_MORE = (
    "graphql mutation update{c}(id: ID!, {col}: String) returns {c}",
    "class {C}(BaseModel):\n    name: str\n    {col}: bool",
    "{col}: Optional[str] = None  # {t}",
    "ALTER TABLE staff ADD {col} BOOLEAN DEFAULT FALSE;",
    "if record.{col}:\n    flag_for_review(record)",
    "export const {col}Label = '{t}';",
    '<input name="{col}" type="checkbox"> {t}',
    "| {col} | bool | {t} |",
)
PROFS_EN = (
    "nurse",
    "doctor",
    "teacher",
    "lawyer",
    "journalist",
    "social worker",
    "HR manager",
    "pharmacist",
)
PROFS_TR = (
    "hemşireyim",
    "doktorum",
    "öğretmenim",
    "avukatım",
    "gazeteciyim",
    "sosyal hizmet uzmanıyım",
    "eczacıyım",
)


def register_examples(
    rng: random.Random, cat: str, t: Topic, n: int, name_of: NameOf, genitive: Callable[[str], str]
) -> Iterator[Made]:
    """`n` sentences of the registers above for one category, both labels."""
    frames: tuple[str, ...]
    for _ in range(n):
        kind = rng.random()
        lang = "tr" if rng.random() < 0.5 else "en"
        person = name_of(rng, lang)
        if kind < 0.35:
            frames = TR_NOTE_FRAMES if lang == "tr" else EN_NOTE_FRAMES
            p = rng.choice(t.tr_about if lang == "tr" else t.en_about)
            yield rng.choice(frames).format(p=p, **person), 1, lang
        elif kind < 0.45 and cat == "biometric":
            r = rng.choice(BIO_RECORDS_TR if lang == "tr" else BIO_RECORDS_EN)
            frames = BIO_POS_TR if lang == "tr" else BIO_POS_EN
            g = genitive(person[rng.choice(("first", "name"))])
            yield (
                rng.choice(frames).format(r=r, G=g, n=str(rng.randint(100, 9999)), **person),
                1,
                lang,
            )
        elif kind < 0.55 and cat == "biometric":
            r = rng.choice(BIO_RECORDS_TR if lang == "tr" else BIO_RECORDS_EN)
            text = rng.choice(BIO_NEG_TR if lang == "tr" else BIO_NEG_EN).format(r=r)
            yield text[:1].upper() + text[1:], 0, lang
        elif kind < 0.85:
            if lang == "tr":
                frame, topic, p = (
                    rng.choice(TR_WORK_MORE),
                    rng.choice(t.tr_topic),
                    rng.choice(t.tr_about),
                )
                text = frame.format(t=topic, p=p, prof=rng.choice(PROFS_TR))
            else:
                frame, topic, p = (
                    rng.choice(EN_WORK_MORE),
                    rng.choice(t.en_topic),
                    rng.choice(t.en_about),
                )
                text = frame.format(t=topic, p=p, prof=rng.choice(PROFS_EN))
            yield text[:1].upper() + text[1:], 0, lang
        elif kind < 0.93:
            topic = rng.choice(t.en_topic + t.tr_topic)
            col = "_".join(fold(topic).replace("'", "").split())[:20]
            c = rng.choice(("patient", "employee", "member", "applicant", "person"))
            yield rng.choice(CODE_MORE).format(col=col, t=topic, c=c, C=c.title()), 0, "en"
        else:
            frames = ORG_FRAMES_TR if lang == "tr" else ORG_FRAMES_EN
            topic = rng.choice(t.tr_topic if lang == "tr" else t.en_topic)
            yield rng.choice(frames).format(t=topic), 0, lang
