package engine

// Exact odds for V.A.T.S. rolls (rules-fallout-bg.md "Tests" and "Fights").
//
// A roll is a multiset of face indices (the dice are identical, so order
// does not matter), plus the face of the optional assist die. With r rerolls
// left the player either stops or rerolls any subset of the dice; the
// planner computes the optimal policy by dynamic programming over
// (multiset, rerolls left). All numbers are sums of products of 1/len(faces):
// exact up to float64 rounding, no sampling.
//
// Rerolling a subset means keeping a sub-multiset K of the roll and rolling
// the other dice fresh, so the value of a reroll only depends on K. For every
// multiset K of at most n dice the planner computes
//
//	W(K) = mean over faces f of W(K+f)    (W(full roll) = value one level down)
//	U(K) = best of W(K) and U(K-f) for every face f in K
//
// and the best reroll from a full roll s is U(s) without the "keep all"
// option. That is C(n+m, m) states with m steps each per reroll level, so
// three dice take microseconds and eight dice stay fast.

import (
	"fmt"
	"math"

	"tablecam/models"
)

// MaxOddsDice is the largest number of dice the odds functions accept.
const MaxOddsDice = 8

// MaxOddsRerolls is the largest number of rerolls the odds functions accept.
const MaxOddsRerolls = 16

// Damage kinds reported in Odds.DamageKind.
const (
	DamageKindHP   = "damage" // Odds.Damage counts HP damage
	DamageKindRads = "rads"   // Odds.Damage counts rads (radiated enemy, Rules.Radiated "instead")
)

// maxOddsStates bounds the number of multisets of the state space.
const maxOddsStates = 1 << 20

// valueEps is the tolerance under which two probabilities (or two expected
// harms) count as equal when the planner breaks ties.
const valueEps = 1e-12

// Goal decides whether a final roll succeeds. The faces are the main dice in
// no particular order (implementations must not depend on the order); extra
// is the assist die's face, or nil when no assist die is rolled.
type Goal interface {
	Success(faces []models.Face, extra *models.Face) bool
}

// Harmer is an optional extension of Goal: among policies with the same
// success probability, the planner prefers the one with the lowest expected
// harm of the final roll.
type Harmer interface {
	Harm(faces []models.Face, extra *models.Face) float64
}

// TestGoal is a test (seed 000 "Proben ablegen"): success if the hits shown
// are at least Difficulty. Regions are ignored; an extra die's hits count.
type TestGoal struct {
	Difficulty int
}

// Validate reports a negative difficulty.
func (g TestGoal) Validate() error {
	if g.Difficulty < 0 {
		return fmt.Errorf("odds: test difficulty must be 0 or more, got %d", g.Difficulty)
	}
	return nil
}

// Success reports whether the faces (plus the extra die, if any) show at
// least Difficulty hits.
func (g TestGoal) Success(faces []models.Face, extra *models.Face) bool {
	h := HitsOf(faces)
	if extra != nil {
		h += extra.Hits
	}
	return h >= g.Difficulty
}

// FightGoal is a fight against one enemy token (seed 000 "[V] Kampf", seed
// 003 "Assisting"): the survivor wants to kill the token with the same roll
// that decides the enemy's damage. Armor is the number of armor icons on the
// survivor's apparel, Ranged whether the survivor's weapon is ranged, Rules
// the rule switches (empty switch values take the content pack defaults:
// negate-hit, instead, survivor).
type FightGoal struct {
	Token  models.EnemyToken
	Armor  int
	Ranged bool
	Rules  models.Rules
}

// Validate reports a token or rule switch the fight rules cannot use.
func (g FightGoal) Validate() error {
	if g.Token.Level < 1 {
		return fmt.Errorf("odds: enemy token %q has level %d; need 1 or more", g.Token.ID, g.Token.Level)
	}
	if g.Token.Armor < 0 {
		return fmt.Errorf("odds: enemy token %q has negative armor %d", g.Token.ID, g.Token.Armor)
	}
	if g.Armor < 0 {
		return fmt.Errorf("odds: survivor armor must be 0 or more, got %d", g.Armor)
	}
	if g.Rules.RangedBonus < 0 {
		return fmt.Errorf("odds: ranged bonus must be 0 or more, got %d", g.Rules.RangedBonus)
	}
	switch g.Rules.EnemyArmor {
	case "", models.ArmorNegateHit, models.ArmorExtraHit:
	default:
		return fmt.Errorf("odds: unknown enemy_armor rule %q (want %q or %q)",
			g.Rules.EnemyArmor, models.ArmorNegateHit, models.ArmorExtraHit)
	}
	switch g.Rules.Radiated {
	case "", models.RadiatedInstead, models.RadiatedAdditional:
	default:
		return fmt.Errorf("odds: unknown radiated rule %q (want %q or %q)",
			g.Rules.Radiated, models.RadiatedInstead, models.RadiatedAdditional)
	}
	switch g.Rules.AssistHits {
	case "", models.AssistHitsSurvivor, models.AssistHitsEnemy:
	default:
		return fmt.Errorf("odds: unknown assist_hits rule %q (want %q or %q)",
			g.Rules.AssistHits, models.AssistHitsSurvivor, models.AssistHitsEnemy)
	}
	return nil
}

// rules returns the rule switches with empty values set to the content
// pack defaults (negate-hit, instead, survivor).
func (g FightGoal) rules() models.Rules {
	r := g.Rules
	if r.EnemyArmor == "" {
		r.EnemyArmor = models.ArmorNegateHit
	}
	if r.Radiated == "" {
		r.Radiated = models.RadiatedInstead
	}
	if r.AssistHits == "" {
		r.AssistHits = models.AssistHitsSurvivor
	}
	return r
}

// Resolve works out the whole fight for one final roll with FightMath, the
// same arithmetic the fight resolver uses (empty rule switches take the
// content pack defaults).
func (g FightGoal) Resolve(faces []models.Face, extra *models.Face) FightResult {
	return FightMath(g.rules(), g.Token, g.Armor, g.Ranged, faces, extra)
}

// Needed is the number of survivor hits that kills the token: its level, plus
// one for an armored token under the "extra-hit" armor rule.
func (g FightGoal) Needed() int {
	return g.Resolve(nil, nil).Needed
}

// Hits counts the survivor's hits on the token after its armor (see
// FightMath): one per die showing any vulnerable region, the ranged bonus,
// the assist die's hits when they count for the survivor, minus the armor
// icons under "negate-hit", never below 0.
func (g FightGoal) Hits(faces []models.Face, extra *models.Face) int {
	return g.Resolve(faces, extra).SurvivorHits
}

// Success reports whether the roll kills the token.
func (g FightGoal) Success(faces []models.Face, extra *models.Face) bool {
	return g.Resolve(faces, extra).Killed
}

// Harm is the survivor's damage plus rads plus the assistant's damage; the
// planner minimises it among equally likely ways to kill.
func (g FightGoal) Harm(faces []models.Face, extra *models.Face) float64 {
	r := g.Resolve(faces, extra)
	return float64(r.Damage + r.Rads + r.AssistDamage)
}

// damageKind is the kind Odds.Damage reports for this goal.
func (g FightGoal) damageKind() string {
	if g.Token.Has(models.AbilityRadiated) && g.rules().Radiated == models.RadiatedInstead {
		return DamageKindRads
	}
	return DamageKindHP
}

// HitsOf sums the hit icons shown by the faces.
func HitsOf(faces []models.Face) int {
	h := 0
	for _, f := range faces {
		h += f.Hits
	}
	return h
}

// FightHits counts the survivor's hits on token t from the V.A.T.S. faces
// alone (no assist die), after the token's armor under the "negate-hit" rule;
// the token dies when the result reaches FightGoal.Needed (its level, or
// level+1 for an armored token under "extra-hit").
func FightHits(faces []models.Face, t models.EnemyToken, ranged bool, r models.Rules) int {
	return FightGoal{Token: t, Ranged: ranged, Rules: r}.Hits(faces, nil)
}

// Odds are the exact chances of a roll under the optimal reroll policy.
type Odds struct {
	// P is the probability of success (test) or of killing the enemy (fight).
	P float64
	// PByRerolls[r] is the success probability with r rerolls, r = 0..Rerolls.
	PByRerolls []float64
	// Rerolls is the number of rerolls available.
	Rerolls int
	// Dice is the number of V.A.T.S. dice rolled (without the assist die).
	Dice int
	// Needed is the test difficulty or the hits needed to kill.
	Needed int
	// ExpectedRerollsUsed is the mean number of rerolls the policy spends.
	ExpectedRerollsUsed float64
	// Damage maps damage (or rads, see DamageKind) to its probability (fights only).
	Damage map[int]float64
	// DamageKind says whether Damage counts HP damage or rads (fights only).
	DamageKind string
	// ExpectedDamage is the mean of Damage.
	ExpectedDamage float64
	// Rads maps the extra rads a radiated enemy deals under the "additional"
	// rule to their probability (nil otherwise).
	Rads map[int]float64
	// ExpectedRads is the mean of Rads.
	ExpectedRads float64
	// AssistDamage maps the assistant's damage to its probability (nil without assist die).
	AssistDamage map[int]float64
	// PAssistHurt is the probability that the assistant suffers damage.
	PAssistHurt float64
	// ExpectedAssistDamage is the mean of AssistDamage.
	ExpectedAssistDamage float64
}

// Advice is the best move for a roll on the table.
type Advice struct {
	// Reroll lists the indices into the current faces to reroll now, in
	// increasing order; empty means keep the roll.
	Reroll []int
	// RerollAssist is true when the assist die should be rerolled now.
	RerollAssist bool
	// P is the success probability when following the advice and playing
	// the remaining rerolls optimally.
	P float64
	// PIfKeep is the success probability of keeping the roll (0 or 1).
	PIfKeep float64
	// PIfReroll is the success probability of the best reroll of at least
	// one die (equal to PIfKeep when no reroll is left).
	PIfReroll float64
	// HarmIfKeep is the harm (Harmer goals) of keeping the roll.
	HarmIfKeep float64
	// HarmIfReroll is the expected harm after the best reroll of at least one die.
	HarmIfReroll float64
}

// TestOdds is the probability of passing a test of the given difficulty
// with dice V.A.T.S. dice of face set fs and rerolls rerolls, each of which
// rerolls any subset of the dice once (seed 000 "Proben ablegen").
func TestOdds(fs models.FaceSet, dice, difficulty, rerolls int) (Odds, error) {
	g := TestGoal{Difficulty: difficulty}
	if err := g.Validate(); err != nil {
		return Odds{}, err
	}
	pr, err := newProblem(fs, dice, nil, rerolls)
	if err != nil {
		return Odds{}, err
	}
	pr.evaluate(g)
	pl := pr.solve(rerolls)
	final, used := pl.forward()
	o := Odds{Rerolls: rerolls, Dice: dice, Needed: difficulty, ExpectedRerollsUsed: used,
		PByRerolls: pl.pByRerolls()}
	for i, w := range final {
		o.P += w * pr.stopP[i]
	}
	return o, nil
}

// FightOdds is the probability of killing g.Token with dice V.A.T.S. dice of
// face set fs, an optional assist die of face set assist (rerollable with
// the others) and rerolls rerolls, with the distribution of the damage the
// survivor and the assistant suffer under the same policy. The policy
// maximises the kill probability and, among equally likely ways to kill,
// minimises the expected harm (FightGoal.Harm).
func FightOdds(fs models.FaceSet, dice int, g FightGoal, assist *models.FaceSet, rerolls int) (Odds, error) {
	if err := g.Validate(); err != nil {
		return Odds{}, err
	}
	pr, err := newProblem(fs, dice, assist, rerolls)
	if err != nil {
		return Odds{}, err
	}
	results := pr.evaluate(g)
	pl := pr.solve(rerolls)
	final, used := pl.forward()
	o := Odds{Rerolls: rerolls, Dice: dice, Needed: g.Needed(), ExpectedRerollsUsed: used,
		PByRerolls: pl.pByRerolls(), Damage: map[int]float64{}, DamageKind: g.damageKind()}
	radsExtra := g.Token.Has(models.AbilityRadiated) && g.rules().Radiated == models.RadiatedAdditional
	if radsExtra {
		o.Rads = map[int]float64{}
	}
	if assist != nil {
		o.AssistDamage = map[int]float64{}
	}
	for i, w := range final {
		if w == 0 {
			continue
		}
		r := results[i]
		if r.Killed {
			o.P += w
		}
		d := r.Damage
		if o.DamageKind == DamageKindRads {
			d = r.Rads
		}
		o.Damage[d] += w
		o.ExpectedDamage += w * float64(d)
		if radsExtra {
			o.Rads[r.Rads] += w
			o.ExpectedRads += w * float64(r.Rads)
		}
		if assist != nil {
			o.AssistDamage[r.AssistDamage] += w
			o.ExpectedAssistDamage += w * float64(r.AssistDamage)
			if r.AssistDamage > 0 {
				o.PAssistHurt += w
			}
		}
	}
	return o, nil
}

// RerollAdvice says which of the current dice (faces of fs, matched by ID)
// to reroll now, with rerolls rerolls left including this one, to reach goal
// g; assist and assistFace describe the assist die (both nil without one).
// Goals that are Harmers break ties by the lower expected harm.
func RerollAdvice(fs models.FaceSet, current []models.Face, assist *models.FaceSet, assistFace *models.Face, g Goal, rerolls int) (Advice, error) {
	if g == nil {
		return Advice{}, fmt.Errorf("odds: no goal given")
	}
	if (assist == nil) != (assistFace == nil) {
		return Advice{}, fmt.Errorf("odds: assist face set and assist face must be given together")
	}
	if v, ok := g.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return Advice{}, err
		}
	}
	pr, err := newProblem(fs, len(current), assist, rerolls)
	if err != nil {
		return Advice{}, err
	}
	idx := make([]int, len(current))
	buf := make([]uint8, pr.sp.m)
	for j, f := range current {
		fi := faceIndex(fs, f.ID)
		if fi < 0 {
			return Advice{}, fmt.Errorf("odds: die %d shows face %q, which face set %q does not have", j, f.ID, fs.ID)
		}
		idx[j] = fi
		buf[fi]++
	}
	a := 0
	if assist != nil {
		a = faceIndex(*assist, assistFace.ID)
		if a < 0 {
			return Advice{}, fmt.Errorf("odds: assist die shows face %q, which face set %q does not have", assistFace.ID, assist.ID)
		}
	}
	pr.evaluate(g)
	pl := pr.solve(rerolls)
	st := int(pr.sp.fpos[pr.sp.index[string(buf)]])*pr.na + a
	adv := Advice{PIfKeep: pr.stopP[st], HarmIfKeep: pr.stopH[st]}
	adv.P, adv.PIfReroll, adv.HarmIfReroll = adv.PIfKeep, adv.PIfKeep, adv.HarmIfKeep
	if rerolls == 0 {
		return adv, nil
	}
	adv.PIfReroll, adv.HarmIfReroll = pl.reP[rerolls][st], pl.reH[rerolls][st]
	code := pl.act[rerolls][st]
	if code < 0 {
		return adv, nil
	}
	adv.P = adv.PIfReroll
	adv.RerollAssist = code&1 == 1
	kept := pr.sp.cnt[int(code>>1)*pr.sp.m:][:pr.sp.m]
	left := append([]uint8(nil), kept...)
	for j, fi := range idx {
		if left[fi] > 0 {
			left[fi]--
			continue
		}
		adv.Reroll = append(adv.Reroll, j)
	}
	return adv, nil
}

func faceIndex(fs models.FaceSet, id string) int {
	for i, f := range fs.Faces {
		if f.ID == id {
			return i
		}
	}
	return -1
}

// mspace enumerates every multiset of at most n dice over m faces, by
// increasing size (children have larger ids than their parents).
type mspace struct {
	m, n  int
	cnt   []uint8 // id*m+f: how many dice show face f
	size  []uint8
	add   []int32 // id*m+f: the multiset with one more f (-1 when full)
	sub   []int32 // id*m+f: the multiset with one f less (-1 when none)
	full  []int32 // ids of the multisets of n dice
	fpos  []int32 // id: position in full, or -1
	pInit []float64
	index map[string]int32
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func newSpace(m, n int) (*mspace, error) {
	total := binomial(n+m, m)
	if total > maxOddsStates {
		return nil, fmt.Errorf("odds: %d dice of %d faces are too many combinations (%.0f)", n, m, total)
	}
	t := int(total)
	sp := &mspace{m: m, n: n,
		cnt:   make([]uint8, m, t*m),
		size:  make([]uint8, 1, t),
		add:   make([]int32, t*m),
		sub:   make([]int32, t*m),
		index: make(map[string]int32, t),
	}
	for i := range sp.add {
		sp.add[i], sp.sub[i] = -1, -1
	}
	sp.index[string(sp.cnt[:m])] = 0
	buf := make([]uint8, m)
	for start, level := 0, 0; level < n; level++ {
		end := len(sp.size)
		for k := start; k < end; k++ {
			for f := 0; f < m; f++ {
				copy(buf, sp.cnt[k*m:(k+1)*m])
				buf[f]++
				id, ok := sp.index[string(buf)]
				if !ok {
					id = int32(len(sp.size))
					sp.index[string(buf)] = id
					sp.cnt = append(sp.cnt, buf...)
					sp.size = append(sp.size, uint8(level+1))
				}
				sp.add[k*m+f] = id
				sp.sub[int(id)*m+f] = int32(k)
			}
		}
		start = end
	}
	sp.fpos = make([]int32, len(sp.size))
	for k := range sp.size {
		sp.fpos[k] = -1
		if int(sp.size[k]) == n {
			sp.fpos[k] = int32(len(sp.full))
			sp.full = append(sp.full, int32(k))
		}
	}
	// Probability of each full multiset: add one uniform die at a time.
	mass := make([]float64, len(sp.size))
	mass[0] = 1
	sp.push(mass, 1)
	sp.pInit = make([]float64, len(sp.full))
	for i, k := range sp.full {
		sp.pInit[i] = mass[k]
	}
	return sp, nil
}

// push spreads the mass of every multiset that is not full over its
// children (one more uniform die) until all mass sits on full multisets;
// mass holds na values per multiset.
func (sp *mspace) push(mass []float64, na int) {
	inv := 1 / float64(sp.m)
	for k := range sp.size {
		if int(sp.size[k]) == sp.n {
			break
		}
		for a := range na {
			w := mass[k*na+a]
			if w == 0 {
				continue
			}
			mass[k*na+a] = 0
			w *= inv
			for f := range sp.m {
				mass[int(sp.add[k*sp.m+f])*na+a] += w
			}
		}
	}
}

// problem is a roll to plan: the state space, the assist die and the stop
// value (success, harm) of every final roll, indexed fullPos*na + assistFace.
type problem struct {
	sp     *mspace
	fs     models.FaceSet
	assist *models.FaceSet
	na     int
	stopP  []float64
	stopH  []float64
}

func checkFaceSet(fs models.FaceSet, what string) error {
	if len(fs.Faces) == 0 {
		return fmt.Errorf("odds: %s face set %q has no faces", what, fs.ID)
	}
	if fs.Kind == models.KindNumeric {
		return fmt.Errorf("odds: %s face set %q is numeric; odds need a symbol face set (hits, regions)", what, fs.ID)
	}
	for _, f := range fs.Faces {
		if f.Hits < 0 || f.Hurt < 0 {
			return fmt.Errorf("odds: %s face set %q: face %q has negative hits or hurt icons", what, fs.ID, f.ID)
		}
	}
	return nil
}

func newProblem(fs models.FaceSet, dice int, assist *models.FaceSet, rerolls int) (*problem, error) {
	if dice < 1 || dice > MaxOddsDice {
		return nil, fmt.Errorf("odds: need 1 to %d dice, got %d", MaxOddsDice, dice)
	}
	if rerolls < 0 || rerolls > MaxOddsRerolls {
		return nil, fmt.Errorf("odds: rerolls must be 0 to %d, got %d", MaxOddsRerolls, rerolls)
	}
	if err := checkFaceSet(fs, "dice"); err != nil {
		return nil, err
	}
	na := 1
	if assist != nil {
		if err := checkFaceSet(*assist, "assist"); err != nil {
			return nil, err
		}
		na = len(assist.Faces)
	}
	sp, err := newSpace(len(fs.Faces), dice)
	if err != nil {
		return nil, err
	}
	return &problem{sp: sp, fs: fs, assist: assist, na: na}, nil
}

// evaluate fills the stop values from the goal; for a FightGoal it returns
// the fight result of every final roll.
func (pr *problem) evaluate(g Goal) []FightResult {
	sp := pr.sp
	n := len(sp.full) * pr.na
	pr.stopP = make([]float64, n)
	pr.stopH = make([]float64, n)
	fg, isFight := g.(FightGoal)
	harmer, _ := g.(Harmer)
	var results []FightResult
	if isFight {
		results = make([]FightResult, n)
	}
	faces := make([]models.Face, 0, sp.n)
	for i, k := range sp.full {
		faces = faces[:0]
		for f, c := range sp.cnt[int(k)*sp.m : (int(k)+1)*sp.m] {
			for range c {
				faces = append(faces, pr.fs.Faces[f])
			}
		}
		for a := range pr.na {
			var extra *models.Face
			if pr.assist != nil {
				extra = &pr.assist.Faces[a]
			}
			st := i*pr.na + a
			switch {
			case isFight:
				r := fg.Resolve(faces, extra)
				results[st] = r
				if r.Killed {
					pr.stopP[st] = 1
				}
				pr.stopH[st] = float64(r.Damage + r.Rads + r.AssistDamage)
			default:
				if g.Success(faces, extra) {
					pr.stopP[st] = 1
				}
				if harmer != nil {
					pr.stopH[st] = harmer.Harm(faces, extra)
				}
			}
		}
	}
	return results
}

// better reports whether (p1, h1) beats (p2, h2): a higher success
// probability, or the same probability and a lower harm.
func better(p1, h1, p2, h2 float64) bool {
	if p1 > p2+valueEps {
		return true
	}
	if p1 < p2-valueEps {
		return false
	}
	return h1 < h2-valueEps*math.Max(1, math.Abs(h2))
}

// plan is the optimal policy. Per level r (rerolls left) and final state:
// vP/vH the value, reP/reH the best reroll of at least one die, act that
// reroll's code (kept multiset id<<1 | assist rerolled) or -1 to stop.
type plan struct {
	pr       *problem
	vP, vH   [][]float64
	reP, reH [][]float64
	act      [][]int32
}

func (pr *problem) solve(rerolls int) *plan {
	sp, na, m := pr.sp, pr.na, pr.sp.m
	nK, nF := len(sp.size), len(sp.full)
	pl := &plan{pr: pr,
		vP: make([][]float64, rerolls+1), vH: make([][]float64, rerolls+1),
		reP: make([][]float64, rerolls+1), reH: make([][]float64, rerolls+1),
		act: make([][]int32, rerolls+1),
	}
	pl.vP[0], pl.vH[0] = pr.stopP, pr.stopH
	if rerolls == 0 {
		return pl
	}
	hasAssist := pr.assist != nil
	inv, invA := 1/float64(m), 1/float64(na)
	wP, wH := make([]float64, nK*na), make([]float64, nK*na)
	uP, uH := make([]float64, nK*na), make([]float64, nK*na)
	uc := make([]int32, nK*na)
	var fP, fH []float64
	if hasAssist {
		fP, fH = make([]float64, nK), make([]float64, nK)
	}
	for r := 1; r <= rerolls; r++ {
		prevP, prevH := pl.vP[r-1], pl.vH[r-1]
		// W: value of keeping multiset k (and assist face a), rolling the rest.
		for i, k := range sp.full {
			copy(wP[int(k)*na:int(k+1)*na], prevP[i*na:(i+1)*na])
			copy(wH[int(k)*na:int(k+1)*na], prevH[i*na:(i+1)*na])
		}
		for k := nK - 1; k >= 0; k-- {
			if int(sp.size[k]) == sp.n {
				continue
			}
			for a := range na {
				var sP, sH float64
				for f := range m {
					c := int(sp.add[k*m+f])*na + a
					sP += wP[c]
					sH += wH[c]
				}
				wP[k*na+a], wH[k*na+a] = sP*inv, sH*inv
			}
		}
		if hasAssist {
			for k := range nK {
				var sP, sH float64
				for a := range na {
					sP += wP[k*na+a]
					sH += wH[k*na+a]
				}
				fP[k], fH[k] = sP*invA, sH*invA
			}
		}
		// U: best reroll that keeps a sub-multiset of k.
		reP, reH := make([]float64, nF*na), make([]float64, nF*na)
		act := make([]int32, nF*na)
		vP, vH := make([]float64, nF*na), make([]float64, nF*na)
		for k := range nK {
			isFull := int(sp.size[k]) == sp.n
			for a := range na {
				bp, bh, bc := -1.0, math.Inf(1), int32(-2)
				if !isFull { // keeping all of a full roll is not a reroll
					bp, bh, bc = wP[k*na+a], wH[k*na+a], int32(k)<<1
				}
				if hasAssist && better(fP[k], fH[k], bp, bh) {
					bp, bh, bc = fP[k], fH[k], int32(k)<<1|1
				}
				for f := range m {
					j := sp.sub[k*m+f]
					if j < 0 {
						continue
					}
					c := int(j)*na + a
					if better(uP[c], uH[c], bp, bh) {
						bp, bh, bc = uP[c], uH[c], uc[c]
					}
				}
				uP[k*na+a], uH[k*na+a], uc[k*na+a] = bp, bh, bc
				if isFull {
					st := int(sp.fpos[k])*na + a
					reP[st], reH[st] = bp, bh
					if better(bp, bh, pr.stopP[st], pr.stopH[st]) {
						vP[st], vH[st], act[st] = bp, bh, bc
					} else {
						vP[st], vH[st], act[st] = pr.stopP[st], pr.stopH[st], -1
					}
				}
			}
		}
		pl.vP[r], pl.vH[r], pl.reP[r], pl.reH[r], pl.act[r] = vP, vH, reP, reH, act
	}
	return pl
}

// pByRerolls is the success probability of the initial roll for every
// number of rerolls up to the plan's.
func (pl *plan) pByRerolls() []float64 {
	sp, na := pl.pr.sp, pl.pr.na
	out := make([]float64, len(pl.vP))
	for r, v := range pl.vP {
		for i, p := range sp.pInit {
			var s float64
			for a := range na {
				s += v[i*na+a]
			}
			out[r] += p * s / float64(na)
		}
	}
	return out
}

// forward follows the policy from the initial roll and returns the
// probability of every final state and the expected number of rerolls used.
func (pl *plan) forward() ([]float64, float64) {
	pr := pl.pr
	sp, na := pr.sp, pr.na
	nK := len(sp.size)
	cur := make([]float64, len(sp.full)*na)
	for i, p := range sp.pInit {
		for a := range na {
			cur[i*na+a] = p / float64(na)
		}
	}
	final := make([]float64, len(cur))
	used := 0.0
	part := make([]float64, nK*na)
	var fresh []float64
	if pr.assist != nil {
		fresh = make([]float64, nK)
	}
	for r := len(pl.act) - 1; r >= 1; r-- {
		act := pl.act[r]
		for st, w := range cur {
			if w == 0 {
				continue
			}
			c := act[st]
			if c < 0 {
				final[st] += w
				continue
			}
			used += w
			k := int(c >> 1)
			if c&1 == 1 {
				fresh[k] += w
			} else {
				part[k*na+st%na] += w
			}
		}
		if fresh != nil {
			for k, w := range fresh {
				if w == 0 {
					continue
				}
				fresh[k] = 0
				for a := range na {
					part[k*na+a] += w / float64(na)
				}
			}
		}
		sp.push(part, na)
		for i, k := range sp.full {
			for a := range na {
				cur[i*na+a] = part[int(k)*na+a]
				part[int(k)*na+a] = 0
			}
		}
	}
	for st, w := range cur {
		final[st] += w
	}
	return final, used
}
