# ruff: noqa: E501  (frame tables read better unwrapped)
"""Generates the second stage's training sentences from the vocabulary (vocab.py) and the
frames below: label 1 = the sensitive statement concerns an identifiable or first-person
individual, 0 = general talk about the topic (questions, teaching, news, statistics, law,
product and code text, people who are named but not concerned). Deterministic for a seed.

    python -m gateway.sensitivity.training.generate [N]   # prints N sample lines as JSONL
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from gateway.sensitivity.textnorm import fold
from gateway.sensitivity.training.casework import case_examples
from gateway.sensitivity.training.generic import generic_examples
from gateway.sensitivity.training.invented import invented_examples
from gateway.sensitivity.training.notices import notice_examples
from gateway.sensitivity.training.registers import register_examples
from gateway.sensitivity.training.tr_records import record_examples
from gateway.sensitivity.training.vocab import (
    EN_FIRST,
    EN_LAST,
    EN_SUBJECTS,
    TOPICS,
    TR_FIRST,
    TR_LAST,
    TR_SUBJECTS,
)


class Example(NamedTuple):
    text: str
    label: int  # 1 = concerns an individual
    category: str
    lang: str


TR_ABOUT_FRAMES = (
    "{S} {p}.", "{S} {p}, ne yapmalıyım?", "{S} {p}; tedavi planını güncelle.", "{S} {p}, bunu İK'ya bildirmeli miyiz?",
    "Merhaba, {s} {p}. Yardımcı olabilir misiniz?", "{S} {p} ve bu yüzden izin istedi.", "{S} {p}, raporunu hazırla.",
    "Not: {s} {p}.", "{S} {p}, dosyasına ekle.", "Bilginize, {s} {p}.", "{S} {p}; ona nasıl destek olabilirim?",
    "{S} {p}, işe alımda bunu dikkate almalı mıyız?", "{S} {p}, müşteriye söyleyelim mi?", "Acil: {s} {p}, doktoru arayın.",
    "{S} {p} diye duydum, doğru mu?", "{S} {p}, sigorta başvurusu için yazı yaz.", "{S} {p}; epikriz yaz.",
    "{S} {p}, okula nasıl anlatalım?", "Dün öğrendim ki {s} {p}.", "{S} {p}, savunma dilekçesi hazırla.",
    "{S} {p} ama kimse bilmiyor.", "{S} {p}, vardiyasını değiştirelim mi?", "{S} {p}; bunu e-postaya yaz.",
    # reported speech: what the person said about themselves
    "{S} aradı, {p} dedi.", "{S} toplantıdan sonra anlattı: {p}.",
)
TR_TWO_SENTENCE_FRAMES = (
    "{S} {n} yaşında. {P}.", "{S} geçen hafta aradı. {P}, ne yapabiliriz?", "{S} hakkında not: {P}.",
    "{S} bugün gelmedi. {P} ve rapor getirecek.",
    # the person named in the sentence before, then 'o' / 'kendisi' ('he', 'she')
    "{S} dün aradı. O {p}.", "{S} ile görüştüm. Kendisi {p}.", "{S} izin istedi; kendisi {p}.",
)
TR_TWO_SENTENCE_NEGATIVE = (
    "Toplantı yarın saat onda. Gündem: {t}.", "Yeni broşürler geldi. Konu {t}.", "Sunum hazır. Son bölüm {t} hakkında.",
)
# the writer speaks in the first person, but about work on the topic, not about themselves
TR_WORK_FRAMES = (
    "{t} hakkında bir sunum hazırlıyorum, kaynak önerir misin?", "{t} üzerine yüksek lisans tezi yazıyorum.",
    "Ben bir {prof}, {t} eğitimi için materyal arıyorum.", "{t} konusunda bir makale yazıyorum.", "Şirketimiz {t} ile ilgili ürünler satıyor, açıklama yaz.",
    "Müşterim için {t} temalı bir kampanya tasarlıyorum.", "{t} ile ilgili bir proje yürütüyorum.", "Yıllardır {t} alanında çalışıyorum, yeni rehberi özetle.",
    "{t} hakkında podcast bölümü hazırlıyoruz.", "Öğrencilerime {t} konusunu anlatacağım, plan yap.", "Derneğimiz {t} farkındalık etkinliği düzenliyor.",
)
EN_WORK_FRAMES = (
    "I'm writing an article about {t}.", "I'm researching {t} for my thesis.", "I'm a {prof_en} preparing training material on {t}.",
    "I work in {t} research and need a summary of new papers.", "My company sells {t} products; write a description.",
    "I'm designing a {t} awareness campaign for my client.", "We're hosting a webinar on {t} next week.", "I teach a course on {t}; draft a syllabus.",
)
PROFESSIONS = ("hemşireyim", "doktorum", "öğretmenim", "avukatım", "gazeteciyim", "araştırmacıyım", "İK uzmanıyım", "psikoloğum")
PROFESSIONS_EN = ("nurse", "doctor", "teacher", "lawyer", "journalist", "researcher", "HR manager", "psychologist")
# a named person in the genitive: "Burak'ın ... olduğu duyuldu"
TR_GENITIVE_FRAMES = (
    "{G} {p} olduğu duyuldu.", "{G} {p} olduğunu öğrendik, ne yapmalıyız?", "Ekipteki {G} {p} olduğu konuşuluyor.",
    "{G} {p} olduğu için terfisi durduruldu.", "Komşumuz {G} {p} olduğunu herkes biliyor.", "{G} dosyasında {p} yazıyor.",
)
TR_ME_FRAMES = (
    "Sanırım {me_plain}.", "Geçen hafta öğrendim, {me_plain}.", "{me}, bu yüzden işyerinde sorun yaşıyorum.",
    "{me}.", "{me}, ne yapmalıyım?", "Merhaba, {me} ve işyerinde bunu söylemem gerekir mi?", "{me}; doktoruma ne sormalıyım?",
    "Ben {me_plain}.", "{me}, bunu kimseye söylemedim.", "Yıllardır {me_plain}.", "{me} ve işten çıkarılmaktan korkuyorum.",
    "Açıkçası {me_plain}.", "{me}, sigortam bunu karşılar mı?", "Selam, {me_plain}; bana bir plan hazırla.",
    "{me}, işte bazı düzenlemelere ihtiyacım var.", "{me}; esnek çalışma saati istiyorum.", "{me} ve yeni bir iş arıyorum.",
    # a request for writing does not make the writer's own statement general talk
    "{me}, kısa bir konuşma metni yazar mısın?", "{me}; etkinlik için bir duyuru hazırla.",
)
TR_GENERAL_FRAMES = (
    "{t} nedir?", "{t} belirtileri nelerdir?", "{t} hakkında bilgilendirme metni yaz.", "Türkiye'de {t} oranı son yıllarda arttı.",
    "{t} ile ilgili yeni araştırma sonuçlarını özetle.", "Hastalara {t} konusunda nasıl yaklaşılmalı?", "{t} hakkında bir blog yazısı hazırla.",
    "Çalışanların {t} ile ilgili hakları nelerdir?", "KVKK kapsamında {t} verisi nasıl işlenir?", "{t} konulu seminer yarın saat 14:00'te.",
    "Haber: {t} ile ilgili yeni düzenleme yürürlüğe girdi.", "{t} tarihini kısaca anlat.", "Öğrencilere {t} konusunu anlatan bir sunum hazırla.",
    "{t} hakkında sık sorulan soruları listele.", "Bir işveren {t} bilgisini sorabilir mi?", "{t} ile ilgili istatistikleri tablo yap.",
    "Dünyada {t} nasıl tartışılıyor?", "{t} üzerine akademik bir makale öner.", "Broşür: {t} hakkında bilmeniz gerekenler.",
    "{t} konusunda toplumdaki önyargılar nelerdir?", "Mevzuatta {t} nasıl tanımlanıyor?", "{t} ile ilgili belgesel önerir misin?",
    "Kullanıcılara {t} hakkında bilgi veren bir uygulama ekranı tasarla.", "{t} konusunda yüzde kaç kişi bilgi sahibi?",
    "Yeni kampanyamız {t} farkındalığını artırmayı amaçlıyor.", "{t} hakkında çocuklara nasıl bilgi verilir?",
    "{t} alanında çalışan derneklerin listesini çıkar.", "Bir hastanın {t} durumunda hangi haklara sahip olduğunu genel olarak açıkla.",
    "Makale özeti: {t} üzerine yapılan çalışmalar.", "Raporda {t} başlığı altındaki veriler anonimleştirildi.",
    "Hastalarımızın yüzde 12'si {t} nedeniyle başvurdu.", "Kliniğimizde {t} hastalarına yönelik yeni bir program başlıyor.",
    "Çalışanlarımız için {t} farkındalık eğitimi düzenliyoruz.", "{t} ile ilgili ceza muhakemesi süreleri ne kadardır?",
    "{t} ve {t2} arasındaki fark nedir?", "{t} döneminde mağazalarımız 21:00'e kadar açık.", "{t} menümüz hafta sonu da mevcuttur.",
    "Uygulamamız {t} takibini kolaylaştırır.", "Kliniğimizde {t} hizmeti verilmektedir.", "Ürünlerimiz {t} için uygundur.",
    "Hizmetlerimiz hakkında: {t} danışmanlığı.", "Seçim sonuçlarına göre {t} kazandı.", "Bir çalışanın {t} nedeniyle işten çıkarılması yasal mı?",
    "Bir hastanın {t} bilgisi kimlerle paylaşılabilir?", "Müşterilerimize {t} konusunda indirim sunuyoruz.", "{t} durumunda ne yapılmalı?", "{t} nasıl tedavi edilir?",
    "{t} olan biri işe alınabilir mi?", "{t} sırasında neler yaşanır?", "{t} için hangi belgeler istenir?", "{t} siparişi kargoya verildi.", "{t} fiyat listesi ekte.",
    "Stok durumu: {t} 30 adet kaldı.", "{t} kategorisindeki ürünlerde indirim var mı?", "{t} başlıklı rapor taslağı hazır.",
    "{t} kampanyası için görsel tasarla.", "Depoya {t} broşürlerinden 500 adet geldi.", "Karşılaştır: {t} ile {t2}.", "{t} kanunun hangi maddesinde düzenlenir?",
    # the function words and note prefixes of the positive frames ('ve', 'not:', 'bu yüzden'),
    # so that they do not by themselves read as 'about someone'
    "{t} nedir ve nasıl önlenir?", "{t} hakkında bilgi ver ve kaynak öner.", "{t} broşürünü düzelt ve kısalt.",
    "Not: {t} semineri cumaya ertelendi.", "Toplantı notu: {t} politikası güncellendi ve herkese duyuruldu.",
    "{t} konusu gündemde ve bu yüzden rapor hazırlanıyor.", "Not: {t} bölümü raporda eksik kaldı.",
    "Kısa not: {t} verileri anonim tutulmalı.", "{t} ile ilgili sorular arttı ama kaynak az.",
)
TR_NAMED_NOT_CONCERNED = (
    "{name} {t} hakkında bir sunum yapacak.", "Dr. {name} {t} üzerine bir makale yayımladı.", "{name}, {t} konulu paneli yönetecek.",
    "Prof. Dr. {name} {t} araştırmasıyla ödül aldı.", "{first} Hanım'ın hazırladığı {t} broşürünü düzelt.", "{name} ile {t} konulu röportajı özetle.",
    "Gazeteci {name} {t} hakkında yazdı.", "Dr. {name}, {t} Uzmanı, Ankara Şehir Hastanesi", "{name} — {t} birimi sorumlusu",
    "İletişim: {name}, {t} koordinatörü.", "{first} Bey {t} politikası taslağını gönderdi.",
)
EN_ABOUT_FRAMES = (
    "{S} {p}.", "{S} {p}, what should I do?", "{S} {p}; please update the care plan.", "{S} {p} and asked for time off.",
    "Hi, {s} {p}. Can you help?", "FYI {s} {p}.", "{S} {p}, should HR know?", "Note: {s} {p}.", "{S} {p}; draft a letter to the insurer.",
    "{S} {p}, how do I support them?", "I just found out {s} {p}.", "{S} {p}, but nobody at work knows.", "{S} {p}; write the discharge summary.",
    "{S} {p}, can we still hire them?", "Urgent: {s} {p}.", "{S} {p} according to the file.",
    # reported speech and 'he' / 'she' for someone named first
    "{S} told me she {p}.", "{S} said he {p}.", "{S} came in this morning. She {p}.", "I spoke to {s} today. He {p}.",
)
EN_ME_FRAMES = (
    "I think {me_plain}.", "I found out {me_plain} last week.",
    "{me}.", "{me}, what should I do?", "{me} and I'm afraid to tell my boss.", "{me}; what should I ask my doctor?",
    "Honestly, {me_plain}.", "{me}, does my insurance cover it?", "Hi, {me_plain}. Please make me a plan.", "{me} and nobody knows.",
    "{me} and need a few adjustments at work.", "{me}; I need a quiet room at the office.", "{me}, so I'm asking for flexible hours.",
    "{me} and I'm looking for a new job.", "Practising or not, {me_plain}.", "{me}; write me a short speech for the meeting.",
    "{me}, so draft an announcement for me.",
)
EN_GENERAL_FRAMES = (
    "What is {t}?", "What are the symptoms of {t}?", "Write an explainer about {t}.", "Rates of {t} have risen in recent years.",
    "Summarise new research on {t}.", "How should clinicians talk to patients about {t}?", "Draft a blog post about {t}.",
    "What rights do employees have regarding {t}?", "How does GDPR treat data about {t}?", "The seminar on {t} starts at 2 pm.",
    "News: a new regulation on {t} came into force.", "Give a short history of {t}.", "Prepare a training slide about {t}.",
    "List frequently asked questions about {t}.", "Can an employer ask about {t}?", "Make a table of statistics on {t}.",
    "How is {t} debated around the world?", "Recommend an academic paper on {t}.", "Leaflet: what you should know about {t}.",
    "What prejudices exist about {t}?", "How does the law define {t}?", "Suggest a documentary on {t}.",
    "Design an app screen that informs users about {t}.", "What percentage of people know about {t}?",
    "Our new campaign raises awareness of {t}.", "How do you explain {t} to children?", "In general, how common is {t}?",
    "Compare {t} and {t2}.", "Our app lets users track {t}.", "Our clinic offers {t} screening.", "Our store is open late during {t}.",
    "Can an employee be fired because of {t}?", "Our service helps customers with {t}.", "Polls show {t} gaining ground.", "What should be done in case of {t}?", "Can someone with {t} be hired?", "The {t} order shipped today.", "Price list for {t} attached.", "Stock: 30 units of {t} left.",
    "Design a banner for the {t} campaign.", "The report titled {t} is ready for review.", "12% of our patients were referred for {t}.", "Our clinic is launching a programme for patients with {t}.",
    "We run {t} awareness training for our employees.", "What is the difference between {t} and {t2}?", "Patients with {t} often ask about side effects.",
    # as above: the function words of the positive frames ('is', 'has', 'was', 'not', 'note:')
    "{t} is a common topic in our training.", "Is {t} covered by the policy?", "The leaflet on {t} is ready and has been proofread.",
    "Note: the {t} seminar was moved to Friday.", "{t} is not a reason to refuse service.", "The {t} chapter was not reviewed yet.",
    "Note: the {t} data is anonymised.", "The {t} guideline has changed and is now online.", "FYI the {t} webinar was recorded.",
)
EN_NAMED_NOT_CONCERNED = (
    "{name} will give a talk on {t}.", "Dr {name} published a paper on {t}.", "{name} is moderating the panel on {t}.",
    "Professor {name} won an award for research on {t}.", "Dr {name}, consultant in {t}, City Hospital", "Contact: {name}, {t} programme lead.", "Proofread the leaflet on {t} that {name} wrote.", "Summarise the interview with {name} about {t}.",
)
MIXED_FRAMES_POS = (
    "{S_tr} {p_tr}, what should I do?", "{me_en}, ne yapmalıyım?", "{S_tr} {p_tr}; please draft a report.", "Hi, {me_tr}. Bana yardım eder misin?",
)
MIXED_FRAMES_NEG = (
    "{t_tr} nedir, explain briefly.", "Write a blog post: {t_tr} hakkında genel bilgiler.", "{t_en} hakkında makale özeti çıkar.",
)
CODE_FRAMES = (
    "SELECT id, {col} FROM patients WHERE {col} IS NOT NULL;", "class Record(BaseModel):\n    name: str\n    {col}: str | None",
    "ALTER TABLE employees ADD COLUMN {col} TEXT; -- {t}", "def mask_{col}(value: str) -> str:  # hides {t}",
    '{{"field": "{col}", "description": "{t}"}}', "Add a dropdown for {t} to the intake form.",
    "type Mutation {{ setRecord(recordId: Int, {col}: String): Record }}", "interface Employee {{ id: number; {col}?: boolean }}",
    "CREATE TABLE hasta (id INT, ad TEXT, {col} TEXT);", "The patient record schema has a nullable {col} field for {t}.",
    "Employee model: each employee has an optional {col} flag.", "Test: assert classify('{t}') == 'public'",
    "Hasta kayıt formuna {t} alanı ekle.", "Çalışan tablosunda {col} sütunu boş bırakılabilir.",
    "// TODO: {t} verisini şifrele", "Unit test for the {col} validator of the patient form.",
)


# logs, records and payloads that carry a real person's data: code, but about someone
LOG_FRAMES = (
    '{{"patient": "{name}", "note": "{p}"}}', "2024-03-0{d} INFO user={first} status=\"{p}\"",
    "INSERT INTO notes (person, text) VALUES ('{name}', '{p}');", "ERROR sync failed for employee {name}: field note='{p}'",
    "row 4{d}: {name} | {p}", "debug: record(name={name}, remark={p})",
)


CLINICAL_TR = (
    "{n} yaşında {g} hasta, {p}.", "{n} yaşında {g} hasta; öyküsünde {t} var.", "Hasta {n} yaşında, {p}, kontrole geldi.",
    "{t} öyküsü olan {n} yaşında {g} hasta servise yatırıldı.", "Muayenesinde {t} bulguları saptandı, tedavisi düzenlendi.",
)
CLINICAL_EN = (
    "{n} y/o {g} presented with {t}.", "{n}-year-old {g} with a history of {t}, admitted for review.", "Pt c/o symptoms of {t} since Monday.",
    "On examination the patient {p}.", "Follow-up visit: {p}, plan unchanged.",
)


# "on" a treatment: someone takes it (health only)
EN_ON_FRAMES = (
    "I have been on {x} for {n} years.", "{S} has been on {x} since {y}.", "I'm currently on {x}, is that a problem?",
    "{S} is back on {x} after a relapse.", "I've been on {x} for {n} months now.", "{S} went on {x} last spring.",
)
TREATMENTS = (
    "antidepressants", "insulin", "chemo", "dialysis", "PrEP", "lithium", "sertraline", "methadone", "blood thinners",
    "steroids", "beta blockers", "HRT", "antipsychotics", "ADHD medication", "anti-seizure medication",
)


def _name(rng: random.Random, lang: str) -> dict[str, str]:
    first = rng.choice(TR_FIRST if lang == "tr" else EN_FIRST)
    last = rng.choice(TR_LAST if lang == "tr" else EN_LAST)
    return {"name": f"{first} {last}", "first": first, "last": last}


def _fill(template: str, **kw: str) -> str:
    return template.format(**kw)


def _subject(rng: random.Random, lang: str) -> str:
    s = rng.choice(TR_SUBJECTS if lang == "tr" else EN_SUBJECTS)
    return _fill(s, **_name(rng, lang))


def _genitive(name: str) -> str:
    """Name + apostrophe + the genitive ending by vowel harmony ("Burak'ın", "Elif'in")."""
    vowels = [c for c in name.lower() if c in "aıoueiöü"]
    last = vowels[-1] if vowels else "e"
    ending = {"a": "ın", "ı": "ın", "o": "un", "u": "un", "e": "in", "i": "in", "ö": "ün", "ü": "ün"}[last]
    if name[-1].lower() in "aıoueiöü":
        ending = "n" + ending
    return f"{name}'{ending}"


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if not s[:1].isupper() or not s[1:2].isupper() else s


def _style(rng: random.Random, text: str) -> str:
    """How people type: lower case, no Turkish letters, a dropped letter."""
    r = rng.random()
    if r < 0.25:
        text = text.lower()
    elif r < 0.45:
        text = fold(text)
    if rng.random() < 0.15 and len(text) > 12:
        i = rng.randrange(1, len(text) - 1)
        if text[i].isalpha():
            text = text[:i] + text[i + 1 :]
    return text


def examples(seed: int = 13, per_category: int = 900) -> Iterator[Example]:
    rng = random.Random(seed)
    for cat, t in TOPICS.items():
        for _ in range(per_category):
            kind = rng.random()
            if kind < 0.22:  # third person, Turkish
                s = _subject(rng, "tr")
                if rng.random() < 0.25:
                    who = _name(rng, "tr")[rng.choice(("first", "name"))]
                    text = _fill(rng.choice(TR_GENITIVE_FRAMES), G=_genitive(who), p=rng.choice(t.tr_about))
                else:
                    text = _fill(rng.choice(TR_ABOUT_FRAMES), S=s, s=_lower_first(s), p=rng.choice(t.tr_about))
                yield Example(_style(rng, text), 1, cat, "tr")
            elif kind < 0.32:  # first person, Turkish
                me = rng.choice(t.tr_me)
                text = _fill(rng.choice(TR_ME_FRAMES), me=me[:1].upper() + me[1:], me_plain=me)
                yield Example(_style(rng, text), 1, cat, "tr")
            elif kind < 0.44:
                s = _subject(rng, "en")
                text = _fill(rng.choice(EN_ABOUT_FRAMES), S=s, s=s if s.split()[0] not in ("My", "Our", "The", "He", "She") else s[:1].lower() + s[1:], p=rng.choice(t.en_about))
                yield Example(_style(rng, text), 1, cat, "en")
            elif kind < 0.50 and cat == "health" and rng.random() < 0.25:
                if rng.random() < 0.5:
                    text = _fill(rng.choice(CLINICAL_TR), n=str(rng.randint(18, 90)), g=rng.choice(("erkek", "kadın")), p=rng.choice(t.tr_about), t=rng.choice(t.tr_topic))
                    lang = "tr"
                else:
                    text = _fill(rng.choice(CLINICAL_EN), n=str(rng.randint(18, 90)), g=rng.choice(("male", "female", "man", "woman")), p=rng.choice(t.en_about), t=rng.choice(t.en_topic))
                    lang = "en"
                yield Example(_style(rng, text), 1, cat, lang)
            elif kind < 0.50 and cat == "health" and rng.random() < 0.3:
                s = _subject(rng, "en")
                text = _fill(rng.choice(EN_ON_FRAMES), S=s, x=rng.choice(TREATMENTS), n=str(rng.randint(2, 9)), y=str(rng.randint(2010, 2024)))
                yield Example(_style(rng, text), 1, cat, "en")
            elif kind < 0.50:
                me = rng.choice(t.en_me)
                text = _fill(rng.choice(EN_ME_FRAMES), me=me[:1].upper() + me[1:], me_plain=me)
                yield Example(_style(rng, text), 1, cat, "en")
            elif kind < 0.515:
                s = _subject(rng, "tr")
                p = rng.choice(t.tr_about)
                text = _fill(rng.choice(TR_TWO_SENTENCE_FRAMES), S=s, n=str(rng.randint(3, 90)), P=p[:1].upper() + p[1:], p=p)
                yield Example(_style(rng, text), 1, cat, "tr")
            elif kind < 0.53:
                s = _subject(rng, "tr")
                frame = rng.choice(MIXED_FRAMES_POS)
                text = _fill(frame, S_tr=s, p_tr=rng.choice(t.tr_about), me_en=rng.choice(t.en_me), me_tr=rng.choice(t.tr_me))
                yield Example(_style(rng, text), 1, cat, "mix")
            elif kind < 0.72:
                text = _fill(rng.choice(TR_GENERAL_FRAMES), t=rng.choice(t.tr_topic), t2=rng.choice(t.tr_topic))
                yield Example(_style(rng, text[:1].upper() + text[1:]), 0, cat, "tr")
            elif kind < 0.87:
                text = _fill(rng.choice(EN_GENERAL_FRAMES), t=rng.choice(t.en_topic), t2=rng.choice(t.en_topic))
                yield Example(_style(rng, text[:1].upper() + text[1:]), 0, cat, "en")
            elif kind < 0.92:
                lang = rng.choice(("tr", "en"))
                frames = TR_NAMED_NOT_CONCERNED if lang == "tr" else EN_NAMED_NOT_CONCERNED
                topic = rng.choice(t.tr_topic if lang == "tr" else t.en_topic)
                text = _fill(rng.choice(frames), t=topic, **_name(rng, lang))
                yield Example(_style(rng, text), 0, cat, lang)
            elif kind < 0.935:
                text = _fill(rng.choice(MIXED_FRAMES_NEG), t_tr=rng.choice(t.tr_topic), t_en=rng.choice(t.en_topic))
                yield Example(_style(rng, text[:1].upper() + text[1:]), 0, cat, "mix")
            elif kind < 0.95:
                text = _fill(rng.choice(TR_TWO_SENTENCE_NEGATIVE), t=rng.choice(t.tr_topic))
                yield Example(_style(rng, text), 0, cat, "tr")
            elif kind < 0.975:
                if rng.random() < 0.5:
                    text = _fill(rng.choice(TR_WORK_FRAMES), t=rng.choice(t.tr_topic), prof=rng.choice(PROFESSIONS))
                    lang = "tr"
                else:
                    text = _fill(rng.choice(EN_WORK_FRAMES), t=rng.choice(t.en_topic), prof_en=rng.choice(PROFESSIONS_EN))
                    lang = "en"
                yield Example(_style(rng, text[:1].upper() + text[1:]), 0, cat, lang)
            elif kind < 0.99:
                lang = rng.choice(("tr", "en"))
                person = _name(rng, lang)
                text = _fill(rng.choice(LOG_FRAMES), p=rng.choice(t.tr_about if lang == "tr" else t.en_about), d=str(rng.randint(1, 9)), **person)
                yield Example(text, 1, cat, lang)
            else:
                topic = rng.choice(t.en_topic + t.tr_topic)
                col = "_".join(fold(topic).replace("'", "").split())[:20]
                text = _fill(rng.choice(CODE_FRAMES), t=topic, col=col)
                yield Example(text, 0, cat, "en")
        # notes naming a person in passing, biometric records, first-person work and fiction,
        # an organisation's own departments: a quarter more, both labels
        for text, label, lang in register_examples(
            rng, cat, t, per_category // 4, _name, _genitive
        ):
            yield Example(_style(rng, text), label, cat, lang)
    # institutional notices, with their own generator so the sentences above stay as they were
    notices = random.Random(seed + 1)
    for cat, t in TOPICS.items():
        for text, label, lang in notice_examples(notices, cat, t, per_category // 8, _name):
            yield Example(_style(notices, text), label, cat, lang)
    # case notes naming one person as the reason for a request or complaint, and their general
    # counterparts: their own generator too
    cases = random.Random(seed + 2)
    for cat in TOPICS:
        for text, label, lang in case_examples(cases, cat, per_category // 6, _name):
            yield Example(_style(cases, text), label, cat, lang)
    # leaflets, handbooks and rule questions to whoever reads them, each with its twin about
    # the writer or a named person: their own generator too
    generic = random.Random(seed + 3)
    for cat, t in TOPICS.items():
        for text, label, lang in generic_examples(generic, cat, t, per_category // 8, _name):
            yield Example(_style(generic, text), label, cat, lang)
    # Turkish file notes on a client or a suspect by initials, a role in an HR or school file,
    # and their general counterparts: their own generator, the sentences above stay as they were
    records = random.Random(seed + 4)
    for cat, t in TOPICS.items():
        for text, label, lang in record_examples(records, t, per_category // 6, _name):
            yield Example(_style(records, text), label, cat, lang)
    # exam and case questions, moots, fiction, news and general questions whose people are
    # invented, each with its twin about a real person: their own generator too
    invented = random.Random(seed + 5)
    for cat, t in TOPICS.items():
        for text, label, lang in invented_examples(invented, t, per_category // 8, _name):
            yield Example(_style(invented, text), label, cat, lang)


HANDWRITTEN = Path(__file__).with_name("handwritten.txt")


def handwritten(path: Path = HANDWRITTEN) -> list[Example]:
    """The hand-written sentences (LABEL, CATEGORY, TEXT per tab-separated line)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, cat, text = line.split("\t", 2)
        out.append(Example(text, int(label), cat, "?"))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else 20
    for i, ex in enumerate(examples()):
        if i >= n:
            break
        print(json.dumps(ex._asdict(), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
