"""Turkish special-category wording the other tables leave out, by family: a covered woman
named by her role ('stajyer kız kapalı'), peoples named by their communities, dietary and feast
practice, a life-style belief stated as what someone will not eat or believe, a household of two
mothers or an affair in a divorce file, a DNA match or a tissue type, a template format of a
fingerprint reader, eye and heart care with their drugs, lab values by their abbreviation, and
the call and cell records of a criminal file. Folded form like lexicon_special (Turkish letters
written plain, so the typed and the ascii-folded forms both match); a stem that begins everyday
words is listed by its forms. Written from the categories of KVKK Art. 6, not from sentences
seen anywhere. As every topic term, none decides anything: it only makes the second stage ask
whom its sentence concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

# 'kapali' alone is 'closed' (a shop, a road): only a person word before it makes it dress
_COVERED_BY = (
    "kiz", "kadin", "bayan", "abla", "teyze", "gelin", "kizi", "esi", "karisi", "stajyer",
    "sekreter", "aday", "adayi", "ogrenci", "ogrencimiz", "ogretmen", "hemsire", "calisan",
    "calisanimiz", "personel", "personelimiz", "asistan", "resepsiyonist", "kasiyer", "garson",
    "avukat", "doktor", "hanim", "hanimefendi", "kiraci", "kiracimiz", "komsumuz", "komsum",
    "kuzenim", "ablam", "teyzem", "gelinimiz", "gelinim", "kizimiz", "annemiz",
    "muhasebeci", "muhasebecimiz", "muhendis", "uzman", "mudur", "eleman", "elemanimiz",
    "temizlikci", "bakici", "tezgahtar", "gorevli", "memur", "hocamiz", "ogretmenimiz",
    "doktorumuz", "hemsiremiz", "sekreterimiz", "stajyerimiz", "arkadasim", "arkadasimiz",
    "kardesim", "yegenim", "nisanlim", "sevgilim", "yengem", "gorumcem", "baldizim",
    "kayinvalidem", "danisman", "danismanimiz", "musteri", "musterimiz", "hasta", "hastamiz",
)
# 'kapandı' is a shop or a ticket closing, except said of one's own women: 'kızım geçen ay
# kapandı' (began to cover), up to two words between
_KIN_COVERED = (
    "kizim", "kizi", "esim", "esi", "karim", "karisi", "annem", "ablam", "kardesim", "yegenim",
    "kuzenim", "gelinim", "nisanlim", "sevgilim", "teyzem", "yengem",
)

_APPEARANCE = (
    *(f"{w} kapali*" for w in _COVERED_BY),
    *(f"{w}{gap} kapandi*" for w in _KIN_COVERED for gap in ("", " *", " * *")),
    "kapaliydim",
    # covering, uncovering, and covering named by the head
    "kapandim", "kapanmaya karar*", "kapanmaya basla*", "basi acik*", "basi kapali*",
    "basimi actim", "ortunmus*",
    # a head covered with a shawl or a scarf, said of someone ('başını şalla örtmek')
    "basini orter*", "basini ortme*", "basini ortu*", "basini orttu*", "basini salla ort*",
    "basini esarpla ort*", "basini ortmek ist*",
)

_ETHNICITY = (
    # communities named by the people themselves or their neighbours
    "dom toplulug*", "domlar*", "domlarin*", "mitrip*", "abdal toplulug*", "abdallar*", "posalar*",
    "lom toplulug*", "sabetayci*", "levanten*", "kumuk*", "torbes*", "tahtaci*", "cepni*", "sabii*",
    "nusayri*",
    # Roma and Abdal named as a family or a neighbourhood ('roman' alone is a novel), and an
    # accent mocked, which is how a people is named at work
    "roman vatandas*", "roman aile*", "roman mahalle*", "roman kokenli*", "roman oldug*",
    "romanmis", "romanmislar", "abdal aile*", "abdal kokenli*", "abdal oldug*", "abdalmis",
    "abdalmislar", "aksanimla dalga*", "aksaniyla dalga*", "aksanlariyla dalga*",
    "sivemle dalga*", "sivesiyle dalga*", "aksanini taklit*", "sivesini taklit*",
    # an origin named by the community of the island a family came from
    "kibrisli rum*", "kibrisli turk*",
    # a Roma, Abdal or Kurdish person named with the copula after an apostrophe ('Roman'ım',
    # 'Abdal'mış', 'Kürt'müş': the word view splits it; 'romanım' unsplit is 'my novel',
    # 'kurt' a wolf), a landlord or employer refusing Roma, and a foreigner told to go home
    "roman im", "roman iz", "roman mis", "roman mislar", "abdal mis", "abdal mislar",
    "kurt um", "kurt uz", "kurt mus", "kurt muslar", "kurt musun", "kurt musunuz",
    "romanlara ev ver*", "romanlara ev kirala*", "romanlara kiraya ver*", "romanlara is ver*",
    # (the imperative only: 'kendi ülkene dönünce' is a trip home)
    "kendi ulkene don", "kendi ulkenize donun", "kendi ulkene git", "kendi ulkenize gidin",
    "ulkene geri don", "ulkenize geri donun", "ulkene defol*", "ulkenize defol*",
    "kendini roman olarak*", "kendisini roman olarak*",
    "roman dugun*", "komple roman",
)

_RELIGION = (
    # what the faith forbids or requires at the table, feasts and rites of passage
    "domuz eti*", "domuz urun*", "domuz jelatin*", "koser*", "hanuka*", "pesah*", "kurbanda",
    "kurbanini kes*", "kurban bagis*", "for the kurban", "sunnet dug*", "sunnet ol*",
    "sunnet ettir*",
    # orders, communities and rites named by their own names ('menzil' alone is a range, 'sih'
    # alone a typo, 'ismaili' alone a name in the accusative: listed as phrases)
    "menzilci*", "menzil cemaat*", "menzil tarikat*", "rufai*", "vahhabi*", "biat et*",
    "ayine katil*", "ayinine katil*", "ayine gid*", "ayinlere*", "pazar ayin*", "samanizm*",
    "samanist*", "sihler*", "sih dini*", "sih toplulug*", "ismaili toplulug*", "ismaili mezheb*",
    "seriat*", "apostolik*", "hocaefendi*",
)

_PHILOSOPHICAL = (
    # a belief stated as what someone will not eat, wear, use or believe
    "hayvansal urun*", "hayvan urunu*", "hayvan urunleri*", "hayvan somuru*", "hayvanlarin somuru*",
    "et yemiyor*", "et yemem", "et yemiyorum", "et yemeyi birak*", "et tuketmiyor*",
    "deri giymiyor*", "deri kullanmiyor*", "hayvansal hicbir*",
    "tanriya inanm*", "tanri inanci*", "allaha inanm*",
    "dine inanm*", "hicbir dine*", "hicbir inanca*", "dini inanci yok*", "inanci yok",
    "inancim yok", "ozgur dusunce*", "cocuk yapmamayi*", "cocuk sahibi olmamayi*",
    "silah tasimayi reddet*", "silah tutmayi reddet*", "vicdanen karsi*", "ahlaken karsi*",
    "inanci geregi*", "inanclari geregi*", "etik gerekce*",
    # a world view named by its school
    "antimilitarist*", "marksist*", "marksizm*", "ummetci*", "avrasyaci*", "tanritanimaz*",
    "et bile yemiyor*", "hayvanlarin da hakki*",
)

_SEXUAL = (
    # two parents of one gender, a couple hidden as flatmates, an affair in a divorce file
    "iki annesi*", "iki babasi*", "iki annem*", "iki babam*", "oda arkadasi degil*",
    "sevgili olduk*", "sevgili oldug*", "sevgili oldular", "sevgililer mi*", "sadakat yukumlulug*",
    "yasak ask*", "kacamak*", "baska bir kadinla*", "baska bir erkekle*", "iliskisini gizle*",
    "iliskilerini gizle*",
    # marriages the civil code does not know, and adultery named as such ('kuma' begins
    # 'kumas', fabric: only the phrase)
    "imam nikahli*", "cok esli*", "cok eslilik*", "kuma getir*", "zina", "zinaya", "zinadan",
    "zina iddia*", "zina yap*",
    # a first night together said plainly ('birlikte olduk' alone is any gathering: only with
    # 'first time'), and an orientation stated in the English word Turkish speakers borrow
    "ilk kez birlikte olduk", "ilk defa birlikte olduk", "ilk kez beraber olduk",
    "ilk defa beraber olduk", "onunla yattim", "onunla yattik", "onunla yatmis*",
    "straight degilim", "straight degilmisim", "straight degilsin", "straight degiliz",
    # the clinic's words for a sexual history and the pill taken against HIV ('prep' alone
    # is English for preparing)
    "msm", "prep basla*", "prep kullan*", "prep tedavi*", "prep recete*",
    # a partner of the writer's own gender ('da': 'mine is a woman too') when the borrowed
    # word takes its ending after an apostrophe ("partner'ım"), which the word view splits off
    # ('partnerim' as one word is listed)
    "partner im da kadin", "partner im da erkek", "partner im de kadin", "partner im de erkek",
    "kendisiyle yatm*", "benimle yatm*", "hornet te", "hornet ten", "hornet teki*",
    "ilk gecemizi*",
)

_GENETIC = (
    # identification and tissue typing, and what a test says one carries
    "str lokus*", "lokus*", "agiz ici surun*", "yanak ici surun*", "hla b*", "hla uyum*",
    "doku uyumu*", "doku tiplemesi*",
    "ata testi*", "soy testi*",
    # the Lynch syndrome genes, and a variant a test found ('MLH1 varyantı pozitif')
    "mlh1", "msh2", "msh6", "pms2", "varyanti pozitif*", "varyant tasiyici*", "clinvar",
)

_BIOMETRIC = (
    # templates and their formats, enrolment on a reader, a voice used to sign in
    "minutiae", "minutia", "minusya*", "iso19794*", "iso 19794*", "parmak sablon*", "yuzumu okut*",
    "damar okuyucu*", "kart yerine parmak*", "turnike kayd*",
    # a voice or a face enrolled as a key, and the vector a face reader stores
    "ses profil*", "ses biyometri*", "sesli dogrulama*", "sesli kimlik dogrula*", "sesim sifrem*",
    "ses kaydi ile kimlik*", "yuz vektor*", "yuz sablon*", "iris sablon*", "goz sablon*",
    # a face taught to a phone as its key
    "yuzunu tanit*", "yuzumu tanit*", "yuzunu telefonuna tanit*",
    "yuzumu telefonuma tanit*",
    "yuz esleme*", "yuzunu turnike*", "yuzunu sisteme kaydet*", "turnike sistemine kaydet*",
    # an eye or a face a reader failed to match ('beni tanımadı')
    "goz tarayici*", "iris tarayici*", "retina tarayici*", "yuzumu tanim*", "yuzumu taniy*",
    # a voice or a thumb a login or a lock was taught ('sesimle giriş', 'baş parmağımı okuttum')
    "sesimle giris*", "sesle giris*", "sesimle oturum*", "yuzumle giris*", "parmagimi okut*",
    "parmagini okut*", "parmagimi * kere okut*", "parmagimi * defa okut*",
)

_HEALTH = (
    # eye and heart care, with their drugs
    "keratokonus*", "cross linking", "kornea nakli*", "korneal*", "sasilik*", "sasilig*",
    "goz tansiyonu*", "retina dekolman*", "ticagrelor*", "brilinta*", "prasugrel*", "ecopirin*",
    "post mi", "mi sonrasi",
    # lab values people quote instead of their condition
    "ldl", "tsh", "crp", "sedimantasyon*", "ferritin*", "kreatinin*", "egfr", "ca 125", "ca 19 9",
    "troponin*", "hbsag", "anti hcv", "pcr pozitif*", "pcr sonucu pozitif",
    # procedures and reports that say someone is ill, disabled or pregnant
    "tup ligasyon*", "rahmi alin*", "rahim alin*", "meme alin*",
    # the first-trimester screening a pregnancy is named by ('12. hafta taraması')
    "ense kalinlig*", "hafta taramasi*", "ikili tarama*", "uclu tarama*", "dortlu tarama*",
    # leave a pregnancy or a nursing mother is owed, and the pen an allergic child carries
    "dogum oncesi izin*", "dogum oncesi izn*", "dogum sonrasi izin*", "dogum sonrasi izn*",
    "analik izin*", "analik izn*", "sut izni*", "sut iznin*", "emzirme izn*",
    "adrenalin kalem*", "adrenalin oto enjektor*", "oto enjektor*", "progynova", "ovitrelle",
    "kreon", "mabthera",
    # hearing told by the aid and the lip reading, voices nobody else hears
    "dudaktan okum*", "dudak okuma*", "kulaginda cihaz*", "kulak cihaz*", "duymadigi sesler*",
    "duymadigim sesler*", "kimsenin duymadigi*",
    # a cancer treatment by its side effect, its supportive drug and the port it goes through
    "notropeni*", "neutropeni*", "febril notropeni*", "g csf", "port bakimi*",
)

_CRIMINAL = (
    # the evidence and the steps of a criminal file
    "hts kayit*", "baz kayit*", "baz istasyonu kayit*", "olay yeri inceleme*",
    "parmak izi eslesme*", "supheli sifatiyla*",
    # prison visits and going inside, as families say it ('acik gorusme' is an open meeting:
    # the visit is listed by its forms)
    *(f"{k} gorus{e}" for k in ("acik", "kapali") for e in ("", "e", "te", "u", "ten", "unde")),
    "cezaevine gorus*", "iceri dustu*", "iceri dusmus*",
    # the prison named by its town, as families say it ('Silivri' alone is the town)
    "silivriye gorus*", "silivri ye gorus*", "silivri de yat*", "silivride yat*", "silivri cezaev*",
    "silivri de cezasini*", "silivri de cek*",
    "iceride yatiyor*", "iceride yatmis*",
    # an electronic tag on the ankle ('kelepçe' alone also clamps a hose)
    "ayagina kelepce*", "ayaginda kelepce*", "ayak bilegine kelepce*", "ayak bileginde kelepce*",
    # handcuffs put on by them, the police ('hortuma kelepçe taktım' clamps a hose)
    "kelepce taktilar*", "kelepce takmislar*", "kelepce vurdular*", "kelepce vurmuslar*",
    # a file's parties and steps, from the complaint to the upheld sentence ('gbt' alone is a
    # typed 'lgbt': only with its record or query)
    "musteki*", "zanli*", "takipsizlik*", "kamu dava*", "emniyette ifade*", "emniyete goturul*",
    "gbt kayd*", "gbt sorgu*", "gbt yapil*", "uzlastirma burosu*", "uzlastirmaci*",
    "uzlastirma teklif*", "ertelenmis ceza*", "cezasi ertelen*", "cezasi onan*", "cezasini onad*",
    "sulh ceza*", "asliye ceza*", "ceza hakimlig*", "yatari var", "bonzai*",
    # offences charged for what was said or shown, and measures on leaving or staying ('khk
    # ile' alone is any decree: only with the dismissal)
    "cumhurbaskanina hakaret*", "kin ve dusmanlig*", "2911 sayili*", "toplanti ve gosteri*",
    "orgut propaganda*", "teror propaganda*", "propaganda yapmaktan", "khk ile ihrac*",
    "khk ile gorevden*", "khkli*", "khk li*", "khk'li*", "sinir disi edil*", "sinir disi karar*",
    "deport edil*", "geri gonderme merkez*", "pasaportuna serh*", "pasaportu iptal*",
    "yurt disi yasag*", "yurtdisi yasag*", "yurtdisina cikis yasag*",
    "kogus agasi*", "kogus agaligi*", "uzaklastirma tedbir*", "yaklasmama tedbir*",
    "yaklasmama karar*",
    "hakkinda uzaklastirma*",
    "sene yatmis", "sene yatti", "yil yatmis", "yil yatti",
)

_MEMBERSHIP = (
    # offices in a union, an association or a lodge, and the strike vote
    "vakfi yonetim*", "gonullu uye*", "farmason*",
    # a strike told by those on it ('yarın iş bırakıyoruz'; 'işi bırakmak' is quitting)
    "is birakiyoruz", "is birakacagiz", "is biraktik", "is birakiyorlar", "is biraktilar",
    "sube yonetim kurul*", "bastemsilci*", "bas temsilci*",
    # unions whose names are not joined by a hyphen, youth and aid foundations, and the
    # election of a representative and the dues taken from a payslip ('aidat' alone is a
    # building's service charge)
    "teksif*", "toleyis*", "oleyis*", "cam keramik*", "tugva*", "turkiye genclik vakf*",
    "ensar vakf*", "ihh gonullu*", "egitimciler birlig*", "temsilci secil*", "temsilcisi secil*",
    "temsilciligine secil*", "aidati maasindan*", "aidatini maasindan*",
    "tekris old*", "tekris edil*", "localik kardes*",
)

_POLITICAL = (
    # party work named by its office or its campaign, not by the party
    "secim calisma*", "ilce baskan yardimci*", "il baskan yardimci*", "ilce yonetim kurul*",
    "il yonetim kurul*", "parti yonetim*", "kadin kollari*", "genclik kollari*", "musahit*",
    "musahid*", "parti standi*", "secim standi*", "secim irtibat burosu*",
    # parties by abbreviation ('deva' alone is a remedy), their organisation and candidacy
    # ('teskilat' alone is any service: the police's), and named armed organisations
    "yrp", "yrpli*", "yrp'li*", "deva uye*", "deva partili*", "dsp uye*", "dspli*", "dsp'li*",
    "bbp uye*", "bbpli*", "bbp'li*", "emep uye*", "emepli*", "esp uye*", "parti teskilat*",
    "teskilat baskan*", "teskilatta gorev*", "teskilatinda gorev*", "meclis uyesi aday*",
    "belediye baskan aday*", "temayul yoklama*", "parti kayd*", "partiye kayd*",
    "secim bildiri*", "parti rozet*", "parti atki*", "parti bayrag*", "parti flama*",
    "dhkp*", "mlkp*", "tkp ml", "isid*", "deas*", "el kaide*",
    "hizbullah*", "silahli orgut*", "silahli teror orgut*",
    # politicians whose names are no everyday words ('yavas' is: only the full name)
    "aksener*", "davutoglu*", "selahattin demirtas*", "ozgur ozel*", "umit ozdag*", "erbakan*",
    "mansur yavas*",
    # a vote named by the party's emblem on the ballot (the six arrows, the bulb, the three
    # crescents) with the stamp pressed on it
    "alti oka bas*", "alti oka muhur*", "alti oka oy*", "ampule bas*", "ampule muhur*",
    "ampule oy*", "uc hilaleye bas*", "uc hilaleye muhur*", "uc hilaleye oy*",
    # the emblem as the party itself ('hep altı okluya veririz'), and a movement's hand sign
    # shown on a profile or at a rally
    "alti oklu*", "six arrows", "bozkurt isaret*", "bozkurt selam*",
    # a vote given to a party named in the dative ('deme verdin'), a march joined on May Day
    "deme verdi*", "deme oy ver*", "mayis yuruyusune*", "mayis yuruyusunde*",
    "mayis mitingine*", "mayis mitinginde*", "may day march*", "may day rally",
    "gezi deydim", "gezi deydik", "gezi direnisine katil*", "1 mayista taksim*",
    "1 mayis ta taksim*",
    # the nationalist movement's emblems worn or put on a desk ('bozkurt' alone is a name)
    "bozkurt rozet*", "bozkurt kolye*", "bozkurt yuzug*", "uc hilalli*",
)

TR_FAMILY_TERMS: Final = MappingProxyType(
    {
        "appearance": _APPEARANCE, "ethnicity": _ETHNICITY, "religion": _RELIGION,
        "philosophical_belief": _PHILOSOPHICAL, "sexual_life": _SEXUAL, "genetic": _GENETIC,
        "biometric": _BIOMETRIC, "health": _HEALTH, "criminal_record": _CRIMINAL,
        "membership": _MEMBERSHIP, "political_opinion": _POLITICAL,
    }
)  # fmt: skip
