# ruff: noqa: E501  (frame tables read better unwrapped)
"""Turkish training sentences for registers where a person is named by initials, a role or a
first name inside a file: a lawyer's note on a client ('Müvekkilimiz A.K. ...'), a suspect or
a counselling client by initials, an HR or discipline file, a teacher's or a landlord's worry
typed colloquially, a first-person statement that ends in a question ('..., nasıl
reddedebilirim?'). Label 1. Matched with the same registers in general form (label 0): law and
case-law text, templates, notices to all staff or parents, questions about the topic, so that
the register alone does not read as 'about someone'. Written for this purpose from the KVKK
Art. 6 categories; nothing here is copied from an evaluation set."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gateway.sensitivity.training.registers import Made, NameOf
from gateway.sensitivity.training.vocab import Topic

_LETTERS = "ABCDEFGHİKLMNOPRSŞTUYZ"

ROLES_TR = (
    "yeni personel", "stajyer", "sekreter", "aday", "öğrenci", "kiracı", "misafirimiz", "garson",
    "satış temsilcisi", "yönetici", "şoför", "çalışan", "işçi", "hemşire", "öğretmen", "teknisyen",
    "muhasebeci", "ekip lideri", "depo sorumlusu", "kasiyer", "güvenlik görevlisi",
)
# {I}: initials, {R}: a role, {name}/{first}: a person, {n}: an age, {p}: what the vocabulary says
# of a third person
POS_TR = (
    "Müvekkilimiz {I} {p}; dilekçede bu hususa yer verilecektir.",
    "Müvekkil {I} hakkında not: {p}, duruşmada dile getirilecek.",
    "Müvekkilimiz {I}'nin durumu: {p}. Savunmayı buna göre hazırla.",
    "Şüpheli {I} {p}, ifadesinde bunu kendisi belirtti.",
    "Danışan ({I}, {n}) {p}, takibe devam ediliyor.",
    "Dosya notu: {R} {name} {p}, tutanak tutuldu.",
    "{R} {name} {p}; bunu değerlendirme formuna yazmayalım.",
    "{R} {first} {p}, ne yapalım?",
    "Hocam, {first} {p}, velisi okula gelecek.",
    "Veli notu: {first} {p}, etkinlikte buna dikkat edelim.",
    "Ev sahibi, {first} {p} diye daireyi vermek istemiyor.",
    "Patron soruyor: {R} {name} {p}, bir sorun olur mu?",
    "İK notu: {name} {p}; özlük dosyasına işlendi.",
    "Tutanak: {R} {name} {p}, imza altına alındı.",
    "abi {R} {first} {p}, ne diyelim şimdi?",
    "{name} ({n}) {p}, bilginize sunarız.",
    "Mahalle muhtarlığına: {name} {p}, yazının verilmesini arz ederiz.",
    "Disiplin kurulu kararı: {R} {name} {p}; savunması alındı.",
)
ME_TR = (
    "{me}, iş yerinde bunu nasıl kibarca anlatabilirim?",
    "{me}, müdürüm bu yüzden bana farklı davranıyor, bu ayrımcılık sayılır mı?",
    "{me} ama ailem bilmiyor, ne yapmam lazım?",
    "kanka {me_plain}, yarın ne giysem?",
)
NEG_TR = (
    "Yargıtay'a göre {t} gerekçesiyle yapılan fesih geçersizdir; genel bir dilekçe şablonu hazırla.",
    "Müvekkillerimiz için {t} davalarında izlenecek usulü madde madde özetle.",
    "Dosya notu şablonu: {t} başlıklı bölüm boş bırakılmıştır.",
    "Tüm personele duyuru: {t} konusunda yeni politika yürürlüğe girmiştir.",
    "Kanun gereği {t} bilgisi işe alım formlarında sorulamaz.",
    "Ev sahiplerinin kiracı seçerken {t} gerekçesiyle ayrım yapması yasaktır.",
    "Velilere duyuru: okulumuzda {t} konusunda bir seminer düzenlenecektir.",
    "Patron soruyor: {t} hakkında genel bir bilgilendirme metni hazırlayabilir miyiz?",
    "İK notu: {t} ile ilgili başvuru sayısı bu çeyrekte arttı.",
    "Tutanak şablonu: {t} iddiasıyla ilgili şikâyetlerde izlenecek adımlar.",
    "Dilekçede {t} konusundaki Anayasa Mahkemesi kararlarına atıf yap.",
    "abi {t} hakkında bir haber okudum, sence doğru mu?",
    "Disiplin yönetmeliğinin {t} ile ilgili maddesini sadeleştir.",
    "Hocam, derste {t} konusunu nasıl anlatalım, önerin var mı?",
    # the organisation drafting its own rules or deciding on a system, in the first person
    # plural: about everyone, so about no one
    "Şirket olarak {t} ile ilgili bir yönerge hazırlıyoruz; ayrımcı olmayan bir dili nasıl kurabiliriz?",
    "Okulumuzda {t} konusunda kural koymak istiyoruz, maddeleri nasıl yazalım?",
    "Yönetim toplantısında {t} ile ilgili projenin ertelenmesine karar verildi.",
    "Proje notu: {t} sistemi yerine daha basit bir çözümle devam edilecek.",
    "Komite, {t} uygulamasının hukuk birimi görüşü alınana kadar durdurulmasına karar verdi.",
)


def _initials(rng: random.Random) -> str:
    return f"{rng.choice(_LETTERS)}.{rng.choice(_LETTERS)}."


def record_examples(rng: random.Random, t: Topic, n: int, name_of: NameOf) -> Iterator[Made]:
    """`n` Turkish sentences of the registers above for one category, both labels."""
    for _ in range(n):
        kind = rng.random()
        if kind < 0.45:
            text = rng.choice(POS_TR).format(
                I=_initials(rng), R=rng.choice(ROLES_TR), n=str(rng.randint(16, 80)),
                p=rng.choice(t.tr_about), **name_of(rng, "tr"),
            )
            yield text, 1, "tr"
        elif kind < 0.55:
            me = rng.choice(t.tr_me)
            yield rng.choice(ME_TR).format(me=me[:1].upper() + me[1:], me_plain=me), 1, "tr"
        else:
            yield rng.choice(NEG_TR).format(t=rng.choice(t.tr_topic)), 0, "tr"
