"""Special-category terms that show a category by what someone does, holds, speaks or goes
through rather than by its name: a political view by a vote, a ballot, a party office or a
march; sexual orientation by the gender of a partner, coming out or a pride march; an ethnic
origin by a language spoken at home, a people or a migration; religious dress by the garment; a
union by an office in it; a conviction by the stage of a case or the time served; a genetic
result by the test; a condition by its drug, its treatment or the aid it needs; a belief by the
practice or the place of worship. Folded form like lexicon_special; each phrase starts with its
most distinctive word, so the token scanner rarely stops at a common one.

Families of wording, written from the categories of KVKK Art. 6, not sentences seen anywhere.
As every topic term, none decides anything: it only makes the second stage ask whom its
sentence concerns, so a word that is as often general talk ('election', 'union') costs a
second-stage look, never a block on its own."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_POLITICAL = (
    # a vote, a ballot and the act of voting
    "evet oyu*", "hayir oyu*", "oy pusula*", "muhur bas*", "referandum*", "halkoylama*",
    "independence vote", "sandik basi*", "oyunu verdi*", "secmeniyim", "secmeniydim", "secmeniyiz",
    "secmenleriyiz", "ballot*", "polling station*", "postal vote*", "spoiled my ballot",
    "registered democrat*", "registered republican*",
    # parties and movements, as a member or follower
    "ak partili*", "iyi partili*", "zafer partili*", "dem partili*", "deva partili*",
    "gelecek partili*", "tip'li*", "emek partisi*", "sol partili*", "yurtsever*", "turanci*",
    "ulku ocak*", "ulku ocagi*", "tgb", "halkevleri*", "anavatan partisi*", "dogru yol partisi*",
    "sempatizan*", "yandasi*", "yandasiyim", "yandaslar*", "cumhuriyetci*", "sol gorus*",
    "apolitik*", "centrist*", "centre-left", "center-left", "centre-right", "center-right",
    "progressive voter*", "social democrat*", "maoist*", "trotskyist*", "leninist*",
    "eurosceptic*", "euroskeptic*", "pro-eu", "nationalism", "tea party", "proud boys",
    # offices and acts in a party or a movement
    "parti gonullu*", "parti teskilat*", "il baskanlig*", "ilce baskanlig*", "parti ilce*",
    "parti meclis*", "parti kongre*", "aday adayi*", "belediye meclis uye*", "muhtar aday*",
    "bildiri dagit*", "bildiri imzal*", "baris bildiri*", "baris akademisyen*", "afis as*",
    "pankart*", "slogan at*", "oturma eylem*", "aclik grev*", "olum orucu*",
    "basin aciklamasina katil*", "councillor for", "stood for election", "ran for office",
    "campaigned for", "campaigning for", "marched in", "marched against", "marched for",
    "placard*", "demonstrator*", "sit-in*", "signed a petition", "petitioned",
    "against the government", "against the regime", "hukumete karsi*", "iktidara karsi*",
    "rejim karsit*", "climate strike*", "climate march*", "school strike*", "iklim grev*",
    "iklim yuruyus*", "hunger strike*", "political prisoner*", "door-knocking", "knocked on doors",
    "knocking on doors", "opposition party", "ruling party", "capitalism", "kapitalizm*",
    "suffragette*", "suffragist*", "parti bulusma*", "parti toplanti*", "il sekreter*",
    "ilce sekreter*", "ogrenci kolektif*", "ogrenci orgut*", "eylemde", "eylemlerde", "eylemlere",
    "flyers for", "leaflets for", "delegate to the", "delegate at the", "party conference*",
    "party congress*", "party convention*", "partinin il", "partinin ilce*", "partinin genel*",
    "partinin meclis*", "partinin yonetim*", "partinin kongre*", "parti yonetim*",
    "ilce yonetimin*", "ilce teskilat*", "il teskilat*",
)

_SEXUAL = (
    # orientation shown by a partner's gender or by coming out
    "erkeklere ilgi*", "kadinlara ilgi*", "kizlardan hoslan*", "erkeklerden hoslan*",
    "ayni cinsten*", "ayni cinsiyetten*", "erkek sevgili*", "kiz sevgili*", "male partner*",
    "female partner*", "male spouse*", "female spouse*", "date women", "date men", "dates women",
    "dates men", "dated women", "dated men", "dating girls", "dating guys", "into guys",
    "into girls", "into men", "into women", "into boys", "dating another woman",
    "dating another man", "bir kadinla evli*", "bir erkekle evli*", "bir erkekle birlikte*",
    "bir kadinla birlikte*", "hayat arkadasi*", "hooks up*", "hooking up", "opusur*", "opustu*",
    "opusme*", "vajinismus*", "vaginismus", "disparoni*", "dyspareunia", "erken bosalma*",
    "premature ejaculation", "iliski yasanama*", "iliskiye gireme*", "relationship with a woman",
    "relationship with a man", "relationship with another woman", "relationship with another man",
    "erkeklerle gorus*", "kadinlarla gorus*", "erkeklerle bulus*", "kadinlarla bulus*",
    "erkeklerle iliski*", "kadinlarla iliski*", "bir erkekle gorus*", "bir kadinla gorus*",
    "bir kadinla evlen*", "bir erkekle evlen*", "kadinla nikah*", "erkekle nikah*", "erkek esi*",
    "erkek esim*", "kadin esi*", "kadinlarla birlikte ol*", "erkeklerle birlikte ol*",
    "kadinlarla yat*", "erkeklerle yat*", "biriyle yatt*", "biriyle yatmis*", "onunla yatt*",
    "onunla yatmis*", "baska biriyle yat*", "baska biriyle iliski*", "baska biriyle birlikte*",
    "baska biriyle evlen*", "attracted to men", "attracted to women", "attracted to guys",
    "attracted to girls", "attracted to the same", "attracted to both", "same gender",
    "openly gay", "openly lesbian", "openly bisexual", "openly trans", "husband and husband",
    "wife and wife", "two dads", "two mums", "two moms", "iki babali", "iki anneli",
    "ailesine acildi*", "ailesine acilamadi*", "onur yuruyus*", "onur haftasi*", "pride march*",
    "pride parade*", "travesti*", "transvestit*", "cross-dress*", "drag queen*",
    "cinsiyet disfori*", "gender dysphoria", "cinsiyet gecis*", "non binary", "ikili olmayan",
    # sexual activity, relationships outside marriage and their health side
    "had sex", "have sex", "having sex", "iliskiye gir*", "iliski yasadi*", "nikahsiz*",
    "evlilik oncesi iliski*", "kizlik zar*", "unfaithful*", "infidelity", "mistress*", "cheats on",
    "pre exposure",
)

_ETHNICITY = (
    # a language spoken at home, learned from parents, lost
    "ana dilimiz*", "ana dili kurt*", "ana dili arap*", "evde kurtce*", "evde arapca*",
    "evde lazca*", "evde zazaca*", "evde ermenice*", "evde cerkesce*", "rumca*", "kirmancki*",
    "sorani", "romanca*", "romanes", "ladino", "grew up speaking*", "speaks * at home",
    "spoke * at home", "speak * at home", "native tongue", "home language*",
    # a people, a region's people, a migration
    "dogulu*", "guneydogulu*", "asiret*", "ahiska*", "nogay*", "karapapak*", "terekeme*",
    "muhacir*", "mubadil*", "balkan gocmen*", "balkan kokenli*", "selanik gocmen*", "afroturk*",
    "hemsinli*", "hemsince*", "adige*", "kafkas gocmen*", "kafkasya gocmen*", "kafkas kokenli*",
    "ghanaian*", "eritrean*", "congolese", "sudanese", "filipino*", "filipina*", "tagalog",
    "pontuslu*", "pontus rum*", "megrel*", "domari", "ubih*", "afro turk*", "afro-turk*",
    "kizilderili*", "nasturi*", "immigrant famil*", "immigrant parent*", "immigrant background",
    "migrant background", "refugee background", "second-generation*",
    "second generation immigrant*", "first-generation immigrant*", "brown skinned",
    "brown-skinned", "olive skinned", "olive-skinned", "black skinned", "tribe", "minority group",
    "jewish descent", "turkish descent", "african descent", "caribbean descent", "dual heritage",
    "half japanese", "half chinese", "half korean", "half indian", "half turkish", "half kurdish",
    "half black", "half white", "half korean", "half mexican", "half nigerian", "half filipino",
    "half vietnamese", "half thai", "half arab", "half greek", "half jamaican", "half irish",
    "half italian", "half persian", "half iranian", "half puerto rican", "half native",
    # ambiguous words (a novel, necessary, a Greek dish) made an origin by their frame
    "roman oldug*", "roman olan*", "romanlar gibi",
    # peoples and groups the other tables do not name
    "hmong", "afro-caribbean", "afro caribbean", "afro-american*", "afro-latin*",
    "afro-brazilian*", "tuareg*", "maasai", "zulu", "xhosa", "yoruba", "igbo", "hausa", "fulani",
    "amhara", "oromo", "tigray*", "tigrinya", "inuit", "cherokee", "navajo", "lakota", "sioux",
    "tajik*", "tacik*", "baloch*", "beluc*", "sindhi", "sinhal*", "tibetan*", "tibetli*",
    "kazakh*", "kyrgyz*", "kirgiz*", "chuvash", "ainu", "mizrahi*", "sephardi*", "sefarad*",
    "ashkenazi*", "askenaz*", "druze", "durzi*", "kipti*", "han chinese", "ailesi kurt*",
    "ailem kurt*", "traveller famil*", "traveller background", "traveller heritage",
)

_APPEARANCE = (
    # religious and cultural dress, and the act of covering or uncovering
    "esarp*", "cilbab*", "ferace*", "yasmak*", "basini ac*", "kapali kadin*", "kapali kiz*",
    "sunnet sakal*", "head covering*", "head-covering*", "headcovering*", "head scarf*",
    "head-scarf*", "takes off her hijab", "removed her hijab", "dastar", "patka", "sindoor",
    "mangalsutra", "tichel", "sheitel", "tefillin", "tzitzit", "payot", "payos", "saffron robe*",
    "cassock*", "clerical collar*", "nun's habit", "wears a cross", "wears a turban",
    "wears the hijab", "wears hijab", "wears a headscarf", "wear a headscarf",
    # the body as others see it
    "albino*", "albinizm*", "albinism", "cuce*", "dwarfism", "kilolu*", "peceyle", "peceye",
    "peceyi", "pecenin", "pecede", "peceden", "overweight", "birth mark*", "locs", "ortulu",
    "ortuluyum", "ortuluydu*", "facial hair", "shaved head",
)

_MEMBERSHIP = (
    # an office in a union, a chamber or an association
    "bastemsilci*", "bas temsilci*", "sube baskani*", "sube sekreter*", "kurucu uye*",
    "is birakma*", "branch secretary", "branch chair*", "shop-floor rep*", "shop rep", "shop reps",
    "staff rep*",
    "workplace rep*", "paid-up member*", "membership dues", "alumni association*",
    "residents association*", "tenants association*", "tenants union*", "parents association*",
    "executive committee of", "women's institute", "womens institute", "nurses association",
    "nursing association", "teachers association", "doctors association", "elected rep",
    "elected reps", "young farmers", "kooperatif orta*", "kooperatifin orta*",
    "kooperatifinin orta*", "joined the * club", "joined the * society",
    "joined the * association", "joined the * union", "muhendisleri odasi*",
    "muhendisleri odasin*", "eczacilar odasi*", "odasi uye*", "odasinin uye*", "odasina uye*",
    "odasina kayit*", "veterans association*", "member of the * union",
    "member of the * association", "member of the * society", "member of the * lodge",
    "member of the * club",
    # unions and associations by their own names
    "diske", "diskli*", "disk'li*", "keskli*", "turk-is'li*", "hak-is'li*", "sosyal-is*",
    "enerji-sen*", "deri-is*", "gida-is*", "tekgida-is*", "kristal-is*", "dok gemi-is*",
    "nakliyat-is*", "basin-is*", "tgs", "hava-is*", "demiryol-is*", "turk saglik-sen*",
    "egitim bir sen*", "egitim-bir-sen*", "diyanet-sen*", "ulastirma-sen*", "birlesik kamu-is*",
    "uaw", "ufcw", "ibew", "afscme", "cupe", "unifor", "ig metall", "cgt", "cfdt", "nea member*",
    "aft member*", "uyeyiz", "uyesiyiz", "uyesiydi*", "uyesiyken",
)

_CRIMINAL = (
    # the stages of a case and the time served
    "cezasini cek*", "cezami cek*", "cezasini tamamla*", "yatip cikti*", "yatip ciktim",
    "iceride yatt*", "hakim karsisina*", "hakime cikar*", "durusma*", "sartli tahliye*",
    "sicili temiz*", "sicilinde*", "sicili kirli*", "sicile islen*", "adli sicil kayd*",
    "ihbar edil*", "hakkinda sorusturma*", "hukum giydi*", "ceza evinden*", "islahevi*",
    "cocuk egitim evi*", "cocuk ceza*", "cocuk mahkeme*", "yil yatt*", "ay yatt*", "yil yedi*",
    "did a * stretch", "did * years for", "did * months for", "did * years inside", "did time",
    "behind bars", "in custody", "police custody", "taken into custody", "released from custody",
    "correctional facilit*", "penitentiary", "convict", "convicts", "ex-offender*", "reoffend*",
    "arraign*", "on remand", "awaiting trial", "stood trial", "went to trial", "found guilty",
    "found not guilty", "year sentence", "month sentence", "suspended sentence*",
    "criminal conviction*", "yaklasma yasag*", "yaklasmasi yasak*", "koruma tedbir*",
    "no-contact order*", "non-molestation order*", "caution on file", "cautioned for",
    "icerde yat*",
)

_GENETIC = (
    # genetic testing and what it finds
    "ancestry test*", "carrier screen*", "carrier status", "newborn screen*", "heel prick",
    "topuk kani*", "yenidogan tarama*", "embriyo tarama*", "embryo screen*", "preimplantation*",
    "pgd", "pgt", "inherited * gene*", "familial*", "hla typing", "hla tipleme*", "doku grubu*",
    "tissue typing", "familyal*", "hemokromatoz*", "haemochromatosis", "hemochromatosis",
    "spinal muskuler*", "spinal muscular*", "akraba evli*", "kuzen evlilig*", "genini tasi*",
)

_HEALTH = (
    # drugs people name instead of their condition
    "valium", "klonopin", "ambien", "stilnox", "buspiron*", "buspirone", "latuda", "lurasidon*",
    "klozapin*", "leponex", "invega", "paliperidon*", "gliklazid*", "gliclazide", "diamicron",
    "synthroid", "tapazol*", "propycil*", "methimazole", "allopurinol*", "kolsisin*", "colchicine",
    "salazopyrin*", "sulfasalazin*", "mesalazin*", "mesalamine", "asacol", "pentasa",
    "azatiyoprin*", "azathioprine", "imuran", "cellcept", "takrolimus*", "siklosporin*",
    "entresto", "lasix", "furosemid*", "digoksin*", "digoxin", "nitrogliserin*", "spironolakton*",
    "aldactone", "valtrex", "valacyclovir", "asiklovir*", "aciclovir", "acyclovir", "zovirax",
    "rifampisin*", "rifampicin", "izoniazid*", "isoniazid", "sofosbuvir", "entekavir*",
    "entecavir", "baraclude", "viral yuk*", "viral load", "haart", "prep'e bas*",
    # treatments and procedures
    "immunoterapi*", "immunotherapy", "akilli ilac*", "kemoport*", "port takil*", "kemik iligi*",
    "bone marrow*", "lumbar puncture", "spinal tap", "lomber ponksiyon*", "holter*",
    "gastroskopi*", "bronkoskopi*", "sistoskopi*", "gastroscopy", "bronchoscopy", "elektrosok*",
    "electroconvulsive", "emdr", "bilissel davranisci*", "tup bebek*", "embriyo transfer*",
    "yumurta toplama*",
    # aids a disability needs
    "koltuk degnek*", "baston kullan*", "beyaz baston*", "yurutec*", "rehber kopek*", "koklear*",
    "cochlear*", "isaret diliyle*", "braille*", "walking frame", "zimmer frame", "oksijen tup*",
    "oksijen konsantrator*", "bipap", "ostomy bag*", "hasta bezi*", "idrar kacir*", "engel oran*",
    "kulak arkasi cihaz*", "kulak ici cihaz*", "isaret dili kullan*", "gtn", "glyceryl trinitrate",
    "feeding tube*", "peg tube*", "beslenme tupu*", "nazogastrik*", "on the spectrum",
    "spektrumda*", "otizm spektrum*", "maluliyet*", "malul", "ozurlu*", "sakatlig*",
    "pip assessment",
)

_RELIGION = (
    # practices, places and objects of worship
    "seccade*", "secde*", "teheccud*", "tahajjud", "semah*", "cem evi*", "dualarimi*",
    "pazar ayin*", "komunyon*", "eucharist", "holy communion", "churches", "mandir", "monastery",
    "manastir*", "yeshiva*", "madrasa*", "madrassa*", "christened", "baptized", "novena",
    "ash wednesday", "tithe*", "ondalik ver*", "zakat", "sadaka ver*", "dhikr", "mevlid*",
    "mevlud*", "teblig grub*", "tebligci*", "dini sohbet*", "hoca efendi*", "shabbat candle*",
    "sabbath candle*", "tasbih", "misbaha", "five daily prayers", "mass every", "nikah kiydir*",
)

_PHILOSOPHY = (
    "anti-capitalis*", "anticapitalis*", "anti-war", "savas karsit*", "militarizm karsit*",
    "askerlik yapmay*", "askerligi reddet*", "refused military service", "plant-based for ethical",
    "etik vegan*", "hayvan haklari savunucu*", "animal liberation", "new age", "astrolojiye inan*",
    "believes in astrology", "abolisyonist*", "abolitionist*", "idam karsit*",
    "olum cezasina karsi*", "panteist*", "panteizm*", "pantheis*", "panentheis*", "animist*",
    "animizm*", "animism", "spinozaci*", "sovereign citizen*", "confucian*", "konfucyus*",
)

_BIOMETRIC = (
    # a face or a body stored as numbers or images by a recognition system
    "face vector*", "face encoding*", "face descriptor*", "face embedding*", "arcface*",
    "facenet*", "insightface", "yuz goruntu*", "yuz vektor*", "yuz kaydi*", "yuz imaj*",
    "matched my face", "match my face", "matched his face", "matched her face", "e-gate*",
    "egate*", "enrolled my palm", "enrolled my face", "enrolled my finger*",
    "enrolled his finger*", "enrolled her finger*", "register my finger*", "register his finger*",
    "register her finger*", "fingers scanned", "finger scan*", "finger vein*", "palm scanner*",
    "palm reader*", "palm recognition", "sesli dogrulama*", "sesli kimlik dogrulama*",
)

SHOWN_TERMS: Final = MappingProxyType(
    {
        "political_opinion": _POLITICAL, "sexual_life": _SEXUAL, "ethnicity": _ETHNICITY,
        "appearance": _APPEARANCE, "membership": _MEMBERSHIP, "criminal_record": _CRIMINAL,
        "genetic": _GENETIC, "health": _HEALTH, "religion": _RELIGION,
        "philosophical_belief": _PHILOSOPHY, "biometric": _BIOMETRIC,
    }
)
