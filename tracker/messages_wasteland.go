package tracker

// Sentences of Fallout: Wasteland Warfare, for the tracker's KindWasteland
// kinds.

func wastelandMessages() map[string]map[string]string {
	use := map[string]map[string]string{
		"en": {"accuracy": "accuracy", "dodge": "a dodge", "toughness": "toughness", "extra": "an extra critical"},
		"de": {"accuracy": "Genauigkeit", "dodge": "Ausweichen", "toughness": "Zähigkeit", "extra": "Extra-Kritisch"},
	}
	effect := map[string]map[string]string{
		"en": {
			"accuracy":  `{{if .success}}the test succeeds now{{else}}still a failure{{end}}`,
			"dodge":     `{{if .success}}the attack still hits{{else}}the attack misses{{end}}`,
			"toughness": `{{.damage}} damage`,
			"extra":     `{{.extra_cp}} extra critical {{plural .extra_cp "point" "points"}}`,
		},
		"de": {
			"accuracy":  `{{if .success}}die Probe gelingt jetzt{{else}}weiter misslungen{{end}}`,
			"dodge":     `{{if .success}}der Angriff trifft trotzdem{{else}}der Angriff geht daneben{{end}}`,
			"toughness": `{{.damage}} Schaden`,
			"extra":     `{{.extra_cp}} {{plural .extra_cp "zusätzlicher Krit-Punkt" "zusätzliche Krit-Punkte"}}`,
		},
	}
	return map[string]map[string]string{
		"en": {
			KindWastelandSetup:   `New game of Wasteland Warfare{{if .simulator}} in the Vault-Tec Simulator, without luck tokens{{end}}. Units and luck tokens: {{list .units}}.`,
			KindWastelandSkill:   `{{.unit}}{{if .target}} attacks {{.target}}{{else}} tests{{end}} at skill {{.skill}}: {{if .x}}an X, always a failure{{else if .critical}}a critical, a success no luck changes{{else}}the die reads {{.reads}}, {{if .success}}a success{{else}}a failure{{end}}{{end}}.`,
			KindWastelandOptions: `{{if .accuracy}}{{.accuracy}} may throw luck for accuracy. {{end}}{{if .dodge}}{{.dodge}} may throw luck to dodge. {{end}}{{if .toughness}}{{.toughness}} may throw luck for toughness. {{end}}{{if .extra}}{{.extra}} may throw luck for an extra critical. {{end}}{{if not (or .accuracy .dodge .toughness .extra)}}No luck can be thrown now.{{end}}`,
			KindWastelandLuck:    `{{.unit}} throws luck for ` + pick("use", use["en"]) + `: {{if .shown}}luck, ` + pick("use", effect["en"]) + `{{else}}blank, no effect{{end}}. {{.tokens}} {{plural .tokens "token" "tokens"}} left.`,
			KindWastelandDamage:  `{{.damage}} damage to {{.target}} after armour.`,
			KindWastelandFinal:   `The roll of {{.unit}} stands: {{if .success}}a success{{else}}a failure{{end}}{{if .extra_cp}}, {{.extra_cp}} extra critical {{plural .extra_cp "point" "points"}}{{end}}.`,
			KindWastelandTokens:  `{{.unit}} has {{.tokens}} luck {{plural .tokens "token" "tokens"}}, LUC {{.luc}}.`,
		},
		"de": {
			KindWastelandSetup:   `Neues Spiel Wasteland Warfare{{if .simulator}} im Vault-Tec-Simulator, ohne Glücksmarker{{end}}. Einheiten und Glücksmarker: {{list .units}}.`,
			KindWastelandSkill:   `{{.unit}} {{if .target}}greift {{.target}} an{{else}}legt eine Probe ab{{end}}, Fertigkeit {{.skill}}: {{if .x}}ein X, immer ein Fehlschlag{{else if .critical}}ein kritischer Treffer, ein Erfolg, den kein Glück ändert{{else}}der Würfel zeigt {{.reads}}, {{if .success}}ein Erfolg{{else}}ein Fehlschlag{{end}}{{end}}.`,
			KindWastelandOptions: `{{if .accuracy}}{{.accuracy}} darf Glück für Genauigkeit werfen. {{end}}{{if .dodge}}{{.dodge}} darf Glück zum Ausweichen werfen. {{end}}{{if .toughness}}{{.toughness}} darf Glück für Zähigkeit werfen. {{end}}{{if .extra}}{{.extra}} darf Glück für Extra-Kritisch werfen. {{end}}{{if not (or .accuracy .dodge .toughness .extra)}}Jetzt kann kein Glück geworfen werden.{{end}}`,
			KindWastelandLuck:    `{{.unit}} wirft Glück für ` + pick("use", use["de"]) + `: {{if .shown}}Glück, ` + pick("use", effect["de"]) + `{{else}}leer, keine Wirkung{{end}}. Noch {{.tokens}} {{plural .tokens "Marker" "Marker"}}.`,
			KindWastelandDamage:  `{{.damage}} Schaden bei {{.target}} nach der Rüstung.`,
			KindWastelandFinal:   `Der Wurf von {{.unit}} steht: {{if .success}}ein Erfolg{{else}}ein Fehlschlag{{end}}{{if .extra_cp}}, {{.extra_cp}} {{plural .extra_cp "zusätzlicher Krit-Punkt" "zusätzliche Krit-Punkte"}}{{end}}.`,
			KindWastelandTokens:  `{{.unit}} hat {{.tokens}} {{plural .tokens "Glücksmarker" "Glücksmarker"}}, LUC {{.luc}}.`,
		},
	}
}
