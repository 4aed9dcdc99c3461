# ruff: noqa: E501  (sentences read better unwrapped)
"""Case registers: an HR note, a support ticket, minutes or a message about a relative that give
the topic as one person's reason for a request, a complaint or an absence concern that person;
the same registers stating a rule for everyone, a ticket category or a count concern no one."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "Paketleme bölümünden Gizem Arslan, teravih namazı için akşam vardiyasından muaf tutulmayı istedi.",
        "Kasiyer Onur, sendika toplantısı yüzünden perşembe öğleden sonra yerinde olmayacak.",
        "Destek kaydı 4471: üyemiz Tuba Kara, başörtüsü nedeniyle havuz alanına alınmadığını yazdı.",
        "kayinvalidem diz ameliyati sonrasi bizde kaliyor, iki hafta evden calismam gerekecek",
        "Warehouse note: Dylan Price asked to leave early on Fridays for mosque attendance.",
        "Ticket 5120: member Aisha Rahman was refused entry to the pool because of her hijab.",
        "my brother just got out after a theft conviction and needs a reference letter, can you help?",
    ],
)
def test_one_persons_case_is_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "Çalışanlar teravih namazı için akşam vardiyasından muafiyet talep edebilir; form İK'da.",
        "Şikâyet türleri: başörtüsü, bekleme süresi, personel tutumu, diğer.",
        "Managers may approve early Friday finishes for mosque attendance on request.",
        "Tickets about hijab policies at the pool go to the compliance team.",
    ],
)
def test_the_same_registers_about_no_one_are_not_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "special"
