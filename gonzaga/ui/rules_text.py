"""The rules in short, for the in-game viewer ("#" starts a heading). Ids as in docs/rules.md."""

EN = """# Goal
Claim cities and harbors with your fiefs, build sea leagues, and at the end hold the largest dominion (the Gonzaga tile, 15 points) and the cities of your secret objective.
# A round
1. Take your fief (R1): every seat turns up the top card of its deck. Its number is public.
2. Plan (R2): in secret, choose one region card and one action card. Cards you played last round are not available (shown greyed). The King's Privilege can be added to a plan if you have a ring left: you go first, and it costs a ring at the reveal (K1, K2).
3. Reveal and turn order (R3, R4): all plans are shown at once. King's Privilege first, then Harbors, then Cities, then Alliance; ties go to the lower fief card.
4. Place (R5): in turn order, place your fief, hold a wedding (Alliance only), or donate the fief to the church for 3 points (always allowed).
# Placing a fief
At least one hex in the planned region (P1); Inactive Regions: any inactive region. Harbors: at least one harbor and no city (P2). Cities: cities and no harbor, or only empty hexes (P3). Alliance: at least one city and one harbor (P4). Every hex on the map (P6), no hex under another fief or your own ring (P7), castles on land (P8), never across a barrier (P9). Rotate freely; never flip (P10).
# Weddings
With Alliance you may put one ring in the planned region instead, and optionally a second ring next to it (any region, even across a barrier). Never on your own fief or on another ring (W1-W6).
# Scoring
Each site you newly cover: 3 points in a flourishing region, 1 in an inactive one (X1). First time you hold 3 harbors of one sea: sea league, 10 points (X2). Donation: 3 points (X3). At the end: the largest connected group of pieces scores the Gonzaga tile, 15 (X4); your objective's six cities held give 0, 2, 5, 10, 15, 25, 35 (X5). Highest total wins; ties go to most sites held (X6).
# The end
From round 6 on, the Last Turn card checks the free sites in flourishing regions; three or fewer and the next round is the last (E1). At most 12 rounds (E2).
# Controls
Drag your fief from the panel onto the map. Mouse wheel, R/E or right click rotate. Arrows move it, Enter or Confirm places it, Esc cancels. Highlighted hexes: where the fief's anchor can go with this rotation (faint: with another rotation). F11 full screen, F12 screenshot.
"""

IT = """# Scopo
Conquista città e porti con i tuoi feudi, forma Leghe Navali e alla fine controlla il dominio più grande (la tessera Gonzaga, 15 punti) e le tue Città Segrete.
# Un turno
1. Prendi il feudo (R1): ogni giocatore gira la prima carta del proprio mazzo. Il numero è pubblico.
2. Pianifica (R2): in segreto scegli una carta regione e una carta azione. Le carte giocate nel turno precedente non sono disponibili (in grigio). Il Privilegio del Re si aggiunge al piano se hai ancora un anello: giochi per primo e costa un anello alla rivelazione (K1, K2).
3. Rivelazione e ordine di turno (R3, R4): tutti i piani si scoprono insieme. Prima il Privilegio del Re, poi Porti, Città, Alleanza; a parità gioca prima la carta feudo più bassa.
4. Piazza (R5): nell'ordine di turno piazza il feudo, celebra un matrimonio (solo con Alleanza) o dona il feudo alla Chiesa per 3 punti (sempre possibile).
# Piazzare un feudo
Almeno un esagono nella regione scelta (P1); Regioni inattive: in qualunque regione inattiva. Porti: almeno un porto e nessuna città (P2). Città: città e nessun porto, oppure solo esagoni vuoti (P3). Alleanza: almeno una città e un porto (P4). Tutto sulla mappa (P6), nessun esagono sotto un altro feudo o un tuo anello (P7), castelli sulla terra (P8), mai attraverso una barriera (P9). Si ruota liberamente, non si capovolge (P10).
# Matrimoni
Con Alleanza puoi invece mettere un anello nella regione scelta e, se vuoi, un secondo anello adiacente (qualunque regione, anche oltre una barriera). Mai sul tuo feudo o su un altro anello (W1-W6).
# Punteggio
Ogni sito coperto: 3 punti in una regione fiorente, 1 in una inattiva (X1). La prima volta che controlli 3 porti dello stesso mare: Lega Navale, 10 punti (X2). Donazione: 3 punti (X3). Alla fine: il gruppo collegato più grande vale la tessera Gonzaga, 15 (X4); le sei Città Segrete controllate valgono 0, 2, 5, 10, 15, 25, 35 (X5). Vince il totale più alto; a parità, chi controlla più siti (X6).
# La fine
Dal 6° turno la carta Ultimo Turno conta i siti liberi nelle regioni fiorenti; se sono tre o meno il turno successivo è l'ultimo (E1). Al massimo 12 turni (E2).
# Comandi
Trascina il feudo dal pannello sulla mappa. Rotellina, R/E o tasto destro lo ruotano. Frecce per spostarlo, Invio o Conferma per piazzarlo, Esc annulla. Esagoni evidenziati: dove può andare l'ancora del feudo con questa rotazione (tenui: con un'altra rotazione). F11 schermo intero, F12 schermata.
"""


def text(lang: str) -> str:
    return IT if lang == "it" else EN
