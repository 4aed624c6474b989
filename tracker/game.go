package tracker

import (
	"fmt"
	"strings"

	"tablecam/engine"
	"tablecam/engine/twom"
	"tablecam/models"
)

// Tracker-level outcome kinds (engine kinds are in engine/outcome.go).
const (
	KindFightPending = "fight.pending"
	KindFightPrompt  = "fight.prompt"
	KindContextTest  = "context.test"
	KindContextFight = "context.fight"
	KindContextClear = "context.clear"
	KindUndo         = "undo"
	KindRedo         = "redo"
	KindNothingUndo  = "undo.nothing"
	KindNothingRedo  = "redo.nothing"
	KindCorrect      = "correct"
	KindNoted        = "noted"
	KindSkipped      = "skipped"
	KindRecomputed   = "recomputed"
	KindRestedUsed   = "survivor.rested_used"
	KindUncertain    = "roll.uncertain"
)

// Pending is a roll in progress: its context, the current faces and the
// rerolls left. A test or fight resolves when the rerolls are used up or the
// group says done.
type Pending struct {
	Context     RollContext `json:"context"`
	Set         string      `json:"set"`
	Faces       []string    `json:"faces,omitempty"`
	Assist      string      `json:"assist,omitempty"`
	Rolled      bool        `json:"rolled"`
	RerollsLeft int         `json:"rerolls_left"`
	// Rested: the last reroll is the survivor's Well Rested trait, discarded
	// when used (seed 000 "Eigenschaften").
	Rested  bool   `json:"rested,omitempty"`
	RollSeq int64  `json:"roll_seq,omitempty"`
	Frame   string `json:"frame,omitempty"`
	// Uncertain dice of the last reading (1-based; 0 = assist die).
	Uncertain []int `json:"uncertain,omitempty"`
}

// RollRecord is one observed roll, for the roll-proof trail and fairness
// statistics.
type RollRecord struct {
	Seq    int64    `json:"seq"`
	Set    string   `json:"set"`
	Faces  []string `json:"faces"`
	Assist string   `json:"assist,omitempty"`
	Source string   `json:"source,omitempty"`
	Frame  string   `json:"frame,omitempty"`
}

// Game is the tracked game: the rules state plus the session's roll flow.
// While the enemy turn waits for a fight (State.Waiting), Pending is that
// fight.
type Game struct {
	Started bool `json:"started"`
	// Kind is the game played: "" for Fallout: The Board Game (State),
	// else a game id of Games() whose state is the field of that name.
	Kind      string         `json:"kind,omitempty"`
	State     engine.State   `json:"state"`
	Pending   *Pending       `json:"pending,omitempty"`
	Rolls     []RollRecord   `json:"rolls,omitempty"`
	Twom      *twom.Game     `json:"twom,omitempty"`
	Warfare   *WarfareGame   `json:"warfare,omitempty"`
	Wasteland *WastelandGame `json:"wasteland,omitempty"`
}

func (g Game) clone() Game {
	c := g
	c.State = g.State.Clone()
	if g.Pending != nil {
		p := *g.Pending
		p.Faces = append([]string(nil), g.Pending.Faces...)
		c.Pending = &p
	}
	// The other games' states are never changed in place: each event
	// makes a new one (and the engines copy what they change).
	// Rolls is append-only: sharing the backing array is safe because no
	// element is ever changed and each game appends past its own length.
	return c
}

type outs = []engine.Outcome

func one(kind string, v engine.Vars) outs { return outs{{Kind: kind, Vars: v}} }

// apply applies one mutating event to the game. It is pure: the same game
// and event give the same result.
func apply(c *models.Content, g Game, seq int64, ev Event) (Game, outs, error) {
	g = g.clone()
	// Dice can be read before a game is set up (tablecam as a dice reader):
	// without a game there is no context, so the roll's faces are announced.
	if ev.Type != EvSetup && ev.Type != EvRoll && !g.Started {
		return g, nil, fmt.Errorf("no game set up yet: start with setup (e.g. `setup commonwealth loyal railroad survivors alice bob`)")
	}
	if ev.Type == EvSetup && ev.Move != nil {
		return setupGame(ev)
	}
	if g.Started && g.Kind != "" && ev.Type != EvSetup {
		return applyGame(c, g, seq, ev)
	}
	if ev.Type == EvMove {
		return g, nil, fmt.Errorf("%s is a command of %s; this session plays %s", moveCmd(ev), gameName(moveGame(ev)), gameName(g.Kind))
	}
	if g.Started && g.State.Over() && ev.Type != EvSetup {
		return g, nil, fmt.Errorf("the game is over (%s); undo, or set up a new game", g.State.Result)
	}
	st := g.State
	var (
		o   outs
		err error
	)
	switch ev.Type {
	case EvSetup:
		if ev.Setup == nil {
			return g, nil, fmt.Errorf("setup: no setup data")
		}
		st, o, err = engine.New(c, *ev.Setup)
		if err == nil {
			g = Game{Started: true}
		}
	case EvContext:
		return setContext(c, g, ev)
	case EvRoll:
		return roll(c, g, seq, ev)
	case EvReroll:
		return reroll(c, g, seq, ev)
	case EvDone:
		if g.Pending == nil || !g.Pending.Rolled {
			return g, nil, fmt.Errorf("done: no roll is waiting")
		}
		return resolve(c, g)
	case EvCard:
		st, o, err = engine.Activate(c, st, ev.Card)
		if err == nil {
			g.Pending = nil
			g.State = st
			g, o = promptAttack(c, g, o)
			return g, o, nil
		}
	case EvRound:
		if g.Pending != nil && g.Pending.Rolled {
			return g, nil, fmt.Errorf("round: a roll is still waiting; say done first")
		}
		st, o, err = engine.EndRound(c, st)
	case EvFirst:
		st, o, err = engine.SetFirstPlayer(c, st, ev.Survivor)
	case EvGoal:
		st, o = engine.CompleteGoal(c, st)
	case EvWin:
		st, o, err = engine.Win(c, st)
	case EvPower:
		st, o, err = engine.Power(c, st, ev.Faction, ev.N, ev.Survivor)
	case EvRetreat:
		if ev.N <= 0 {
			return g, nil, fmt.Errorf("retreat: need a positive number of spaces")
		}
		st, o = engine.Retreat(c, st, ev.N, "manual")
	case EvAdjust:
		st, o, err = engine.Adjust(c, st, ev.Survivor, ev.Field, ev.N)
	case EvSet:
		st, err = engine.SetSurvivorFlag(c, st, ev.Survivor, ev.Field, ev.Value)
		o = one(KindNoted, engine.Vars{"what": ev.Survivor + " " + ev.Field + " " + ev.Value})
	case EvSetPower:
		st, o, err = engine.SetPower(c, st, ev.N-1)
	case EvSetGoals:
		st, o, err = engine.SetGoals(c, st, ev.N)
	case EvCamps:
		st, o, err = engine.AddCamps(c, st, ev.N)
	case EvEnemies:
		st, o, err = engine.SetEnemyCount(c, st, ev.Enemy, ev.N)
	case EvEnemy:
		switch ev.Op {
		case "add":
			st, o, err = engine.AddEnemy(c, st, engine.EnemySpec{Type: ev.Enemy, Token: ev.Token, Name: ev.Name,
				Inactive: ev.Active != nil && !*ev.Active, With: ev.With, Adjacent: ev.Adjacent})
		case "remove":
			st, o, err = engine.RemoveEnemy(c, st, ev.Enemy)
		case "place":
			st, o, err = engine.PlaceEnemy(c, st, ev.Enemy, engine.Placement{With: ev.With, Adjacent: ev.Adjacent,
				Active: ev.Active, Token: ev.Token, Name: ev.Name})
		default:
			err = fmt.Errorf("enemy: unknown operation %q (add, remove, place)", ev.Op)
		}
	default:
		err = fmt.Errorf("unknown event type %q", ev.Type)
	}
	if err != nil {
		return g, nil, err
	}
	g.State = st
	g, o = recheckTurn(c, g, o)
	return g, o, nil
}

// recheckTurn keeps a waiting enemy turn consistent with a change made
// while it waits (engine.RecheckTurn): when its attack can no longer happen,
// the turn goes on and the pending fight follows it.
func recheckTurn(c *models.Content, g Game, o outs) (Game, outs) {
	before, ok := g.State.Waiting()
	if !ok {
		return g, o
	}
	st, more := engine.RecheckTurn(c, g.State)
	g.State = st
	o = append(o, more...)
	if after, ok := st.Waiting(); !ok || after != before {
		g.Pending = nil
		g, o = promptAttack(c, g, o)
	}
	return g, o
}

// promptAttack makes the attack the enemy turn waits for the pending fight.
func promptAttack(c *models.Content, g Game, o outs) (Game, outs) {
	a, ok := g.State.Waiting()
	if !ok || g.State.Over() {
		return g, o
	}
	ctx := RollContext{Kind: CtxFight, Survivor: a.Survivor, Enemy: a.Enemy}
	g.Pending = newPending(g.State, ctx)
	s := g.State.Survivors[g.State.Survivor(a.Survivor)]
	v := engine.Vars{"enemy": engine.TypeName(c, a.Type, false), "id": g.State.AttackRef(c, a), "enemy_id": a.Enemy, "survivor": s.Name}
	o = append(o, engine.Outcome{Kind: KindFightPrompt, Vars: v})
	return g, o
}

// isAttack reports whether a roll context is the fight the enemy turn waits
// for (with or without an assistant or a reroll override).
func isAttack(ctx RollContext, a engine.Attack) bool {
	return ctx.Kind == CtxFight && !ctx.Draw && ctx.Survivor == a.Survivor && ctx.Enemy == a.Enemy
}

func newPending(st engine.State, ctx RollContext) *Pending {
	p := &Pending{Context: ctx, Set: "vats", RerollsLeft: rerollsFor(st, ctx)}
	if i := st.Survivor(ctx.Survivor); i >= 0 && ctx.Rerolls == nil && st.Survivors[i].WellRested {
		p.Rested = true
	}
	return p
}

func rerollsFor(st engine.State, ctx RollContext) int {
	if ctx.Rerolls != nil {
		return *ctx.Rerolls
	}
	i := st.Survivor(ctx.Survivor)
	if i < 0 {
		return 0
	}
	if ctx.Kind == CtxTest {
		return engine.TestRerolls(st.Survivors[i], ctx.Special)
	}
	if st.Survivors[i].WellRested {
		return 1
	}
	return 0
}

func setContext(c *models.Content, g Game, ev Event) (Game, outs, error) {
	if a, ok := g.State.Waiting(); ok {
		// The enemy turn goes on only after this fight: another context
		// would leave it waiting with nothing to roll.
		ctx := RollContext{}
		if ev.Context != nil {
			ctx = canonicalContext(c, g.State, *ev.Context)
		}
		if !isAttack(ctx, a) {
			return g, nil, fmt.Errorf("the enemy turn waits for %s: roll it first (`fight %s %s assist SURVIVOR` adds an assistant), or undo the card",
				engine.AttackText(c, &g.State, a), a.Survivor, g.State.AttackRef(c, a))
		}
	}
	if ev.Context == nil || ev.Context.Kind == CtxNone {
		g.Pending = nil
		return g, one(KindContextClear, nil), nil
	}
	ctx := canonicalContext(c, g.State, *ev.Context)
	if g.Pending != nil && g.Pending.Rolled {
		return g, nil, fmt.Errorf("a %s roll is still waiting; say done (or undo) first", g.Pending.Context.Kind)
	}
	st := g.State
	si := st.Survivor(ctx.Survivor)
	if si < 0 {
		return g, nil, fmt.Errorf("unknown survivor %q (known: %s)", ctx.Survivor, strings.Join(survivorIDs(st), ", "))
	}
	ctx.Survivor = st.Survivors[si].ID
	switch ctx.Kind {
	case CtxTest:
		if ctx.Difficulty < 0 {
			return g, nil, fmt.Errorf("test: difficulty must not be negative")
		}
		ctx.Special = strings.ToUpper(ctx.Special)
		for _, l := range ctx.Special {
			if !strings.ContainsRune("SPECIAL", l) {
				return g, nil, fmt.Errorf("test: %q is not a S.P.E.C.I.A.L. letter", string(l))
			}
		}
		g.Pending = newPending(st, ctx)
		return g, one(KindContextTest, engine.Vars{"survivor": st.Survivors[si].Name, "difficulty": ctx.Difficulty,
			"rerolls": g.Pending.RerollsLeft}), nil
	case CtxFight:
		typ, _, err := fightToken(c, st, ctx)
		if err != nil {
			return g, nil, err
		}
		if ctx.Assistant != "" {
			ai := st.Survivor(ctx.Assistant)
			if ai < 0 {
				return g, nil, fmt.Errorf("unknown assistant %q", ctx.Assistant)
			}
			if ai == si {
				return g, nil, fmt.Errorf("%s cannot assist their own fight", ctx.Assistant)
			}
			ctx.Assistant = st.Survivors[ai].ID
		}
		g.Pending = newPending(st, ctx)
		assistant := ""
		if ctx.Assistant != "" {
			assistant = st.Survivors[st.Survivor(ctx.Assistant)].Name
		}
		return g, one(KindContextFight, engine.Vars{"survivor": st.Survivors[si].Name, "enemy": engine.TypeName(c, typ, false),
			"rerolls": g.Pending.RerollsLeft, "assistant": assistant}), nil
	}
	return g, nil, fmt.Errorf("unknown roll context %q (test, fight)", ctx.Kind)
}

func survivorIDs(st engine.State) []string {
	ids := make([]string, len(st.Survivors))
	for i, s := range st.Survivors {
		ids[i] = s.ID
	}
	return ids
}

// fightToken finds the enemy of a fight context (engine.FightToken).
func fightToken(c *models.Content, st engine.State, ctx RollContext) (typ string, tok models.EnemyToken, err error) {
	typ, tok, _, err = engine.FightToken(c, &st, ctx.Enemy, ctx.Draw)
	return typ, tok, err
}

// canonicalContext names the context's survivor and map enemy by their ids,
// so the pending fight stays the same enemy whatever the group typed (a
// name, token or level) and compares with the attack the turn waits for.
// References that name nothing are kept for setContext to report.
func canonicalContext(c *models.Content, st engine.State, ctx RollContext) RollContext {
	if i := st.Survivor(ctx.Survivor); i >= 0 {
		ctx.Survivor = st.Survivors[i].ID
	}
	if ctx.Kind == CtxFight && !ctx.Draw {
		if _, _, i, err := engine.FightToken(c, &st, ctx.Enemy, false); err == nil && i >= 0 {
			ctx.Enemy = st.Enemies[i].ID
		}
	}
	return ctx
}

// faces turns face ids into faces of the set, with a clear error.
func faces(c *models.Content, set string, ids []string) ([]models.Face, error) {
	fs, ok := c.FaceSet(set)
	if !ok {
		return nil, fmt.Errorf("unknown dice set %q", set)
	}
	out := make([]models.Face, 0, len(ids))
	for _, id := range ids {
		f, ok := fs.Face(id)
		if !ok {
			return nil, fmt.Errorf("%s has no face %q (faces: %s)", fs.Name, id, strings.Join(fs.FaceIDs(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

func roll(c *models.Content, g Game, seq int64, ev Event) (Game, outs, error) {
	set := ev.Set
	if set == "" {
		set = "vats"
	}
	fs, err := faces(c, set, ev.Faces)
	if err != nil {
		return g, nil, err
	}
	if len(fs) == 0 {
		return g, nil, fmt.Errorf("roll: no dice")
	}
	if ev.Assist != "" {
		if _, err := faces(c, "assist", []string{ev.Assist}); err != nil {
			return g, nil, err
		}
	}
	g.Rolls = append(g.Rolls, RollRecord{Seq: seq, Set: set, Faces: ev.Faces, Assist: ev.Assist, Source: ev.Source, Frame: ev.Frame})
	for _, u := range ev.Uncertain {
		if u < 0 || u > len(fs) || (u == 0 && ev.Assist == "") {
			return g, nil, fmt.Errorf("roll: uncertain die %d is not in the roll", u)
		}
	}
	var unsure outs
	if len(ev.Uncertain) > 0 {
		var which []string
		for _, u := range ev.Uncertain {
			if u == 0 {
				a, err := faces(c, "assist", []string{ev.Assist})
				if err != nil {
					return g, nil, fmt.Errorf("roll: %w", err)
				}
				which = append(which, faceLabels(a)[0])
			} else {
				which = append(which, faceLabels(fs[u-1 : u])[0])
			}
		}
		unsure = one(KindUncertain, engine.Vars{"dice": ev.Uncertain, "faces": which, "seq": seq})
	}
	p := g.Pending
	if p == nil || set != "vats" {
		// No context: announce the faces and hits.
		return g, append(one(engine.KindRollFaces, engine.Vars{"set": set, "faces": faceLabels(fs), "hits": engine.RollHits(fs),
			"numeric": isNumeric(c, set), "scored": scored(c, set), "sum": sumValues(fs)}), unsure...), nil
	}
	var pre outs
	if p.Rolled {
		if p.RerollsLeft <= 0 {
			return g, nil, fmt.Errorf("roll: no rerolls left; say done to accept, or correct the reading")
		}
		p.RerollsLeft--
		if p.RerollsLeft == 0 && p.Rested {
			i := g.State.Survivor(p.Context.Survivor)
			g.State.Survivors[i].WellRested = false
			pre = one(KindRestedUsed, engine.Vars{"survivor": g.State.Survivors[i].Name})
		}
	}
	if ev.Assist != "" && (p.Context.Kind != CtxFight || p.Context.Assistant == "") {
		return g, nil, fmt.Errorf("roll: the assist die needs an assisting survivor: fight SURVIVOR ENEMY assist OTHER")
	}
	if p.Context.Kind == CtxFight && p.Context.Assistant != "" && ev.Assist == "" && p.Assist == "" {
		return g, nil, fmt.Errorf("roll: %s assists, so the roll needs the assist die (e.g. `roll head arms 2h assist hit`)", p.Context.Assistant)
	}
	p.Faces = append([]string(nil), ev.Faces...)
	if ev.Assist != "" {
		p.Assist = ev.Assist
	}
	p.Rolled, p.RollSeq, p.Frame = true, seq, ev.Frame
	p.Uncertain = append([]int(nil), ev.Uncertain...)
	g, o, err := progress(c, g)
	return g, append(append(pre, o...), unsure...), err
}

func reroll(c *models.Content, g Game, seq int64, ev Event) (Game, outs, error) {
	p := g.Pending
	if p == nil || !p.Rolled {
		return g, nil, fmt.Errorf("reroll: no roll is waiting")
	}
	if p.RerollsLeft <= 0 {
		return g, nil, fmt.Errorf("reroll: no rerolls left; say done to accept")
	}
	if len(ev.Dice) != len(ev.Faces) || len(ev.Dice) == 0 {
		return g, nil, fmt.Errorf("reroll: give die:face pairs, e.g. `reroll 2:legs`")
	}
	next := append([]string(nil), p.Faces...)
	assist := p.Assist
	for k, d := range ev.Dice {
		switch {
		case d == 0 && p.Context.Assistant != "":
			if _, err := faces(c, "assist", []string{ev.Faces[k]}); err != nil {
				return g, nil, err
			}
			assist = ev.Faces[k]
		case d >= 1 && d <= len(next):
			if _, err := faces(c, p.Set, ev.Faces[k:k+1]); err != nil {
				return g, nil, err
			}
			next[d-1] = ev.Faces[k]
		default:
			return g, nil, fmt.Errorf("reroll: die %d is not in the roll (1..%d)", d, len(next))
		}
	}
	return roll(c, g, seq, Event{Type: EvRoll, Set: p.Set, Faces: next, Assist: assist, Source: ev.Source, Frame: ev.Frame, Uncertain: ev.Uncertain})
}

// progress announces the pending roll; with no rerolls left it resolves.
func progress(c *models.Content, g Game) (Game, outs, error) {
	p := g.Pending
	if p.RerollsLeft <= 0 && len(p.Uncertain) == 0 {
		return resolve(c, g)
	}
	fs, err := faces(c, p.Set, p.Faces)
	if err != nil {
		return g, nil, err
	}
	st := g.State
	switch p.Context.Kind {
	case CtxTest:
		r := engine.Test(fs, p.Context.Difficulty)
		return g, one(engine.KindTestPending, engine.Vars{"hits": r.Hits, "difficulty": r.Difficulty, "passed": r.Passed,
			"rerolls": p.RerollsLeft, "faces": faceLabels(fs)}), nil
	case CtxFight:
		typ, tok, err := fightToken(c, st, p.Context)
		if err != nil {
			return g, nil, err
		}
		s := st.Survivors[st.Survivor(p.Context.Survivor)]
		var af *models.Face
		if p.Assist != "" {
			a, err := faces(c, "assist", []string{p.Assist})
			if err != nil {
				return g, nil, err
			}
			af = &a[0]
		}
		r := engine.FightMath(st.Rules, tok, s.Armor, s.Ranged, fs, af)
		return g, one(KindFightPending, engine.Vars{"enemy": engine.TypeName(c, typ, false), "damage": r.Damage, "rads": r.Rads,
			"hits": r.SurvivorHits, "needed": r.Needed, "killed": r.Killed, "rerolls": p.RerollsLeft, "faces": faceLabels(fs)}), nil
	}
	return g, nil, fmt.Errorf("pending roll without context")
}

// resolve applies the pending roll as final.
func resolve(c *models.Content, g Game) (Game, outs, error) {
	p := g.Pending
	fs, err := faces(c, p.Set, p.Faces)
	if err != nil {
		return g, nil, err
	}
	st := g.State
	var o outs
	switch p.Context.Kind {
	case CtxTest:
		r := engine.Test(fs, p.Context.Difficulty)
		o = one(engine.KindTestResult, engine.Vars{"hits": r.Hits, "difficulty": r.Difficulty, "passed": r.Passed,
			"survivor": st.Survivors[st.Survivor(p.Context.Survivor)].Name, "faces": faceLabels(fs)})
	case CtxFight:
		typ, tok, err := fightToken(c, st, p.Context)
		if err != nil {
			return g, nil, err
		}
		in := engine.FightInput{Survivor: p.Context.Survivor, Token: tok, TypeID: typ, DrawAndFight: p.Context.Draw,
			Faces: fs, Assistant: p.Context.Assistant}
		if st.Enemy(p.Context.Enemy) >= 0 {
			in.Enemy = p.Context.Enemy
		}
		if p.Assist != "" {
			a, err := faces(c, "assist", []string{p.Assist})
			if err != nil {
				return g, nil, err
			}
			in.AssistFace = &a[0]
		}
		st, _, o, err = engine.Fight(c, st, in)
		if err != nil {
			return g, nil, err
		}
		if a, ok := st.Waiting(); ok && isAttack(p.Context, a) {
			// The fight the enemy turn waited for is resolved: the next
			// enemy acts from the state after it.
			var more outs
			st, more, err = engine.ResumeTurn(c, st)
			if err != nil {
				return g, nil, err
			}
			o = append(o, more...)
		}
	default:
		return g, nil, fmt.Errorf("pending roll without context")
	}
	g.State = st
	g.Pending = nil
	g, o = promptAttack(c, g, o)
	return g, o, nil
}

func faceLabels(fs []models.Face) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		if f.Label != "" {
			out[i] = f.Label
		} else {
			out[i] = f.ID
		}
	}
	return out
}

func isNumeric(c *models.Content, set string) bool {
	fs, _ := c.FaceSet(set)
	return fs.Kind == models.KindNumeric
}

// scored reports whether any face of the set carries hits: a set taught
// under a name of its own has no face table until the group gives one, and
// then its rolls are announced by their faces only.
func scored(c *models.Content, set string) bool {
	fs, _ := c.FaceSet(set)
	for _, f := range fs.Faces {
		if f.Hits > 0 {
			return true
		}
	}
	return false
}

func sumValues(fs []models.Face) int {
	n := 0
	for _, f := range fs {
		n += f.Value
	}
	return n
}
