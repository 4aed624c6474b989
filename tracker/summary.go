package tracker

import (
	"fmt"
	"sort"
	"strings"

	"tablecam/engine"
	"tablecam/models"
)

// Summary renders the game as a short multi-line text for `tablecam state`
// and the manual prompt, in English.
func (g Game) Summary(c *models.Content) string { return g.SummaryIn(c, nil) }

// SummaryIn is Summary in the catalog's language (names from c, which the
// caller localizes).
func (g Game) SummaryIn(c *models.Content, cat *Catalog) string {
	if !g.Started {
		return cat.T("noGame")
	}
	if g.Kind != "" {
		return g.gameSummary(cat)
	}
	st := g.State
	var b strings.Builder
	sc, _ := c.Scenario(st.Scenario)
	loyal, _ := c.Faction(st.Loyal)
	opp, _ := c.Faction(st.Opposing)
	b.WriteString(cat.T("scenario", sc.Name, loyal.Name, opp.Name))
	result := ""
	switch st.Result {
	case "":
	case "won", "lost":
		result = cat.T(st.Result)
	default:
		result = "  " + strings.ToUpper(st.Result)
	}
	b.WriteString(cat.T("round", st.Round, st.Survivors[st.FirstPlayer].Name, result))
	track := make([]string, st.PowerTrack)
	for i := range track {
		track[i] = "."
	}
	track[st.Power] = "P"
	b.WriteString(cat.T("power", strings.Join(track, ""), st.Power+1, st.PowerTrack))
	b.WriteString(cat.T("goals", st.Goals, st.GoalsRequired, st.Camps))
	cards := fmt.Sprintf("%d %s", len(st.Deck), cat.T("cards"))
	if len(st.Deck) == 1 {
		cards = "1 " + cat.T("card")
	}
	b.WriteString(cat.T("deck", cards, len(st.Discard), strings.Join(st.Discard, " ")))
	for i, s := range st.Survivors {
		flags := []string{}
		if s.Out {
			flags = append(flags, cat.T("out"))
		}
		if s.Mutated {
			flags = append(flags, cat.T("mutated"))
		}
		if s.WellRested {
			flags = append(flags, cat.T("rested"))
		}
		if s.Special != "" {
			flags = append(flags, cat.T("special", s.Special))
		}
		mark := " "
		if i == st.FirstPlayer {
			mark = "*"
		}
		b.WriteString(cat.T("survivor", mark, s.Name, s.HP(), s.MaxHP, s.Rads, s.XP, s.Caps, strings.Join(flags, ", ")))
	}
	if len(st.Enemies) == 0 {
		b.WriteString(cat.T("noEnemies"))
	} else {
		counts := map[string]int{}
		for _, e := range st.Enemies {
			counts[engine.TypeName(c, e.Type, true)]++
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", k, counts[k])
		}
		b.WriteString(cat.T("enemies", strings.Join(parts, ", ")))
		for _, e := range st.Enemies {
			state := cat.T("active")
			if !e.Active {
				state = cat.T("facedown")
			}
			pos := ""
			if len(e.With) > 0 {
				pos += cat.T("with", strings.Join(e.With, ","))
			}
			if len(e.Adjacent) > 0 {
				pos += cat.T("adjacent", strings.Join(e.Adjacent, ","))
			}
			tok := e.Token
			if tok == "" {
				tok = e.Type
			}
			id := e.ID
			if e.Name != "" {
				id += " " + e.Name
			}
			fmt.Fprintf(&b, "  %-4s %-18s %s%s\n", id, tok, state, pos)
		}
	}
	if p := g.Pending; p != nil {
		var what string
		if p.Context.Kind == CtxTest {
			what = cat.T("pendTest", p.Context.Survivor, p.Context.Difficulty)
		} else {
			enemy := p.Context.Enemy
			if i := st.Enemy(enemy); i >= 0 && !p.Context.Draw {
				enemy = st.EnemyRef(c, i)
			}
			what = cat.T("pendFight", p.Context.Survivor, enemy)
		}
		faces := cat.T("waitRoll")
		if p.Rolled {
			faces = cat.T("rolled", strings.Join(p.Faces, " "))
			if p.Assist != "" {
				faces += cat.T("plusAssist", p.Assist)
			}
		}
		left := fmt.Sprintf("%d %s", p.RerollsLeft, cat.T("rerolls"))
		if p.RerollsLeft == 1 {
			left = "1 " + cat.T("reroll")
		}
		b.WriteString(cat.T("pending", what, faces, left))
	}
	if a, ok := g.State.Waiting(); ok {
		name := a.Survivor
		if i := st.Survivor(a.Survivor); i >= 0 {
			name = st.Survivors[i].Name
		}
		b.WriteString(cat.T("turnWaits", st.Turn.Card, cat.T("attack", name, engine.TypeName(c, a.Type, false), st.AttackRef(c, a))))
	}
	return b.String()
}
