# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Training sentences addressed to whoever reads them: a medicine leaflet's or a staff
handbook's 'you' ('consult your pharmacist', 'doktorunuza danışınız'), a question about a rule
that applies to anyone (what foreigners need, what the law allows an employer), a notice to a
group of unnamed colleagues ('everyone is welcome'), a product's or a regulator's text about a
technology. None of them concerns an identifiable individual (label 0). Each comes with its
twin in the same words about the writer or a named person (label 1): the pairs differ only in
who is meant, so the context model learns that the generic 'you' and the rule question are
public, not the words of a leaflet or a handbook as such (unpaired, those words pulled down
notes about named people elsewhere). Written for this purpose; nothing here is copied from an
evaluation set."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gateway.sensitivity.training.registers import Made, NameOf
from gateway.sensitivity.training.vocab import Topic

# (to whoever reads it, the same about the writer or a named person)
PAIRS_TR = (
    (
        "Bu ilacı kullanmaya başlamadan önce {t} durumunda doktorunuza veya eczacınıza danışınız.",
        "{name}, {t} nedeniyle bu ilaca başlamadan önce doktoruna danıştı.",
    ),
    (
        "{t} olan hastalarda doz ayarlaması gerekebilir; ilacı kullanmadan önce eczacınıza sorunuz.",
        "Hastamız {name} {t} olduğu için ilacın dozu ayarlandı.",
    ),
    (
        "Çalışan el kitabı: {t} nedeniyle işe gelemeyecekseniz yöneticinizi aynı gün bilgilendiriniz.",
        "{name} {t} nedeniyle bugün işe gelemeyeceğini yöneticisine bildirdi.",
    ),
    (
        "{t} konusunda bir talebiniz varsa İK birimine gizlilik içinde başvurabilirsiniz.",
        "{name}, {t} konusundaki talebini İK birimine gizlilik içinde iletti.",
    ),
    (
        "Talepleriniz İK tarafından gizli tutulur; {t} bilgisi yalnızca gerektiği kadar işlenir.",
        "{name} adlı çalışanın {t} bilgisi İK tarafından gizli tutuluyor.",
    ),
    (
        "{t} belirtileri yedi günden uzun sürerse bir sağlık kuruluşuna başvurunuz.",
        "Bir haftadır {t} belirtilerim geçmiyor, sağlık kuruluşuna başvuracağım.",
    ),
    (
        "{t} şartı hangi başvurularda aranıyor, yabancılar için de geçerli mi?",
        "Benim {t} durumum bu başvuruda sorun olur mu, yabancıyım?",
    ),
    (
        "İşe alımda {t} sorulabilir mi, kanunda ne yazıyor?",
        "Mülakatta bana {t} durumumu sordular, kanunda ne yazıyor?",
    ),
    (
        "{t} nedeniyle izin talebi olan arkadaşlar yöneticilerine iletebilir; gerekçe sorulmaz.",
        "{name} {t} nedeniyle izin talep etti, yöneticisi onayladı.",
    ),
    (
        "Etkinlikte {t} konusunda bir kural yok, herkes davetlidir.",
        "{name} {t} nedeniyle etkinliğe katılmayacak, herkese haber verdi.",
    ),
    (
        "Kurul, {t} uygulayan bir işletmeye müşterilerine alternatif sunmadığı için para cezası verdi.",
        "İşletme, {name} adlı müşterinin {t} bilgisini rızası olmadan kaydetti.",
    ),
)
PAIRS_EN = (
    (
        "If you have {t}, talk to your doctor or pharmacist before taking this medicine.",
        "{name} has {t}, so she talked to her doctor before taking this medicine.",
    ),
    (
        "This section explains what you should do if {t} affects your ability to work.",
        "{name} explained to HR that {t} affects his ability to work.",
    ),
    (
        "Requests about {t} are handled confidentially by HR.",
        "{name}'s request about {t} is handled confidentially by HR.",
    ),
    (
        "You do not have to tell your manager about {t}; speak to HR if you need adjustments.",
        "I told my manager about my {t}; HR is arranging adjustments for me.",
    ),
    (
        "If symptoms of {t} last longer than a week, consult your pharmacist.",
        "My symptoms of {t} have lasted longer than a week, so I asked my pharmacist.",
    ),
    (
        "Do foreigners need anything about {t} for a work permit here?",
        "Does my {t} matter for my work permit here?",
    ),
    (
        "Is it lawful to ask about {t} in a job interview?",
        "They asked me about my {t} in a job interview; is that lawful?",
    ),
    (
        "Colleagues who need time off for {t} can tell their manager; no reason needs to be given.",
        "{name} needs time off for {t} and told her manager.",
    ),
    (
        "Everyone is welcome at the event, whatever their view of {t}.",
        "{name} will skip the event because of {t}, she told everyone.",
    ),
    (
        "A regulator fined a company for using {t} without offering customers an alternative.",
        "A company used {name}'s {t} without offering him an alternative.",
    ),
    (
        "Which is more secure for unlocking a phone, {t} or a long PIN?",
        "{name} unlocks her phone with {t} instead of a long PIN.",
    ),
)


def generic_examples(
    rng: random.Random, cat: str, t: Topic, n: int, name_of: NameOf
) -> Iterator[Made]:
    """`n` sentences for one category: half to whoever reads them (label 0), half their
    twins about the writer or a named person (label 1)."""
    for _ in range(n):
        lang = "tr" if rng.random() < 0.5 else "en"
        generic, about = rng.choice(PAIRS_TR if lang == "tr" else PAIRS_EN)
        topic = rng.choice(t.tr_topic if lang == "tr" else t.en_topic)
        if rng.random() < 0.5:
            text, label = generic.format(t=topic), 0
        else:
            text, label = about.format(t=topic, name=name_of(rng, lang)["name"]), 1
        yield text[:1].upper() + text[1:], label, lang
