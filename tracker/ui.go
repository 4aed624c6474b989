package tracker

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
)

// The words of the state table, the prompt and its errors, per language:
// fmt formats keyed by a name. Announcements are the templates of
// messages.go; these are the rest of what a player reads.
func uiTexts() map[string]map[string]string {
	all := map[string]map[string]string{
		"en": {
			"noGame":        "No game set up yet.\n",
			"scenario":      "Scenario   %s (loyal: %s, opposing: %s)\n",
			"won":           "  GAME WON",
			"lost":          "  GAME LOST",
			"round":         "Round      %d, first player %s%s\n",
			"power":         "Power      [%s] space %d of %d\n",
			"goals":         "Goals      %d of %d   C.A.M.P. tokens %d\n",
			"deck":          "Deck       %s, discard %d (%s)\n",
			"card":          "card",
			"cards":         "cards",
			"survivor":      "%s %-8s HP %2d/%-2d rads %2d  XP %2d  caps %2d  %s\n",
			"out":           "OUT",
			"mutated":       "mutated",
			"rested":        "well rested",
			"special":       "SPECIAL %s",
			"noEnemies":     "Enemies    none tracked\n",
			"enemies":       "Enemies    %s\n",
			"active":        "active",
			"facedown":      "facedown",
			"with":          " with %s",
			"adjacent":      " adjacent %s",
			"pending":       "Pending    %s: %s, %s left\n",
			"pendTest":      "test %s difficulty %d",
			"pendFight":     "fight %s vs %s",
			"waitRoll":      "waiting for the roll",
			"rolled":        "rolled %s",
			"plusAssist":    " + assist %s",
			"reroll":        "reroll",
			"rerolls":       "rerolls",
			"turnWaits":     "Enemy turn %s waits for %s\n",
			"attack":        "%s's fight against %s %s",
			"session":       "Session    %s\n",
			"promptHello":   "tablecam session %s. Type help for commands, state for the game, quit to leave.\n",
			"promptMore":    "state / history (the last events with the numbers correct takes) / help / quit",
			"undone":        "  (undone)",
			"line":          "line %d: %s\n",
			"lineEvent":     "line %d: %s: %s\n",
			"lineSkipped":   "line %d: %s; skipped\n",
			"announceErr":   "announce: %s\n",
			"lostEvents":    "%d of %d events could not be stored (first at line %d, last at line %d; see above): they are not in the session",
			"events1":       "1 event",
			"eventsN":       "%d events",
			"frames1":       "1 frame",
			"framesN":       "%d frames",
			"noSuchSession": "no session %s in %s: tablecam sessions lists them",
			"sessionClosed": "session %s is closed: it keeps its events (tablecam state --session %[1]s, tablecam sessions --export %[1]s FILE) but takes no new ones; tablecam play --new starts another",
			"noOpenSession": "no open session in %s: start one with `tablecam play --manual` (or play with the camera); `tablecam sessions` lists the closed ones",
			"noStore":       "no sessions yet (no %s): start one with `tablecam play --manual` (or play with the camera)",
			"noSessions":    "no sessions yet in %s: tablecam play starts one\n",
			"listHeader":    "ID\tNAME\tSTATE\tEVENTS\tLAST USED\n",
			"open":          "open",
			"closed":        "closed",
			"renamed":       "session %s is now named %q\n",
			"closedAlready": "session %s was closed already (%s)\n",
			"closedNow":     "session %s is closed (%s): its events stay and replay; it takes no new ones\n",
			"deleteAsk":     "--delete %s would delete session %[1]s (%q, %s, last used %s) and its roll-proof frames for good; add --yes to delete it",
			"deleted":       "session %s deleted: %s and %s\n",
			"cmd.setup":     "start a game",
			"cmd.test":      "the next roll is a test",
			"cmd.fight":     "the next roll is a fight (ENEMY: map id like e3, its name, its token or level like L2, a type)",
			"cmd.roll":      "dice observed, e.g. roll 2h head arms",
			"cmd.reroll":    "some dice of the pending roll rerolled",
			"cmd.done":      "accept the pending roll",
			"cmd.nocontext": "the next roll has no context",
			"cmd.card":      "an activation card is shown: the enemy turn",
			"cmd.round":     "end of round: the next round starts",
			"cmd.first":     "pass first player (and the activation deck)",
			"cmd.goal":      "a goal is completed",
			"cmd.win":       "the scenario's Victory condition is met",
			"cmd.power":     "a quest reward advances a faction",
			"cmd.retreat":   "the power token retreats N spaces",
			"cmd.hp":        "heal or damage a survivor",
			"cmd.rads":      "rads gained or lost",
			"cmd.xp":        "experience",
			"cmd.caps":      "caps",
			"cmd.camps":     "C.A.M.P. tokens gained or placed",
			"cmd.set":       "a survivor setting",
			"cmd.setpower":  "put the power token on a space (1 = top)",
			"cmd.setgoals":  "set the number of completed goals",
			"cmd.enemy":     "enemies on the map",
			"cmd.enemies":   "set how many enemies of a type are on the map",
			"cmd.correct":   "replace an earlier reading (later effects recomputed)",
			"cmd.undo":      "take back the last event",
			"cmd.redo":      "restore the last undone event",
		},
		"de": {
			"noGame":        "Noch kein Spiel aufgebaut.\n",
			"scenario":      "Szenario   %s (loyal: %s, verfeindet: %s)\n",
			"won":           "  SPIEL GEWONNEN",
			"lost":          "  SPIEL VERLOREN",
			"round":         "Runde      %d, Startspieler %s%s\n",
			"power":         "Macht      [%s] Feld %d von %d\n",
			"goals":         "Aufgaben   %d von %d   C.A.M.P.-Marker %d\n",
			"deck":          "Stapel     %s, Ablage %d (%s)\n",
			"card":          "Karte",
			"cards":         "Karten",
			"survivor":      "%s %-8s TP %2d/%-2d Strahlung %2d  EP %2d  Kronkorken %2d  %s\n",
			"out":           "AUSGESCHIEDEN",
			"mutated":       "mutiert",
			"rested":        "gut ausgeruht",
			"special":       "S.P.E.C.I.A.L. %s",
			"noEnemies":     "Gegner     keine erfasst\n",
			"enemies":       "Gegner     %s\n",
			"active":        "aktiv",
			"facedown":      "verdeckt",
			"with":          " bei %s",
			"adjacent":      " neben %s",
			"pending":       "Offen      %s: %s, noch %s\n",
			"pendTest":      "Probe %s, Schwierigkeit %d",
			"pendFight":     "Kampf %s gegen %s",
			"waitRoll":      "wartet auf den Wurf",
			"rolled":        "gewürfelt: %s",
			"plusAssist":    " + Unterstützungswürfel %s",
			"reroll":        "Neuwurf",
			"rerolls":       "Neuwürfe",
			"turnWaits":     "Gegnerzug %s wartet auf %s\n",
			"attack":        "den Kampf von %s gegen %s %s",
			"session":       "Sitzung    %s\n",
			"promptHello":   "tablecam, Sitzung %s. help listet die Befehle, state zeigt das Spiel, quit beendet.\n",
			"promptMore":    "state (das Spiel) / history (die letzten Ereignisse mit den Nummern für correct) / help / quit (beenden)",
			"undone":        "  (rückgängig gemacht)",
			"line":          "Zeile %d: %s\n",
			"lineEvent":     "Zeile %d: %s: %s\n",
			"lineSkipped":   "Zeile %d: %s; übersprungen\n",
			"announceErr":   "Ansage: %s\n",
			"lostEvents":    "%d von %d Ereignissen konnten nicht gespeichert werden (zuerst in Zeile %d, zuletzt in Zeile %d; siehe oben): sie fehlen in der Sitzung",
			"events1":       "1 Ereignis",
			"eventsN":       "%d Ereignisse",
			"frames1":       "1 Bild",
			"framesN":       "%d Bilder",
			"noSuchSession": "keine Sitzung %s in %s: tablecam sessions listet sie",
			"sessionClosed": "die Sitzung %s ist geschlossen: sie behält ihre Ereignisse (tablecam state --session %[1]s, tablecam sessions --export %[1]s FILE), nimmt aber keine neuen an; tablecam play --new beginnt eine neue",
			"noOpenSession": "keine offene Sitzung in %s: beginnt eine mit `tablecam play --manual` (oder spielt mit der Kamera); `tablecam sessions` listet die geschlossenen",
			"noStore":       "noch keine Sitzungen (kein %s): beginnt eine mit `tablecam play --manual` (oder spielt mit der Kamera)",
			"noSessions":    "noch keine Sitzungen in %s: tablecam play beginnt eine\n",
			"listHeader":    "ID\tNAME\tZUSTAND\tEREIGNISSE\tZULETZT BENUTZT\n",
			"open":          "offen",
			"closed":        "geschlossen",
			"renamed":       "die Sitzung %s heißt jetzt %q\n",
			"closedAlready": "die Sitzung %s war schon geschlossen (%s)\n",
			"closedNow":     "die Sitzung %s ist geschlossen (%s): ihre Ereignisse bleiben und lassen sich nachspielen; neue nimmt sie nicht an\n",
			"deleteAsk":     "--delete %s würde die Sitzung %[1]s (%q, %s, zuletzt benutzt %s) und ihre Beweisbilder endgültig löschen; mit --yes wird sie gelöscht",
			"deleted":       "Sitzung %s gelöscht: %s und %s\n",
			"cmd.setup":     "ein Spiel beginnen",
			"cmd.test":      "der nächste Wurf ist eine Probe",
			"cmd.fight":     "der nächste Wurf ist ein Kampf (ENEMY: Kennung auf dem Plan wie e3, sein Name, sein Marker oder seine Stufe wie L2, ein Typ)",
			"cmd.roll":      "die gewürfelten Seiten, z. B. roll 2h head arms",
			"cmd.reroll":    "einige Würfel des offenen Wurfs neu geworfen",
			"cmd.done":      "den offenen Wurf annehmen (auch: fertig)",
			"cmd.nocontext": "der nächste Wurf gehört zu keiner Probe und keinem Kampf",
			"cmd.card":      "eine Aktivierungskarte wird gezeigt: der Gegnerzug",
			"cmd.round":     "Rundenende: die nächste Runde beginnt",
			"cmd.first":     "Startspieler weitergeben (mit dem Aktivierungsstapel)",
			"cmd.goal":      "eine Aufgabe ist erfüllt",
			"cmd.win":       "die Siegbedingung des Szenarios ist erfüllt",
			"cmd.power":     "eine Questbelohnung lässt eine Fraktion vorrücken",
			"cmd.retreat":   "der Machtmarker fällt N Felder zurück",
			"cmd.hp":        "einen Überlebenden heilen oder verwunden",
			"cmd.rads":      "Strahlung erhalten oder verloren",
			"cmd.xp":        "Erfahrungspunkte",
			"cmd.caps":      "Kronkorken",
			"cmd.camps":     "C.A.M.P.-Marker erhalten oder platziert",
			"cmd.set":       "eine Einstellung eines Überlebenden",
			"cmd.setpower":  "den Machtmarker auf ein Feld setzen (1 = oben)",
			"cmd.setgoals":  "die Zahl der erfüllten Aufgaben setzen",
			"cmd.enemy":     "Gegner auf dem Spielplan",
			"cmd.enemies":   "setzen, wie viele Gegner eines Typs auf dem Spielplan sind",
			"cmd.correct":   "eine frühere Ablesung ersetzen (die Folgen werden neu berechnet)",
			"cmd.undo":      "das letzte Ereignis zurücknehmen",
			"cmd.redo":      "das zuletzt zurückgenommene Ereignis wiederherstellen",
		},
	}
	for lang, texts := range commandTexts() {
		maps.Copy(all[lang], texts)
	}
	return all
}

// Count says n events or frames ("events", "frames") in the catalog's
// language, in the singular for one.
func (c *Catalog) Count(n int, what string) string {
	if n == 1 {
		return c.T(what + "1")
	}
	return c.T(what+"N", n)
}

// T formats the text key in the catalog's language (English where the
// language has none).
func (c *Catalog) T(key string, args ...any) string {
	lang := "en"
	if c != nil {
		lang = c.Lang
	}
	all := uiTexts()
	f, ok := all[lang][key]
	if !ok {
		f = all["en"][key]
	}
	return fmt.Sprintf(f, args...)
}

// errorTexts are the errors a player meets at the prompt, in English as
// the code writes them (fmt verbs: %q, %s, %d; %w is an error put in the
// same way) and in other languages (%[n]s: the n-th value, as written).
var errorTexts = []struct{ en, de string }{
	// The commands' errors (cmd/tablecam) and the command line's.
	{"1 line of %s was rejected (see above); the others were replayed",
		"1 Zeile von %[1]s wurde abgelehnt (siehe oben); die anderen wurden nachgespielt"},
	{"%d lines of %s were rejected (see above); the others were replayed",
		"%[1]s Zeilen von %[2]s wurden abgelehnt (siehe oben); die anderen wurden nachgespielt"},
	{"%w (or play a recording with --video FILE)", "%[1]s (oder spielt eine Aufnahme mit --video FILE)"},
	{"--export ID FILE: give the file to write (e.g. tablecam sessions --export game-1 game-1.events)",
		"--export ID FILE: gebt die zu schreibende Datei an (z. B. tablecam sessions --export game-1 game-1.events)"},
	{`--rename ID NAME: give the new name (e.g. tablecam sessions --rename game-1 "Friday night")`,
		`--rename ID NAME: gebt den neuen Namen an (z. B. tablecam sessions --rename game-1 "Freitagabend")`},
	{"--ids: %q is not a number or range", "--ids: %[1]s ist keine Zahl und kein Bereich"},
	{"--ids: %q is not a range like 0-47", "--ids: %[1]s ist kein Bereich wie 0-47"},
	{"--ids: range %q is too long", "--ids: der Bereich %[1]s ist zu lang"},
	{"--reader: want one of %s, got %q", "--reader: erlaubt ist eines von %[1]s, nicht %[2]s"},
	{"--size: %q is not a length like 15mm", "--size: %[1]s ist keine Länge wie 15mm"},
	{"--voice must be on or off, got %q", "--voice muss on oder off sein, nicht %[1]s"},
	{"--voice must be on, off or config, got %q", "--voice muss on, off oder config sein, nicht %[1]s"},
	{"--yes confirms --delete ID", "--yes bestätigt --delete ID"},
	{"bench setup %q: %w", "Aufbau der Messung %[1]s: %[2]s"},
	{"config rules.deck_empty: %w", "Konfiguration rules.deck_empty: %[1]s"},
	{"configuration (%s): %w", "Konfiguration (%[1]s): %[2]s"},
	{"content: %w", "Inhalt: %[1]s"},
	{"the corrected event %d was not replayed", "das korrigierte Ereignis %[1]s wurde nicht nachgespielt"},
	{"dashboard: %w (set dashboard.addr to a free address)", "Dashboard: %[1]s (setzt dashboard.addr auf eine freie Adresse)"},
	{"export %s: %w", "Export %[1]s: %[2]s"},
	{"export: %w", "Export: %[1]s"},
	{"exported what was readable of %s; the rest could not be read: %w",
		"exportiert ist, was von %[1]s lesbar war; der Rest ließ sich nicht lesen: %[2]s"},
	{"give one of --check, --export, --rename, --close and --delete at a time",
		"gebt jeweils nur eines von --check, --export, --rename, --close und --delete an"},
	{"learn dice needs --set NAME", "learn dice braucht --set NAME"},
	{"list %q: want scenarios, enemies, factions, cards, sets, games, twom, warfare or wasteland",
		"`list %[1]s`: erlaubt sind `scenarios`, `enemies`, `factions`, `cards`, `sets`, `games`, `twom`, `warfare` oder `wasteland`"},
	{"no sessions (no %s)", "keine Sitzungen (kein %[1]s)"},
	{"no sessions yet (no %s)", "noch keine Sitzungen (kein %[1]s)"},
	{`not an exported event: want {"seq":N,"event":{"type":...}}`, `kein exportiertes Ereignis: erwartet wird {"seq":N,"event":{"type":...}}`},
	{"not an exported event: %w", "kein exportiertes Ereignis: %[1]s"},
	{"open events file: %w", "Ereignisdatei öffnen: %[1]s"},
	{"play takes no arguments besides the demo's game (--demo twom), got %q",
		"play nimmt außer dem Spiel der Demo (--demo twom) keine Argumente, nicht %[1]s"},
	{"read commands after line %d: %w", "Befehle nach Zeile %[1]s lesen: %[2]s"},
	{"replay needs --events FILE", "replay braucht --events FILE"},
	{"session %s deleted, but not all its frames: %w", "Sitzung %[1]s gelöscht, aber nicht alle ihre Bilder: %[2]s"},
	{"session %s has no readable events (tablecam sessions --check lists the sessions)",
		"die Sitzung %[1]s hat keine lesbaren Ereignisse (tablecam sessions --check listet die Sitzungen)"},
	{"stickers needs -o FILE", "stickers braucht -o FILE"},
	{"taught cards: %w", "angelernte Karten: %[1]s"},
	{"taught dice set %q (%s): %w", "angelernter Würfelsatz %[1]s (%[2]s): %[3]s"},
	{"temporary store: %w", "vorläufiger Speicher: %[1]s"},
	{"the store is not whole (1 problem): tablecam sessions --export ID FILE saves what is readable of a session",
		"der Speicher ist nicht heil (1 Problem): tablecam sessions --export ID FILE rettet, was von einer Sitzung lesbar ist"},
	{"the store is not whole (%d problems): tablecam sessions --export ID FILE saves what is readable of a session",
		"der Speicher ist nicht heil (%[1]s Probleme): tablecam sessions --export ID FILE rettet, was von einer Sitzung lesbar ist"},
	{"unexpected arguments %q", "unerwartete Argumente %[1]s"},
	{"write sticker sheet: %w", "Aufkleberbogen schreiben: %[1]s"},
	// The lines learn dice and learn cards write while they teach.
	{"teaching %q (face set of the content pack): %d pictures of %d faces", "%[1]s wird angelernt (Würfelsatz des Inhalts): %[2]s Bilder von %[3]s Seiten"},
	{"teaching %q (new custom face set): %d pictures of %d faces", "%[1]s wird angelernt (neuer eigener Würfelsatz): %[2]s Bilder von %[3]s Seiten"},
	{"%d/%d %s: face %s, die of %s px at (%s, %s) (of %d die-like things, the most like the other pictures)",
		"%[1]s/%[2]s %[3]s: Seite %[4]s, Würfel von %[5]s px bei (%[6]s, %[7]s) (von %[8]s würfelartigen Dingen das den anderen Bildern ähnlichste)"},
	{"%d/%d %s: face %s, die of %s px at (%s, %s)", "%[1]s/%[2]s %[3]s: Seite %[4]s, Würfel von %[5]s px bei (%[6]s, %[7]s)"},
	{"alignment pass %d: %d of %d examples adjusted", "Ausrichtung, Durchgang %[1]s: %[2]s von %[3]s Beispielen angepasst"},
	{"self-check: %d of %d examples read right (%s%), %d uncertain",
		"Selbstprüfung: %[1]s von %[2]s Beispielen richtig gelesen (%[3]s %%), %[4]s unsicher"},
	{"  %s %d/%d  closest: %s (margin %s)", "  %[1]s %[2]s/%[3]s  am ähnlichsten: %[4]s (Abstand %[5]s)"},
	{"%s: %s: skipped: %w", "%[1]s: %[2]s: übersprungen: %[3]s"},
	{"%s: skipped: %w", "%[1]s: übersprungen: %[2]s"},
	{"%s: skipped %w", "%[1]s: übersprungen: %[2]s"},
	{"skipped %w", "übersprungen: %[1]s"},
	{"%s: no pictures (want %s)", "%[1]s: keine Bilder (erwartet: %[2]s)"},
	{"%s: none of %d pictures could be used", "%[1]s: keines der %[2]s Bilder war brauchbar"},
	{"%s: taught from %d of %d pictures", "%[1]s: angelernt aus %[2]s von %[3]s Bildern"},
	{"%d/%d %s: %w", "%[1]s/%[2]s %[3]s: %[4]s"},
	{"no die found", "kein Würfel gefunden"},
	{"no card outline found (show the card whole, against the table)", "kein Kartenumriss gefunden (zeigt die ganze Karte vor dem Tisch)"},
	{"picture of %d×%d pixels is too small", "das Bild mit %[1]s×%[2]s Pixeln ist zu klein"},
	{"not a readable colour image", "kein lesbares Farbbild"},
	{"%q is not a usable card id", "%[1]s ist keine brauchbare Karten-ID"},
	{"id longer than 64 characters", "ID länger als 64 Zeichen"},
	{"id with spaces, quotes or slashes", "ID mit Leerzeichen, Anführungszeichen oder Schrägstrichen"},
	{"dice set %q is neither in the content pack nor taught (teach it with: tablecam learn dice --set %s DIR)",
		"der Würfelsatz %[1]s ist weder im Inhalt noch angelernt (lernt ihn an mit: tablecam learn dice --set %[2]s DIR)"},
	{"taught dice set %q: %w (teach it again with: tablecam learn dice --set %s DIR)",
		"angelernter Würfelsatz %[1]s: %[2]s (lernt ihn neu an mit: tablecam learn dice --set %[3]s DIR)"},
	{"built-in dice profile %q: %w", "eingebautes Würfelprofil %[1]s: %[2]s"},
	{"vision: teach dice %q: %s: face %q is not one of %s", "Würfel anlernen, %[1]s: %[2]s: die Seite %[3]s ist keine von %[4]s"},
	{"vision: teach dice %q: %s: no such face %s (faces: %s)", "Würfel anlernen, %[1]s: %[2]s: keine Seite %[3]s (Seiten: %[4]s)"},
	{"vision: teach dice %q: no die found in any picture of face %q", "Würfel anlernen, %[1]s: auf keinem Bild der Seite %[2]s wurde ein Würfel gefunden"},
	{"vision: teach dice %q: no example of face %s", "Würfel anlernen, %[1]s: kein Beispiel der Seite %[2]s"},
	{"vision: teach dice: %s has %d face directories; a die has at most %d faces",
		"Würfel anlernen: %[1]s hat %[2]s Ordner für Seiten; ein Würfel hat höchstens %[3]s Seiten"},
	{"vision: teach dice: %s has no face directories (want %s/<face-id>/*.png)",
		"Würfel anlernen: %[1]s hat keine Ordner für Seiten (erwartet: %[2]s/<Seiten-ID>/*.png)"},
	{"vision: teach dice: %s holds %d pictures; teaching reads at most %d of a face (5 are enough)",
		"Würfel anlernen: %[1]s enthält %[2]s Bilder; gelesen werden höchstens %[3]s je Seite (5 reichen)"},
	{"vision: teach dice: %s: no readable picture (reads %s files)", "Würfel anlernen: %[1]s: kein lesbares Bild (gelesen werden %[2]s-Dateien)"},
	{"vision: teach dice: background: %w", "Würfel anlernen: Hintergrund: %[1]s"},
	{"vision: teach dice: bad set name %q", "Würfel anlernen: ungültiger Name des Satzes %[1]s"},
	{"vision: teach dice: %w", "Würfel anlernen: %[1]s"},
	{"vision: teach cards: %s has %d card folders; teaching takes at most %d",
		"Karten anlernen: %[1]s hat %[2]s Kartenordner; angelernt werden höchstens %[3]s"},
	{"vision: teach cards: %s holds %d pictures; teaching reads at most %d of a card (two to five are enough)",
		"Karten anlernen: %[1]s enthält %[2]s Bilder; gelesen werden höchstens %[3]s je Karte (zwei bis fünf reichen)"},
	{"vision: teach cards: no card could be taught from %s (want one folder per card id with its photos: %s)",
		"Karten anlernen: aus %[1]s ließ sich keine Karte anlernen (erwartet: ein Ordner je Karten-ID mit ihren Fotos: %[2]s)"},
	{"vision: teach cards: %w", "Karten anlernen: %[1]s"},
	{"vision: teach card %s: no picture", "Karte %[1]s anlernen: kein Bild"},
	{"vision: teach card %s: %w", "Karte %[1]s anlernen: %[2]s"},
	{"vision: teach card: %w", "Karte anlernen: %[1]s"},
	{"loop %d/%d: %d frames, %d rolls, RSS %s MiB", "Durchlauf %[1]s/%[2]s: %[3]s Bilder, %[4]s Würfe, Speicher (RSS) %[5]s MiB"},
	{"There is no voice: %s is not installed (install it with `apt-get install espeak-ng`). Announcements go on as text.",
		"Es gibt keine Stimme: %[1]s ist nicht installiert (installiert es mit `apt-get install espeak-ng`). Die Ansagen kommen weiter als Text."},
	{"The voice stopped: %s failed. Announcements go on as text.", "Die Stimme ist verstummt: %[1]s ist gescheitert. Die Ansagen kommen weiter als Text."},
	{"There is no sound: %s found no audio output (is a sound device connected?). Announcements go on as text.",
		"Es gibt keinen Ton: %[1]s hat keine Audioausgabe gefunden (ist ein Audiogerät angeschlossen?). Die Ansagen kommen weiter als Text."},
	// Opening the camera or a folder of pictures.
	{"vision: open camera %q: %w", "Kamera %[1]s öffnen: %[2]s"},
	{"vision: reopen camera %q: %w", "Kamera %[1]s neu öffnen: %[2]s"},
	{"no such device %s, and no camera is connected (no %s): %w", "kein Gerät %[1]s, und keine Kamera ist angeschlossen (kein %[2]s): %[3]s"},
	{"no such device %s (found %s): %w", "kein Gerät %[1]s (gefunden: %[2]s): %[3]s"},
	{"%s is not a camera device: %w", "%[1]s ist keine Kamera: %[2]s"},
	{`%s: permission denied: add yourself to the "video" group (sudo usermod -aG video $USER, then log in again)`,
		`%[1]s: Zugriff verweigert: tretet der Gruppe "video" bei (sudo usermod -aG video $USER, dann neu anmelden)`},
	{`check the cable, list cameras with "ls /dev/video*", pick one with --camera-device, or run "tablecam play --demo"`,
		`prüft das Kabel, listet die Kameras mit "ls /dev/video*", wählt eine mit --camera-device, oder startet "tablecam play --demo"`},
	{"OpenCV cannot capture from it: %w", "OpenCV kann davon nicht aufnehmen: %[1]s"},
	{`check the address and that the stream is running, or run "tablecam play --demo"`,
		`prüft die Adresse und ob der Stream läuft, oder startet "tablecam play --demo"`},
	{"it may be in use by another program, or be a camera's metadata node (cameras often add two /dev/video nodes: try the next number); %w",
		"vielleicht benutzt es ein anderes Programm, oder es ist der Metadaten-Knoten einer Kamera (Kameras legen oft zwei /dev/video-Knoten an: versucht die nächste Nummer); %[1]s"},
	{"cannot ask for %dx%d at %d fps", "%[1]sx%[2]s bei %[3]s Bildern/s lassen sich nicht anfordern"},
	{"no device given: want an index such as 0 or a path such as /dev/video2", "kein Gerät angegeben: erwartet wird eine Nummer wie 0 oder ein Pfad wie /dev/video2"},
	{"device index out of range", "die Gerätenummer ist zu groß"},
	{"want an index such as 0, a path such as /dev/video2, or a stream URL", "erwartet wird eine Nummer wie 0, ein Pfad wie /dev/video2 oder die Adresse eines Streams"},
	{"vision: image folder %s: no pictures (reads %s files)", "Bilderordner %[1]s: keine Bilder (gelesen werden %[2]s-Dateien)"},
	{"vision: image folder %s: none of its %d pictures could be read (reads %s files)",
		"Bilderordner %[1]s: keines seiner %[2]s Bilder ließ sich lesen (gelesen werden %[3]s-Dateien)"},
	{"vision: image folder: %w", "Bilderordner: %[1]s"},
	{"read image: %w", "Bild lesen: %[1]s"},
	{"%s: not a readable PNG, JPEG, BMP, TIFF or WebP image", "%[1]s: kein lesbares PNG-, JPEG-, BMP-, TIFF- oder WebP-Bild"},
	{"not a readable PNG, JPEG, BMP, TIFF or WebP image", "kein lesbares PNG-, JPEG-, BMP-, TIFF- oder WebP-Bild"},
	{"preparing the built-in %s dice profile (once; a few seconds)", "das eingebaute Würfelprofil %[1]s wird vorbereitet (einmalig; einige Sekunden)"},
	{"stat %s: %w", "%[1]s: %[2]s"},
	{"is a directory", "ist ein Verzeichnis"},
	{"no such file or directory", "Datei oder Verzeichnis nicht gefunden"},
	{"permission denied", "Zugriff verweigert"},
	{"file exists", "die Datei gibt es schon"},
	{"open %s: %w", "%[1]s öffnen: %[2]s"},
	// cobra's and pflag's errors.
	{"requires at least 1 arg(s), only received %d", "braucht mindestens ein Argument, gegeben: %[1]s"},
	{"requires at least %d arg(s), only received %d", "braucht mindestens %[1]s Argumente, gegeben: %[2]s"},
	{"accepts 1 arg(s), received %d", "nimmt ein Argument, gegeben: %[1]s"},
	{"accepts %d arg(s), received %d", "nimmt %[1]s Argumente, gegeben: %[2]s"},
	{"accepts at most 1 arg(s), received %d", "nimmt höchstens ein Argument, gegeben: %[1]s"},
	{"accepts at most %d arg(s), received %d", "nimmt höchstens %[1]s Argumente, gegeben: %[2]s"},
	{"unknown flag: %s", "unbekannte Option: %[1]s"},
	{"unknown shorthand flag: %s in %s", "unbekannte Kurzoption: %[1]s in %[2]s"},
	{"flag needs an argument: %s", "die Option braucht einen Wert: %[1]s"},
	{"invalid argument %q for %q flag: %w", "ungültiger Wert %[1]s für die Option %[2]s: %[3]s"},
	{"unknown command %q for %q", "unbekannter Befehl %[1]s für %[2]s"},
	{"invalid argument %q for %q", "ungültiges Argument %[1]s für %[2]s"},
	{"strconv.ParseInt: parsing %q: invalid syntax", "keine ganze Zahl: %[1]s"},
	{"strconv.ParseBool: parsing %q: invalid syntax", "weder true noch false: %[1]s"},

	{"unknown command (type help for the list)", "unbekannter Befehl (help listet die Befehle)"},
	{"no game set up yet: start with setup (e.g. `setup commonwealth loyal railroad survivors alice bob`)",
		"noch kein Spiel aufgebaut: beginnt mit setup (z. B. `setup commonwealth loyal railroad survivors alice bob`)"},
	{"the line is not valid UTF-8 text", "die Zeile ist kein gültiger UTF-8-Text"},
	{"usage: %s", "Aufruf: %[1]s"},
	{"unexpected %q: usage: %s", "unerwartet: %[1]s; Aufruf: %[2]s"},
	{"difficulty must be %d … %d, got %d", "die Schwierigkeit muss %[1]s … %[2]s sein, nicht %[3]s"},
	{"rerolls must be %d … %d, got %d", "die Zahl der Neuwürfe muss %[1]s … %[2]s sein, nicht %[3]s"},
	{"the enemy count must be %d … %d, got %d", "die Zahl der Gegner muss %[1]s … %[2]s sein, nicht %[3]s"},
	{"power must be %d … %d, got %d", "die Zahl der Felder muss %[1]s … %[2]s sein, nicht %[3]s"},
	{"a change of %s must be %d … %d, got %d", "eine Änderung von %[1]s muss %[2]s … %[3]s sein, nicht %[4]s"},
	{"difficulty must be a whole number, got %q", "die Schwierigkeit muss eine ganze Zahl sein, nicht %[1]s"},
	{"rerolls must be a whole number, got %q", "die Zahl der Neuwürfe muss eine ganze Zahl sein, nicht %[1]s"},
	{"the enemy count must be a whole number, got %q", "die Zahl der Gegner muss eine ganze Zahl sein, nicht %[1]s"},
	{"power must be a whole number, got %q", "die Zahl der Felder muss eine ganze Zahl sein, nicht %[1]s"},
	{"a change of %s must be a whole number, got %q", "eine Änderung von %[1]s muss eine ganze Zahl sein, nicht %[2]s"},
	{"die must be a whole number, got %q", "die Würfelnummer muss eine ganze Zahl sein, nicht %[1]s"},
	{"HP must be a whole number, got %q", "die TP müssen eine ganze Zahl sein, nicht %[1]s"},
	{"%s needs a value", "%[1]s braucht einen Wert"},
	{"%s must be a whole number, got %q", "%[1]s muss eine ganze Zahl sein, nicht %[2]s"},
	{"dice must be 1 … %d, got %d", "die Zahl der Würfel muss 1 … %[1]s sein, nicht %[2]s"},
	{"%s must be %d … %d, got %d", "%[1]s muss %[2]s … %[3]s sein, nicht %[4]s"},
	{"unknown survivor %q (known: %s)", "unbekannter Überlebender %[1]s (bekannt: %[2]s)"},
	{"unknown dice set %q", "unbekannter Würfelsatz %[1]s"},
	{"%s has no face %q (faces: %s)", "%[1]s hat keine Seite %[2]s (Seiten: %[3]s)"},
	{"no faces: usage: %s", "keine Würfelseiten; Aufruf: %[1]s"},
	{"no survivors: usage: %s", "keine Überlebenden; Aufruf: %[1]s"},
	{"first needs a survivor id", "first braucht die Kennung eines Überlebenden"},
	{"done: no roll is waiting", "fertig: kein Wurf ist offen"},
	{"reroll: no roll is waiting", "reroll: kein Wurf ist offen"},
	{"reroll: no rerolls left; say done to accept", "reroll: keine Neuwürfe mehr; sagt fertig, um den Wurf anzunehmen"},
	{"roll: no rerolls left; say done to accept, or correct the reading", "roll: keine Neuwürfe mehr; sagt fertig, um den Wurf anzunehmen, oder korrigiert die Ablesung"},
	{"reroll: die %d is not in the roll (1..%d)", "reroll: Würfel %[1]s gehört nicht zum Wurf (1..%[2]s)"},
	{"reroll: give die:face pairs, e.g. `reroll 2:legs`", "reroll: gebt Paare Würfel:Seite an, z. B. `reroll 2:legs`"},
	{"%q is not DIE:FACE (e.g. 2:legs)", "%[1]s ist nicht WÜRFEL:SEITE (z. B. 2:legs)"},
	{"roll: no dice", "roll: keine Würfel"},
	{"a %s roll is still waiting; say done (or undo) first", "ein Wurf (%[1]s) ist noch offen; sagt erst fertig (oder undo)"},
	{"round: a roll is still waiting; say done first", "round: ein Wurf ist noch offen; sagt erst fertig"},
	{"the game is over (%s); undo, or set up a new game", "das Spiel ist vorbei (%[1]s); undo, oder baut ein neues Spiel auf"},
	{"test: difficulty must not be negative", "test: die Schwierigkeit darf nicht negativ sein"},
	{"test: %q is not a S.P.E.C.I.A.L. letter", "test: %[1]s ist kein S.P.E.C.I.A.L.-Buchstabe"},
	{"retreat: need a positive number of spaces", "retreat: braucht eine positive Zahl von Feldern"},
	{"a change of 0 changes nothing", "eine Änderung um 0 ändert nichts"},
	{"enemy: unknown operation %q (add, remove, place)", "enemy: unbekannte Aktion %[1]s (add, remove, place)"},
	{"usage: enemy remove ENEMY", "Aufruf: enemy remove ENEMY"},
	{"enemy name %q: use 1 to %d letters or digits", "Gegnername %[1]s: 1 bis %[2]s Buchstaben oder Ziffern"},
	{"enemy name %q: use only letters and digits (1 to %d)", "Gegnername %[1]s: nur Buchstaben und Ziffern (1 bis %[2]s)"},
	{"enemy name %q looks like an enemy id; choose another name", "Gegnername %[1]s sieht aus wie eine Gegnerkennung; wählt einen anderen Namen"},
	{"enemy name %q is an enemy type, faction or token id; choose another name",
		"Gegnername %[1]s ist ein Gegnertyp, eine Fraktion oder ein Marker; wählt einen anderen Namen"},
	{"enemy name %q is taken by %s %s; names are unique on the map", "den Gegnernamen %[1]s trägt schon %[2]s %[3]s; Namen sind auf dem Spielplan eindeutig"},
	{"%q is on more than one enemy on the map: %s; give the id, or name one (enemy place ID as NAME)",
		"%[1]s passt auf mehr als einen Gegner auf dem Spielplan: %[2]s; gebt die Kennung an oder benennt einen (enemy place ID as NAME)"},
	{"SEQ must be an event number, got %q", "SEQ muss eine Ereignisnummer sein, nicht %[1]s"},
	{"correct: no roll %d in force (see the log for roll numbers)", "correct: kein gültiger Wurf %[1]s (history zeigt die Nummern)"},
	{"correct: event %d is a %s, not a roll", "correct: Ereignis %[1]s ist %[2]s, kein Wurf"},
	{"fight: no enemy %q on the map and no such token or type", "fight: kein Gegner %[1]s auf dem Spielplan und kein solcher Marker oder Typ"},
	{"unknown activation card %q (known: %s)", "unbekannte Aktivierungskarte %[1]s (bekannt: %[2]s)"},
	{"unknown scenario %q (known: %s)", "unbekanntes Szenario %[1]s (bekannt: %[2]s)"},
	{"unknown faction %q (known: %s)", "unbekannte Fraktion %[1]s (bekannt: %[2]s)"},
	{"unknown survivor %q", "unbekannter Überlebender %[1]s"},
	{"no enemy %q on the map", "kein Gegner %[1]s auf dem Spielplan"},
	{"unknown faction %q", "unbekannte Fraktion %[1]s"},
	{"unknown activation card %q", "unbekannte Aktivierungskarte %[1]s"},
	{"unknown enemy type, faction or token %q", "unbekannter Gegnertyp, unbekannte Fraktion oder unbekannter Marker %[1]s"},
	{"enemy type %q has no token %q", "der Gegnertyp %[1]s hat keinen Marker %[2]s"},
	{"unknown survivor setting %q (rested, loyal, special, armor, ranged)", "unbekannte Einstellung %[1]s (rested, loyal, special, armor, ranged)"},
	{"the game is over (%s)", "das Spiel ist vorbei (%[1]s)"},
	{"the game is already over (%s)", "das Spiel ist schon vorbei (%[1]s)"},
	{"the activation deck is empty (rules.deck_empty = stop)", "der Aktivierungsstapel ist leer (rules.deck_empty = stop)"},
	{"the group has only %d C.A.M.P. tokens", "die Gruppe hat nur %[1]s C.A.M.P.-Marker"},
	{"victory needs %d completed goals, only %d are", "der Sieg braucht %[1]s erfüllte Aufgaben, erfüllt sind nur %[2]s"},
	{"setup: unknown scenario %q (known: %s)", "setup: unbekanntes Szenario %[1]s (bekannt: %[2]s)"},
	{"setup: faction %q is not on scenario %q (choose %s or %s)", "setup: die Fraktion %[1]s gehört nicht zum Szenario %[2]s (wählt %[3]s oder %[4]s)"},
	{"setup: %d survivors; the game takes 1 to 4", "setup: %[1]s Überlebende; das Spiel nimmt 1 bis 4"},
	{"setup: survivor %q listed twice", "setup: Überlebender %[1]s doppelt genannt"},
	{"power: use retreat for negative values", "power: für negative Werte retreat verwenden"},
	{"the enemy turn of %s is not finished: it waits for %w; resolve that fight before you %w",
		"der Gegnerzug von %[1]s ist nicht zu Ende: er wartet auf %[2]s; handelt erst diesen Kampf ab, bevor ihr %[3]s"},
	{"show another activation card", "eine weitere Aktivierungskarte zeigt"},
	{"end the round", "die Runde beendet"},
	{"choose the first player", "den Startspieler wählt"},
	{"%s's fight against %s %s", "den Kampf von %[1]s gegen %[2]s %[3]s"},
	{"the enemy turn waits for %w: roll it first (`fight %s %s assist SURVIVOR` adds an assistant), or undo the card",
		"der Gegnerzug wartet auf %[1]s: würfelt ihn erst (`fight %[2]s %[3]s assist SURVIVOR` nimmt einen Unterstützer dazu), oder nehmt die Karte mit undo zurück"},
	{"no enemy turn is waiting for a fight", "kein Gegnerzug wartet auf einen Kampf"},

	// The engine's errors (engine/*.go).
	{"%d more enemies would make %d on the map, more than the %d tablecam tracks",
		"mit %[1]s weiteren Gegnern wären %[2]s auf dem Spielplan, mehr als die %[3]s, die tablecam verfolgt"},
	{"%d enemies are on the map already, the most tablecam tracks; remove one first",
		"auf dem Spielplan sind schon %[1]s Gegner, so viele, wie tablecam höchstens verfolgt; entfernt erst einen"},
	{"%s would have %d XP, more than the %d tablecam keeps", "%[1]s hätte %[2]s EP, mehr als die %[3]s, die tablecam speichert"},
	{"%s would have %d caps, more than the %d tablecam keeps", "%[1]s hätte %[2]s Kronkorken, mehr als die %[3]s, die tablecam speichert"},
	{"%s has only %d caps", "%[1]s hat nur %[2]s Kronkorken"},
	{"the group would have %d C.A.M.P. tokens, more than the %d tablecam keeps",
		"die Gruppe hätte %[1]s C.A.M.P.-Marker, mehr als die %[2]s, die tablecam speichert"},
	{"unknown survivor value %q (hp, rads, xp, caps)", "unbekannter Wert %[1]s eines Überlebenden (hp, rads, xp, caps)"},
	{"armor must be a whole number >= 0, got %q", "die Rüstung muss eine ganze Zahl ab 0 sein, nicht %[1]s"},
	{"power space %d out of range 1..%d", "das Machtfeld %[1]s liegt nicht in 1..%[2]s"},
	{"token %q: %w", "Marker %[1]s: %[2]s"},
	{"%s is on the map; draw is for tokens drawn from the supply",
		"%[1]s ist auf dem Spielplan; draw ist für Marker, die aus dem Vorrat gezogen werden"},
	{"enemy %s: unknown type %q", "Gegner %[1]s: unbekannter Typ %[2]s"},
	{"enemy %s: type %q has no token %q", "Gegner %[1]s: der Typ %[2]s hat keinen Marker %[3]s"},
	{"%s is out of the game", "%[1]s ist ausgeschieden"},
	{`the assist die needs an assisting survivor (seed 003 "Assisting")`,
		`der Unterstützungswürfel braucht einen unterstützenden Überlebenden (Regelquelle 003 "Assisting")`},
	{"unknown assistant %q", "unbekannter Unterstützer %[1]s"},
	{"%s cannot assist their own fight", "%[1]s kann im eigenen Kampf nicht unterstützen"},
	{"%s is out of the game and cannot assist", "%[1]s ist ausgeschieden und kann nicht unterstützen"},
	{"assistant %s but no assist die face", "Unterstützer %[1]s, aber keine Seite des Unterstützungswürfels"},
	{"a drawn enemy is not on the map; give its token, not %q", "ein gezogener Gegner ist nicht auf dem Spielplan; gebt seinen Marker an, nicht %[1]s"},
	{`%s is loyal to %s and may not attack its enemies (seed 000 "Loyalitaet")`,
		`%[1]s ist loyal zu %[2]s und darf deren Gegner nicht angreifen (Regelquelle 000 "Loyalitaet")`},
	{"enemy token has no level", "der Gegnermarker hat keine Stufe"},
	{"no V.A.T.S. dice", "keine V.A.T.S.-Würfel"},
	{"damage and rads must not be negative", "Schaden und Strahlung dürfen nicht negativ sein"},
	{"%d times the loyal faction's reward would pass the most XP (%d), caps (%d) or C.A.M.P. tokens (%d) tablecam keeps",
		"%[1]s-mal die Belohnung der loyalen Fraktion überschritte, was tablecam höchstens speichert: EP (%[2]s), Kronkorken (%[3]s) oder C.A.M.P.-Marker (%[4]s)"},
	{"faction %q is not in this scenario (%s or %s)", "die Fraktion %[1]s gehört nicht zu diesem Szenario (%[2]s oder %[3]s)"},
	{"first player %d out of range 0..%d", "der Startspieler %[1]s liegt nicht in 0..%[2]s"},
	{"survivor %d has no id", "Überlebender %[1]s hat keine Kennung"},
	{"survivor %q: max HP %d", "Überlebender %[1]s: ungültige höchste TP %[2]s"},
	{"test difficulty must be 0 or more, got %d", "die Schwierigkeit der Probe muss 0 oder mehr sein, nicht %[1]s"},
	{"enemy token %q has level %d; need 1 or more", "der Gegnermarker %[1]s hat Stufe %[2]s; nötig ist 1 oder mehr"},
	{"enemy token %q has negative armor %d", "der Gegnermarker %[1]s hat negative Rüstung %[2]s"},
	{"survivor armor must be 0 or more, got %d", "die Rüstung des Überlebenden muss 0 oder mehr sein, nicht %[1]s"},
	{"ranged bonus must be 0 or more, got %d", "der Fernkampfbonus muss 0 oder mehr sein, nicht %[1]s"},
	{"unknown enemy_armor rule %q (want %q or %q)", "unbekannte Regel enemy_armor %[1]s (erlaubt: %[2]s oder %[3]s)"},
	{"unknown radiated rule %q (want %q or %q)", "unbekannte Regel radiated %[1]s (erlaubt: %[2]s oder %[3]s)"},
	{"unknown assist_hits rule %q (want %q or %q)", "unbekannte Regel assist_hits %[1]s (erlaubt: %[2]s oder %[3]s)"},
	{"no goal given", "kein Ziel angegeben"},
	{"assist face set and assist face must be given together", "Würfelsatz und Seite des Unterstützungswürfels gehören zusammen angegeben"},
	{"die %d shows face %q, which face set %q does not have", "Würfel %[1]s zeigt die Seite %[2]s, die der Würfelsatz %[3]s nicht hat"},
	{"assist die shows face %q, which face set %q does not have", "der Unterstützungswürfel zeigt die Seite %[1]s, die der Würfelsatz %[2]s nicht hat"},
	{"%d dice of %d faces are too many combinations (%s)", "%[1]s Würfel mit je %[2]s Seiten ergeben zu viele Kombinationen (%[3]s)"},
	{"dice face set %q has no faces", "der Würfelsatz %[1]s hat keine Seiten"},
	{"assist face set %q has no faces", "der Würfelsatz %[1]s des Unterstützungswürfels hat keine Seiten"},
	{"dice face set %q is numeric; odds need a symbol face set (hits, regions)",
		"der Würfelsatz %[1]s zeigt Zahlen; Chancen brauchen einen Satz mit Symbolen (Treffer, Körperteile)"},
	{"assist face set %q is numeric; odds need a symbol face set (hits, regions)",
		"der Würfelsatz %[1]s des Unterstützungswürfels zeigt Zahlen; Chancen brauchen einen Satz mit Symbolen (Treffer, Körperteile)"},
	{"dice face set %q: face %q has negative hits or hurt icons", "der Würfelsatz %[1]s: die Seite %[2]s hat negative Treffer- oder Schadenssymbole"},
	{"assist face set %q: face %q has negative hits or hurt icons",
		"der Würfelsatz %[1]s des Unterstützungswürfels: die Seite %[2]s hat negative Treffer- oder Schadenssymbole"},
	{"%s face set %q has no faces", "der Würfelsatz %[2]s (%[1]s) hat keine Seiten"},
	{"%s face set %q is numeric; odds need a symbol face set (hits, regions)",
		"der Würfelsatz %[2]s (%[1]s) zeigt Zahlen; Chancen brauchen einen Satz mit Symbolen (Treffer, Körperteile)"},
	{"%s face set %q: face %q has negative hits or hurt icons", "der Würfelsatz %[2]s (%[1]s): die Seite %[3]s hat negative Treffer- oder Schadenssymbole"},
	{"need 1 to %d dice, got %d", "nötig sind 1 bis %[1]s Würfel, nicht %[2]s"},
	{"rerolls must be 0 to %d, got %d", "die Zahl der Neuwürfe muss 0 bis %[1]s sein, nicht %[2]s"},

	// The tracker's errors.
	{"survivor %q has no id: want ID[:HP[:SPECIAL]]", "Überlebender %[1]s hat keine Kennung: erwartet wird ID[:HP[:SPECIAL]]"},
	{"survivor %s: HP must be 1..99, got %q", "Überlebender %[1]s: die TP müssen 1..99 sein, nicht %[2]s"},
	{"survivor %q: want ID[:HP[:SPECIAL]]", "Überlebender %[1]s: erwartet wird ID[:HP[:SPECIAL]]"},
	{"first player %q is not a survivor", "der Startspieler %[1]s ist kein Überlebender"},
	{`only one survivor may assist a fight (seed 003 "Assisting"): %s already assists, not also %s`,
		`nur ein Überlebender darf in einem Kampf unterstützen (Regelquelle 003 "Assisting"): %[1]s unterstützt schon, nicht auch %[2]s`},
	{"%d dice is more than tablecam tracks in one roll (12)", "%[1]s Würfel sind mehr, als tablecam in einem Wurf verfolgt (12)"},
	{"die %q: want 0 (assist) to 12", "Würfel %[1]s: erwartet wird 0 (Unterstützungswürfel) bis 12"},
	{"%s is a command of %s; this session plays %s", "%[1]s ist ein Befehl von %[2]s; diese Sitzung spielt %[3]s"},
	{"no setup data", "keine Daten zum Aufbau"},
	{"unknown event type %q", "unbekannte Ereignisart %[1]s"},
	{"unknown roll context %q (test, fight)", "unbekannter Zusammenhang %[1]s des Wurfs (test, fight)"},
	{"uncertain die %d is not in the roll", "der unsichere Würfel %[1]s gehört nicht zum Wurf"},
	{"roll: the assist die needs an assisting survivor: fight SURVIVOR ENEMY assist OTHER",
		"roll: der Unterstützungswürfel braucht einen unterstützenden Überlebenden: fight SURVIVOR ENEMY assist OTHER"},
	{"%s assists, so the roll needs the assist die (e.g. `roll head arms 2h assist hit`)",
		"%[1]s unterstützt, also braucht der Wurf den Unterstützungswürfel (z. B. `roll head arms 2h assist hit`)"},
	{"pending roll without context", "offener Wurf ohne Zusammenhang"},
	{"%s: the content has no %q face set for the camera to read; give the reading: usage: %s",
		"%[1]s: der Inhalt hat keinen Würfelsatz %[2]s, den die Kamera lesen könnte; gebt die Ablesung an; Aufruf: %[3]s"},
	{"unknown command %q", "unbekannter Befehl %[1]s"},
	{"%s reads %d %s, the roll has %d", "%[1]s liest %[2]s Würfel, der Wurf hat %[4]s"},
	{"unknown game %q", "unbekanntes Spiel %[1]s"},
	{"reroll %d changed %d dice; give %d faces", "der Neuwurf %[1]s hat %[2]s Würfel geändert; gebt %[3]s Seiten an"},
	{"internal error applying %s: %s", "interner Fehler beim Anwenden von %[1]s: %[2]s"},
	{"%w: %d bytes, at most %d", "%[1]s: %[2]s Bytes, höchstens %[3]s"},
	{"line too long", "Zeile zu lang"},
	{"%s given twice: usage: %s", "%[1]s doppelt angegeben; Aufruf: %[2]s"},
	{"%s needs a value: usage: %s", "%[1]s braucht einen Wert; Aufruf: %[2]s"},
	{"%s is missing: usage: %s", "%[1]s fehlt; Aufruf: %[2]s"},
	{"give all %d readings, or none for the camera to read: usage: %s",
		"gebt alle %[1]s Ablesungen an, oder keine, dann liest die Kamera; Aufruf: %[2]s"},
	{"%s must be %s, got %q", "%[1]s muss %[2]s sein, nicht %[3]s"},
	{"a d10 reads 0 to 10 (0 is 10), got %q", "ein W10 zeigt 0 bis 10 (0 ist 10), nicht %[1]s"},
	{"%s reads no die", "%[1]s liest keinen Würfel"},
	{"%s reads %d %s; give %d", "%[1]s liest %[2]s Würfel; gebt %[4]s an"},
	{"%s: reading %d is missing", "%[1]s: die Ablesung %[2]s fehlt"},
	{"rerolls must be 0 … %d, got %d", "die Zahl der Neuwürfe muss 0 … %[1]s sein, nicht %[2]s"},
	{"the event could not be stored: %w", "das Ereignis konnte nicht gespeichert werden: %[1]s"},
	{"the event could not be stored", "das Ereignis konnte nicht gespeichert werden"},
	{"%s: the event does not survive storage unchanged (invalid text?)", "%[1]s: das Ereignis übersteht das Speichern nicht unverändert (ungültiger Text?)"},
	{"event %d stored but failed on apply: %w", "Ereignis %[1]s gespeichert, aber beim Anwenden gescheitert: %[2]s"},
	{"find open session: %w", "offene Sitzung suchen: %[1]s"},
	{"create session: %w", "Sitzung anlegen: %[1]s"},
	{"load session %s: %w", "Sitzung %[1]s laden: %[2]s"},
	{"session %s, event %d: %w", "Sitzung %[1]s, Ereignis %[2]s: %[3]s"},
	{"in use by %s: one tablecam writes to a data directory at a time (stop it, or use another data directory); tablecam state and tablecam sessions still work while it runs",
		"in Benutzung durch %[1]s: nur ein tablecam schreibt jeweils in ein Datenverzeichnis (beendet es oder nehmt ein anderes Datenverzeichnis); tablecam state und tablecam sessions gehen auch, während es läuft"},
	{"the session is closed: its events stay and can be replayed, but it takes no new ones",
		"die Sitzung ist geschlossen: ihre Ereignisse bleiben und lassen sich nachspielen, neue nimmt sie aber nicht an"},
	{"unknown session", "unbekannte Sitzung"},
	{"%s:%d: %w", "%[1]s:%[2]s: %[3]s"},
	{"read %s after line %d: %w", "%[1]s nach Zeile %[2]s lesen: %[3]s"},

	{"correct: %w", "correct: %[1]s"},
	{"%s: %w", "%[1]s: %[2]s"},
}

// errorPattern is an errorTexts entry made ready to match.
type errorPattern struct {
	re      *regexp.Regexp
	wrapped []bool // which values are errors to put in the same way
	de      string
}

func errorPatterns() []errorPattern {
	verb := regexp.MustCompile(`%[qsdw]`)
	var out []errorPattern
	for _, e := range errorTexts {
		var wrapped []bool
		var re strings.Builder
		re.WriteString("^")
		last := 0
		for _, m := range verb.FindAllStringIndex(e.en, -1) {
			re.WriteString(regexp.QuoteMeta(e.en[last:m[0]]))
			switch e.en[m[0]+1] {
			case 'q':
				re.WriteString(`("(?:[^"\\]|\\.)*")`)
			case 'd':
				re.WriteString(`(-?\d+)`)
			case 'w':
				re.WriteString(`(.+)`)
			default:
				// A value holds no ": ", which joins a wrapped error
				// to its context.
				re.WriteString(`((?:[^:]|:[^ ])+?)`)
			}
			wrapped = append(wrapped, e.en[m[0]+1] == 'w')
			last = m[1]
		}
		re.WriteString(regexp.QuoteMeta(e.en[last:]) + "$")
		out = append(out, errorPattern{re: regexp.MustCompile(re.String()), wrapped: wrapped, de: e.de})
	}
	return out
}

// Error says err in the catalog's language: the errors of errorTexts
// translated (wrapped ones too), any other as the code wrote it.
func (c *Catalog) Error(err error) string {
	if err == nil {
		return ""
	}
	if c == nil || c.Lang != "de" {
		return err.Error()
	}
	return translateError(c.errs, err.Error(), 0)
}

func translateError(ps []errorPattern, msg string, depth int) string {
	if depth > 4 {
		return msg
	}
	for _, p := range ps {
		m := p.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for i, v := range m[1:] {
			if p.wrapped[i] {
				v = translateError(ps, v, depth+1)
			}
			args[i] = v
		}
		return fmt.Sprintf(p.de, args...)
	}
	return msg
}
