"""Special-category terms as people write them in messages, notes and tickets rather than in
forms: a condition named by its generic drug, its device, its ward or its support group ('my
lamotrigine', 'AA meetings', 'insulin pump', 'amatemde'); a union or party by its short name;
a religious practice by its everyday verb; a conviction by the words of a probation letter.
Folded form like lexicon_special. Each phrase starts with its most distinctive word, so the
token scanner never has to stop at 'on', 'my' or 'the'. As every topic term, none of these
decides anything: it only makes the second stage ask whom its sentence concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_HEALTH = (
    "mide bandi*", "tup mide*", "lenfodem*", "kist", "kisti", "kistim*", "kistin*", "kistler*",
    "kistte", "kistten", "miyom*", "polip*", "nodul*",
    "safra kesesi*", "bobrek tasi*", "varisim*", "varisler*", "varis corab*", "varis ameliyat*",
    "varisli", "hemoroid*", "basur*", "egzama*", "sedef hastalig*",
    "vitiligo", "kemik erimesi*", "osteoporoz*", "kireclenme*", "halusinasyon*", "sanri*",
    "paranoya*", "paranoyak*", "takinti*", "yumurta dondur*", "cyst*", "fibroid*", "polyp",
    "polyps",
    "nodule*", "gallstone*", "varicose", "haemorrhoid*", "hemorrhoid*", "hallucinat*", "paranoi*",
    "delusion*", "obsessive*", "compulsive*", "mania", "manic", "hypomani*", "insomnia*",
    "narcolep*", "vertigo", "tinnitus", "cataract*", "macular*", "hep c", "hep b", "fatty liver",
    "gout", "incontinen*", "ectopic", "pre-eclampsia", "preeclampsia", "gestational*",
    "sperm count", "fertility*",
    "olanzapine*", "quetiapine*", "sertraline*", "fluoxetine*", "citalopram*", "escitalopram*",
    "paroxetine*", "venlafaxine*", "mirtazapine*", "lamotrigine*", "levetiracetam*",
    "carbamazepine*", "valproate*", "topiramate*", "risperidone*", "aripiprazole*", "clozapine*",
    "propranolol*", "amlodipine*", "apixaban*", "rivaroxaban*", "tacrolimus*", "ciclosporin*",
    "cyclosporine*", "prednisolone*", "prednisone*", "hydroxychloroquine*", "adalimumab*",
    "infliximab*", "letrozole*", "anastrozole*", "levothyroxine*", "thyroxine*", "semaglutide*",
    "tirzepatide*", "salbutamol*", "albuterol*", "epipen*", "naloxone*", "narcan*", "subutex*",
    "methylphenidate*", "lisdexamfetamine*", "vyvanse*", "elvanse*", "zopiclone*", "zolpidem*",
    "benzodiazepine*", "benzos", "opioid*", "antipsychotic*", "mood stabili*", "ssri*", "snri*",
    "meds", "arvs", "viral load*", "cd4", "prep pill*", "hiv meds", "dexcom*", "freestyle libre",
    "glucose monitor*", "cgm", "colostomy*", "ileostomy*", "stoma", "catheter*", "cpap",
    "sleep apnoea", "sleep apnea", "cochlear implant*", "prosthetic*", "amputee*",
    "wheelchair user*", "visually impaired", "hard of hearing", "hearing loss", "psych unit",
    "psychiatric unit", "mental health unit", "sectioned",
    "emergency room", "er visit", "discharge summary", "discharged from hospital",
    "fit note*", "sick note*", "signed off sick", "off sick", "occupational health",
    "reasonable adjustment*", "detox*",
    "nervous breakdown", "mental breakdown", "counsellor*", "counselor*", "therapist*",
    "elini kaybet*", "kolunu kaybet*", "bacagini kaybet*", "gozunu kaybet*", "parmagini kaybet*",
    "isitme kayb*", "gorme kayb*",
    "alcoholics anonymous", "narcotics anonymous", "aa meeting*", "na meeting*", "sober*",
    "sobriety", "relapsed", "twelve-step", "mammogram*", "smear test*", "pap smear*", "psa test*",
    "tumour marker*", "tumor marker*", "scan results", "terminally ill", "end-of-life",
    "end of life care", "dnr", "radiation therapy", "oncologist*", "cardiologist*",
    "neurologist*", "endocrinologist*", "rheumatologist*", "gynaecologist*", "gynecologist*",
    "urologist*", "dermatologist*", "gastroenterologist*", "haematolog*", "hematolog*", "anorexi*",
    "bulimi*", "binge eating", "asperger*", "dyslexi*", "dyspraxi*", "tourette*", "chronic fatigue",
    "long covid", "pcos", "ibd", "gerd", "eczema", "psoriasis", "endometriosis", "angina",
    "arrhythmia*", "afib", "atrial fibrillation", "blood clot*", "dvt", "pulmonary embolism",
    "aneurysm*", "concussion*", "brain injury", "tbi", "sciatica", "slipped disc",
    "knee replacement", "hip replacement", "heart condition", "heart surgery", "mini-stroke",
    "allergic to", "anaphyla*", "type 1 diabetic",
    "type 2 diabetic", "t1d", "t2d", "diabetic*", "morning sickness", "trimester*",
    "weeks pregnant", "expecting a baby", "expecting our", "egg retrieval", "embryo transfer",
    "fertility treatment*", "stillbirth*", "termination of pregnancy", "postnatal depression",
    "post-natal depression", "postpartum depression", "panic disorder", "social anxiety", "bpd",
    "borderline personality", "nervous breakdown", "self-harming", "cutting myself", "hiv-positive",
    "seropositive", "immunocompromised", "immunosuppress*", "cancer-free", "tested positive for",
    "terapi*", "alerji*", "panik bozuk*", "kaygi bozuk*", "bunalim*", "ruh hasta*", "akil hasta*",
    "akil sagli*", "sinir hastasi*", "bagimliyim", "bagimlisi", "alkol sorun*", "alkol problem*",
    "icki sorun*", "icki problem*", "alkolik*", "alkolu birak*", "ickiyi birak*", "madde kullan*",
    "esrar", "esrarkes*", "esrar ic*", "esrar kullan*", "esrarla", "eroin*", "kokain*", "bonzai*",
    "istirahat*", "rapor aldi*", "raporlu*",
    "heyet rapor*", "engelli rapor*", "saglik kurulu*", "acile*", "yatisi*",
    "yatis yap*", "kolu kiril*", "kolum kiril*", "bacagi kiril*", "bacagim kiril*", "ayagi kiril*",
    "ayagim kiril*", "bebek bekli*", "hamileyim", "gebeyim", "serebral palsi*", "zihinsel engel*",
    "isitme engel*", "isitme kayb*", "hiperaktivite*", "dikkat eksikli*", "ogrenme guclug*",
    "manik*", "depresif*", "unutkanlik*", "lenf bezi*", "lenf nod*", "mr cek*", "mr sonuc*",
    "rahatsizlandi*", "fenalas*", "kalp hasta*", "kalp rahatsiz*", "kalp ameliyat*", "kalbinden*",
    "sekerim*", "seker hasta*", "sarilik*", "aile hekim*", "psikiyatr*",
    "ilaclar*", "ilacim*", "ilaci*", "antidepresan*", "diyabetik*", "insulinim*", "kemoya",
    "kemodan", "kemoda", "kemoterapiye", "transplant*", "dializ*", "hemodiyaliz*", "kolostomi*",
    "oksijen tup*", "oksijen destek*", "yatalak*", "felcli*", "beyin kanamas*", "kalp krizi*",
    "anjiyo*", "koroner*", "ritim bozuk*", "aritmi*", "hipotiroidi*", "hipertiroidi*", "tiroidim*",
    "guatrim*", "kolitim*", "gastritim*", "ulserim*", "astimim*", "migrenim*", "depresyondayim",
    "depresyonda*", "anksiyetem*", "panik atagim*", "psikologa*", "psikologum*", "psikiyatriste*",
    "terapistim*", "ilac kullan*", "hap kullan*", "antibiyotik kullan*", "ameliyat ol*",
    "ameliyat edil*", "ameliyattan*", "kontrol randevu*", "tahlil sonuc*", "biyopsi sonuc*",
    "patoloji sonuc*", "hiv pozitif*",
)

_RELIGION = (
    "rabbis", "rabbin*", "turbe*", "adak*", "zikir*", "kizilbas*", "cem ayini*", "dergah*",
    "seyh", "seyhi", "seyhim*", "seyhin*", "seyhler*", "seyhlig*", "murit*", "murid*",
    "hafiz", "sunday school", "confirmation class*", "catechism", "seminary", "convent", "ordained",
    "deacon*", "kirtan", "puja", "hanukkah", "passover", "yom kippur", "sukkot", "purim",
    "rosh hashanah", "vaisakhi", "navratri",
    "salah", "salat", "jummah", "jumuah", "friday prayers", "bar mitzvah",
    "bat mitzvah", "gurdwara*", "shabbat", "quaker*", "amish",
    "scientolog*", "pagan*", "wicca*", "bible study", "latter-day saint*", "orthodox jew*",
    "hasidic", "born-again", "vaaz*", "hatim*", "hacca git*", "hacci*", "musevi*", "dinsiz*",
    "bektasi*", "nusayri*", "nurcu*", "suleymanci*", "iman etti*", "namaz kil*", "namazi*",
    "namaza*", "oruc tut*", "orucum*", "orucu*", "camiye*", "camide*", "camiden*", "kiliseye*",
    "kilisede*", "cemevine*", "cemevinde*", "sinagoga*", "sinagogda*", "tesbih*", "tespih*",
    "tarikata*", "tarikatin*", "cemaate*", "cemaatin*", "kuran okuy*", "hristiyanim",
    "musluman*", "aleviyim", "sunniyim", "ateistim", "deistim", "yahudiyim",
)

_POLITICAL = (
    "bahceliye", "bahceliyi", "bahcelinin", "bahceliden", "bahceliyle", "bahceliciler*",
    "khk*", "ihrac edil*", "erdogan destek*", "erdogan karsit*",
    "lib dem*", "liberal democrat*", "snp", "plaid cymru", "ukip", "reform uk", "dsa", "gop",
    "democratic party", "antifa", "extinction rebellion", "just stop oil", "blm",
    "black lives matter", "pro-life", "pro-choice", "leafleting", "leafleted", "canvassed",
    "party card", "party membership", "erdoganci*", "ataturkcu*", "turkcu*", "refah partisi*",
    "btp", "gelecek partisi*", "emep*", "sol parti*", "tkp*", "delegesi*", "delegeyim",
    "kongre delege*", "il kongre*", "oyumu*", "oyum*", "oy verdim", "oy vermedim",
    "sandiga git*", "mitinge*", "mitingine*", "mitinginde*", "protestoya*", "yuruyuse katil*",
    "imza kampanyasi*", "muhalefet partisi*", "iktidar partisi*", "partili*", "parti uye*",
    "parti kart*",
)

_MEMBERSHIP = (
    "orgutlen*", "trade unionist*",
    "unison", "gmb", "rmt", "nasuwt", "usdaw", "seiu", "afl-cio", "ucu", "rcn",
    "royal college of nursing", "pcs union", "cwu", "strike ballot", "picket line*",
    "strike action", "union card", "union meeting*", "union branch", "lions club",
    "birlesik metal*", "turk metal*", "petrol-is*", "petrol is", "tez-koop*", "tez koop*",
    "genel-is*", "genel is", "tumbel-sen*", "tumbel sen*", "saglik-sen*", "saglik sen*",
    "egitim-is*", "kamu-sen*", "turk egitim-sen*", "hizmet-is*", "oz saglik-is*", "dev saglik-is*",
    "tekstil-is*", "birtek-sen*", "tes-is*", "harb-is*", "ttb", "muhendisler odasi*",
    "sendikaliyim", "sendikaliyiz", "sendika uye*", "sendika temsilci*", "sendikanin*",
    "sendikaya*", "grevde*", "greve*", "dernege*", "derneginin*", "dernek baskani*", "vakfa*",
    "vakfin uye*", "locaya*", "locasi*", "kooperatife*",
)

_SEXUAL = (
    "dating a man", "dating a woman", "dating men", "dating women", "erkeklerden hoslan*",
    "kadinlardan hoslan*",
    "hemcins*", "ayni cinsiyet*", "escinsellig*",
    "pansexual*", "asexual*", "transitioning", "transitioned", "top surgery", "gender-affirming*",
    "gender reassignment", "deadname*", "coming out", "closeted", "unprotected sex",
    "one-night stand", "grindr", "polyamor*", "open relationship", "swinger*", "bdsm", "fetish*",
    "viagra", "cialis", "sildenafil*", "having an affair", "virginity", "morning-after pill",
    "lubunya*", "metres*", "tek gecelik*", "gecelik iliski*", "cinsiyet uyum*", "ailesine acil*",
    "ailene acil*", "aileme acil*", "escinselim", "biseksuelim", "lezbiyenim", "transim", "geyim",
    "trans oldu*", "korunmasiz iliski*", "cinsel iliskiye*", "cinsel birliktelik*", "sevgilisi*",
)

_CRIMINAL = (
    "kefalet*", "criminal past",
    "firari*", "kirmizi bulten*", "yakalama karar*", "suc duyurusu*", "criminal charge*",
    "charges against", "police record*", "sex offenders register",
    "cautioned by police", "police caution*", "spent conviction*", "unspent", "dbs check*",
    "crb check*", "bailed", "remanded", "remand*", "hmp", "locked up",
    "doing time", "community service", "community order*", "electronic tag*", "ankle monitor*",
    "curfew*", "offender*", "guilty plea*", "pleaded", "court case*", "court hearing*",
    "trial date*", "magistrate*", "crown court", "arrest warrant*", "drink driving",
    "drink-driving", "banned from driving", "licence suspended", "license suspended",
    "protective order*", "embezzl*", "money laundering", "rap sheet*", "juvie",
    "juvenile detention", "youth offending", "fined for", "jailed", "imprisoned", "hagb",
    "hukmun aciklanmasinin*", "agir ceza*", "asliye ceza*", "ceza davasi*", "ceza dava*",
    "polise sikayet*", "nezarethane*", "hapis yat*",
    "hapisten cik*", "cezaevinden cik*", "mahkum oldu*", "mahkumiyet*", "sabikam*", "sicilim*",
    "dosyasi kabar*", "ifadesi alin*", "ifademi*", "tahliye*", "uyusturucu*", "esrar", "esrarkes*",
    "esrar ic*", "esrar kullan*", "esrarla", "kumar*",
    "rusvet*", "dolandiricilik*", "hirsizlik*", "gaspa*", "darp*", "zimmete*", "kacakcilik*",
)

_ETHNICITY = (
    "bame", "traveller community",
    "romany", "irish traveller*", "gypsy", "south asian", "east asian", "british asian*",
    "british pakistani*", "british indian*", "pakistani*", "bangladeshi*", "white british",
    "white irish", "black african", "black caribbean", "latinx", "mestizo*", "first nations",
    "maori", "uyghur*", "assyrian*", "yazidi*", "circassian*", "arab", "kurdish origin",
    "kurdish background", "romanim", "roman vatandas*", "cingeneyim", "kurdum", "kurtum", "arabim",
    "ermeniyim", "rumum", "cerkezim", "gurcuyum", "bosnagim", "arnavudum", "pomagim", "suryaniyim",
    "ezidiyim", "alevi kurt*", "anadilim*", "ana dilim*", "kokenim*", "kokenimiz*", "ten rengi*",
    "ten renginden*", "irkindan*", "irkimdan*", "etnik koken*",
    # 'Kürt' typed without its 'ü' is 'kurt' (wolf, a surname): only the forms a wolf never
    # takes (front-vowel suffixes: 'Kürtler', 'Kürtüz') or an origin frame
    "kurtler*", "kurtuz", "kurtsun*", "kurttur", "kurtsen*", "kurt musun*", "kurt degil*",
    "kurt halk*", "kurt nufus*", "kurt kimlik*", "kurt kok*", "kurt asil*", "kurduz",
    "aslen kurt*", "aslen kurd*", "aslen arap*", "aslen laz", "aslen lazi*", "aslen ermeni*",
    "aslen cerkez*", "aslen gurcu*", "aslen rum", "aslen zaza*", "aslen roman*", "aslen suryani*",
    "aslen bosnak*", "aslen arnavut*", "aslen cingene*", "zazayim",
    "roma famil*", "roma communit*", "roma heritage", "roma background", "roma origin*",
)

_APPEARANCE = (
    "kisa etek*", "askili*", "burkini*",
    "face covering*", "crucifix*", "cornrows", "braids", "wig", "wigs", "modest dress*",
    "dresses modestly", "cover her hair", "cover my hair", "covers her hair", "peruk*",
    "pantolon giy*", "kapali giy*", "basini ort*", "basimi ort*", "sacini ort*", "sacimi ort*",
    "dovmem*", "dovmesi*", "piercingim*", "sakalim*", "sakalini*", "kiyafetim*", "kiyafetinden*",
    "basortum*", "basortusu*", "turbanim*", "turbani*", "tesettura*", "carsafli*",
    "yanik izi*", "yara izi*", "dogum lekesi*", "birthmark*", "facial scar*", "burn scar*",
)

_BIOMETRIC = (
    "thumbprint*", "palm scan*", "vein scan*", "voice id", "voice recognition", "facial geometry",
    "face geometry", "face data", "signature dynamics", "keystroke dynamics", "gait recognition",
    "face unlock", "touch id", "fingerprint scanner*", "yuz kimlig*", "yuz dogrulama*",
    "parmak okut*", "parmak izli*", "parmak izimi*", "parmak izimiz*", "yuzumu tara*",
    "yuz taramam*", "ses dogrulama*", "avuc izi*",
)

_GENETIC = (
    "inherited condition*", "inherited disorder*", "family history of", "trisomy*", "exome*",
    "lynch syndrome", "factor v leiden", "mthfr", "hla-b27", "genotype*", "allele*",
    "pathogenic variant*", "heterozygous", "homozygous", "prenatal screening", "amniocentesis",
    "nipt", "ailesel*", "irsi*", "amniyosentez*", "ikili tarama*", "uclu tarama*", "genotip*",
    "heterozigot*", "homozigot*", "fmf", "ailevi akdeniz*", "hemofili*", "haemophilia*",
    "hemophilia*", "frajil x*", "fragile x", "duchenne*", "gen tasi*", "gen testim*", "dna testim*",
)

_PHILOSOPHY = (
    "anti-vax*", "antivax*", "anti-vaccine", "animal rights*", "environmentalist*",
    "climate activist*", "ethical vegan*", "secular humanist*", "freethinker*", "rationalist*",
    "spiritual but not religious", "anti-natalis*", "antinatalis*", "transhumanis*",
    "effective altruis*", "gender-critical", "gender critical", "hayvan haklari*", "asi karsit*",
    "asi olmayi reddet*", "asi yaptirmi*", "iklim aktivist*",
    "dunya gorusu*", "hayat felsefe*", "yasam felsefe*", "antinatalist*", "veganim", "vejetaryenim",
    "vicdani retciyim", "pasifistim", "ateistim", "deistim",
)

COLLOQUIAL_TERMS: Final = MappingProxyType(
    {
        "health": _HEALTH,
        "religion": _RELIGION,
        "political_opinion": _POLITICAL,
        "membership": _MEMBERSHIP,
        "sexual_life": _SEXUAL,
        "criminal_record": _CRIMINAL,
        "ethnicity": _ETHNICITY,
        "appearance": _APPEARANCE,
        "biometric": _BIOMETRIC,
        "genetic": _GENETIC,
        "philosophical_belief": _PHILOSOPHY,
    }
)
