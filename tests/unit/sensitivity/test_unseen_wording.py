"""Special-category wording that fired no topic at all, so the second stage was never asked:
a Roma writer's 'Roman'ım' and a landlord refusing Roma; a foreigner told to go back where they
came from; a people or an orientation negated after a person ('candidates who aren't Roma',
"I'm not straight", 'straight değilim'); a first night together; a vote named by the party's
emblem ('altı oka bastım'); the anarchist schools by their compound names; a drug offence by
its charge; an infusion given by a clinic; 'Abdal'mış', 'Kürt müsün', "partner'ım da kadın",
a prison named by its town ('Silivri'ye görüşe'). Each with hard negatives: the
same words in their everyday sense (a herbal infusion, possession of the ball, straight with
someone, archery, a light bulb, the town of Silivri) fire nothing."""

from __future__ import annotations

import pytest

from tests.unit.sensitivity.helpers import check_family, family_cases, topics_of

_ABOUT_SOMEONE = [
    ("Ben Roman'ım, düzenli maaş bordrom ve kefilim var.", "ethnicity"),
    ("Ev sahibi telefonda 'Romanlara ev vermiyorum' deyip görüşmeyi iptal etti.", "ethnicity"),
    ("Müdür 'Romanlara iş vermem' dedi, kuzenim başvurusunu geri çekti.", "ethnicity"),
    ("Komşusu ona bağırıp kendi ülkene dön dedi, çocuklar da duydu.", "ethnicity"),
    ("artık straight değilim galiba, kafam allak bullak", "sexual_life"),
    ("dün gece Mert'le ilk kez birlikte olduk, sabah hiç konuşmadık", "sexual_life"),
    ("kimseye söyleme ama ömrümde ilk defa mührü altı oka bastım", "political_opinion"),
    ("Bu seçimde ampule bastım, babam duyarsa kızar.", "political_opinion"),
    ("Hasan abinin ailesi Abdal'mış, köyde bu yüzden kız vermediler.", "ethnicity"),
    ("Toplantıda müşteri Deniz'e 'Kürt müsün?' diye sordu.", "ethnicity"),
    ("benim partner'ım da kadın, aile gününe onunla gelsem sorun olur mu", "sexual_life"),
    ("eniştem yine içeri girdi, Silivri'ye görüşe cuma gidicez", "criminal_record"),
    ("Ağabeyim Silivri'de yatıyor, ona kitap göndermek istiyorum.", "criminal_record"),
]

_ENGLISH = [
    ("The manager asked us to prioritise candidates who aren't Roma.", "ethnicity"),
    ("Honestly I'm not straight, I just never told my parents.", "sexual_life"),
    ("A man in the queue told my mother 'go back to where you came from'.", "ethnicity"),
    ("He shouted 'go back to your own country' at Kwame in the car park.", "ethnicity"),
    ("Nick's gone full anarcho-primitivist and sold his phone.", "philosophical_belief"),
    ("My flatmate calls himself an anarcho-capitalist now.", "philosophical_belief"),
    ("I have a caution for possession from 2021 on my record.", "criminal_record"),
    ("He was arrested for possession at the festival last summer.", "criminal_record"),
    ("I've got an infusion at the day unit every other Thursday morning.", "health"),
    ("Her iron infusion is booked for Monday, so she'll start late.", "health"),
    ("She is 34 weeks and has a fit to fly letter from her midwife.", "health"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    # Roma as a football club, a library hosting novels
    ("Bu kütüphane romanlara ev sahipliği yapıyor.", None),
    ("Roma aren't winning this season, the coach will go.", None),
    # a trip home, honesty, a drawn line
    ("Tatilden sonra kendi ülkene dönünce bize kartpostal at.", None),
    ("He isn't straight with us about the budget.", None),
    ("She is straight to the point in every review.", None),
    ("Bu çizgi straight değil, biraz eğri duruyor.", None),
    ("Welcome back to your hometown, the festival starts at six.", None),
    # archery and a circuit
    ("Okçulukta altı oka atış yaptım, ikisi hedefe girdi.", None),
    ("Ampule dokununca ışık yanıyor, devre çalışıyor.", None),
    ("İlk kez birlikte çalıştık bu projede, çok keyifliydi.", None),
    # the town of Silivri, Kurt as a name, a brother or a ward after 'partner'ım da'
    ("Silivri'de yeni bir kafe açıldı, denize bakıyor.", None),
    ("Silivri'ye yarın gideceğiz, yoğurt alırız.", None),
    ("Kurt Cobain'in şarkıları hâlâ dinleniyor.", None),
    ("Partner'ım da erkek kardeşim de bayramda gelecek.", None),
    # primitive types, possession of the ball or of property, tea and money
    ("Primitive types in Java are stored on the stack.", None),
    ("The team kept possession of the ball for 70 percent of the match.", None),
    ("Possession is nine tenths of the law, as they say.", None),
    ("A herbal infusion of mint and lemon balm is lovely in the evening.", None),
    ("The startup got a cash infusion from its investors.", None),
    ("The drone is fit to fly after the repair.", None),
]


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ABOUT_SOMEONE, _EVERYDAY))
def test_turkish_wording(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category, typed with Turkish letters or without; the everyday
    senses fire nothing."""
    check_family(check, text, category)


@pytest.mark.parametrize(("check", "text", "category"), family_cases(_ENGLISH, [], folded=False))
def test_english_wording(check: str, text: str, category: str | None) -> None:
    check_family(check, text, category)


def test_negation_only_for_a_people_or_an_orientation() -> None:
    """'not blind to', 'not mixed up in' are idioms: the negated frame never makes them
    health or ethnicity."""
    assert "health" not in topics_of("I'm not blind to the risks of this plan.")
    assert "ethnicity" not in topics_of("Honestly I'm not mixed up in any of that.")
