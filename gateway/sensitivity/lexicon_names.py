"""Person-name lexicons (folded) and the words around names. Common Turkish first names and
surnames plus frequent English ones; a name counts with a surname or a title next to it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

# the wider vocabulary (names_world.txt): census and international names, sections [first] and
# [surname], words separated by blanks; read once at import (~30 KB)
_WORLD_PATH: Final = Path(__file__).with_name("names_world.txt")


def _world_names() -> dict[str, frozenset[str]]:
    sections: dict[str, set[str]] = {"first": set(), "surname": set()}
    current: set[str] | None = None
    for line in _WORLD_PATH.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#") or not line:
            continue
        if line.startswith("["):
            current = sections[line.strip("[]")]
        elif current is not None:
            current.update(line.split())
    return {k: frozenset(v) for k, v in sections.items()}


_WORLD: Final = _world_names()
# the names kept by hand here, without the wider vocabulary: the words around names and the
# everyday-word lists were written for these
LISTED_FIRST_NAMES: Final[frozenset[str]] = frozenset(
    """
    ahmet mehmet mustafa ali huseyin hasan ibrahim ismail osman yusuf murat omer ramazan
    halil suleyman abdullah mahmut recep salih fatih kadir emre hakan adem kemal yasar bayram
    erkan serkan burak ugur volkan cem can deniz baris umut onur tolga kaan emir efe arda
    eren berk mert kerem alp alper serdar sinan levent tamer tarik orhan erdem selim bulent
    cengiz ercan gokhan ilker koray metin nihat oguz ozan ozgur sefa sercan taner tuncay
    yavuz yigit zafer enes furkan batuhan berkay cagri cagatay dogan egemen ertugrul gurkan
    harun ilhan kenan kursat necati orkun rasim riza sedat sukru turgut veli yunus zeki
    ayse fatma emine hatice zeynep elif meryem sultan hulya hanife merve esra ozlem yasemin
    derya gulsen sevgi songul zehra busra kubra tugba ebru gamze seda pinar dilek burcu
    ceren aslihan asli irem selin ece ezgi melis nazli sibel tulay gul gulay filiz nur nurcan
    leyla damla buse cansu duygu eda gizem hande ipek kader kevser melek mine nesrin nihan
    ozge rabia sena serap sevda sevil sinem tuba tugce yeliz yeter zuhal berna beyza cemile
    dilara emel esin feride gonul gulbahar hacer hilal iclal kiraz lale mualla nermin
    nilufer oya pelin reyhan saadet semra serpil sevim sukran sule tulin umran yildiz
    zerrin ayten aysel aynur aysegul feyza gulsah
    james john robert michael william david richard joseph thomas charles christopher daniel
    matthew anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy
    ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin
    scott brandon benjamin samuel gregory frank alexander raymond patrick jack dennis peter
    mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy
    betty margaret sandra ashley kimberly emily donna michelle carol amanda dorothy melissa
    deborah stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda
    pamela emma nicole helen samantha katherine christine debra rachel carolyn janet maria
    catherine heather diane julie olivia sophie hannah lucy oliver harry emma charlotte
    oguzhan gokay gokberk selcuk sertac serhat soner suat taylan tayfun tuncer vedat yakup
    yasin zekeriya abdulkadir abdurrahman alaattin anil atakan aykut aytac bekir bilal cafer
    caner celal cemal cuneyt dursun ekrem emrah erhan ersin ertan esat faruk ferhat fikret
    hakki hayri hikmet hulusi idris ilyas irfan ismet lutfi mesut mithat muammer muhammed
    muhammet necdet nevzat nuri nusret okan oktay rahmi rauf recai rifat rustem
    selahattin seyfettin sitki tayyip tevfik vahit yahya yener cevdet davut enver eyup fahri
    ferit feyyaz haldun hamdi mecit memduh metehan mirac nedim oytun rasit resat sebahattin
    turgay yekta emirhan eymen alperen aleyna aysun ayla aylin aysen banu basak belgin belma
    berrin betul birsen buket canan cigdem didem dondu elcin elvan esma fadime fahriye fatos
    fazilet figen funda gokce gulcan gulden gulizar gulnur gulseren gulten halime havva
    hayriye hediye ilknur kezban lerzan leman makbule meltem meral mukaddes munevver muzeyyen
    nagehan nazan nazife nebahat necla neslihan nevin nilay nuray nurten nurhan pakize
    perihan rukiye sabiha sacide safiye sakine saliha selda semiha serife sebnem sengul sevgul
    seyma sidika simge sukriye turkan unzile yesim zahide zubeyde zuleyha ecrin eslem hiranur
    zumra dilan gulsum dilber feray fulya mehtap melahat mervenur muge nalan neriman nurgul
    oznur saniye sevtap zeliha aysu cagla ilayda melike mihriban ozgul tansu
    tom alex chris kate jane amelia isla ava mia sophia isabella chloe zoe evie megan lauren
    natalie victoria claire fiona gemma hayley kirsty louise nadia priya aisha fatima mohammed
    muhammad ahmed omar hassan raj arjun vikram sanjay nathan luke adam aaron dylan ethan liam
    noah lucas logan owen connor callum jamie neil simon ian nigel colin trevor stuart craig
    gavin darren wayne tony steve mike dave jim joe rob matt dan nick sean shaun declan conor
    ciaran niamh siobhan aoife carlos juan jose luis miguel sofia lucia elena marco giulia
    pierre marie hans olga ivan dmitri yuki hiroshi kenji
    aras ayhan beril bora cagan cemre cihan doruk ekin ela engin esila evren firat gorkem hazal
    kadriye kamil lara mete mira naciye nail nisa oyku sabri sarp selma semih sude taha tuana
    tunc turan utku veysel yagiz yaren zeren
    abigail alan albert alexis alfie alice andrea ann archie arthur bethan beverly bradley
    brittany bryan carl cerys charlie cheryl christina ciara danielle denise diana doris douglas
    eleanor elijah ella eugene evelyn ewan finley fraser freddie freya gabriel gareth gerald
    gloria harold harriet harvey henry imogen jacqueline janice jeremy jerry jesse joan joyce
    judith judy julia kathryn kayla keith kieran kyle lawrence leo lewis lori marilyn martha
    natasha niall oscar philip poppy ralph randy rhys roger rory rosie roy russell ruth saoirse
    sara seamus sian teresa terry theo theresa tyler vincent walter zachary zara
    """.split()
)
FIRST_NAMES: Final[frozenset[str]] = LISTED_FIRST_NAMES | _WORLD["first"]
# listed first names that are everyday words in lower case ('can', 'umut', 'deniz', 'mark')
EVERYDAY_FIRST_NAMES: Final = frozenset(
    """
    can cem deniz baris umut onur emir efe alp mert eren ozgur yavuz yigit zafer dogan
    sultan derya sevgi pinar dilek nur gul kader melek mine kiraz lale oya yildiz hilal
    damla ipek saadet sena ece asli bayram kaan tarik selim veli sefa yasar kemal
    mark will bill frank jack grace rose may june amber faith hope joy art ray gary
    tom dan rob matt nick mike joe jim ian neil owen dean adam luke noah ava mia kate jane
    """.split()
)

SURNAMES: Final[frozenset[str]] = _WORLD["surname"] | frozenset(
    """
    yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin ozdemir arslan dogan kilic
    aslan cetin kara koc kurt ozkan simsek polat ozcan korkmaz cakir erdogan yavuz can acar
    sen aktas guler yalcin gunes bozkurt bulut keskin unal turan gul ozer isik kaplan avci
    sari tas aksoy yuksel coskun kocak tekin altun ozgur karaca cinar bayram erdem kurtulus
    akin tunc gok ekinci bas karatas akbulut ucar orhan yucel uysal tan guven baysal durmaz
    ozbek gunay akgul oral toprak sonmez eren kahraman karakaya basaran tuncer dincer
    yazici ince turk savas sevim ates ay duman cicek ay kalkan uzun erol yaman aydogan
    karaman topal kose ozen ergun gurbuz tasdemir tokgoz akyol akay koca kocaman atalay
    ertem sezer sezgin pekmez bilgin bilgic mutlu demirci demirel eris karakus
    smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez
    lopez gonzalez wilson anderson taylor moore jackson martin lee perez thompson white
    harris sanchez clark ramirez lewis robinson walker young allen king wright scott torres
    nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter roberts
    evans turner parker collins edwards stewart morris murphy cook rogers morgan cooper
    peterson bailey reed kelly howard cox ward richardson watson brooks wood james bennett
    gray hughes price sanders myers long ross foster
        akcay akdag akdemir akgun akkaya akman aksu aktepe alkan altin altintas arikan aydemir
    aydogdu ayhan baran bayraktar bektas bilici bozdag budak cakmak calis canli cavus cengiz
    ceylan cevik cobanoglu dag dagli demirbas demirtas deniz dikmen dinc dogru dursun elmas
    emre er erbas ercan erden ergin ergul erkan erkoc ersoy ertas ertekin ertugrul esen eser
    genc gezer gokce gokmen gulec gumus gunduz gungor gurel guzel hancer harmanci inan
    kalayci kandemir kanat karabulut karadag karadeniz karagoz karahan karakoc kartal kavak
    kaymak keles kilinc kirac kocabas kokten kucuk kurtoglu kuzu metin oguz okur onal oner
    ozbay ozdag ozel ozgen ozkaya ozmen ozsoy ozyurt pamuk parlak saglam sancak sarac sarikaya
    secer sener sert sevinc soylu sozen tasci temel tezcan topcu tosun tuna turhan tutar
    uygun yagci yanik yasar yesil yigit yuce yurt yurdakul zengin akpinar bozkaya akbas ari
    tatar turkmen cerkez abaza bosnak arnavut gurcu
    patel khan shah ahmed hussain singh kaur begum chen wang zhang liu kim walsh byrne doyle
    kennedy clarke thomson robertson fraser macdonald mcdonald murray graham hamilton palmer
    fisher harrison chapman hunt holmes mills knight mason hudson webb barker lloyd ellis
    marshall owen powell jenkins griffiths davies rees pritchard novak kowalski nowak schmidt
    muller fischer weber rossi russo fernandez gomez diaz santos silva oliveira pereira
    dubois moreau laurent nakamura tanaka suzuki sato
    """.split()
)

# Well-known public figures: naming them is not data about a private person.
PUBLIC_FIGURES: Final[frozenset[str]] = frozenset(
    {
        "mustafa kemal",
        "kemal ataturk",
        "orhan pamuk",
        "nazim hikmet",
        "yasar kemal",
        "sabahattin ali",
        "aziz sancar",
        "elif safak",
        "barack obama",
        "henry ford",
        "oscar wilde",
        "leo tolstoy",
        "carl jung",
        "carl sagan",
        "harvey milk",
        "eleanor roosevelt",
        "gloria steinem",
        "julia roberts",
        "arthur conan",
        "roy lichtenstein",
        "vincent van",
        "theo van",
        "walter white",
        "henry kissinger",
        "arthur andersen",
        "zeki muren",
        "sezen aksu",
        "baris manco",
        "cem yilmaz",
        "donald trump",
        "george washington",
        "john lennon",
        "michael jackson",
        "elizabeth ii",
        "paul graham",
        # poets, writers and historical figures whose names come up in school questions
        "mehmet akif",
        "akif ersoy",
        "yunus emre",
        "mimar sinan",
        "ismet inonu",
        "orhan veli",
        "sait faik",
        "cemal sureya",
        "halide edip",
        "hamdi tanpinar",
        "cahit arf",
        "ahmet hamdi",
        # religious figures named with their title, in lessons and questions about a faith
        "imam ali",
        "imam hasan",
        "imam huseyin",
        "imam hussein",
        "imam gazali",
        "imam azam",
        "rabbi hillel",
        "father christmas",
    }
)

# Words that put a name right after them: "Sayın Ayşe Yılmaz", "hastamız Mehmet".
TITLES_BEFORE: Final[frozenset[str]] = frozenset(
    """
    sayin bay bayan sn hastamiz hastaniz muvekkilimiz muvekkiliniz muvekkil calisanimiz
    calisaniniz personelimiz ogrencimiz uyemiz adayimiz sanik davaci davali hasta mr mrs ms
    miss dr prof av patient client employee tenant applicant candidate danisan danisanimiz
    mx sister father rabbi imam pastor reverend rev fr dame sir
    """.split()
)
# a newborn is named by the words before the name ('baby girl Moreno', 'bebek Alya'); 'Bebek'
# alone is also an Istanbul district, so after it only a listed first name counts
NEWBORN_TITLES: Final[frozenset[str]] = frozenset({"baby boy", "baby girl", "bebek"})

# Words that follow a name: "Ayşe Hanım", "Mehmet Bey".
TITLES_AFTER: Final[frozenset[str]] = frozenset(
    """
    hanim hanima hanimin hanimi hanimla bey beye beyin beyi beyle hanimefendi beyefendi
    hoca hocam hocamiz hocanin hocaya hocayla hocadan
    """.split()
)

# Capitalised words that commonly follow a first name but are not surnames.
NOT_SURNAMES: Final[frozenset[str]] = frozenset(
    """
    bey hanim bank bankasi holding anonim sirketi limited caddesi sokak mahallesi parki
    hastanesi universitesi okulu lisesi kuvvetleri cami camii koprusu the and of for inc ltd
    street road avenue university hospital school bank group corp company park bridge
    hatip nasreddin christmas
    """.split()
) | frozenset(
    # feasts, holy nights, their eves, days, weeks and marches named after a word that is also
    # a first name ('Ramazan Bayramı', 'Kadir Gecesi', 'Berat Kandili', 'Onur Yürüyüşü'): the
    # second word is the feast's, in the forms it takes in a sentence
    """
    bayrami bayraminda bayramini bayraminiz bayraminizi bayramlari bayramdan bayramina
    gecesi gecesinde gecesini gecesiniz kandili kandilinde kandiliniz kandilini kandilimiz
    arifesi arifesinde yortusu yortusunda orucu gunu gununde haftasi yuruyusu yuruyusunde
    """.split()
)
