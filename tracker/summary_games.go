package tracker

import (
	"fmt"
	"strings"

	"tablecam/engine/twom"
	"tablecam/engine/warfare"
	"tablecam/engine/wasteland"
)

// summaryTexts are the state table's labels of the other games.
func summaryTexts() map[string]map[string]string {
	return map[string]map[string]string{
		"en": {
			"twom":      "Game       This War of Mine\nDay        %d, step %s (%s), player %d of %d holds the Journal\n",
			"twomNoise": "Noise      %d\n",
			"twomChar":  "  %-10s empathy %d  strength %d  inventory %d  task %-8s %s\n",
			"twomGone":  "gone",
			"twomRaid":  "Raid       %s; %s\n",
			"raidCard":  "card: %d damage, %d wounds",
			"raidNone":  "card not drawn",
			"raidGuard": "%s (%s): %s",
			"raidDone":  "defended",
			"warfare":   "Game       Fallout: Warfare, %s against %s\nTurn       %d, light %s\n",
			"attacker":  "Attacker   %s\n",
			"clouds":    "Smoke      clouds on the table: %d\n",
			"score":     "Score      %s %g, %s %g (%s)\n",
			"draw":      "draw",
			"wins":      "%s wins",
			"wasteland": "Game       Fallout: Wasteland Warfare%s\n",
			"simulator": " (Vault-Tec Simulator)",
			"unit":      "  %-10s LUC %d  luck tokens %d\n",
			"wlRoll":    "Open       %s, skill %d, face %s%s: %s\n",
			"wlVs":      " against %s",
			"success":   "success",
			"failure":   "failure",
			"waiting":   "Waiting    %s: the camera reads the %s\n",
		},
		"de": {
			"twom":      "Spiel      This War of Mine\nTag        %d, Schritt %s (%s), Spieler %d von %d hat das Tagebuch\n",
			"twomNoise": "Lärm       %d\n",
			"twomChar":  "  %-10s Empathie %d  Stärke %d  Inventar %d  Aufgabe %-8s %s\n",
			"twomGone":  "nicht mehr da",
			"twomRaid":  "Überfall   %s; %s\n",
			"raidCard":  "Karte: %d Schaden, %d Verletzungen",
			"raidNone":  "Karte nicht gezogen",
			"raidGuard": "%s (%s): %s",
			"raidDone":  "abgewehrt",
			"warfare":   "Spiel      Fallout: Warfare, %s gegen %s\nZug        %d, Licht %s\n",
			"attacker":  "Angreifer  %s\n",
			"clouds":    "Rauch      Wolken auf dem Tisch: %d\n",
			"score":     "Wertung    %s %g, %s %g (%s)\n",
			"draw":      "unentschieden",
			"wins":      "%s gewinnt",
			"wasteland": "Spiel      Fallout: Wasteland Warfare%s\n",
			"simulator": " (Vault-Tec-Simulator)",
			"unit":      "  %-10s LUC %d  Glücksmarker %d\n",
			"wlRoll":    "Offen      %s, Fertigkeit %d, Seite %s%s: %s\n",
			"wlVs":      " gegen %s",
			"success":   "Erfolg",
			"failure":   "Fehlschlag",
			"waiting":   "Wartet     %s: die Kamera liest den %s\n",
		},
	}
}

// st formats a label of the other games' state in the catalog's language.
func st(cat *Catalog, key string, args ...any) string {
	lang := "en"
	if cat != nil {
		lang = cat.Lang
	}
	f, ok := summaryTexts()[lang][key]
	if !ok {
		f = summaryTexts()["en"][key]
	}
	return fmt.Sprintf(f, args...)
}

// gameSummary is the state table of a game other than Fallout: The Board
// Game.
func (g Game) gameSummary(cat *Catalog) string {
	var b strings.Builder
	switch {
	case g.Twom != nil:
		t := g.Twom
		b.WriteString(st(cat, "twom", t.Day, t.Current().ID, t.Phase(), t.Leader+1, t.Players))
		if t.Phase() == twom.Scavenging {
			b.WriteString(st(cat, "twomNoise", t.Noise))
		}
		for _, c := range t.Characters {
			var levels []string
			for _, s := range []twom.Status{twom.Fatigue, twom.Wounds, twom.Misery, twom.Hunger, twom.Illness} {
				if n := c.Level(s); n > 0 {
					levels = append(levels, fmt.Sprintf("%s %d", s, n))
				}
			}
			if c.Gone {
				levels = []string{st(cat, "twomGone")}
			}
			b.WriteString(st(cat, "twomChar", c.Name, c.Empathy, c.Strength, c.Inventory, c.Task, strings.Join(levels, ", ")))
		}
		if r := t.Raid; r != nil {
			b.WriteString(raidSummary(cat, t))
		}
	case g.Warfare != nil:
		w := g.Warfare
		b.WriteString(st(cat, "warfare", w.Sides[0], w.Sides[1], w.Turn, lightName(w.Light)))
		if w.Attacker != warfare.SideNone {
			b.WriteString(st(cat, "attacker", w.side(w.Attacker)))
		}
		if w.Clouds > 0 {
			b.WriteString(st(cat, "clouds", w.Clouds))
		}
		if r := w.Result; r != nil {
			res := st(cat, "draw")
			if !r.Draw {
				res = st(cat, "wins", w.side(r.Winner))
			}
			b.WriteString(st(cat, "score", w.Sides[0], r.ScoreA, w.Sides[1], r.ScoreB, res))
		}
	case g.Wasteland != nil:
		w := g.Wasteland
		sim := ""
		if w.Simulator {
			sim = st(cat, "simulator")
		}
		b.WriteString(st(cat, "wasteland", sim))
		for _, u := range w.Units {
			b.WriteString(st(cat, "unit", u.Name, u.LUC, u.Tokens))
		}
		if r := w.Roll; r != nil {
			vs := ""
			if r.Attack {
				vs = st(cat, "wlVs", r.Defender.Name)
			}
			res := st(cat, "failure")
			if r.Success() {
				res = st(cat, "success")
			}
			b.WriteString(st(cat, "wlRoll", r.Tester.Name, r.Skill, faceID(r.Face), vs, res))
		}
	}
	if m, set, ok := waitingMove(g); ok {
		b.WriteString(st(cat, "waiting", moveLine(Event{Type: EvMove, Move: m}), set))
	}
	return b.String()
}

func faceID(f wasteland.SkillFace) string {
	if f.Kind == wasteland.Number {
		return fmt.Sprint(f.Value)
	}
	return string(f.Kind)
}

// raidSummary is the night raid's line of the state table: the card, and
// each guard's weapon and dice (symbols, or the die's mark) as they stand.
func raidSummary(cat *Catalog, t *twom.Game) string {
	r := t.Raid
	card := st(cat, "raidNone")
	if r.Card != nil {
		card = st(cat, "raidCard", r.Card.Damage, r.Card.Wounds)
	}
	var guards []string
	for _, c := range t.Characters {
		if c.Gone || c.Task != twom.Guard {
			continue
		}
		w, ok := r.Weapons[c.Name]
		if !ok {
			w = twom.Unarmed
		}
		dice := "-"
		if fs := r.Dice[c.Name]; len(fs) > 0 {
			var d []string
			for _, f := range fs {
				if f.Mark != twom.NoMark {
					d = append(d, string(f.Mark))
				} else {
					d = append(d, fmt.Sprint(f.Symbols))
				}
			}
			dice = strings.Join(d, "+")
		}
		guards = append(guards, st(cat, "raidGuard", c.Name, w, dice))
	}
	if r.Resolved {
		guards = append(guards, st(cat, "raidDone"))
	}
	return st(cat, "twomRaid", card, strings.Join(guards, ", "))
}
