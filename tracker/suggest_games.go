package tracker

import (
	"slices"
	"sort"

	"tablecam/engine/twom"
	"tablecam/engine/warfare"
	"tablecam/engine/wasteland"
	"tablecam/models"
)

// Suggested lists command lines that fit a game other than Fallout: The
// Board Game as it stands, for the dashboard's buttons: the Journal's next
// step and the rolls of the step in This War of Mine, the turn's rolls in
// Fallout: Warfare (the smoke roll while clouds are on the table), the luck uses legal now in Wasteland Warfare. A line
// that reads a die leaves the reading out: the camera reads it (a combat
// die's line is offered once c has the die's face set). Lines that need the
// group's numbers (a raid card, a modifier) are typed.
func (g Game) Suggested(c *models.Content) []string {
	switch {
	case g.Twom != nil:
		return twomSuggested(c, g)
	case g.Warfare != nil:
		return warfareSuggested(g.Warfare)
	case g.Wasteland != nil:
		return wastelandSuggested(c, g.Wasteland)
	}
	return nil
}

func twomSuggested(c *models.Content, g Game) []string {
	t := g.Twom
	var out []string
	var present []string
	for _, c := range t.Characters {
		if !c.Gone {
			present = append(present, c.Name)
		}
	}
	switch step := t.Current().ID; {
	case t.Phase() == twom.Day:
		out = append(out, "lockpick")
	case step == "dusk.thirst":
		for _, n := range present {
			out = append(out, "thirst "+n)
		}
	case t.Phase() == twom.Scavenging && step != "scavenging.location" && step != "scavenging.equipment":
		out = append(out, "noise +1", "noisetest")
	case step == twom.StepRaidCard && t.Raid != nil && t.Raid.Card != nil && !t.Raid.Resolved:
		for _, ch := range t.Characters {
			line := "guardroll " + ch.Name
			m := &Move{Cmd: "guardroll", Args: map[string]string{"character": ch.Name}}
			if _, taught := c.FaceSet(combatSet(g, m)); taught && !ch.Gone && ch.Task == twom.Guard && len(t.Raid.Dice[ch.Name]) == 0 {
				out = append(out, line)
			}
		}
		out = append(out, "defend")
	case step == twom.StepDeath && t.DeathToday && !t.DeathTested:
		// "Death walks among us" must be rolled before Dawn ends.
		return []string{"deathwalks"}
	}
	return append(out, "next")
}

func warfareSuggested(w *WarfareGame) []string {
	var out []string
	if w.Turn == 1 && w.Attacker == warfare.SideNone {
		out = append(out, "lightroll")
	}
	if w.Attacker == warfare.SideNone {
		out = append(out, "initiative")
	}
	out = append(out, "endturn")
	// The smoke roll applies only while clouds are on the table: a d10 for
	// each (seed 002 ch. 4 "Fumo").
	if w.Clouds > 0 {
		out = append(out, "smoke")
	}
	return out
}

func wastelandSuggested(c *models.Content, w *WastelandGame) []string {
	if w.Roll == nil || w.Simulator {
		return nil
	}
	names := map[wasteland.Use]string{}
	for word, u := range luckUses {
		names[u] = word
	}
	_, camera := c.FaceSet(SetLuck)
	var out []string
	for _, o := range wasteland.Legal(*w.Roll) {
		n, ok := names[o.Use]
		switch {
		case !ok || slices.Contains(out, "luck "+n) || slices.Contains(out, "luck "+n+" luck"):
		case camera:
			out = append(out, "luck "+n)
		default:
			out = append(out, "luck "+n+" luck", "luck "+n+" blank")
		}
	}
	sort.Strings(out)
	return append(out, "done")
}
