"""A long text judged sentence by sentence: the more topic sentences the context model judged,
the more confident a judgement about no one must be to make the whole text special; a
statement that names or points at someone counts as before."""

from __future__ import annotations

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.document import CAP, FREE, corrected
from gateway.sensitivity.special import CategoryHit
from gateway.sensitivity.subject import cues_of, someone
from gateway.sensitivity.textnorm import fold

# a yearly report on wellbeing and equality at work: every paragraph names a special
# category, none concerns anyone (written for this test)
REPORT = [
    "Yıllık Refah ve Eşitlik Raporu",
    "Bu rapor, şirketin çalışan refahı alanındaki çalışmalarını genel hatlarıyla özetler.",
    "Kronik hastalıkların iş gücü üzerindeki etkisi son yıllarda belirgin biçimde arttı.",
    "Yıl boyunca diyabet ve kalp sağlığı konularında bilgilendirme seminerleri yapıldı.",
    "Psikolojik danışmanlık hizmeti tüm çalışanlara ücretsiz olarak sunulmaya devam etti.",
    "Sendikal haklar konusunda yöneticilere yönelik bir eğitim modülü hazırlandı.",
    "İbadet odalarının bakım ve temizlik takvimi tesis yönetimiyle birlikte güncellendi.",
    "Biyometrik giriş sisteminin kullanımı gönüllülük esasına bağlandı.",
    "Genetik test sonuçları hiçbir insan kaynakları sürecinde talep edilmez.",
    "The annual report also covers mental health awareness week and the cancer screening "
    "campaign run with the municipality.",
    "Participation in the flu vaccination programme rose compared with last year.",
    "Trade union representatives and management met four times during the year.",
    "Sonuç olarak önümüzdeki yıl obezite ve sigara bırakma programlarına öncelik verilecek.",
]
BURIED = (
    "Ayrıca muhasebeden çalışanımız Kemal Aydın kemoterapi aldığı için mart sonuna kadar "
    "evden çalışacak."
)


def _hit(p: float, someone: bool = False, stage: str = "model") -> CategoryHit:
    return CategoryHit("health", 0, 4, p, "confident", stage, someone)  # type: ignore[arg-type]


def _classify(text: str) -> str:
    clf = Classifier(SensitivityConfig(time_budget_ms=10_000), cache_entries=0)
    return clf.classify([text]).data_class


def test_a_judgement_about_no_one_must_be_surer_than_even() -> None:
    hits = [_hit(0.55) for _ in range(FREE)]
    assert all(h.confidence < 0.5 for h in corrected(hits, 0.3, 0.7))
    assert corrected([_hit(0.7)], 0.3, 0.7)[0].confidence > 0.5
    sure = [_hit(0.55, someone=True) for _ in range(FREE)]
    assert corrected(sure, 0.3, 0.7) == sure


def test_we_and_a_lone_role_word_point_at_someone() -> None:
    def cue(text: str) -> bool:
        return someone(cues_of(fold(text).encode("ascii"), False, False, False, False))

    assert cue("Kapıdaki yüz tanıma sistemine fotoğrafımızı kaydettik.")
    assert cue("Sanık, cezaevinde Hristiyanlığa geçtiğini beyan etti.")
    assert cue("If we moved, would my iris scan be deleted?")
    assert not cue("Biyometrik sistemlerin doğruluğu ülkeden ülkeye değişir.")
    # 'our' alone is an organisation speaking: our clinic, our policy
    assert not cue("Our clinic now offers free hepatitis screening on Saturdays.")
    assert cue("Our son was diagnosed with hepatitis last spring.")
    assert not cue("Yüz tanıma teknolojisinin hata oranları tartışılıyor.")


def test_many_judgements_about_no_one_need_more_confidence() -> None:
    hits = [_hit(0.75)] + [_hit(0.1) for _ in range(CAP)]
    out = corrected(hits, 0.3, 0.7)
    assert out[0].confidence < 0.5
    assert out[0].band == "uncertain"
    # a sure judgement survives the correction
    assert corrected([_hit(0.97), *hits[1:]], 0.3, 0.7)[0].confidence >= 0.5


def test_a_statement_about_someone_and_the_rules_are_not_corrected() -> None:
    hits = [_hit(0.6, someone=True), _hit(0.95, stage="rules")] + [_hit(0.1)] * CAP
    out = corrected(hits, 0.3, 0.7)
    assert out[0] == hits[0] and out[1] == hits[1]


def test_a_long_public_report_stays_public() -> None:
    text = "\n\n".join(REPORT)
    assert len(text) > 1000
    assert _classify(text) == "public"
    assert _classify((text + "\n\n") * 3) == "public"


def test_a_person_buried_in_a_long_report_is_special() -> None:
    paras = [*REPORT[:6], BURIED, *REPORT[6:]]
    assert _classify("\n\n".join(paras)) == "special"


def test_short_statements_keep_their_class() -> None:
    mother = "Annem geçen ay meme kanseri teşhisi aldı, kemoterapiye başlıyor."
    assert _classify(mother) == "special"
    assert _classify("My husband was diagnosed with Parkinson's disease last year.") == "special"
    assert _classify("Kemoterapinin yan etkileri kişiden kişiye değişir mi?") == "public"
