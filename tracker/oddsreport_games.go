package tracker

import (
	"fmt"
	"strings"

	"tablecam/engine/dice"
	"tablecam/engine/twom"
	"tablecam/engine/wasteland"
	"tablecam/models"
)

// GameOddsRequest is what `tablecam odds --game GAME` asks for. Zero
// fields are not asked; Noise and Empathy are pointers because 0 is a value.
type GameOddsRequest struct {
	Game string
	// This War of Mine: a noise test at this noise level, an empathy test
	// of a character with this empathy.
	Noise   *int
	Empathy *int
	// Fallout: Warfare: a d10 test under Stat with Mod added to the roll;
	// an attack, and the initiative roll.
	Stat    int
	Mod     int
	Warfare WarfareOdds
	// This War of Mine: a combat roll (Combat.Die "": not asked); Content
	// lists the dice's faces.
	Combat  CombatOddsRequest
	Content *models.Content
	// Wasteland Warfare: a skill test at Skill on a die with these faces.
	Skill      int
	SkillFaces []string
	// Lang is the language of the report ("" is English).
	Lang string
}

// GameOddsReport computes the exact odds of a game's tests with its
// engine package and renders them as text.
func GameOddsReport(r GameOddsRequest) (string, error) {
	cat, err := NewCatalog(r.Lang)
	if r.Lang == "" || err != nil {
		cat, _ = NewCatalog("en")
	}
	var b strings.Builder
	switch r.Game {
	case GameTwom:
		if r.Noise == nil && r.Empathy == nil && r.Combat.Die == "" {
			return "", fmt.Errorf("odds --game twom: give --noise N, --empathy N and/or --combat DIE")
		}
		if r.Noise != nil {
			if *r.Noise < 1 || *r.Noise > 20 {
				return "", fmt.Errorf("noise must be 1 … 20, got %d", *r.Noise)
			}
			b.WriteString(cat.T("oddsNoise", *r.Noise, ratio(twom.NoiseOdds(*r.Noise))))
		}
		if r.Empathy != nil {
			if *r.Empathy < 0 || *r.Empathy > 10 {
				return "", fmt.Errorf("empathy must be 0 … 10, got %d", *r.Empathy)
			}
			b.WriteString(cat.T("oddsEmpathy", *r.Empathy, ratio(twom.EmpathyOdds(*r.Empathy))))
		}
		if r.Combat.Die != "" {
			if err := twomCombatOdds(&b, cat, r.Content, r.Combat); err != nil {
				return "", err
			}
		}
	case GameWarfare:
		if err := warfareOddsReport(&b, cat, r.Stat, r.Mod, r.Warfare); err != nil {
			return "", err
		}
	case GameWasteland:
		if len(r.SkillFaces) == 0 {
			return "", fmt.Errorf("odds --game wasteland: give the skill die's faces with --skill-faces (e.g. crit,ap,2,2,3,...,x): their counts are not confirmed, so tablecam takes your die's")
		}
		if r.Skill < 0 || r.Skill > 20 {
			return "", fmt.Errorf("skill must be 0 … 20, got %d", r.Skill)
		}
		var faces []wasteland.SkillFace
		for _, id := range r.SkillFaces {
			f, err := wasteland.ParseFace(id)
			if err != nil {
				return "", err
			}
			faces = append(faces, f)
		}
		b.WriteString(cat.T("oddsSkill", r.Skill, len(faces)))
		for _, p := range []struct {
			label string
			pol   wasteland.Policy
		}{
			{"oddsNoLuck", wasteland.Policy{}},
			{"oddsAccuracy", wasteland.Policy{Accuracy: true}},
			{"oddsDodges", wasteland.Policy{Dodge: true}},
			{"oddsBoth", wasteland.Policy{Accuracy: true, Dodge: true}},
		} {
			o, err := wasteland.SkillOdds(faces, r.Skill, p.pol)
			if err != nil {
				return "", err
			}
			b.WriteString(cat.T("oddsSkillLine", cat.T(p.label), ratio(o)))
		}
	default:
		return "", fmt.Errorf("odds: unknown game %q (twom, warfare, wasteland)", r.Game)
	}
	return b.String(), nil
}

func ratio(r dice.Ratio) string {
	return fmt.Sprintf("%s = %6.2f%%", r, 100*r.Float64())
}

// IDList is a kind of id a game's commands take, and the ids.
type IDList struct {
	What string
	IDs  []string
}

// GameIDs lists the ids of a game: its dice and their faces, its tokens,
// steps and tables from the content pack, then the words its commands take
// from its command table (a list the content already gave is not repeated).
func GameIDs(c *models.Content, game string) []IDList {
	var out []IDList
	seen := map[string]bool{}
	// A list is shown once: by its first label, and not again under
	// another one.
	add := func(what string, ids []string) {
		key := "ids:" + strings.Join(ids, ",")
		if len(ids) > 0 && !seen[what] && !seen[key] {
			seen[what], seen[key] = true, true
			out = append(out, IDList{What: what, IDs: ids})
		}
	}
	if gc, ok := c.Game(game); ok {
		// The labels are the content's ids (a die's set in brackets), so
		// they read the same in every language.
		for _, d := range gc.Dice {
			what := d.ID
			if d.Set != "" && d.Set != d.ID {
				what += " (" + d.Set + ")"
			}
			add(what, d.FaceIDs(c))
		}
		for _, t := range gc.Tokens {
			add(t.ID, t.Sides)
			add(t.ID, t.Kinds)
		}
		for _, p := range gc.Phases {
			var steps []string
			for _, s := range p.Steps {
				steps = append(steps, s.ID)
			}
			if len(gc.Phases) > 1 {
				// One list of every step: a round's Journal.
				steps = nil
				for _, s := range gc.Steps() {
					steps = append(steps, s.ID)
				}
				add("journal steps", steps)
				break
			}
			add(p.ID, steps)
		}
		for _, tb := range gc.Tables {
			var rows []string
			for _, r := range tb.Rows {
				rows = append(rows, fmt.Sprintf("%s %d-%d", r.ID, r.From, r.To))
			}
			add(tb.ID+" ("+tb.Roll+")", rows)
		}
	}
	specs := moveSpecs()
	if s, ok := setupSpec(game); ok {
		specs = append([]moveSpec{s}, specs...)
	}
	for _, s := range specs {
		if s.Game != game {
			continue
		}
		for _, a := range s.Args {
			if a.Kind == argOneOf {
				add(a.Name, a.Choices)
			}
		}
	}
	return out
}
