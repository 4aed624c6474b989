package tracker

import (
	"fmt"
	"sort"
	"strings"

	"tablecam/engine"
	"tablecam/models"
)

// OddsRequest is what `tablecam odds` asks for.
type OddsRequest struct {
	Set        string
	Dice       int
	Difficulty int    // test when Enemy == ""
	Enemy      string // token, type or faction id: a fight
	Armor      int
	Ranged     bool
	Assist     bool
	Rerolls    int
	// Faces, when set, asks which dice to reroll now (AssistFace for the assist die).
	Faces      []string
	AssistFace string
	// Lang is the language of the report ("" is English).
	Lang string
}

// OddsReport computes exact odds and renders them as text.
func OddsReport(c *models.Content, r OddsRequest) (string, error) {
	if r.Set == "" {
		r.Set = "vats"
	}
	cat, err := NewCatalog(r.Lang)
	if r.Lang == "" || err != nil {
		cat, _ = NewCatalog("en")
	}
	c = c.Localized(cat.Lang)
	fs, ok := c.FaceSet(r.Set)
	if !ok {
		return "", fmt.Errorf("unknown dice set %q", r.Set)
	}
	// Checked before any line is written, so a bad request prints nothing
	// but the error.
	if r.Rerolls < 0 || r.Rerolls > engine.MaxOddsRerolls {
		return "", fmt.Errorf("rerolls must be 0 … %d, got %d", engine.MaxOddsRerolls, r.Rerolls)
	}
	if r.Dice < 1 || r.Dice > engine.MaxOddsDice {
		return "", fmt.Errorf("dice must be 1 … %d, got %d", engine.MaxOddsDice, r.Dice)
	}
	var b strings.Builder
	var goal engine.Goal
	var assist *models.FaceSet
	if r.Assist || r.AssistFace != "" {
		a, _ := c.FaceSet("assist")
		assist = &a
	}
	if r.Enemy == "" {
		goal = engine.TestGoal{Difficulty: r.Difficulty}
		if len(r.Faces) == 0 {
			b.WriteString(cat.T("oddsTest", r.Dice, fs.Name, r.Difficulty))
			for k := 0; k <= r.Rerolls; k++ {
				o, err := engine.TestOdds(fs, r.Dice, r.Difficulty, k)
				if err != nil {
					return "", err
				}
				b.WriteString(cat.T("oddsPass", rerollsLabel(cat, k), 100*o.P))
			}
		}
	} else {
		typ, tok, err := fightToken(c, engine.State{}, RollContext{Enemy: r.Enemy})
		if err != nil {
			return "", err
		}
		g := engine.FightGoal{Token: tok, Armor: r.Armor, Ranged: r.Ranged, Rules: c.Rules}
		goal = g
		if len(r.Faces) == 0 {
			withAssist := ""
			if assist != nil {
				withAssist = cat.T("oddsWithAssist")
			}
			b.WriteString(cat.T("oddsFight", engine.TypeName(c, typ, false), tok.ID, tok.Level,
				strings.Join(tok.Vulnerable, ","), abilities(tok), r.Dice, withAssist))
			for k := 0; k <= r.Rerolls; k++ {
				o, err := engine.FightOdds(fs, r.Dice, g, assist, k)
				if err != nil {
					return "", err
				}
				kind := cat.T("harm." + o.DamageKind)
				b.WriteString(cat.T("oddsKill", rerollsLabel(cat, k), 100*o.P, kind, o.ExpectedDamage))
				if assist != nil {
					b.WriteString(cat.T("oddsAssistHurt", 100*o.PAssistHurt))
				}
				b.WriteString("\n")
				if k == r.Rerolls {
					b.WriteString(cat.T("oddsDistribution", kind))
					keys := make([]int, 0, len(o.Damage))
					for d := range o.Damage {
						keys = append(keys, d)
					}
					sort.Ints(keys)
					for _, d := range keys {
						fmt.Fprintf(&b, " %d:%.1f%%", d, 100*o.Damage[d])
					}
					b.WriteString("\n")
				}
			}
		}
	}
	if len(r.Faces) > 0 {
		cur, err := faces(c, r.Set, r.Faces)
		if err != nil {
			return "", err
		}
		var af *models.Face
		if r.AssistFace != "" {
			a, err := faces(c, "assist", []string{r.AssistFace})
			if err != nil {
				return "", err
			}
			af = &a[0]
		}
		adv, err := engine.RerollAdvice(fs, cur, assist, af, goal, r.Rerolls)
		if err != nil {
			return "", err
		}
		if len(adv.Reroll) == 0 && !adv.RerollAssist {
			b.WriteString(cat.T("oddsKeep", strings.Join(r.Faces, " "), 100*adv.PIfKeep))
		} else {
			var which []string
			for _, i := range adv.Reroll {
				which = append(which, cat.T("oddsDie", i+1, r.Faces[i]))
			}
			if adv.RerollAssist {
				which = append(which, cat.T("oddsAssistDie"))
			}
			b.WriteString(cat.T("oddsReroll", strings.Join(which, ", "), 100*adv.PIfReroll, 100*adv.PIfKeep))
			if adv.PIfReroll-adv.PIfKeep < 1e-9 {
				b.WriteString(cat.T("oddsSameChance", adv.HarmIfKeep, adv.HarmIfReroll))
			}
		}
	}
	return b.String(), nil
}

func abilities(t models.EnemyToken) string {
	if len(t.Abilities) == 0 {
		return ""
	}
	return "; " + strings.Join(t.Abilities, ",")
}

// rerollsLabel heads a line of odds: "0 rerolls:", "1 reroll:".
func rerollsLabel(cat *Catalog, k int) string {
	return cat.Count(k, "oddsRerolls")
}
