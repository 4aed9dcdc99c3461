"""E-mail addresses, found only around '@' so long texts cost one C-level find per '@'; and
addresses written to dodge scrapers ('ahmet.kaya [at] gmail [dot] com', 'ahmet(at)firma.com'),
found only around a bracketed 'at'."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate

_LOCAL: Final = re.compile(r"[A-Za-z0-9._%+\-]{1,64}$")
_DOMAIN: Final = re.compile(r"@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})*\.[A-Za-z]{2,24}")
# words a shared mailbox is named with; a local part made of nothing else ('ir', 'investor.
# relations', 'customer-service2') belongs to a function, not to a person
ROLE_ACCOUNTS: Final = frozenset(
    "info destek support noreply no-reply iletisim contact sales satis admin hr ik muhasebe "
    "kvkk bilgi help hello team office webmaster postmaster billing fatura careers kariyer "
    "press basin privacy abuse security ir pr investor investors relations media medya jobs "
    "is basvuru legal hukuk compliance dpo accounts accounting finance finans orders order "
    "siparis customer customers service services servis musteri hizmet hizmetleri hizmetler "
    "marketing pazarlama news newsletter bulten feedback enquiries inquiries enquiry booking "
    "bookings reservations rezervasyon it ops alerts notifications bildirim donotreply do not "
    "reply mail email user test demo ornek sample example yatirimci iliskileri kurumsal "
    "corporate partners partner procurement satinalma purchasing ap ar payroll bordro "
    "helpdesk servicedesk operations all everyone staff "
    # teams and distribution lists: 'bt-destek', 'tum-calisanlar', 'comms', 'people-team',
    # 'insan.kaynaklari', 'bilgi-islem', 'kalite', 'egitim'
    "bt tum herkes calisanlar calisan personel duyuru duyurular comms communications "
    "communication people culture talent recruiting recruitment events etkinlik insan "
    "kaynaklari islem yonetim management genel mudurluk sekreterya secretary reception "
    "resepsiyon santral teknik technical tech kalite quality arge rd egitim training learning "
    "akademi academy etik ethics ihbar sustainability facilities idari isler guvenlik ofis noc "
    "soc cert devops engineering uretim production lojistik logistics depo warehouse shipping "
    "kargo payments odeme tahsilat collections treasury hazine vergi tax audit denetim risk "
    "internal ic kurumsaliletisim halkla iliskiler public affairs dept department birim "
    "birimi departman merkez center centre desk group grup list liste announcements "
    "announce updates update system sistem bot robot mailer daemon automated auto otomatik "
    "notify alert".split()
)
PLACEHOLDER_DOMAINS: Final = frozenset(
    {
        "example.com",
        "example.org",
        "example.net",
        "test.com",
        "domain.com",
        "email.com",
        "ornek.com",
        "sirket.com",
        "company.com",
        "localhost",
    }
)
# top-level names reserved for documentation and tests (RFC 2606, RFC 6761): no mailbox there
# is anyone's
_RESERVED_TLDS: Final = frozenset({"example", "test", "invalid", "localhost"})
_LOCAL_PARTS: Final = re.compile(r"[a-z]+")
_STOCK_LOCALS: Final = ROLE_ACCOUNTS | frozenset(
    "a b c x y z xyz abc foo bar baz qux john jane doe someone somebody name surname firstname "
    "lastname ad soyad isim kullanici kisi".split()
)


def generic_address(local: str, domain: str) -> bool:
    """A shared or made-up address: a role mailbox ('ir@', 'customer.service@', 'test@') at any
    domain. A domain reserved for examples ('example.com', 'firma.example') does not make a
    person's name before it no one's: writers put real names there to show a real case, and
    an example value is still treated as personal data (KVKK notes on test values)."""
    parts = _LOCAL_PARTS.findall(local)
    if not parts:
        return False
    if all(p in ROLE_ACCOUNTS for p in parts):
        return True
    # at a domain for examples, a stock mailbox ('x@', 'john.doe@', 'ad.soyad@') is no one's too
    return placeholder_domain(domain) and all(p in _STOCK_LOCALS for p in parts)


def placeholder_domain(domain: str) -> bool:
    """A domain reserved for documentation and tests (RFC 2606, RFC 6761) or a stock one."""
    return (
        domain in PLACEHOLDER_DOMAINS
        or domain.rsplit(".", 1)[-1] in _RESERVED_TLDS
        or domain.endswith((".example.com", ".example.org", ".example.net"))
    )


# addresses spelled out: 'name [at] domain [dot] com', 'name(at)domain.com', 'name [@] domain
# [.] com', 'name at gmail dot com', 'name @ yandex . com.tr', 'ad (at) gmail (nokta) com'.
# A bare ' at ' or ' dot ' is an everyday word, so there the address must end in a known
# top-level name ('look at this dot product' is none)
_DOT: Final = r"(?: ?[\[(] ?(?:dot|nokta|\.) ?[\])] ?| (?:dot|nokta|punto) |\.| \. )"
_LABEL: Final = r"[A-Za-z0-9\-]{1,63}"
_TLD: Final = r"(?:com|net|org|edu|gov|info|biz|io|co|me|ai|dev|app|tr|de|uk|fr|nl|ru|az|pl)"
# every label of the local part and the domain excludes '.', so each dot is read one way only
# and a long text costs one short scan per word
_LOCAL_SPELLED: Final = (
    r"(?P<local>[A-Za-z0-9_%+\-]{1,64}(?:" + _DOT + r"[A-Za-z0-9_%+\-]{1,64}){0,3})"
)
# one to three labels and the dot before the top-level name, in either spelling of the dot
_LABELS_DOT: Final = _LABEL + r"(?:" + _DOT + _LABEL + r"){0,2}" + _DOT
_SPELLED: Final = re.compile(
    r"(?<![\w.%+\-])"
    + _LOCAL_SPELLED
    # a bracketed 'at' or '@': any top-level name; a bare one: a known one
    + r"(?: ?[\[(] ?(?:at|@) ?[\])] ?(?P<domain>"
    + _LABELS_DOT
    + r"[A-Za-z]{2,24})| (?:at|@) (?P<bare>"
    + _LABELS_DOT
    + _TLD
    + r"))(?![\w])",
    re.IGNORECASE,
)
_DOTS: Final = re.compile(_DOT, re.IGNORECASE)
# what the text must hold before the spelled form is looked for (each a C-level find)
_SPELLED_AT: Final = ("[at]", "(at)", "[AT]", "(AT)", "[@]", "(@)", " @ ", "( at )", "[ at ]")
_SPELLED_DOT: Final = (" dot ", " nokta ", "(nokta)", "[nokta]", "[dot]", "(dot)")


def _spelled(text: str) -> bool:
    if any(b in text for b in _SPELLED_AT):
        return True
    return " at " in text and any(d in text for d in _SPELLED_DOT)


def _confidence(local: str, domain: str, full: float) -> float:
    """Under the personal threshold for a role mailbox; over it, but less sure, for a person's
    address at a domain reserved for examples."""
    if generic_address(local, domain):
        return 0.35
    return 0.6 if placeholder_domain(domain) else full


def emails(text: str) -> Iterator[Candidate]:
    if _spelled(text):
        for m in _SPELLED.finditer(text):
            local = _DOTS.sub(".", m.group("local").lower())
            domain = m.group("domain") or m.group("bare")
            domain = _DOTS.sub(".", domain.lower())
            yield Candidate("EPOSTA", m.start(), m.end(), _confidence(local, domain, 0.85), "email")
    i = text.find("@")
    while i >= 0:
        left = _LOCAL.search(text, max(0, i - 64), i)
        right = _DOMAIN.match(text, i)
        if left is not None and right is not None:
            local = left.group(0).lower().strip(".")
            domain = right.group(0)[1:].lower()
            yield Candidate(
                "EPOSTA", left.start(), right.end(), _confidence(local, domain, 0.9), "email"
            )
            i = text.find("@", right.end())
        else:
            i = text.find("@", i + 1)
