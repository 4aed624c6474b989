package engine

import (
	"fmt"
	"strconv"
	"strings"

	"tablecam/models"
)

// RollHits counts the hit icons on the faces (seed 000 "Proben ablegen").
func RollHits(faces []models.Face) int {
	n := 0
	for _, f := range faces {
		n += f.Hits
	}
	return n
}

// TestRerolls is the number of rerolls a survivor may take in a test that
// names the given S.P.E.C.I.A.L. letters: one per matching token owned, plus
// one for Well Rested (seed 000 "Proben ablegen", "Eigenschaften").
func TestRerolls(s SurvivorState, letters string) int {
	n := 0
	seen := map[rune]bool{}
	for _, l := range strings.ToUpper(letters) {
		if !seen[l] && strings.ContainsRune(strings.ToUpper(s.Special), l) {
			n++
		}
		seen[l] = true
	}
	if s.WellRested {
		n++
	}
	return n
}

// TestResult is the outcome of a test roll.
type TestResult struct {
	Hits       int  `json:"hits"`
	Difficulty int  `json:"difficulty"`
	Passed     bool `json:"passed"`
}

// Test judges a test: success when hits >= difficulty; regions are ignored
// (seed 000 "Proben ablegen").
func Test(faces []models.Face, difficulty int) TestResult {
	h := RollHits(faces)
	return TestResult{Hits: h, Difficulty: difficulty, Passed: h >= difficulty}
}

// FightInput is one fight: a survivor against an enemy token, with the final
// V.A.T.S. faces after rerolls and an optional assist.
type FightInput struct {
	Survivor string
	// Enemy is an enemy on the map (its id, name, token or level:
	// FindEnemy); empty for "draw and fight".
	Enemy string
	// Token is the printed token (from the enemy on the map, a scan, or the
	// type's level-1 token when unknown).
	Token models.EnemyToken
	// TypeID is the token's enemy type.
	TypeID string
	// DrawAndFight: a token drawn by a card effect, always discarded (seed 000).
	DrawAndFight bool
	Faces        []models.Face
	// Assistant and AssistFace: the assist die (seed 003 "Assisting").
	Assistant  string
	AssistFace *models.Face
}

// FightResult is the arithmetic of a fight.
type FightResult struct {
	EnemyHits    int  `json:"enemy_hits"`
	Damage       int  `json:"damage"`
	Rads         int  `json:"rads"`
	ArmorBlocked int  `json:"armor_blocked"`
	SurvivorHits int  `json:"survivor_hits"`
	Needed       int  `json:"needed"`
	Killed       bool `json:"killed"`
	AssistDamage int  `json:"assist_damage"`
}

// FightMath computes both sides of a fight from one roll (seed 000 "[V]
// Kampf"): each hit icon deals damage equal to the enemy level, survivor armor
// negates 1 damage per icon; a radiated enemy's damage follows the radiated
// switch; every die showing a vulnerable region is a survivor hit, +ranged
// bonus against a target without the ranged icon; enemy armor per the
// enemy_armor switch; killed when hits reach the needed number. The assist
// die's hits join the side named by the assist_hits switch and each hurt icon
// deals the enemy level to the assistant (seed 003 "Assisting").
func FightMath(r models.Rules, tok models.EnemyToken, survivorArmor int, ranged bool, faces []models.Face, assist *models.Face) FightResult {
	var res FightResult
	res.EnemyHits = RollHits(faces)
	surv := 0
	for _, f := range faces {
		for _, reg := range f.Regions {
			if tok.VulnerableTo(reg) {
				surv++
				break
			}
		}
	}
	if assist != nil {
		if r.AssistHits == models.AssistHitsEnemy {
			res.EnemyHits += assist.Hits
		} else {
			surv += assist.Hits
		}
		res.AssistDamage = assist.Hurt * tok.Level
	}
	if ranged && !tok.Has(models.AbilityRanged) {
		surv += r.RangedBonus
	}
	res.Needed = tok.Level
	if tok.Has(models.AbilityArmor) {
		if r.EnemyArmor == models.ArmorExtraHit {
			res.Needed++
		} else {
			armor := tok.Armor
			if armor == 0 {
				armor = 1
			}
			surv -= armor
			if surv < 0 {
				surv = 0
			}
		}
	}
	res.SurvivorHits = surv
	res.Killed = surv >= res.Needed
	raw := res.EnemyHits * tok.Level
	dmg := raw - survivorArmor
	if dmg < 0 {
		dmg = 0
	}
	res.ArmorBlocked = raw - dmg
	if tok.Has(models.AbilityRadiated) {
		if r.Radiated == models.RadiatedInstead {
			res.Rads = dmg
			dmg = 0
		} else if dmg > 0 {
			res.Rads = tok.Level
		}
	}
	res.Damage = dmg
	return res
}

// TokenFor returns the printed token of an enemy on the map: its own token
// when known, else the lowest-level token of its type.
func TokenFor(c *models.Content, e Enemy) (models.EnemyToken, error) {
	t, ok := c.EnemyType(e.Type)
	if !ok {
		return models.EnemyToken{}, fmt.Errorf("enemy %s: unknown type %q", e.ID, e.Type)
	}
	if e.Token != "" {
		if tok, ok := t.Token(e.Token); ok {
			return tok, nil
		}
		return models.EnemyToken{}, fmt.Errorf("enemy %s: type %q has no token %q", e.ID, e.Type, e.Token)
	}
	best := t.Tokens[0]
	for _, tok := range t.Tokens[1:] {
		if tok.Level < best.Level {
			best = tok
		}
	}
	return best, nil
}

// Fight resolves a fight and applies it to the state: damage and rads to the
// survivor (death, respawn, out, mutation), XP, caps and loot on a kill, the
// token discarded and a facedown replacement placed, retreat, and the
// assistant's damage and XP (seed 000 "[V] Kampf", seed 003 "Assisting").
func Fight(c *models.Content, st State, in FightInput) (State, FightResult, []Outcome, error) {
	st = st.Clone()
	si := st.Survivor(in.Survivor)
	if si < 0 {
		return st, FightResult{}, nil, fmt.Errorf("fight: unknown survivor %q", in.Survivor)
	}
	if st.Survivors[si].Out {
		return st, FightResult{}, nil, fmt.Errorf("fight: %s is out of the game", st.Survivors[si].Name)
	}
	if in.AssistFace != nil && in.Assistant == "" {
		return st, FightResult{}, nil, fmt.Errorf("fight: the assist die needs an assisting survivor (seed 003 \"Assisting\")")
	}
	ai := -1
	if in.Assistant != "" {
		ai = st.Survivor(in.Assistant)
		if ai < 0 {
			return st, FightResult{}, nil, fmt.Errorf("fight: unknown assistant %q", in.Assistant)
		}
		if ai == si {
			return st, FightResult{}, nil, fmt.Errorf("fight: %s cannot assist their own fight", in.Assistant)
		}
		if st.Survivors[ai].Out {
			return st, FightResult{}, nil, fmt.Errorf("fight: %s is out of the game and cannot assist", st.Survivors[ai].Name)
		}
		if in.AssistFace == nil {
			return st, FightResult{}, nil, fmt.Errorf("fight: assistant %s but no assist die face", in.Assistant)
		}
	}
	ei := -1
	if in.Enemy != "" && in.DrawAndFight {
		return st, FightResult{}, nil, fmt.Errorf("fight: a drawn enemy is not on the map; give its token, not %q", in.Enemy)
	}
	if in.Enemy != "" {
		var err error
		if ei, err = st.FindEnemy(c, in.Enemy); err != nil {
			return st, FightResult{}, nil, fmt.Errorf("fight: %w", err)
		}
		e := st.Enemies[ei]
		if e.Faction != "" && st.Survivors[si].Loyal == e.Faction {
			return st, FightResult{}, nil, fmt.Errorf("fight: %s is loyal to %s and may not attack its enemies (seed 000 \"Loyalitaet\")",
				st.Survivors[si].Name, factionName(c, e.Faction))
		}
		if in.Token.ID == "" {
			tok, err := TokenFor(c, e)
			if err != nil {
				return st, FightResult{}, nil, err
			}
			in.Token = tok
		}
		in.TypeID = e.Type
	}
	if in.Token.Level < 1 {
		return st, FightResult{}, nil, fmt.Errorf("fight: enemy token has no level")
	}
	if len(in.Faces) == 0 {
		return st, FightResult{}, nil, fmt.Errorf("fight: no V.A.T.S. dice")
	}
	surv := st.Survivors[si]
	res := FightMath(st.Rules, in.Token, surv.Armor, surv.Ranged, in.Faces, in.AssistFace)
	name := TypeName(c, in.TypeID, false)
	var out []Outcome
	out = append(out, Outcome{Kind: KindFightEnemy, Vars: Vars{
		"enemy": name, "level": in.Token.Level, "hits": res.EnemyHits, "damage": res.Damage,
		"rads": res.Rads, "blocked": res.ArmorBlocked, "survivor": surv.Name,
	}})
	out = append(out, Outcome{Kind: KindFightSurvivor, Vars: Vars{
		"enemy": name, "hits": res.SurvivorHits, "needed": res.Needed, "survivor": surv.Name,
	}})
	// Enemy damage first (the enemy attacks first, seed 000 step 01).
	st, o := hurt(c, st, si, res.Damage, res.Rads)
	out = append(out, o...)
	if st.Over() {
		// The survivor's death moved the power token to its last space:
		// the game ends there, and the rest of the fight with it (seed 003
		// "Ending the game").
		return st, res, out, nil
	}
	if res.Killed {
		xp := in.Token.Level
		caps := 0
		if in.Token.Has(models.AbilityCaps) {
			caps = in.Token.Level
		}
		s := &st.Survivors[si]
		s.XP += xp
		s.Caps += caps
		out = append(out, Outcome{Kind: KindFightKilled, Vars: Vars{
			"enemy": name, "survivor": s.Name, "xp": xp, "caps": caps, "loot": in.Token.Has(models.AbilityLoot),
		}})
		if ai >= 0 {
			st.Survivors[ai].XP += st.Rules.AssistXP
			out = append(out, Outcome{Kind: KindAssistXP, Vars: Vars{"survivor": st.Survivors[ai].Name, "xp": st.Rules.AssistXP}})
		}
		if ei >= 0 && !in.DrawAndFight {
			// Discard and place a facedown replacement of the same type on
			// the nearest matching space (seed 000 step 03).
			old := st.Enemies[ei]
			st.Enemies = append(st.Enemies[:ei], st.Enemies[ei+1:]...)
			id := ReplacementID(old.ID)
			st.Enemies = append(st.Enemies, Enemy{ID: id, Type: old.Type, Faction: old.Faction, Replacement: true})
			out = append(out, Outcome{Kind: KindFightReplace, Vars: st.enemyVars(c, len(st.Enemies)-1, Vars{"enemy": name})})
		}
	} else {
		out = append(out, Outcome{Kind: KindFightSurvived, Vars: Vars{"enemy": name, "hits": res.SurvivorHits, "needed": res.Needed}})
		if ei >= 0 && !in.DrawAndFight && in.Token.Has(models.AbilityRetreat) {
			st.Enemies[ei].Active = false
			out = append(out, Outcome{Kind: KindFightRetreat, Vars: Vars{"enemy": name}})
		}
	}
	if in.DrawAndFight {
		out = append(out, Outcome{Kind: KindFightDiscarded, Vars: Vars{"enemy": name}})
	}
	if ai >= 0 && res.AssistDamage > 0 {
		out = append(out, Outcome{Kind: KindAssistHurt, Vars: Vars{"survivor": st.Survivors[ai].Name, "damage": res.AssistDamage}})
		var o []Outcome
		st, o = hurt(c, st, ai, res.AssistDamage, 0)
		out = append(out, o...)
	}
	return st, res, out, nil
}

// hurt applies damage and rads to survivor i and resolves death, respawn,
// out of the game and mutation (seed 000 "Trefferpunkte & Strahlung", seed
// 003 "Killed", "Mutations").
func hurt(c *models.Content, st State, i, damage, rads int) (State, []Outcome) {
	var out []Outcome
	s := &st.Survivors[i]
	if s.Out || (damage <= 0 && rads <= 0) {
		return st, out
	}
	before := s.Rads
	if damage > 0 {
		s.Damage += damage
		if s.Damage > s.MaxHP {
			s.Damage = s.MaxHP
		}
		out = append(out, Outcome{Kind: KindDamage, Vars: Vars{"survivor": s.Name, "damage": damage, "hp": s.HP()}})
	}
	if rads > 0 {
		s.Rads += rads
		if s.Rads > s.MaxHP {
			s.Rads = s.MaxHP
		}
		out = append(out, Outcome{Kind: KindRads, Vars: Vars{"survivor": s.Name, "rads": rads, "total": s.Rads}})
	}
	if !s.Mutated && before < st.Rules.MutationRads && s.Rads >= st.Rules.MutationRads {
		s.Mutated = true
		out = append(out, Outcome{Kind: KindMutation, Vars: Vars{"survivor": s.Name}})
	}
	// Dead when the pegs meet or rads pass HP.
	if s.Rads >= s.HP() {
		s.Deaths++
		out = append(out, Outcome{Kind: KindKilled, Vars: Vars{"survivor": s.Name}})
		s.Damage = 0
		// The survivor leaves its space (respawn at Crossroads Camp, or out):
		// enemies no longer share or border its space.
		for k := range st.Enemies {
			st.Enemies[k].With = without(st.Enemies[k].With, s.ID)
			st.Enemies[k].Adjacent = without(st.Enemies[k].Adjacent, s.ID)
		}
		if s.Rads >= s.MaxHP {
			s.Out = true
			out = append(out, Outcome{Kind: KindOut, Vars: Vars{"survivor": s.Name}})
		} else {
			out = append(out, Outcome{Kind: KindRespawn, Vars: Vars{"survivor": s.Name, "hp": s.HP(), "rads": s.Rads}})
		}
		var o []Outcome
		st, o = advance(c, st, st.Rules.KilledPower, "killed")
		out = append(out, o...)
	}
	return st, out
}

// Hurt applies damage and rads to a survivor outside a fight (manual
// adjustment, a card effect) with the same death rules.
func Hurt(c *models.Content, st State, survivor string, damage, rads int) (State, []Outcome, error) {
	st = st.Clone()
	i := st.Survivor(survivor)
	if i < 0 {
		return st, nil, fmt.Errorf("unknown survivor %q", survivor)
	}
	if damage < 0 || rads < 0 {
		return st, nil, fmt.Errorf("damage and rads must not be negative")
	}
	st, out := hurt(c, st, i, damage, rads)
	return st, out, nil
}

// advance moves the opposing faction's power token n spaces; reaching the
// last space ends the game as a loss (seed 003 "Ending the game").
func advance(c *models.Content, st State, n int, reason string) (State, []Outcome) {
	if n <= 0 || st.Over() {
		return st, nil
	}
	st.Power += n
	if st.Power > st.LastSpace() {
		st.Power = st.LastSpace()
	}
	out := []Outcome{{Kind: KindPower, Vars: Vars{
		"faction": factionName(c, st.Opposing), "n": n, "space": st.Power + 1, "track": st.PowerTrack,
		"left": st.LastSpace() - st.Power, "reason": reason,
	}}}
	if st.Power >= st.LastSpace() {
		st.Result = ResultLost
		out = append(out, Outcome{Kind: KindGameLost, Vars: Vars{"faction": factionName(c, st.Opposing)}})
	}
	return st, out
}

// Power applies a quest reward that advances a faction by n: the opposing
// faction's token moves; a reward for the loyal faction resolves the
// scenario's "+" effect n times instead (seed 003 "Factions"). The "+"
// effect's XP goes to the named survivor (default: the first player); caps
// likewise; C.A.M.P. tokens go to the group.
func Power(c *models.Content, st State, faction string, n int, survivor string) (State, []Outcome, error) {
	st = st.Clone()
	if n < 0 {
		return st, nil, fmt.Errorf("power: use retreat for negative values")
	}
	if err := inRange("power", n, 0, MaxStep); err != nil {
		return st, nil, err
	}
	switch faction {
	case st.Opposing, "":
		st, out := advance(c, st, n, "reward")
		return st, out, nil
	case st.Loyal:
		sc, _ := c.Scenario(st.Scenario)
		side, _ := sc.Side(st.Loyal)
		i := st.FirstPlayer
		if survivor != "" {
			i = st.Survivor(survivor)
			if i < 0 {
				return st, nil, fmt.Errorf("power: unknown survivor %q", survivor)
			}
		}
		p := side.Plus
		s := st.Survivors[i]
		if s.XP+p.XP*n > MaxXP || s.Caps+p.Caps*n > MaxCaps || st.Camps+p.Camps*n > MaxCamps {
			return st, nil, fmt.Errorf("power: %d times the loyal faction's reward would pass the most XP (%d), caps (%d) or C.A.M.P. tokens (%d) tablecam keeps", n, MaxXP, MaxCaps, MaxCamps)
		}
		st.Survivors[i].XP += p.XP * n
		st.Survivors[i].Caps += p.Caps * n
		st.Camps += p.Camps * n
		return st, []Outcome{{Kind: KindLoyalPlus, Vars: Vars{
			"faction": factionName(c, st.Loyal), "n": n, "label": p.Label, "survivor": st.Survivors[i].Name,
			"xp": p.XP * n, "caps": p.Caps * n, "camps": p.Camps * n,
		}}}, nil
	default:
		return st, nil, fmt.Errorf("power: faction %q is not in this scenario (%s or %s)", faction, st.Loyal, st.Opposing)
	}
}

// Retreat moves the power token back n spaces (not below the first).
func Retreat(c *models.Content, st State, n int, reason string) (State, []Outcome) {
	st = st.Clone()
	if n <= 0 || st.Over() {
		return st, nil
	}
	st.Power -= n
	if st.Power < 0 {
		st.Power = 0
	}
	return st, []Outcome{{Kind: KindPowerRetreat, Vars: Vars{
		"faction": factionName(c, st.Opposing), "n": n, "space": st.Power + 1, "track": st.PowerTrack,
		"left": st.LastSpace() - st.Power, "reason": reason,
	}}}
}

// CompleteGoal flips a goal. A goal completed when the required number is
// already reached retreats the power token 2 spaces (seed 003 "Goals").
// Reaching the required number wins at once when the victory switch is
// "goals"; otherwise the group confirms the sheet's Victory condition.
func CompleteGoal(c *models.Content, st State) (State, []Outcome) {
	st = st.Clone()
	if st.Over() {
		return st, nil
	}
	surplus := st.Goals >= st.GoalsRequired
	st.Goals++
	out := []Outcome{{Kind: KindGoal, Vars: Vars{"goals": st.Goals, "required": st.GoalsRequired}}}
	if surplus {
		out = append(out, Outcome{Kind: KindGoalSurplus, Vars: Vars{"n": st.Rules.SurplusGoalRetreat}})
		var o []Outcome
		st, o = Retreat(c, st, st.Rules.SurplusGoalRetreat, "surplus goal")
		out = append(out, o...)
		return st, out
	}
	if st.Goals == st.GoalsRequired {
		out = append(out, Outcome{Kind: KindGoalsReached, Vars: Vars{"goals": st.Goals}})
		if st.Rules.Victory == models.VictoryGoals {
			st.Result = ResultWon
			out = append(out, Outcome{Kind: KindGameWon, Vars: Vars{"goals": st.Goals}})
		}
	}
	return st, out
}

// Win ends the game as a win: the scenario's Victory condition is met. The
// required goals must be complete (seed 003 "Ending the game", "Goals").
func Win(c *models.Content, st State) (State, []Outcome, error) {
	st = st.Clone()
	if st.Over() {
		return st, nil, fmt.Errorf("the game is already over (%s)", st.Result)
	}
	if st.Goals < st.GoalsRequired {
		return st, nil, fmt.Errorf("victory needs %d completed goals, only %d are", st.GoalsRequired, st.Goals)
	}
	st.Result = ResultWon
	return st, []Outcome{{Kind: KindGameWon, Vars: Vars{"goals": st.Goals}}}, nil
}

func without(list []string, id string) []string {
	var out []string
	for _, x := range list {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// ReplacementID names the token that replaces a killed enemy: the killed
// one's id with a generation number (e3 -> e3.2 -> e3.3). Ids of enemies
// placed later never depend on how fights went, so correcting a reading
// never renames them.
func ReplacementID(id string) string {
	base, gen := id, 1
	if i := strings.LastIndexByte(id, '.'); i > 0 {
		if n, err := strconv.Atoi(id[i+1:]); err == nil {
			base, gen = id[:i], n
		}
	}
	return fmt.Sprintf("%s.%d", base, gen+1)
}
