package tracker

import (
	"fmt"
	"sort"
	"strings"

	"tablecam/engine"
	"tablecam/models"
)

// Summary renders the game as a short multi-line text for `tablecam state`
// and the manual prompt.
func (g Game) Summary(c *models.Content) string {
	if !g.Started {
		return "No game set up yet.\n"
	}
	st := g.State
	var b strings.Builder
	sc, _ := c.Scenario(st.Scenario)
	loyal, _ := c.Faction(st.Loyal)
	opp, _ := c.Faction(st.Opposing)
	fmt.Fprintf(&b, "Scenario   %s (loyal: %s, opposing: %s)\n", sc.Name, loyal.Name, opp.Name)
	result := ""
	if st.Result != "" {
		result = "  GAME " + strings.ToUpper(st.Result)
	}
	fmt.Fprintf(&b, "Round      %d, first player %s%s\n", st.Round, st.Survivors[st.FirstPlayer].Name, result)
	track := make([]string, st.PowerTrack)
	for i := range track {
		track[i] = "."
	}
	track[st.Power] = "P"
	fmt.Fprintf(&b, "Power      [%s] space %d of %d\n", strings.Join(track, ""), st.Power+1, st.PowerTrack)
	fmt.Fprintf(&b, "Goals      %d of %d   C.A.M.P. tokens %d\n", st.Goals, st.GoalsRequired, st.Camps)
	fmt.Fprintf(&b, "Deck       %d cards, discard %d (%s)\n", len(st.Deck), len(st.Discard), strings.Join(st.Discard, " "))
	for i, s := range st.Survivors {
		flags := []string{}
		if s.Out {
			flags = append(flags, "OUT")
		}
		if s.Mutated {
			flags = append(flags, "mutated")
		}
		if s.WellRested {
			flags = append(flags, "well rested")
		}
		if s.Special != "" {
			flags = append(flags, "SPECIAL "+s.Special)
		}
		mark := " "
		if i == st.FirstPlayer {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %-8s HP %2d/%-2d rads %2d  XP %2d  caps %2d  %s\n", mark, s.Name, s.HP(), s.MaxHP, s.Rads, s.XP, s.Caps, strings.Join(flags, ", "))
	}
	if len(st.Enemies) == 0 {
		b.WriteString("Enemies    none tracked\n")
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
		fmt.Fprintf(&b, "Enemies    %s\n", strings.Join(parts, ", "))
		for _, e := range st.Enemies {
			state := "active"
			if !e.Active {
				state = "facedown"
			}
			pos := ""
			if len(e.With) > 0 {
				pos += " with " + strings.Join(e.With, ",")
			}
			if len(e.Adjacent) > 0 {
				pos += " adjacent " + strings.Join(e.Adjacent, ",")
			}
			tok := e.Token
			if tok == "" {
				tok = e.Type
			}
			fmt.Fprintf(&b, "  %-4s %-18s %s%s\n", e.ID, tok, state, pos)
		}
	}
	if p := g.Pending; p != nil {
		what := p.Context.Kind + " " + p.Context.Survivor
		if p.Context.Kind == CtxTest {
			what += fmt.Sprintf(" difficulty %d", p.Context.Difficulty)
		} else {
			what += " vs " + p.Context.Enemy
		}
		faces := "waiting for the roll"
		if p.Rolled {
			faces = "rolled " + strings.Join(p.Faces, " ")
			if p.Assist != "" {
				faces += " + assist " + p.Assist
			}
		}
		fmt.Fprintf(&b, "Pending    %s: %s, %d %s left\n", what, faces, p.RerollsLeft, map[bool]string{true: "reroll", false: "rerolls"}[p.RerollsLeft == 1])
	}
	if a, ok := g.State.Waiting(); ok {
		fmt.Fprintf(&b, "Enemy turn %s waits for %s\n", st.Turn.Card, engine.AttackText(c, &st, a))
	}
	return b.String()
}
