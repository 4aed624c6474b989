package tracker

// Sentences of Fallout: Warfare, for the tracker's KindWarfare kinds.

func warfareMessages() map[string]map[string]string {
	light := map[string]map[string]string{
		"en": {"dawn": "dawn", "day": "day", "dusk": "dusk", "darkness": "darkness"},
		"de": {"dawn": "Morgendämmerung", "day": "Tag", "dusk": "Abenddämmerung", "darkness": "Dunkelheit"},
	}
	test := map[string]map[string]string{
		"en": {"check": "Test", "save": "Save", "mine": "Mine save", "melee": "Melee attack", "ranged": "Ranged attack"},
		"de": {"check": "Probe", "save": "Rettungswurf", "mine": "Rettungswurf gegen die Mine", "melee": "Nahkampfangriff", "ranged": "Fernkampfangriff"},
	}
	rolled := map[string]string{
		"en": `rolled {{.roll}}{{if .mod}} ({{.total}} with the modifiers){{end}} against {{.target}}`,
		"de": `gewürfelt {{.roll}}{{if .mod}} ({{.total}} mit den Modifikatoren){{end}} gegen {{.target}}`,
	}
	ten := map[string]string{
		"en": `{{if eq .roll 10}} (a 10 always fails){{end}}`,
		"de": `{{if eq .roll 10}} (eine 10 misslingt immer){{end}}`,
	}
	return map[string]map[string]string{
		"en": {
			KindWarfareSetup:       `New battle of Fallout: Warfare: {{.a}} against {{.b}}. Light: ` + pick("light", light["en"]) + `.`,
			KindWarfareTest:        pick("what", test["en"]) + `: ` + rolled["en"] + `: {{if .success}}success{{else}}failure{{end}}` + ten["en"] + `.`,
			KindWarfareAttack:      pick("what", test["en"]) + `: ` + rolled["en"] + `: {{if .success}}a hit{{if .knock_down}}, and the target is knocked down{{end}}{{else}}a miss{{end}}` + ten["en"] + `.`,
			KindWarfarePoison:      `Poison: rolled {{.roll}} against {{.target}}: {{if .success}}resisted{{else}}1 damage{{end}}.`,
			KindWarfareUnconscious: `Unconscious: rolled {{.roll}} against {{.target}}: {{if .dies}}the unit dies{{else}}it stays unconscious until healed{{end}}.`,
			KindWarfareRadiation:   `Radiation: {{if .immune}}the unit is immune.{{else}}rolled {{.roll}} against {{.target}}: {{if .unconscious}}the unit falls unconscious.{{else}}it takes some radiation and acts on.{{end}}{{end}}`,
			KindWarfareSmoke:       `Smoke: {{.roll}}, {{if .clears}}the cloud clears{{else}}the cloud stays{{end}}{{if .tracked}}; {{if .left}}smoke clouds left: {{.left}}{{else}}no smoke left{{end}}{{end}}.`,
			KindWarfareClouds:      `{{if .clouds}}Smoke clouds on the table: {{.clouds}}. In the environment phase a d10 for each: 5 or more clears it.{{else}}No smoke cloud on the table.{{end}}`,
			KindWarfareMineDamage:  `Mine damage roll {{.roll}}: {{.damage}} damage.`,
			KindWarfareHarm:        `{{if eq .condition "standing"}}{{.hp}} HP left: the unit acts on.{{else if eq .condition "unconscious"}}0 HP: the unit is unconscious; lay it face down.{{else}}Below 0 HP: the unit is dead; remove it, its points go to the opponent.{{end}}`,
			KindWarfareLight:       `Light: ` + pick("light", light["en"]) + `{{if .sum}} (2d10 = {{.sum}}){{end}}.`,
			KindWarfareTurn:        `Turn {{.turn}}. {{if .changed}}The light changes: ` + pick("light", light["en"]) + `.{{end}}`,
			KindWarfareInitiative:  `Initiative: {{.a}} {{.total_a}}, {{.b}} {{.total_b}}: {{if .reroll}}a tie, roll again.{{else}}{{.winner}} attacks{{if .by_luck}} (the tie goes to the luckier hero){{end}} and may act with two units.{{end}}`,
			KindWarfareVictory:     `Victory points: {{.a}} {{.score_a}}, {{.b}} {{.score_b}}: {{if .draw}}a draw, 10 points or less apart.{{else}}{{.winner}} wins.{{end}}`,
		},
		"de": {
			KindWarfareSetup:       `Neue Schlacht, Fallout: Warfare: {{.a}} gegen {{.b}}. Licht: ` + pick("light", light["de"]) + `.`,
			KindWarfareTest:        pick("what", test["de"]) + `: ` + rolled["de"] + `: {{if .success}}geschafft{{else}}misslungen{{end}}` + ten["de"] + `.`,
			KindWarfareAttack:      pick("what", test["de"]) + `: ` + rolled["de"] + `: {{if .success}}ein Treffer{{if .knock_down}}, und das Ziel geht zu Boden{{end}}{{else}}daneben{{end}}` + ten["de"] + `.`,
			KindWarfarePoison:      `Gift: gewürfelt {{.roll}} gegen {{.target}}: {{if .success}}widerstanden{{else}}1 Schaden{{end}}.`,
			KindWarfareUnconscious: `Bewusstlos: gewürfelt {{.roll}} gegen {{.target}}: {{if .dies}}die Einheit stirbt{{else}}sie bleibt bewusstlos, bis sie geheilt wird{{end}}.`,
			KindWarfareRadiation:   `Strahlung: {{if .immune}}die Einheit ist immun.{{else}}gewürfelt {{.roll}} gegen {{.target}}: {{if .unconscious}}die Einheit wird bewusstlos.{{else}}sie bekommt etwas Strahlung ab und handelt weiter.{{end}}{{end}}`,
			KindWarfareSmoke:       `Rauch: {{.roll}}, {{if .clears}}die Wolke verzieht sich{{else}}die Wolke bleibt{{end}}{{if .tracked}}; {{if .left}}noch {{.left}} {{plural .left "Rauchwolke" "Rauchwolken"}}{{else}}kein Rauch mehr{{end}}{{end}}.`,
			KindWarfareClouds:      `{{if .clouds}}Rauchwolken auf dem Tisch: {{.clouds}}. In der Umweltphase ein W10 für jede: ab 5 verzieht sie sich.{{else}}Keine Rauchwolke auf dem Tisch.{{end}}`,
			KindWarfareMineDamage:  `Schadenswurf der Mine {{.roll}}: {{.damage}} Schaden.`,
			KindWarfareHarm:        `{{if eq .condition "standing"}}Noch {{.hp}} {{plural .hp "Trefferpunkt" "Trefferpunkte"}}: die Einheit handelt weiter.{{else if eq .condition "unconscious"}}0 Trefferpunkte: die Einheit ist bewusstlos; legt sie hin.{{else}}Unter 0 Trefferpunkten: die Einheit ist tot; nehmt sie vom Tisch, ihre Punkte gehen an den Gegner.{{end}}`,
			KindWarfareLight:       `Licht: ` + pick("light", light["de"]) + `{{if .sum}} (2W10 = {{.sum}}){{end}}.`,
			KindWarfareTurn:        `Zug {{.turn}}. {{if .changed}}Das Licht wechselt: ` + pick("light", light["de"]) + `.{{end}}`,
			KindWarfareInitiative:  `Initiative: {{.a}} {{.total_a}}, {{.b}} {{.total_b}}: {{if .reroll}}Gleichstand, würfelt neu.{{else}}{{.winner}} greift an{{if .by_luck}} (bei Gleichstand gewinnt der Held mit mehr Glück){{end}} und darf mit zwei Einheiten handeln.{{end}}`,
			KindWarfareVictory:     `Siegpunkte: {{.a}} {{.score_a}}, {{.b}} {{.score_b}}: {{if .draw}}unentschieden, 10 Punkte oder weniger auseinander.{{else}}{{.winner}} gewinnt.{{end}}`,
		},
	}
}
