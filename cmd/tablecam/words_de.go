package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tablecam/config"
)

// helpInLanguage shows a command's help in the configured language
// (--language, TABLECAM_LANGUAGE or the config file): German texts replace
// the English ones of every command and flag before the help is shown.
func (a *app) helpInLanguage(root *cobra.Command) {
	english := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if cfg, _, err := config.Load(c.Flags(), a.cfgPath); err == nil && cfg.Language == "de" {
			germanHelp(root)
		}
		english(c, args)
	})
	// --version too: the template runs after the flags are parsed.
	cobra.AddTemplateFunc("versionLine", func(name, v string) string {
		if cfg, _, err := config.Load(root.PersistentFlags(), a.cfgPath); err == nil && cfg.Language == "de" {
			return name + " Version " + strings.NewReplacer("a build without its git commit", "ein Build ohne seinen Git-Commit",
				" with local changes", " mit lokalen Änderungen", " of ", " vom ").Replace(v)
		}
		return name + " version " + v
	})
	root.SetVersionTemplate("{{versionLine .Name .Version}}\n")
}

// germanHelp puts the German texts of helpDE into every command and flag
// under root, and the German usage template on root.
func germanHelp(root *cobra.Command) {
	de := helpDE()
	tr := func(s string) string {
		if t, ok := de[s]; ok {
			return t
		}
		if name, ok := strings.CutPrefix(s, "help for "); ok {
			return "Hilfe zu " + name
		}
		if name, ok := strings.CutPrefix(s, "version for "); ok {
			return "Version von " + name
		}
		return s
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.Short, c.Long = tr(c.Short), tr(c.Long)
		for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags(), c.InheritedFlags()} {
			fs.VisitAll(func(f *pflag.Flag) { f.Usage = tr(f.Usage) })
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	walk(root)
	cobra.AddTemplateFunc("flagsDE", func(s string) string {
		return strings.NewReplacer("(default ", "(Vorgabe ", "[flags]", "[Optionen]").Replace(s)
	})
	root.SetUsageTemplate(usageTemplateDE)
}

// usageTemplateDE is cobra's usage template in German.
const usageTemplateDE = `Aufruf:{{if .Runnable}}
  {{.UseLine | flagsDE}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [Befehl]{{end}}{{if gt (len .Aliases) 0}}

Andere Namen:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Beispiele:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Befehle:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Optionen:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces | flagsDE}}{{end}}{{if .HasAvailableInheritedFlags}}

Optionen aller Befehle:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces | flagsDE}}{{end}}{{if .HasAvailableSubCommands}}

"{{.CommandPath}} [Befehl] --help" erklärt einen Befehl.{{end}}
`

// helpDE maps the English help texts of the commands and flags to German.
func helpDE() map[string]string {
	return map[string]string{
		// Commands.
		"A table assistant for Fallout: The Board Game (co-op): reads dice and cards, tracks the game, runs the enemies": "Ein Tischassistent für Fallout: Das Brettspiel (kooperativ): liest Würfel und Karten, führt das Spiel mit, spielt die Gegner",
		"Generate the autocompletion script for the specified shell":                                                     "Erzeugt das Skript zur Befehlsvervollständigung für die angegebene Shell",
		"Help about any command": "Hilfe zu einem Befehl",
		"Measure the live pipeline on the recorded demo scene: latency, CPU share, memory": "Misst die Kamera-Verarbeitung an der aufgezeichneten Demo-Szene: Verzögerung, CPU-Anteil, Speicher",
		"Measure the live pipeline as a group runs it: the demo's table scene is written as\na 30 fps 720p MJPG video, then played at its frame rate (as a camera delivers it)\nthrough the camera pipeline into a session and the announcers. Reports the time\nfrom the frame the dice stopped in to the announcement (and to the voice engine\nstarting, with --voice), the CPU share of all cores, and the resident memory\nafter every loop. --loops N plays it N times into one session (a 30-minute session\nis about 100 loops); --unpaced processes frames as fast as possible (memory only).\nWith --vision-dice-reader learned the learned reader reads the dice (vats and\nassist taught to it with tablecam learn dice --reader learned).": "Misst die Kamera-Verarbeitung so, wie eine Gruppe sie nutzt: die Tischszene der Demo\nwird als MJPG-Video (720p, 30 Bilder/s) geschrieben und in ihrem Takt (wie von einer\nKamera) durch die Kamera-Verarbeitung in eine Sitzung und die Ansagen gespielt. Gemeldet\nwerden die Zeit vom Bild, in dem die Würfel liegen bleiben, bis zur Ansage (und, mit\n--voice, bis zum Start der Sprachausgabe), der CPU-Anteil aller Kerne und der belegte\nSpeicher nach jedem Durchlauf. --loops N spielt die Szene N-mal in eine Sitzung (eine\nhalbe Stunde sind etwa 100 Durchläufe); --unpaced verarbeitet die Bilder so schnell wie\nmöglich (nur für den Speicher).\nMit --vision-dice-reader learned liest der gelernte Leser die Würfel (vats und assist\nihm angelernt mit tablecam learn dice --reader learned).",
		"Identify the cards and tokens in pictures (ID stickers and taught cards)": "Erkennt Karten und Marker auf Bildern (ID-Aufkleber und angelernte Karten)",
		"Identify the cards in pictures: cards with an ID sticker by its marker (through\nthe marker map, see tablecam stickers), other cards against the taught cards\n(tablecam learn cards). A card that was never taught is reported as \"unknown\".\nDice (the sets of vision.dice_sets) are looked for too: an outline that is a\ndie is not reported as a card. Each picture is also searched as a whole for\ntaught cards whose outline was not found (busy tables), which takes several\ntimes longer than a live frame.": "Erkennt die Karten auf Bildern: Karten mit ID-Aufkleber an dessen Marker (über die\nMarkerzuordnung, siehe tablecam stickers), andere durch Vergleich mit den angelernten\nKarten (tablecam learn cards). Eine nie angelernte Karte wird als \"unknown\" gemeldet.\nAuch Würfel (die Sätze aus vision.dice_sets) werden gesucht: ein Umriss, der ein\nWürfel ist, wird nicht als Karte gemeldet. Jedes Bild wird außerdem als Ganzes nach\nangelernten Karten ohne gefundenen Umriss durchsucht (volle Tische); das dauert ein\nVielfaches eines Kamerabilds.",
		"Read the dice in pictures (one JSON object per picture with --json)": "Liest die Würfel auf Bildern (mit --json ein JSON-Objekt je Bild)",
		"Read the dice in pictures. --set picks the face sets to look for (default: the\nconfig's vision.dice_sets); taught sets (tablecam learn dice) are used over the\nbuilt-in ones. --background names a picture of the same table without dice, which\nmakes finding the dice more reliable. Dice read with low confidence are marked\nuncertain. A picture that cannot be read is reported and the command exits 1\nafter the others.\n\n--reader learned reads with the learned models built into the program (a die\nfinder and a face reader trained on real photos): without --set it reads d6\npips, and on real cameras it finds and reads far more pip dice than the tuned\nreader; with --set it reads the sets taught to it (tablecam learn dice\n--reader learned). --background does not apply to it.": "Liest die Würfel auf Bildern. --set wählt die gesuchten Würfelsätze (Vorgabe:\nvision.dice_sets der Konfiguration); angelernte Sätze (tablecam learn dice) gehen den\neingebauten vor. --background nennt ein Bild desselben Tisches ohne Würfel; damit werden\ndie Würfel sicherer gefunden. Unsicher gelesene Würfel werden markiert. Ein Bild, das\nsich nicht lesen lässt, wird gemeldet, und der Befehl endet nach den anderen mit 1.\n\n--reader learned liest mit den eingebauten gelernten Modellen (ein Würfelfinder\nund ein Seitenleser, trainiert an echten Fotos): ohne --set liest es die Augen von W6,\nan echten Kameras findet und liest es weit mehr Augenwürfel als der abgestimmte Leser;\nmit --set liest es die ihm angelernten Sätze (tablecam learn dice --reader learned).\n--background gilt dafür nicht.",
		"Teach tablecam your own dice and cards from example pictures":  "Bringt tablecam eure eigenen Würfel und Karten an Beispielbildern bei",
		"Teach cards from DIR/<card-id>/ photos (two to five per card)": "Lernt Karten aus Fotos in DIR/<Karten-ID>/ (zwei bis fünf je Karte)",
		"Teach cards from example photos: DIR/<card-id>/ holds photos of that card (whole\nframes showing the card, or crops). The card ids are content ids (activation-3,\nghoul-2, goal-1) or your own. Teaching replaces the taught cards stored in the\ndata directory. Cards with an ID sticker need no teaching.": "Lernt Karten aus Beispielfotos: DIR/<Karten-ID>/ enthält Fotos dieser Karte (ganze\nBilder mit der Karte oder Ausschnitte). Die Karten-IDs sind IDs des Inhalts\n(activation-3, ghoul-2, goal-1) oder eigene. Das Anlernen ersetzt die im\nDatenverzeichnis gespeicherten Karten. Karten mit ID-Aufkleber brauchen kein Anlernen.",
		"Teach a dice set from DIR/<face-id>/ pictures (5 or more per face)": "Lernt einen Würfelsatz aus Bildern in DIR/<Seiten-ID>/ (5 oder mehr je Seite)",
		"Teach a dice set from example pictures: DIR/<face-id>/ holds pictures of that face\n(whole camera frames with exactly one die of the set, or crops around it); an\noptional DIR/background.png is the table without dice. If NAME is a set of the\ncontent pack (vats, assist, d6, d10, d20) the face ids must be its faces;\notherwise a new set is created with the directories' names as face ids. The\nprofile is stored in the data directory and used from then on.\n\n--reader learned teaches the set to the learned reader instead (tablecam dice\n--reader learned --set NAME reads it): each face is remembered as the learned\nface model sees its pictures, nothing is retrained, and how well the pictures\nread back (each against the others) is printed.": "Lernt einen Würfelsatz aus Beispielbildern: DIR/<Seiten-ID>/ enthält Bilder dieser\nSeite (ganze Kamerabilder mit genau einem Würfel des Satzes oder Ausschnitte darum);\nein optionales DIR/background.png zeigt den Tisch ohne Würfel. Ist NAME ein Satz des\nInhalts (vats, assist, d6, d10, d20), müssen die Seiten-IDs seine Seiten sein; sonst\nentsteht ein neuer Satz mit den Ordnernamen als Seiten-IDs. Das Profil wird im\nDatenverzeichnis gespeichert und von da an verwendet.\n\n--reader learned lernt den Satz stattdessen dem gelernten Leser an (tablecam dice\n--reader learned --set NAME liest ihn): jede Seite wird gemerkt, wie das gelernte\nSeitenmodell ihre Bilder sieht, nichts wird neu trainiert, und wie gut sich die Bilder\nzurücklesen (jedes gegen die anderen), wird ausgegeben.",
		"The ids to type: scenarios, enemies and their tokens, factions, activation cards, dice sets, games and their words":                                                                                                                                                    "Die IDs zum Eintippen: Szenarien, Gegner und ihre Marker, Fraktionen, Aktivierungskarten, Würfelsätze, Spiele und ihre Wörter",
		"List the ids that commands and setup take, from the content pack, your content_dir\noverrides and (for sets) the dice you taught. Entries marked * hold numbers the\nsource documents leave unconfirmed: override them in content_dir when your game\nsays otherwise.": "Listet die IDs, die Befehle und setup nehmen: aus dem Inhalt, euren Ergänzungen in\ncontent_dir und (bei Würfelsätzen) den angelernten Würfeln. Mit * markierte Einträge\nenthalten Zahlen, die die Quellen nicht bestätigen: überschreibt sie in content_dir,\nwenn euer Spiel anderes sagt.",
		"Exact odds of a test or fight, and which dice to reroll":                                                                        "Genaue Chancen einer Probe oder eines Kampfs, und welche Würfel neu zu werfen sind",
		"Run a game session from the camera (--video/--images: from a recording; --manual: typed events only; --demo: the bundled demo)": "Spielt eine Sitzung mit der Kamera (--video/--images: aus einer Aufnahme; --manual: nur getippte Ereignisse; --demo: die mitgelieferte Demo)",
		"Replay an events file through the tracker and print the announcements (deterministic)":                                          "Spielt eine Ereignisdatei nach und gibt die Ansagen aus (immer dieselben)",
		"List stored sessions, the one used last first; rename, close or delete one; check the store; export a session":                  "Listet die gespeicherten Sitzungen, die zuletzt benutzte zuerst; benennt, schließt oder löscht eine; prüft den Speicher; exportiert eine Sitzung",
		"List stored sessions, the one used last first: id, name, open or closed,\nevents, last used. play resumes the open session used last.\n\n  --rename ID NAME   give a session a name (play --name names a new one)\n  --close ID         close a session: its events stay and replay, it takes no new ones\n  --delete ID --yes  delete a session and its events for good (without --yes\n                     it only says what would be deleted)\n\nA store that is not whole (damaged pages, an event changed or missing,\nacknowledged events lost with the WAL file) is refused by every command;\n--check reports what is whole and what is not, and --export ID FILE writes\nwhat is readable of session ID to FILE, which tablecam replay --events FILE\nreads back.": "Listet die gespeicherten Sitzungen, die zuletzt benutzte zuerst: ID, Name, offen oder\ngeschlossen, Ereignisse, zuletzt benutzt. play setzt die zuletzt benutzte offene\nSitzung fort.\n\n  --rename ID NAME   gibt einer Sitzung einen Namen (play --name benennt eine neue)\n  --close ID         schließt eine Sitzung: ihre Ereignisse bleiben und lassen sich\n                     nachspielen, neue nimmt sie nicht mehr an\n  --delete ID --yes  löscht eine Sitzung und ihre Ereignisse endgültig (ohne --yes\n                     sagt es nur, was gelöscht würde)\n\nEin Speicher, der nicht heil ist (beschädigte Seiten, ein geändertes oder fehlendes\nEreignis, mit der WAL-Datei verlorene bestätigte Ereignisse), wird von jedem Befehl\nabgelehnt; --check meldet, was heil ist und was nicht, und --export ID FILE schreibt,\nwas von Sitzung ID lesbar ist, in FILE, das tablecam replay --events FILE wieder liest.",
		"Show the state of the open session used last (or of --session ID)":                       "Zeigt den Stand der zuletzt benutzten offenen Sitzung (oder von --session ID)",
		"Write a printable sheet of ArUco ID stickers (PDF and PNG, A4 or Letter, print at 100%)": "Schreibt einen Druckbogen mit ArUco-ID-Aufklebern (PDF und PNG, A4 oder Letter, in 100 % drucken)",

		// Flags of every command and the settings.
		"config file (default ./config.yaml, then $XDG_CONFIG_HOME/tablecam/config.yaml)":                                                                            "Konfigurationsdatei (Vorgabe ./config.yaml, dann $XDG_CONFIG_HOME/tablecam/config.yaml)",
		"Where the sessions database and taught die/card profiles live; ~ is your home directory.":                                                                   "Wo die Sitzungsdatenbank und die angelernten Würfel und Karten liegen; ~ ist euer Home-Verzeichnis.",
		"Language of announcements and the dashboard: en or de.":                                                                                                     "Sprache der Ansagen und des Dashboards: en oder de.",
		"Log level: debug, info, warn or error.":                                                                                                                     "Protokollstufe: debug, info, warn oder error.",
		"The table area to watch, x0,y0,x1,y1 in frame pixels (\"\" = the whole frame); cutting away the players' side of the table makes reading faster and safer.": "Der beobachtete Tischbereich, x0,y0,x1,y1 in Bildpunkten (\"\" = das ganze Bild); die Spielerseite des Tisches wegzuschneiden macht das Lesen schneller und sicherer.",
		"Camera to read: a device index such as \"0\", or a device path such as /dev/video2.":                                                                        "Die Kamera: eine Gerätenummer wie \"0\" oder ein Gerätepfad wie /dev/video2.",
		"Requested frames per second.":                                        "Gewünschte Bilder pro Sekunde.",
		"Requested frame height in pixels.":                                   "Gewünschte Bildhöhe in Bildpunkten.",
		"Requested frame width in pixels; the camera picks its nearest mode.": "Gewünschte Bildbreite in Bildpunkten; die Kamera wählt ihren nächsten Modus.",
		"Directory of YAML files that override the embedded rules content (dice, enemies, cards, scenarios, rules); \"\" uses the embedded content only.": "Ordner mit YAML-Dateien, die den eingebauten Regelinhalt ergänzen oder ersetzen (Würfel, Gegner, Karten, Szenarien, Regeln); \"\" nimmt nur den eingebauten Inhalt.",
		"play the recorded scene this many times into one session":                                                                                        "spielt die aufgezeichnete Szene so oft in eine Sitzung",
		"When the activation deck runs out: reshuffle, stop, or \"\" for the rules content's default.":                                                    "Wenn der Aktivierungsstapel leer ist: reshuffle (neu mischen), stop, oder \"\" für die Vorgabe des Regelinhalts.",
		"Sessions database file; a relative path is taken inside data_dir.":                                                                               "Datei der Sitzungsdatenbank; ein relativer Pfad gilt innerhalb von data_dir.",
		"process frames as fast as possible (memory figures only)":                                                                                        "verarbeitet die Bilder so schnell wie möglich (nur Speicherwerte)",
		"write the recorded scene to this file (kept) instead of a temporary one":                                                                         "schreibt die aufgezeichnete Szene in diese Datei (bleibt erhalten) statt in eine temporäre",
		"Frames a card must be held steadily in view before it counts as shown (30 = 1 s at 30 fps).":                                                     "Bilder, die eine Karte ruhig zu sehen sein muss, bevor sie als gezeigt gilt (30 = 1 s bei 30 Bildern/s).",
		"The dice reader of play: tuned (every built-in set and the sets taught with tablecam learn dice; made for the project's renders and clean dice) or learned (the die finder and face models trained on real photos: d6 pips, and the sets taught with tablecam learn dice --reader learned). Both keep the empty table and see hands the same way.": "Der Würfelleser von play: tuned (jeder eingebaute Satz und die mit tablecam learn dice angelernten Sätze; gemacht für die Renderbilder des Projekts und saubere Würfel) oder learned (Würfelfinder und Seitenmodelle, trainiert an echten Fotos: Augen von W6 und die mit tablecam learn dice --reader learned angelernten Sätze). Beide merken sich den leeren Tisch und sehen Hände gleich.",
		"Dice sets the camera looks for, comma-separated: vats, assist, d6, d10, d20, or a set you taught (tablecam learn dice). Fewer sets read faster and confuse less.":                                                                                                                                                                                  "Würfelsätze, nach denen die Kamera sucht, durch Kommas getrennt: vats, assist, d6, d10, d20 oder ein angelernter Satz (tablecam learn dice). Weniger Sätze lesen schneller und verwechseln weniger.",
		"Marker map (ArUco id -> content id) merged over the built-in default; \"\" uses DATA_DIR/markers.yaml when it exists (see tablecam stickers).":                                                                                                                                                                                                     "Markerzuordnung (ArUco-ID -> Inhalts-ID) über der eingebauten; \"\" nimmt DATA_DIR/markers.yaml, wenn es die Datei gibt (siehe tablecam stickers).",
		"Threads of OpenCV's own parallel loops (resizing, blurring, warping whole pictures): 1 keeps each picture's work on one core, which costs the least CPU; 0 is OpenCV's default, one per core (lower latency for a single picture on an idle machine).":                                                                                             "Threads der parallelen Schleifen von OpenCV (ganze Bilder skalieren, weichzeichnen, entzerren): 1 hält die Arbeit eines Bildes auf einem Kern, was am wenigsten CPU kostet; 0 ist OpenCVs Vorgabe, einer je Kern (kürzere Wartezeit für ein einzelnes Bild auf einem sonst freien Rechner).",
		"Still frames in a row before a roll is read (2 sometimes reads while dice still move).":                                                                                                                                                                                                                                                            "Ruhige Bilder in Folge, bevor ein Wurf gelesen wird (bei 2 wird manchmal gelesen, während Würfel noch rollen).",
		"on: speak the announcements (to WAV files) and time the voice engine's start; off: do not":                                                                                                                                                                                                                                                         "on: spricht die Ansagen (in WAV-Dateien) und misst den Start der Sprachausgabe; off: nicht",
		"Speak announcements aloud (offline, with voice.engine); text output is always on.":                                                                                                                                                                                                                                                                 "Ansagen laut sprechen (offline, mit voice.engine); die Textausgabe ist immer an.",
		"Text-to-speech program, called like espeak-ng: -v VOICE -s RATE --stdin.":                                                                                                                                                                                                                                                                          "Sprachausgabe-Programm, aufgerufen wie espeak-ng: -v STIMME -s TEMPO --stdin.",
		"Speaking rate in words per minute, 80 to 450.":        "Sprechtempo in Wörtern pro Minute, 80 bis 450.",
		"Voice for German announcements (espeak-ng -v).":       "Stimme für deutsche Ansagen (espeak-ng -v).",
		"Voice for English announcements (espeak-ng -v).":      "Stimme für englische Ansagen (espeak-ng -v).",
		"one JSON object per picture and line":                 "ein JSON-Objekt je Bild und Zeile",
		"a picture of the empty table (same camera and place)": "ein Bild des leeren Tisches (dieselbe Kamera am selben Platz)",
		"the dice reader: tuned (every set, taught sets) or learned (d6 pips on real cameras, and the sets taught to it); default: vision.dice_reader": "der Würfelleser: tuned (jeder Satz, angelernte Sätze) oder learned (Augen von W6 an echten Kameras, und die ihm angelernten Sätze); Vorgabe: vision.dice_reader",
		"face sets to look for, comma-separated (default: vision.dice_sets)":                                                                           "gesuchte Würfelsätze, durch Kommas getrennt (Vorgabe: vision.dice_sets)",
		"the reader to teach: tuned or learned (default: vision.dice_reader)":                                                                          "der anzulernende Leser: tuned oder learned (Vorgabe: vision.dice_reader)",
		"the face set: vats, assist, d6, d10, d20, or a new name":                                                                                      "der Würfelsatz: vats, assist, d6, d10, d20 oder ein neuer Name",
		"fight: the survivor's armor icons":                                                                                                            "Kampf: die Rüstungssymbole des Überlebenden",
		"another game: twom, warfare or wasteland":                                                                                                     "ein anderes Spiel: twom, warfare oder wasteland",
		"twom: a noise test at this noise level":                                                                                                       "twom: eine Lärmprobe bei dieser Lärmstufe",
		"twom: an empathy test for this empathy":                                                                                                       "twom: eine Empathieprobe mit dieser Empathie",
		"twom: a combat roll with this die (grey, yellow, red) or weapon":                                                                              "twom: ein Kampfwurf mit diesem Würfel (grey, yellow, red) oder dieser Waffe",
		"twom: your combat die's faces, comma-separated (0-6 symbols, shotgun, hatchet, out_of_ammo, fate)":                                            "twom: die Seiten eures Kampfwürfels, durch Kommas getrennt (0-6 Symbole und die Sonderseiten, wie tablecam list twom sie nennt)",
		"twom: 2 for the assault rifle's two rolls":                                                                                                    "twom: 2 für die zwei Würfe des Sturmgewehrs",
		"twom: the combat roll is an enemy's":                                                                                                          "twom: der Kampfwurf ist der eines Feindes",
		"twom: the roller's strength: its rerolls (an enemy rerolls 0 wounds automatically)":                                                           "twom: die Stärke des Werfenden: seine Wiederholungswürfe (ein Feind wiederholt 0 Verletzungen von selbst)",
		"warfare: the stat the d10 rolls under":                                                                                                        "warfare: der Wert, unter den der W10 fallen muss",
		"warfare: the modifiers added to the roll":                                                                                                     "warfare: die Modifikatoren, zum Wurf addiert",
		"warfare: a melee attack at this Strength":                                                                                                     "warfare: ein Nahkampfangriff mit dieser Stärke",
		"warfare: a ranged attack at this Agility":                                                                                                     "warfare: ein Fernkampfangriff mit dieser Beweglichkeit",
		"warfare: the target's armour class":                                                                                                           "warfare: die Rüstungsklasse des Ziels",
		"warfare: a melee attack from behind":                                                                                                          "warfare: ein Nahkampfangriff von hinten",
		"warfare: a melee attack at the end of a charge":                                                                                               "warfare: ein Nahkampfangriff am Ende eines Sturmangriffs",
		"warfare: an attack at the end of a move and fire":                                                                                             "warfare: ein Angriff am Ende von Bewegung und Feuer",
		"warfare: the target is by a wall or rough ground":                                                                                             "warfare: das Ziel steht an einer Mauer oder unebenem Gelände",
		"warfare: a flying target":                                                                                                                     "warfare: ein fliegendes Ziel",
		"warfare: an area-effect weapon (no armour class)":                                                                                             "warfare: eine Flächenwaffe (ohne Rüstungsklasse)",
		"warfare: the light level (dawn, day, dusk, darkness)":                                                                                         "warfare: die Lichtstufe (dawn, day, dusk, darkness)",
		"warfare: the shooter if robot, ghoul or super_mutant":                                                                                         "warfare: der Schütze, falls robot, ghoul oder super_mutant",
		"warfare: the initiative roll":                                                                                                                 "warfare: der Initiativewurf",
		"warfare: the side that attacked last turn (a or b)":                                                                                           "warfare: die Seite, die im letzten Zug angegriffen hat (a oder b)",
		"warfare: the Luck of side a's best hero":                                                                                                      "warfare: das Glück des besten Helden von Seite a",
		"warfare: the Luck of side b's best hero":                                                                                                      "warfare: das Glück des besten Helden von Seite b",
		"warfare: a unit of this Endurance caught by a mine":                                                                                           "warfare: eine Einheit mit dieser Ausdauer in einer Minenexplosion",
		"wasteland: the skill value":                                                                                                                   "wasteland: der Fertigkeitswert",
		"wasteland: your skill die's faces, comma-separated (2-10, ap, crit, x)":                                                                       "wasteland: die Seiten eures Fertigkeitswürfels, durch Kommas getrennt (2-10, ap, crit, x)",
		"fight: add the assist die":                                                                                                                    "Kampf: mit dem Unterstützungswürfel",
		"the assist die's current face":                                                                                                                "die aktuelle Seite des Unterstützungswürfels",
		"number of dice":                                                                                                                               "Zahl der Würfel",
		"test difficulty (hits needed)":                                                                                                                "Schwierigkeit der Probe (nötige Treffer)",
		"fight: enemy token, type or faction id":                                                                                                       "Kampf: Gegnermarker, Gegnertyp oder Fraktion",
		"the current roll (comma-separated face ids): which dice to reroll now":                                                                        "der aktuelle Wurf (Seiten-IDs, durch Kommas getrennt): welche Würfel jetzt neu werfen",
		"fight: the survivor's weapon is ranged":                                                                                                       "Kampf: der Überlebende hat eine Fernkampfwaffe",
		"rerolls available":                                                                                                                            "verfügbare Neuwürfe",
		"dice set":                                                                                                                                     "Würfelsatz",
		"Address of the web dashboard, host:port. 127.0.0.1 keeps it on this machine; 0.0.0.0:8080 shows it to phones and tablets on the same network.": "Adresse des Web-Dashboards, Host:Port. 127.0.0.1 hält es auf diesem Rechner; 0.0.0.0:8080 zeigt es Handys und Tablets im selben Netz.",
		"play a bundled demo game through the camera pipeline (rendered frames): fallout (alone: --demo), twom, warfare or wasteland":                   "spielt eine mitgelieferte Demo durch die Kamera-Verarbeitung (berechnete Bilder): fallout (allein: --demo), twom, warfare oder wasteland",
		"read a folder of pictures (in name order) instead of the camera":                                                                               "liest einen Ordner mit Bildern (nach Namen geordnet) statt der Kamera",
		"announcements as JSON lines": "Ansagen als JSON-Zeilen",
		"type events at a prompt (roll 2h head arms, card activation-3, undo, help)":                               "Ereignisse an einer Eingabezeile tippen (roll 2h head arms, card activation-3, undo, help)",
		"name of the session (a new one; a resumed one is renamed)":                                                "Name der Sitzung (einer neuen; eine fortgesetzte wird umbenannt)",
		"start a new session instead of resuming the open one used last":                                           "eine neue Sitzung beginnen, statt die zuletzt benutzte offene fortzusetzen",
		"do not read typed commands from standard input while the camera runs":                                     "keine getippten Befehle von der Standardeingabe lesen, während die Kamera läuft",
		"play --video/--images at their frame rate instead of as fast as possible":                                 "--video/--images in ihrem Bildtakt abspielen statt so schnell wie möglich",
		"serve the dashboard (dashboard.addr) while playing":                                                       "das Dashboard (dashboard.addr) während des Spiels anbieten",
		"session id to resume (default: the open one used last)":                                                   "ID der fortzusetzenden Sitzung (Vorgabe: die zuletzt benutzte offene)",
		"read a recorded video file instead of the camera":                                                         "eine aufgezeichnete Videodatei statt der Kamera lesen",
		"speak announcements: on, off, or config (voice.enabled)":                                                  "Ansagen sprechen: on, off oder config (voice.enabled)",
		"write spoken announcements as WAV files into this directory instead of playing them":                      "gesprochene Ansagen als WAV-Dateien in diesen Ordner schreiben statt sie abzuspielen",
		"events file: one command per line, as at the manual prompt, or events as `sessions --export` writes them": "Ereignisdatei: ein Befehl je Zeile wie an der Eingabezeile, oder Ereignisse, wie `sessions --export` sie schreibt",
		"speak announcements: on, off, or config":                                                                  "Ansagen sprechen: on, off oder config",
		"check that the store is whole and report what is not":                                                     "prüfen, ob der Speicher heil ist, und melden, was nicht",
		"close session ID: its events stay, it takes no new ones":                                                  "Sitzung ID schließen: ihre Ereignisse bleiben, neue nimmt sie nicht an",
		"delete session ID and its events (needs --yes)":                                                           "Sitzung ID und ihre Ereignisse löschen (braucht --yes)",
		"write what is readable of session ID to FILE (the argument), an events file for replay":                   "was von Sitzung ID lesbar ist, in FILE (das Argument) schreiben, eine Ereignisdatei für replay",
		"give session ID the name NAME (the argument)":                                                             "Sitzung ID den Namen NAME (das Argument) geben",
		"confirm --delete":                             "--delete bestätigen",
		"print the state as JSON":                      "den Stand als JSON ausgeben",
		"session id (default: the open one used last)": "Sitzungs-ID (Vorgabe: die zuletzt benutzte offene)",
		"resolution of the raster (150-600)":           "Auflösung des Rasters (150-600)",
		"marker ids: 0-47 or 0-7,53-64":                "Marker-IDs: 0-47 oder 0-7,53-64",
		"marker map file merged over the default (default DATA_DIR/markers.yaml if present)": "Datei der Markerzuordnung über der eingebauten (Vorgabe DATA_DIR/markers.yaml, wenn vorhanden)",
		"output file (FILE.pdf and FILE.png are written)":                                    "Ausgabedatei (FILE.pdf und FILE.png werden geschrieben)",
		"A4 or Letter":               "A4 oder Letter",
		"marker side (mm, cm or in)": "Seitenlänge des Markers (mm, cm oder in)",
	}
}
