# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Training sentences whose people are invented: an exam or case-based question ('Soru 9: 34
yaşında bir hasta ...', 'Q7. A patient ...'), a moot or a hypothetical, fiction and a book's
plot, news about institutions, a general question. Their 'a patient', 'a candidate' or 'a
character' is a role the text makes up, so the topic concerns no identifiable individual
(label 0). Each comes with its twin in the same words about the writer, a kin or a named
person (label 1), so the context model learns that the invented role is what makes the text
public, not the words of an exam or a story as such. Written for this purpose; nothing here is
copied from an evaluation set."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gateway.sensitivity.training.registers import Made, NameOf
from gateway.sensitivity.training.vocab import Topic

# (invented, the same about a real person); {p}: a predicate, {t}: the topic, {n}, {a}: numbers,
# {r}, {e}: who the case is about
PAIRS_TR = (
    (
        "Soru {n}: {a} yaşında {r} hasta {p}. Aşağıdakilerden hangisi doğrudur?",
        "Servisimizde {a} yaşında {r} hasta {name} {p}. Sizce hangisi doğrudur?",
    ),
    (
        "Vaka sorusu (gerçek hasta değildir): {a} yaşında kadın hasta {p}; ilk yapılacak tetkik nedir?",
        "Polikliniğimizdeki {name}, {a} yaşında kadın hasta, {p}; ilk yapılacak tetkik nedir?",
    ),
    (
        "Sınav sorusu: bir işçi {p} ise işveren onu işten çıkarabilir mi? Gerekçelendiriniz.",
        "İşçimiz {name} {p}, işveren onu işten çıkarabilir mi? Gerekçelendiriniz.",
    ),
    (
        "Kurgusal bir öykü yaz: 1920'lerin İstanbul'unda bir dedektif {p}; karakterler tamamen hayali olsun.",
        "Dedem {name} 1920'lerde İstanbul'da yaşadı ve {p}, onun hikâyesini yaz.",
    ),
    (
        "Romanın konusunu özetle: kahraman {p} ve ailesinden bunu saklıyor.",
        "Terapiste durumu özetle: ablam {p} ve ailesinden bunu saklıyor.",
    ),
    (
        "Haber: Kurul, {t} ile ilgili yeni düzenlemenin takvimini açıkladı.",
        "Haber: Kurul açıkladı, aday {name} {p}.",
    ),
    (
        "Duyuru: {t} konulu etkinliğin güzergahı ve saatleri açıklandı, ofis o gün kapalı.",
        "Duyuru: {name} {p}, bunu kendisi açıkladı; o gün ofiste olmayacak.",
    ),
    (
        "Genel bilgi arıyorum: {t} konusunda yasal düzenleme nedir?",
        "Eşim {p}, bu konuda yasal düzenleme nedir?",
    ),
    (
        "Ders notları: {t} konusu bu ünitede örneklerle anlatılmaktadır.",
        "Ders notları: öğrencim {name} {p}, bu ünitede ona göre anlatalım.",
    ),
)
PAIRS_EN = (
    (
        "Q{n}. A {a}-year-old {e} {p}. Which of the following is the best next step?",
        "Ward 3: {name}, a {a}-year-old {e}, {p}. Which of the following is the best next step?",
    ),
    (
        "Case-based question, no real patient: a woman aged {a} {p}; what should the GP do first?",
        "Real case from my clinic: {name}, a woman aged {a}, {p}; what should the GP do first?",
    ),
    (
        "For a law school moot: may an employer reject a candidate who {p}? Argue both sides.",
        "For our hiring panel: may we reject the candidate {name}, who {p}? Argue both sides.",
    ),
    (
        "Hypothetical: a tenant {p}; can the landlord end the lease for that reason?",
        "Our tenant {name} {p}; can the landlord end the lease for that reason?",
    ),
    (
        "Write a short story where a fictional detective in 1920s Istanbul {p}; fictional characters only.",
        "Write a short story where my grandfather {name}, a detective in 1920s Istanbul, {p}; it is his real life.",
    ),
    (
        "Summarise the plot of the novel: the heroine {p} and hides it from her family.",
        "Summarise my situation for the therapist: my sister {p} and hides it from our family.",
    ),
    (
        "News: the regulator published a new timetable for rules on {t}.",
        "News: the regulator confirmed that the candidate {name} {p}.",
    ),
    (
        "In general, what does the law say about {t} at work? Asking for general information.",
        "My husband {p}; what does the law say about that at work?",
    ),
)


def invented_examples(rng: random.Random, t: Topic, n: int, name_of: NameOf) -> Iterator[Made]:
    """`n` sentences for one category: half about invented people (label 0), half their
    twins about the writer's kin or a named person (label 1)."""
    for _ in range(n):
        lang = "tr" if rng.random() < 0.5 else "en"
        invented, real = rng.choice(PAIRS_TR if lang == "tr" else PAIRS_EN)
        slots = {
            "p": rng.choice(t.tr_about if lang == "tr" else t.en_about),
            "t": rng.choice(t.tr_topic if lang == "tr" else t.en_topic),
            "n": str(rng.randint(1, 40)),
            "a": str(rng.randint(18, 80)),
            "r": rng.choice(("bir", "kadın", "erkek")),
            "e": rng.choice(("patient", "man", "woman")),
            "name": name_of(rng, lang)["name"],
        }
        if rng.random() < 0.5:
            text, label = invented.format(**slots), 0
        else:
            text, label = real.format(**slots), 1
        yield text[:1].upper() + text[1:], label, lang
