"""Special categories in structured data: a log line `patient_id=48213 icd10=F32.1`, a JSON
record `{"ad": "Kemal Arslan", "din": "Hristiyan"}`, a CSV row under `ad_soyad;sendika;uye_no`,
an `INSERT INTO patients (name, diagnosis) VALUES ('Ali Demir', 'HIV+')`.

The context model reads sentences; a record has none, so its frames ('X is diagnosed with')
never fire and a diagnosis in a log line was judged 'about no one'. Here a FIELD whose name
says it holds a special category (diagnosis, tani, din, sendika, parmak_izi, ...) counts when

- it holds a concrete value (not empty, null, a type name, a template slot or 'no'), and
- the same record identifies someone: a person's name or an identifier the detectors found in
  it, or a field naming a person or their id (patient_id, employee, ad_soyad, user).

The same field names in a schema (`CREATE TABLE`, `"diagnosis": {"type": "string"}`), an enum
or a docs table, or in a record about no one (`icd10=F32.1 count=14`) are not counted.

Only texts holding one of the field words as a token (the scanner reports them) pay for more
than a set look-up."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Final

from gateway.sensitivity.lexicon import Occurrences
from gateway.sensitivity.special import SURE, CategoryHit, SpanIndex, ruled


def _words(spaced: str) -> frozenset[bytes]:
    return frozenset(spaced.encode("ascii").split())


# a field-name part -> the category of the field; a field name is split at _ . - and each
# part (or two adjacent parts joined: 'parmak_izi', 'etnik_koken') looked up here
_FIELD_PARTS: Final[dict[bytes, str]] = {
    **dict.fromkeys(
        _words(
            "diagnosis diagnoses diag dx icd icd10 icd9 tani tanisi teshis teshisi "
            "hastalik hastaligi ilac ilaclar medication medications prescription recete "
            "disease illness alerji allergy allergies disability engellilik engel kronik "
            "psikiyatri psychiatric atc hiv comorbidity"
        ),
        "health",
    ),
    **dict.fromkeys(_words("din dini religion mezhep mezhebi sect"), "religion"),
    **dict.fromkeys(_words("etnik etnikkoken ethnicity ethnic irk irki race"), "ethnicity"),
    **dict.fromkeys(
        _words("sendika sendikasi sendikauyeligi union dernek vakif"),
        "membership",
    ),
    **dict.fromkeys(
        _words("siyasiparti politicalparty political siyasi partiuyeligi parti"),
        "political_opinion",
    ),
    **dict.fromkeys(
        _words("cinselyonelim sexualorientation sexuality cinsel sexual"),
        "sexual_life",
    ),
    **dict.fromkeys(
        _words(
            "sabika sabikakaydi criminal conviction convictions mahkumiyet adlisicil criminalrecord"
        ),
        "criminal_record",
    ),
    **dict.fromkeys(
        _words(
            "parmakizi fingerprint biometric biyometrik iris retina voiceprint yuzsablonu "
            "face facevector faceembedding facetemplate palmvein facematch yuzeslesme "
            "yuzeslesmesi"
        ),
        "biometric",
    ),
    **dict.fromkeys(_words("genetik genetic brca brca1 brca2 genotype"), "genetic"),
}
# fields whose VALUE tells the category: 'modality=fingerprint', 'method=FACE'
_VALUE_FIELDS: Final = frozenset(_words("modality method auth factor biometric type yontem"))
_BIOMETRIC_VALUES: Final = frozenset(
    _words(
        "fingerprint face faceid iris retina palm palmvein voiceprint parmakizi "
        "parmak yuz yuztanima"
    )
)
# a field that is about the field itself, not a person's value of it
_META_PARTS: Final = frozenset(
    _words(
        "choices options enum types type list schema column field label labels "
        "description desc help hint format placeholder count total rate ratio stats "
        "enabled required allowed policy consent version model threshold length size "
        "quality score mode config len max min table index key endpoint url path "
        "service"
    )
)
# a numbering of the field's values, not a person's value: 'parti_no' (a production batch)
_NUMBERED: Final = frozenset(_words("no kodu numarasi lot kod"))
# fields naming a person or their record: patient_id, employee, ad_soyad, user
_PERSON_PARTS: Final = frozenset(
    _words(
        "patient hasta employee personel calisan user username kullanici member uye "
        "person kisi customer musteri student ogrenci subject applicant aday name "
        "fullname ad adi adsoyad soyad soyadi isim tckn tc sicil mrn claimant "
        "candidate uid citizen vatandas emp owner holder"
    )
)
# fields naming a person by name or national id: a table keyed by record numbers alone
# ('P0001') is usually a pseudonymised extract
_NAME_PARTS: Final = frozenset(
    _words("name fullname ad adi adsoyad soyad soyadi isim tckn tc username")
)
# the tokens the scanner must report for this module (first parts of the names above; the
# word view splits 'parmak_izi' into 'parmak izi')
FIELD_TOKENS: Final = frozenset(
    {k for k in _FIELD_PARTS if not k.startswith((b"etnikk", b"sexualo", b"politicalp"))}
    | _words("parmak yuz adli parti palm etnik cinsel siyasi")
    | _VALUE_FIELDS
)

# a value that holds nothing about anyone
_EMPTY_VALUES: Final = _words(
    "null none nil n/a na - -- ? yok no false hayir 0 undefined unknown "
    "bilinmiyor string str text varchar int integer bool boolean enum char json "
    "jsonb date object array number optional list dict any nvarchar bigint float "
    "bit uuid redacted [redacted] *** xxx gizli masked ... tbd empty bos "
    "true|false required nullable default"
) | frozenset({b"", b"not null"})
# placeholder people in examples and fixtures
_PLACEHOLDER_VALUES: Final = (
    b"john doe",
    b"jane doe",
    b"ali veli",
    b"ahmet mehmet",
    b"test",
    b"example",
    b"foo",
    b"bar",
    b"lorem",
    b"ornek",
    b"sample",
    b"dummy",
    b"xxx",
    b"user1",
    b"ad soyad",
    b"name surname",
)
# a template slot ('%s', ':name', '{x}', '<x>'), or code: a call ('models.CharField(')
_SLOT: Final = re.compile(rb"^(?:[%$:@?]|\{|<|\$\{|\[\w*\]$|[a-z_][\w.]*\()")

_KEY_CHARS: Final = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_.-")
_SPLIT: Final = re.compile(rb"[_.\-]+")
# after a field name: an optional closing quote, then = or : (not == or ::)
_ASSIGN: Final = re.compile(rb"[\"']?[ \t]{0,3}(?:=(?!=)|:(?!:))[ \t]{0,3}")
_PERSON_FIELD: Final = re.compile(
    rb"(?:^|[^a-z0-9])([a-z][a-z0-9_.]{0,30})[\"']?[ \t]{0,3}[=:][ \t]{0,3}[\"']?([^\s\"',;}&)]+)"
)
_DDL: Final = re.compile(rb"create table|alter table|\"type\" ?:|\bproperties\b|\bschema\b")
_INSERT: Final = re.compile(
    rb"insert\s+into\s+[\w.\"`\[\]]+\s*\(([^)]{1,600})\)\s*values\s*", re.IGNORECASE
)
_SQL_VALUE: Final = re.compile(rb"\s*('(?:[^']|'')*'|\"[^\"]*\"|[^,()]*?)\s*(?:,|\))")
# a line that is one field of a record: 'sabika_kaydi: var', '- tani = F20'
_FIELD_LINE: Final = re.compile(rb"[ \t\-*]{0,8}[\"']?[a-z][a-z0-9_. ]{0,30}[\"']?[ \t]{0,3}[:=]")
_BLOCK_LINES: Final = 12
# a line a program wrote: a timestamp or a level first, an exception, or key=value pairs
_LOG_LINE: Final = re.compile(
    rb"[ \t\[]{0,4}(?:\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|(?:info|warn|warning|error|debug|trace"
    rb"|fatal|audit)\b)|.{0,120}?[a-z]+(?:error|exception|fault)\b ?:"
    rb"|(?:.{0,200}?\b[a-z][a-z0-9_.]{0,30}=[^\s=]){2}"
)
# a person's record by its number: 'for user 7734', 'patient #4410', 'user_id 58213',
# 'employee 1187', 'musteri no: 4410', 'loyalty id 7712045'
PERSON_RECORD: Final = re.compile(
    rb"\b(?:user|patient|employee|member|customer|subject|person|hasta|personel|calisan|uye"
    rb"|musteri|kullanici|ogrenci)(?:[ _.-]?(?:id|no|num|number|kodu?))?[ _#:='\".]{1,4}\d{2,}"
    rb"|\bid[ _#:='\"]{1,4}\d{4,}"
)
_MAX_LOOKS: Final = 256
_RECORD_REACH: Final = 1200


def _field_category(key: bytes) -> str | None:
    """The category a field name says its value holds, or None."""
    parts = [p for p in _SPLIT.split(key) if p]
    if not parts or any(p in _META_PARTS for p in parts[1:]):
        return None
    if any(p in _NUMBERED for p in parts[1:]):
        return None  # 'parti_no' is a production batch, 'din_kodu' a code table
    joined = [a + b for a, b in pairwise(parts)]
    for p in (*joined, *parts):
        cat = _FIELD_PARTS.get(p)
        if cat is not None:
            return cat
    return None


def _person_field(key: bytes, named: bool = False) -> bool:
    """Whether a field names a person ('patient_id', 'ad_soyad'); `named`: by name only
    ('ad_soyad', 'full_name', 'tckn'), not by a record number. 'ilac_adi' (a drug's name) is
    no person's."""
    parts = [p for p in _SPLIT.split(key) if p]
    joined = [a + b for a, b in pairwise(parts)]
    wanted = _NAME_PARTS if named else _PERSON_PARTS
    return (
        any(p in wanted for p in (*parts, *joined))
        and not any(p in _META_PARTS for p in parts)
        and _field_category(key) is None
    )


def _concrete(value: bytes) -> bool:
    """A value that says something: not empty, null, a type name or a template slot."""
    v = value.strip().strip(b"\"'`").strip()
    if v in _EMPTY_VALUES or _SLOT.match(v) is not None:
        return False
    return not any(v.startswith(p) for p in _PLACEHOLDER_VALUES)


def _key_at(folded: bytes, start: int) -> tuple[int, int]:
    """The field name around a token: the run of name characters it stands in."""
    lo = start
    while lo > 0 and folded[lo - 1] in _KEY_CHARS:
        lo -= 1
    hi = start
    n = len(folded)
    while hi < n and folded[hi] in _KEY_CHARS:
        hi += 1
    return lo, hi


def _value_at(folded: bytes, at: int) -> tuple[int, int]:
    """The value starting at `at`: a quoted string, or up to a delimiter."""
    n = len(folded)
    if at < n and folded[at] in b"\"'":
        q = folded[at]
        end = folded.find(bytes([q]), at + 1, at + 400)
        return (at + 1, end) if end >= 0 else (at + 1, min(n, at + 1))
    hi = at
    while hi < n and hi - at < 200 and folded[hi] not in b",;}]\n\r\t &|":
        hi += 1
    return at, hi


def _line(folded: bytes, start: int, end: int) -> tuple[int, int]:
    lo = folded.rfind(b"\n", max(0, start - _RECORD_REACH), start) + 1
    hi = folded.find(b"\n", end, end + _RECORD_REACH)
    return lo, (len(folded) if hi < 0 else hi)


def _record(folded: bytes, start: int, end: int) -> tuple[int, int]:
    """The record a field stands in: its line; the JSON object around it when the line holds
    no brace of its own (a pretty-printed object); the block of `key: value` lines around it
    (a YAML or form record)."""
    lo, hi = _line(folded, start, end)
    line = folded[lo:hi]
    if b"{" in line or b"}" in line:
        return lo, hi
    o = folded.rfind(b"{", max(0, start - _RECORD_REACH), start)
    c = folded.find(b"}", end, end + _RECORD_REACH)
    if o >= 0 and c >= 0 and b"}" not in folded[o:start]:
        return o, c + 1
    if _FIELD_LINE.match(line) is None:
        return lo, hi
    for _ in range(_BLOCK_LINES):  # the lines above and below of the same shape
        if lo < 2:
            break
        plo, _phi = _line(folded, lo - 1, lo - 1)
        if _FIELD_LINE.match(folded, plo, lo - 1) is None:
            break
        lo = plo
    for _ in range(_BLOCK_LINES):
        if hi >= len(folded):
            break
        _nlo, nhi = _line(folded, hi + 1, hi + 1)
        if _FIELD_LINE.match(folded, hi + 1, nhi) is None:
            break
        hi = nhi
    return lo, hi


def _names_someone(folded: bytes, lo: int, hi: int, people: SpanIndex, skip: int) -> bool:
    """Whether the record [lo, hi) identifies a person: an entity the detectors found in it,
    or a field naming a person with a concrete value (`skip`: the special field's own start)."""
    if people.overlaps(lo, hi):
        return True
    for m in _PERSON_FIELD.finditer(folded, lo, hi):
        if m.start(1) == skip:
            continue
        if _person_field(m.group(1)) and _concrete(m.group(2)):
            return True
    return False


def field_hits(
    folded: bytes, words: bytes, found: Occurrences, people: Sequence[tuple[int, int]]
) -> list[CategoryHit]:
    """Category hits for special-category fields of records that identify someone. `people`:
    the spans of the names and identifiers the detectors found in the text."""
    # the scanner reports a few dozen tokens at most: walk those, not every field word
    starts = sorted(s for tok, at in found.items() if tok in FIELD_TOKENS for s in at)
    if not starts:
        return []
    index = SpanIndex(people)
    out: list[CategoryHit] = []
    done: set[int] = set()
    for start in starts[:_MAX_LOOKS]:
        ks, ke = _key_at(folded, start)
        if ks in done:
            continue
        done.add(ks)
        hit = _assigned(folded, ks, ke, index)
        if hit is None:
            hit = _in_table(folded, ks, ke, index)
        if hit is not None:
            out.append(hit)
    return out


def _assigned(folded: bytes, ks: int, ke: int, people: SpanIndex) -> CategoryHit | None:
    """`key=value`, `"key": "value"`, `key: value` with a special key (or a biometric value
    of a method field) in a record that identifies someone."""
    m = _ASSIGN.match(folded, ke)
    if m is None:
        return None
    key = folded[ks:ke].strip(b"_.-")
    vs, ve = _value_at(folded, m.end())
    value = folded[vs:ve]
    cat = _field_category(key)
    if cat is None and key.rsplit(b".", 1)[-1].split(b"_")[-1] in _VALUE_FIELDS:
        v = re.sub(rb"[^a-z]", b"", value)
        cat = "biometric" if v in _BIOMETRIC_VALUES else None
    if cat is None or not _concrete(value):
        return None
    lo, hi = _record(folded, ks, ve)
    if _DDL.search(folded, lo, hi) is not None:
        return None
    if not _names_someone(folded, lo, hi, people, ks):
        return None
    return ruled(cat, vs, max(ve, vs + 1))


def _in_table(folded: bytes, ks: int, ke: int, people: SpanIndex) -> CategoryHit | None:
    """A special column of a CSV header or of an SQL INSERT's column list, with a concrete
    value in a row that identifies someone."""
    cat = _field_category(folded[ks:ke].strip(b"_.-"))
    if cat is None:
        return None
    sql = _insert_around(folded, ks)
    rows = _sql_rows(folded, sql) if sql is not None else _csv_rows(folded, ks)
    for cols, values in rows:
        col = next((i for i, (a, b) in enumerate(cols) if a <= ks < b), None)
        if col is None or col >= len(values):
            return None
        vs, ve = values[col]
        if not _concrete(folded[vs:ve]):
            continue
        lo, hi = values[0][0], values[-1][1]
        others = [i for i, (a, b) in enumerate(cols) if i != col and i < len(values)]
        by_field = any(
            _person_field(folded[cols[i][0] : cols[i][1]].strip(b"\"'` []"), named=True)
            and _concrete(folded[values[i][0] : values[i][1]])
            for i in others
        )
        if by_field or people.overlaps(lo, hi):
            return ruled(cat, vs, max(ve, vs + 1))
    return None


_Spans = list[tuple[int, int]]


def _split_spans(folded: bytes, lo: int, hi: int, sep: int) -> _Spans:
    spans = []
    at = lo
    for i in range(lo, hi + 1):
        if i == hi or folded[i] == sep:
            spans.append((at, i))
            at = i + 1
    return spans


def _csv_rows(folded: bytes, ks: int) -> Iterator[tuple[_Spans, _Spans]]:
    """A header line holding the field as one of 3+ columns, and each row under it with as
    many columns (up to 50 rows)."""
    lo = folded.rfind(b"\n", 0, ks) + 1
    hi = folded.find(b"\n", ks)
    hi = len(folded) if hi < 0 else hi
    line = folded[lo:hi]
    sep = max(b";,\t|", key=line.count)
    if line.count(sep) < 2 or b"=" in line or b":" in line:
        return
    cols = _split_spans(folded, lo, hi, sep)
    at = hi + 1
    for _ in range(50):
        if at >= len(folded):
            return
        end = folded.find(b"\n", at)
        end = len(folded) if end < 0 else end
        row = _split_spans(folded, at, end, sep)
        if len(row) != len(cols):
            return
        yield cols, [(a, b) for a, b in row]
        at = end + 1


def _insert_around(folded: bytes, ks: int) -> re.Match[bytes] | None:
    at = folded.rfind(b"insert", max(0, ks - 600), ks)
    if at < 0:
        return None
    m = _INSERT.match(folded, at)
    return m if m is not None and m.start(1) <= ks < m.end(1) else None


def _sql_rows(folded: bytes, m: re.Match[bytes]) -> Iterator[tuple[_Spans, _Spans]]:
    """The column list and each VALUES tuple of an INSERT (up to 50)."""
    cols = [
        (a + len(s) - len(s.lstrip()), b - len(s) + len(s.rstrip()))
        for a, b in _split_spans(folded, m.start(1), m.end(1), ord(","))
        for s in [folded[a:b]]
    ]
    at = m.end()
    for _ in range(50):
        while at < len(folded) and folded[at] in b" \t\r\n,":
            at += 1
        if at >= len(folded) or folded[at] != ord("("):
            return
        at += 1
        values: _Spans = []
        while len(values) < len(cols):
            v = _SQL_VALUE.match(folded, at)
            if v is None:
                return
            values.append(v.span(1))
            at = v.end()
            if folded[at - 1] == ord(")"):
                break
        yield cols, values


def in_log_records(
    hits: Sequence[CategoryHit],
    folded: bytes,
    found: Occurrences,
    people: Sequence[tuple[int, int]],
) -> list[CategoryHit]:
    """Topic hits the context model judged about no one that stand in a line a program
    wrote (a log line, an exception message, key=value pairs) which also identifies someone:
    `BiometricTemplateError: fingerprint template for user 7734`, `user="Ayşe Kaya" ...
    value='başörtülü'`. A log line has no sentence frame to tell a person's record from talk
    about a topic; the record's own person is the frame. Other hits are returned as they are."""
    if not any(h.confidence < SURE and h.stage in ("model", "judge") for h in hits):
        return list(hits)
    index = SpanIndex(people)
    out = []
    for h in hits:
        if h.confidence < SURE and h.stage in ("model", "judge") and not _is_key(folded, h):
            lo, hi = _line(folded, h.start, h.end)
            if (
                _LOG_LINE.match(folded, lo, hi) is not None
                and _DDL.search(folded, lo, hi) is None
                and (
                    _names_someone(folded, lo, hi, index, -1)
                    or PERSON_RECORD.search(folded, lo, hi) is not None
                )
            ):
                h = ruled(h.category, h.start, h.end)
        out.append(h)
    return out


def _is_key(folded: bytes, hit: CategoryHit) -> bool:
    """Whether a topic word is a field's name ('sabika_kaydi=yok'): its value, not the name,
    says something, and field_hits reads it."""
    ke = _key_at(folded, hit.start)[1]
    return _ASSIGN.match(folded, ke) is not None
