"""An IBAN next to a company's legal form or called the company's account is the company's;
the same account called the writer's, a salary or a sole trader's stays personal. Sentences
written for these tests."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier

IBAN = "TR330001004817457323812821"

CASES = [
    (f"Tedarikçi kartı: Kuzey Gıda Ltd. Şti., şirket IBAN'ı {IBAN}, vade 30 gün.", "public"),
    (f"Acme Trading Ltd. asks to be paid to its company account {IBAN}.", "public"),
    # the same words about a person's own account
    (f"Maaşım için IBAN'ım {IBAN}, işverenim Kuzey Gıda Ltd. Şti.", "personal"),
    (
        f"Please pay my account {IBAN}; I invoice Acme Trading Ltd. as a freelance designer.",
        "personal",
    ),
    (f"IBAN: {IBAN}", "personal"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_a_company_account_is_not_a_person(clf: Classifier, text: str, expected: str) -> None:
    assert clf.classify([text]).data_class == expected
