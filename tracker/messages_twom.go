package tracker

// Sentences of This War of Mine: The Board Game, for the outcome kinds of
// engine/twom and the tracker's KindTwom kinds.

func twomStepTexts() map[string]map[string]string {
	return map[string]map[string]string{
		"en": {
			"morning.event":        "Morning: read the top event card.",
			"day.action1":          "Day, first action: each character may act.",
			"day.action2":          "Day, second action: each character may act.",
			"day.action3":          "Day, third action: each character may act.",
			"dusk.thirst":          "Dusk, thirst: each character drinks water, or rolls the black die.",
			"dusk.hunger":          "Dusk, hunger: each character eats, or its hunger rises by 1.",
			"evening.tasks":        "Evening: put each character in a bed, on the floor, on guard or out scavenging.",
			"scavenging.location":  "Scavenging: choose the location.",
			"scavenging.equipment": "Scavenging: choose the equipment the scavengers take.",
			"scavenging.noise":     "Scavenging: the noise marker goes to 1.",
			"scavenging.explore":   "Scavenging: explore, one card after the other.",
			"scavenging.items":     "Scavenging: choose what to carry home; the inventory slots limit the weight.",
			"raid.arm":             "Night raid: arm the guards, one weapon each.",
			"raid.card":            "Night raid: draw the night raid card; the guards roll their combat dice.",
			"raid.crime":           "Night raid: the outbreak of crime; shuffle in the set-aside red-corner cards, two in all.",
			"dawn.return":          "Dawn: the scavengers return with what they carry.",
			"dawn.medicine":        "Dawn: give medicine and bandages to the sick and wounded.",
			"dawn.fate":            "Dawn: draw a fate card and resolve it.",
			"dawn.narrative":       "Dawn: draw two narrative cards and keep one.",
			"dawn.alcohol":         "Dawn: who drinks alcohol?",
			"dawn.death":           `Dawn: death walks among us{{if .needed}}: someone died or left today, roll the black die.{{else}}; nobody died or left today.{{end}}`,
			"dawn.save":            "Dawn: save the game (script {{.script}}); tablecam keeps this session, and play resumes it.",
		},
		"de": {
			"morning.event":        "Morgen: lest die oberste Ereigniskarte vor.",
			"day.action1":          "Tag, erste Aktion: jeder Charakter darf handeln.",
			"day.action2":          "Tag, zweite Aktion: jeder Charakter darf handeln.",
			"day.action3":          "Tag, dritte Aktion: jeder Charakter darf handeln.",
			"dusk.thirst":          "Sonnenuntergang, Durst: jeder Charakter trinkt Wasser oder wirft den schwarzen Würfel.",
			"dusk.hunger":          "Sonnenuntergang, Hunger: jeder Charakter isst, sonst steigt sein Hunger um 1.",
			"evening.tasks":        "Abend: teilt jeden Charakter ein: Bett, Boden, Wache oder Plündern.",
			"scavenging.location":  "Plündern: wählt den Ort.",
			"scavenging.equipment": "Plündern: wählt die Ausrüstung des Plündertrupps.",
			"scavenging.noise":     "Plündern: der Lärmanzeiger steht auf 1.",
			"scavenging.explore":   "Plündern: erkundet, eine Karte nach der anderen.",
			"scavenging.items":     "Plündern: wählt, was ihr heimtragt; die Inventarplätze begrenzen das Gewicht.",
			"raid.arm":             "Nächtlicher Überfall: bewaffnet die Wachen, jede mit einer Waffe.",
			"raid.card":            "Nächtlicher Überfall: zieht die Überfallkarte; die Wachen werfen ihre Kampfwürfel.",
			"raid.crime":           "Nächtlicher Überfall: Ausbruch von Kriminalität; mischt zwei der beiseitegelegten Karten mit roter Ecke ein.",
			"dawn.return":          "Sonnenaufgang: der Plündertrupp kehrt mit seinen Sachen zurück.",
			"dawn.medicine":        "Sonnenaufgang: teilt Medikamente und Bandagen an Kranke und Verletzte zu.",
			"dawn.fate":            "Sonnenaufgang: zieht eine Schicksalskarte und handelt sie ab.",
			"dawn.narrative":       "Sonnenaufgang: zieht zwei Erzählaktionskarten und behaltet eine.",
			"dawn.alcohol":         "Sonnenaufgang: wer trinkt Alkohol?",
			"dawn.death":           `Sonnenaufgang: der Tod wandelt unter uns{{if .needed}}: heute ist jemand gestorben oder gegangen, werft den schwarzen Würfel.{{else}}; heute ist niemand gestorben oder gegangen.{{end}}`,
			"dawn.save":            "Sonnenaufgang: sichert den Spielstand (Skript {{.script}}); tablecam behält diese Sitzung, play setzt sie fort.",
		},
	}
}

func twomMessages() map[string]map[string]string {
	steps := twomStepTexts()
	status := map[string]map[string]string{
		"en": {"fatigue": "fatigue", "wounds": "wounds", "misery": "misery", "hunger": "hunger", "illness": "illness"},
		"de": {"fatigue": "Erschöpfung", "wounds": "Verletzung", "misery": "Traurigkeit", "hunger": "Hunger", "illness": "Krankheit"},
	}
	dieEN := map[string]string{"grey": "the grey die", "yellow": "the yellow die", "red": "the red die"}
	dieDE := map[string]string{"grey": "den grauen Würfel", "yellow": "den gelben Würfel", "red": "den roten Würfel"}
	weaponEN := map[string]string{"knife": "knife", "hatchet": "hatchet", "pistol": "pistol", "assault_rifle": "assault rifle", "shotgun": "shotgun"}
	weaponDE := map[string]string{"knife": "dem Messer", "hatchet": "dem Beil", "pistol": "der Pistole", "assault_rifle": "dem Sturmgewehr", "shotgun": "der Schrotflinte"}
	// Inside the range the dot is the die colour: pick's field is empty.
	guardDice := func(die map[string]string) string {
		return `{{range $i, $d := .dice}}{{if $i}}, {{end}}{{index $.guards $i}} ` + pick("", die) + `{{end}}`
	}
	return map[string]map[string]string{
		"en": {
			"twom.armed": `{{.character}} stands guard {{if eq .weapon "unarmed"}}unarmed{{else}}with the ` + pick("weapon", weaponEN) + `{{end}} and rolls ` + pick("die", dieEN) + `.`,
			"twom.raid_card": `Night raid: {{.damage}} damage, {{.wounds}} {{plural .wounds "wound" "wounds"}}. ` +
				`{{if .guards}}The guards roll: ` + guardDice(dieEN) + `; each symbol cancels 1 damage or wound.{{else}}Nobody stands guard.{{end}}`,
			"twom.guard_roll": `{{.character}}{{if .reroll}} rerolls{{else if eq .shot 2}}, second shot{{end}}{{if .ammo}} (discard 1 ammunition){{end}}: ` +
				`{{if .ignores}}the weapon's special face, the raid card is ignored{{else}}{{.symbols}} {{plural .symbols "symbol" "symbols"}}{{end}}` +
				`{{if .fate}}; the fate face: a miss, or draw a fate card and check its dice row{{end}}. ` +
				`{{if ne .total .symbols}}In all {{.total}}. {{end}}{{if .rerolls_left}}{{.rerolls_left}} {{plural .rerolls_left "reroll" "rerolls"}} left.{{else}}No reroll left: this roll stands.{{end}}`,
			"twom.raid_result": `{{if .ignored}}The raid card is ignored: nothing is stolen, nobody is wounded.{{else}}` +
				`The guards' dice cancel {{.symbols}}{{if .boards}}, the boards {{.boards}}{{end}}: ` +
				`{{if .stolen}}{{.stolen}} {{plural .stolen "token or resource" "tokens or resources"}} stolen from the storage{{else}}nothing stolen{{end}}, ` +
				`{{if .wounds}}{{.wounds}} wound {{plural .wounds "level" "levels"}}{{if .guards}} to spread over {{list .guards}}{{end}}{{else}}no wounds{{end}}.{{end}}`,
			"twom.carry":      `Carrying home weight {{.weight}} of {{.limit}}{{if .fits}}: it all fits.{{else}}: {{.over}} too heavy; leave behind what does not fit.{{end}}`,
			KindTwomSetup:     `New game of This War of Mine with {{list .characters}}. Player {{.seat}} of {{.players}} holds the Journal.`,
			"twom.step":       `Day {{.day}}. ` + pick("step", steps["en"]),
			"twom.journal":    `Next player: player {{.seat}} takes the Journal and leads.`,
			"twom.status":     `{{.character}}: ` + pick("status", status["en"]) + ` {{if gt .to .from}}up{{else}}down{{end}} to {{.to}}.`,
			"twom.status_max": `{{.character}} reaches ` + pick("status", status["en"]) + ` 4: apply the level-4 marker's consequence.`,
			"twom.noise":      `Noise level {{.noise}}.`,
			"twom.noise_test": `Noise test, {{.roll}} against noise {{.noise}}{{if .encounter}}: an encounter!{{else}}: nobody heard you.{{end}}`,
			"twom.encounter":  `Draw the top encounter card and resolve it; then scavenging goes on.`,
			"twom.script":     `Resolve script {{.script}}.`,
			"twom.lockpick":   `Lockpick, roll {{.roll}}{{if .opens}}: the door opens; discard the lockpick and resolve the card's back.{{else}}: nothing happens.{{end}}`,
			"twom.empathy_test": `Empathy test{{if eq .reason "death"}} for death walks among us{{end}}, roll {{.roll}}: ` +
				`{{if .affected}}{{list .affected}} {{plural (len .affected) "feels" "feel"}} it{{else}}nobody is moved{{end}}.`,
			"twom.gone":       `{{.character}} is no longer with the group.`,
			KindTwomJoined:    `{{.character}} joins the group.`,
			KindTwomStrike:    `{{if .kills}}A kill outright!{{if not .enemy}} Unless it was a thug, the empathy test: roll the black die for those present.{{end}}{{else if .out_of_ammo}}Out of ammo: move the enemy's marker to its other weapon, or unarmed.{{else}}{{.wounds}} {{plural .wounds "wound" "wounds"}}{{if .enemy}} from the enemy{{else if .wounds}}: each moves an enemy's marker one column right on the combat table{{end}}{{if .fate}}; the fate face: take a miss, or draw a fate card and check its dice row{{end}}.{{end}}`,
			KindTwomUnchanged: `Nothing changes.`,
		},
		"de": {
			"twom.armed": `{{.character}} steht Wache {{if eq .weapon "unarmed"}}unbewaffnet{{else}}mit ` + pick("weapon", weaponDE) + `{{end}} und wirft ` + pick("die", dieDE) + `.`,
			"twom.raid_card": `Nächtlicher Überfall: {{.damage}} Schaden, {{.wounds}} {{plural .wounds "Verletzung" "Verletzungen"}}. ` +
				`{{if .guards}}Die Wachen würfeln: ` + guardDice(dieDE) + `; jedes Symbol hebt 1 Schaden oder Verletzung auf.{{else}}Niemand steht Wache.{{end}}`,
			"twom.guard_roll": `{{.character}}{{if .reroll}} würfelt neu{{else if eq .shot 2}}, zweiter Schuss{{end}}{{if .ammo}} (legt 1 Munition ab){{end}}: ` +
				`{{if .ignores}}die Sonderseite der Waffe, die Überfallkarte wird ignoriert{{else}}{{.symbols}} {{plural .symbols "Symbol" "Symbole"}}{{end}}` +
				`{{if .fate}}; die Schicksalsseite: ein Fehlschlag, oder zieht eine Schicksalskarte und prüft ihre Würfelreihe{{end}}. ` +
				`{{if ne .total .symbols}}Insgesamt {{.total}}. {{end}}{{if .rerolls_left}}Noch {{.rerolls_left}} {{plural .rerolls_left "Wiederholungswurf" "Wiederholungswürfe"}}.{{else}}Kein Wiederholungswurf mehr: dieser Wurf gilt.{{end}}`,
			"twom.raid_result": `{{if .ignored}}Die Überfallkarte wird ignoriert: nichts wird gestohlen, niemand verletzt.{{else}}` +
				`Die Würfel der Wachen heben {{.symbols}} auf{{if .boards}}, die Bretter {{.boards}}{{end}}: ` +
				`{{if .stolen}}{{.stolen}} {{plural .stolen "Marker oder Ressource" "Marker oder Ressourcen"}} aus dem Lager gestohlen{{else}}nichts gestohlen{{end}}, ` +
				`{{if .wounds}}{{.wounds}} {{plural .wounds "Verletzungsstufe" "Verletzungsstufen"}}{{if .guards}}, verteilt auf {{list .guards}}{{end}}{{else}}keine Verletzungen{{end}}.{{end}}`,
			"twom.carry":      `Heimtragen: Gewicht {{.weight}} von {{.limit}}{{if .fits}}: alles passt.{{else}}: {{.over}} zu schwer; lasst zurück, was nicht passt.{{end}}`,
			KindTwomSetup:     `Neues Spiel This War of Mine mit {{list .characters}}. Spieler {{.seat}} von {{.players}} hat das Tagebuch.`,
			"twom.step":       `Tag {{.day}}. ` + pick("step", steps["de"]),
			"twom.journal":    `Nächster Spieler: Spieler {{.seat}} nimmt das Tagebuch und ist Anführer.`,
			"twom.status":     `{{.character}}: ` + pick("status", status["de"]) + ` {{if gt .to .from}}steigt{{else}}sinkt{{end}} auf {{.to}}.`,
			"twom.status_max": `{{.character}} erreicht ` + pick("status", status["de"]) + ` 4: handelt die Folge des Markers der Stufe 4 ab.`,
			"twom.noise":      `Lärmstufe {{.noise}}.`,
			"twom.noise_test": `Lärmprobe, {{.roll}} gegen Lärm {{.noise}}{{if .encounter}}: eine Begegnung!{{else}}: niemand hat euch gehört.{{end}}`,
			"twom.encounter":  `Zieht die oberste Begegnungskarte und handelt sie ab; danach geht das Plündern weiter.`,
			"twom.script":     `Handelt Skript {{.script}} ab.`,
			"twom.lockpick":   `Dietrich, Wurf {{.roll}}{{if .opens}}: die Tür geht auf; legt den Dietrich ab und handelt die Rückseite der Karte ab.{{else}}: nichts passiert.{{end}}`,
			"twom.empathy_test": `Empathieprobe{{if eq .reason "death"}} für „Der Tod wandelt unter uns“{{end}}, Wurf {{.roll}}: ` +
				`{{if .affected}}es trifft {{list .affected}}{{else}}niemand ist betroffen{{end}}.`,
			"twom.gone":       `{{.character}} ist nicht mehr in der Gruppe.`,
			KindTwomJoined:    `{{.character}} schließt sich der Gruppe an.`,
			KindTwomStrike:    `{{if .kills}}Sofort getötet!{{if not .enemy}} Außer bei einem Schläger die Empathieprobe: werft den schwarzen Würfel für die Anwesenden.{{end}}{{else if .out_of_ammo}}Keine Munition: setzt den Marker des Gegners auf seine andere Waffe oder unbewaffnet.{{else}}{{.wounds}} {{plural .wounds "Verletzung" "Verletzungen"}}{{if .enemy}} durch den Gegner{{else if .wounds}}: jede rückt einen Feindmarker auf der Kampftabelle eine Spalte nach rechts{{end}}{{if .fate}}; die Schicksalsseite: nehmt einen Fehlschlag, oder zieht eine Schicksalskarte und prüft ihre Würfelreihe{{end}}.{{end}}`,
			KindTwomUnchanged: `Nichts ändert sich.`,
		},
	}
}
