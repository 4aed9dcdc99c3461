"""First names that nearly always name a woman or a man (Turkish and English, folded), for one
question only: whether a spouse is of the same gender as the person whose spouse it is
("Sofia's wife", "Mehmet'in kocası", "Tom's boyfriend"). Names that are also everyday words
('grace', 'will', 'mark', 'can') or are given to both ('deniz', 'alex', 'sam') are left out:
a wrong gender here would call a marriage what it is not."""

from __future__ import annotations

from typing import Final

FEMALE: Final = frozenset(
    b"ayse fatma zeynep elif emine hatice merve esra ozlem ebru sibel derya gizem selin buse "
    b"melike seda tugba busra kubra yasemin sevgi aylin ece irem pinar gulsen hulya nazli leyla "
    b"dilek songul zehra ceren cansu gamze funda burcu serap nesrin hande asli filiz meltem "
    b"mary sarah emma olivia sophia sofia emily hannah jessica jennifer elizabeth anna laura "
    b"rachel rebecca megan claire kate katie lucy chloe charlotte amelia isabella alice helen "
    b"susan karen linda patricia nancy lisa maria julia nicole natalie victoria catherine "
    b"sophie ella mia zoe amy lauren michelle angela diana rita monica sandra tina vanessa jane "
    b"anne margaret rosa elena carmen marta giulia fatima aisha priya".split()
)
MALE: Final = frozenset(
    b"mehmet ahmet mustafa ali huseyin hasan ibrahim ismail osman murat emre burak kerem tolga "
    b"hakan serkan selim yusuf omer halil recep kemal orhan erkan cem baris onur oguz ozan "
    b"volkan tuncay sinan bulent levent erdem fatih kadir gokhan engin arda efe mert berk eren "
    b"enes john james david michael robert william richard thomas charles daniel matthew "
    b"anthony steven paul andrew joshua kevin brian george edward peter ryan jason justin adam "
    b"nathan nate ben benjamin samuel tom tim mike luke oliver harry jacob ethan noah liam "
    b"lucas henry alexander carlos juan marco luca ahmed mohammed muhammad omar raj arjun ian "
    b"simon greg craig scott eric jeff steve dan joe josh gary keith neil".split()
)
