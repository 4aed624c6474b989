package dashboard

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"tablecam/engine"
	"tablecam/models"
	"tablecam/tracker"
)

// vatsDice is the number of V.A.T.S. dice a test or fight rolls.
const vatsDice = 3

// maxRolls is the number of readings the trail in a Snapshot lists.
const maxRolls = 60

// Snapshot is the dashboard's view of the game: what GET /api/state returns
// and what every SSE message carries.
type Snapshot struct {
	// Version grows with every snapshot the server builds, so a client can
	// ignore one that arrives after a newer one.
	Version uint64    `json:"version"`
	Session string    `json:"session"`
	Lang    string    `json:"lang"`
	Time    time.Time `json:"time"`
	// Events is the number of entries in the session log.
	Events  int    `json:"events"`
	Started bool   `json:"started"`
	Result  string `json:"result,omitempty"` // "", "won" or "lost"

	Scenario Named `json:"scenario"`
	Loyal    Named `json:"loyal"`
	Opposing Named `json:"opposing"`
	Round    int   `json:"round"`
	// FirstPlayer is the first player's survivor.
	FirstPlayer Named      `json:"first_player"`
	Power       PowerView  `json:"power"`
	Goals       GoalsView  `json:"goals"`
	Camps       int        `json:"camps"`
	Deck        DeckView   `json:"deck"`
	Survivors   []Survivor `json:"survivors"`
	Enemies     []Enemy    `json:"enemies"`
	// EnemyGroups counts the enemies by type and faction.
	EnemyGroups []EnemyGroup `json:"enemy_groups"`
	Pending     *PendingView `json:"pending,omitempty"`
	// Rolls is the roll-proof trail: the readings in force, newest first.
	Rolls    []RollView `json:"rolls"`
	Fairness []Fairness `json:"fairness"`
	// FaceSets lists the faces of every symbol dice set, for corrections.
	FaceSets map[string][]FaceOption `json:"face_sets"`
	// Targets are the fight targets to offer: enemies on the map, then types.
	Targets []Named    `json:"targets"`
	Camera  CameraView `json:"camera"`
	Muted   bool       `json:"muted"`
	CanMute bool       `json:"can_mute"`
	// Setup lists the choices of the setup form before a game is set up.
	Setup *SetupView `json:"setup,omitempty"`
	// Log holds the recent announcements, newest first (full snapshots only).
	Log []LogEntry `json:"log,omitempty"`
	// Game is set when the session plays another game than Fallout: The
	// Board Game; the Fallout fields are then empty.
	Game *GameView `json:"game,omitempty"`
}

// GameView is the state of another game, as the state table writes it,
// and the command lines its panel offers as buttons (tracker's
// Game.Suggested).
type GameView struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	State    string   `json:"state"`
	Controls []string `json:"controls,omitempty"`
}

// Named is an id with its display name.
type Named struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// PowerView is the power track: the token on Space of Spaces (1-based; the
// last space loses the game).
type PowerView struct {
	Space  int    `json:"space"`
	Spaces int    `json:"spaces"`
	Owner  string `json:"owner"` // the opposing faction's name
}

// GoalsView counts the completed goals.
type GoalsView struct {
	Done     int `json:"done"`
	Required int `json:"required"`
}

// DeckView is the activation deck.
type DeckView struct {
	Cards     int      `json:"cards"`
	Discard   int      `json:"discard"`
	Remaining []string `json:"remaining"`
	Discarded []string `json:"discarded"`
}

// Survivor is one survivor's tracked values.
type Survivor struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	HP         int    `json:"hp"`
	MaxHP      int    `json:"max_hp"`
	Rads       int    `json:"rads"`
	XP         int    `json:"xp"`
	Caps       int    `json:"caps"`
	Special    string `json:"special,omitempty"`
	First      bool   `json:"first"`
	Out        bool   `json:"out,omitempty"`
	Mutated    bool   `json:"mutated,omitempty"`
	WellRested bool   `json:"well_rested,omitempty"`
	Deaths     int    `json:"deaths,omitempty"`
}

// Enemy is one enemy token on the map.
type Enemy struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	TypeName string `json:"type_name"`
	Token    string `json:"token,omitempty"`
	// Name is what the announcements call the enemy (engine EnemyName):
	// the group's name for it, its printed level ("L2") or its id.
	Name        string   `json:"name"`
	Level       int      `json:"level,omitempty"`
	Faction     string   `json:"faction,omitempty"`
	FactionName string   `json:"faction_name,omitempty"`
	Active      bool     `json:"active"`
	With        []string `json:"with,omitempty"`
	Adjacent    []string `json:"adjacent,omitempty"`
}

// EnemyGroup counts the enemies of one type and faction.
type EnemyGroup struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	Faction     string `json:"faction,omitempty"`
	FactionName string `json:"faction_name,omitempty"`
	Active      int    `json:"active"`
	Facedown    int    `json:"facedown"`
}

// FaceOption is one die face.
type FaceOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// PendingView is the roll in progress with its odds.
type PendingView struct {
	Kind        string       `json:"kind"` // "test" or "fight"
	Survivor    Named        `json:"survivor"`
	Difficulty  int          `json:"difficulty,omitempty"`
	Special     string       `json:"special,omitempty"`
	Enemy       *Named       `json:"enemy,omitempty"`
	Assistant   *Named       `json:"assistant,omitempty"`
	Draw        bool         `json:"draw,omitempty"`
	Set         string       `json:"set"`
	Rolled      bool         `json:"rolled"`
	Faces       []FaceOption `json:"faces,omitempty"`
	Assist      *FaceOption  `json:"assist,omitempty"`
	RerollsLeft int          `json:"rerolls_left"`
	Rested      bool         `json:"rested,omitempty"`
	RollSeq     int64        `json:"roll_seq,omitempty"`
	Frame       string       `json:"frame,omitempty"`
	FrameURL    string       `json:"frame_url,omitempty"`
	// Now is what the faces on the table mean if the group stops here.
	Now *RollResult `json:"now,omitempty"`
	// Odds are the chances of success from here with the rerolls left and
	// the best play (before the roll: of the whole roll).
	Odds *OddsView `json:"odds,omitempty"`
	// Advice says which dice to reroll now (rolled, rerolls left).
	Advice    *AdviceView `json:"advice,omitempty"`
	OddsError string      `json:"odds_error,omitempty"`
}

// RollResult is the meaning of the faces on the table.
type RollResult struct {
	Hits         int  `json:"hits"`
	Needed       int  `json:"needed"`
	Success      bool `json:"success"` // passed or killed
	Damage       int  `json:"damage,omitempty"`
	Rads         int  `json:"rads,omitempty"`
	AssistDamage int  `json:"assist_damage,omitempty"`
}

// OddsView is the exact odds of the pending roll.
type OddsView struct {
	// P is the probability of success (test passed, enemy killed).
	P float64 `json:"p"`
	// PByRerolls[r] is P with r rerolls (before the roll only).
	PByRerolls     []float64 `json:"p_by_rerolls,omitempty"`
	Dice           int       `json:"dice"`
	Needed         int       `json:"needed"`
	ExpectedDamage float64   `json:"expected_damage,omitempty"`
	DamageKind     string    `json:"damage_kind,omitempty"`
	PAssistHurt    float64   `json:"p_assist_hurt,omitempty"`
}

// AdviceView says which dice to reroll now.
type AdviceView struct {
	// Reroll lists the dice to reroll, 1-based; empty = keep the roll.
	Reroll       []int   `json:"reroll"`
	RerollAssist bool    `json:"reroll_assist,omitempty"`
	PIfKeep      float64 `json:"p_if_keep"`
	PIfReroll    float64 `json:"p_if_reroll"`
	// P is the success probability when following the advice.
	P float64 `json:"p"`
}

// RollView is one reading of the roll-proof trail.
type RollView struct {
	Seq  int64  `json:"seq"`
	Set  string `json:"set"`
	Kind string `json:"kind"` // "roll" or "reroll"
	// Dice are the rerolled dice (1-based, 0 = the assist die) of a reroll;
	// a correction of a reroll gives one face for each.
	Dice      []int        `json:"dice,omitempty"`
	Faces     []FaceOption `json:"faces"`
	Assist    *FaceOption  `json:"assist,omitempty"`
	Source    string       `json:"source,omitempty"`
	Frame     string       `json:"frame,omitempty"`
	FrameURL  string       `json:"frame_url,omitempty"`
	Corrected bool         `json:"corrected,omitempty"`
}

// CameraView is the camera feed's state.
type CameraView struct {
	Available bool   `json:"available"`
	Status    string `json:"status,omitempty"`
	Seq       uint64 `json:"seq,omitempty"`
	// Labels is true when GET /api/labels has the labels to draw over the
	// frames.
	Labels bool `json:"labels,omitempty"`
}

// SetupView is what a new game can start with: the setup form's choices.
type SetupView struct {
	Scenarios []ScenarioOption `json:"scenarios"`
	// MaxHP is a survivor's HP when the form leaves it empty.
	MaxHP int `json:"max_hp"`
}

// ScenarioOption is a scenario of the content pack with the two factions
// of its sheet (either may be the loyal one).
type ScenarioOption struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Factions      []Named `json:"factions"`
	PowerTrack    int     `json:"power_track"`
	GoalsRequired int     `json:"goals_required"`
}

// LogEntry is an announcement as the dashboard logged it.
type LogEntry struct {
	models.Announcement
	// At is when it was announced; zero for announcements restored from
	// the session's log when the dashboard started.
	At time.Time `json:"at,omitzero"`
	// FrameURL links the frame of the reading the announcement is about.
	FrameURL string `json:"frame_url,omitempty"`
}

// view builds snapshots from a game; it holds no state of its own.
type view struct {
	c         *models.Content
	framesDir string
}

// snapshot builds the Snapshot of game g with the logged events.
func (v view) snapshot(g tracker.Game, events []tracker.LoggedEvent) Snapshot {
	snap := Snapshot{Events: len(events), Started: g.Started, FaceSets: map[string][]FaceOption{},
		Survivors: []Survivor{}, Enemies: []Enemy{}, EnemyGroups: []EnemyGroup{}, Rolls: []RollView{},
		Targets: []Named{}}
	for _, fs := range v.c.FaceSets {
		if fs.Kind == models.KindNumeric {
			continue
		}
		opts := make([]FaceOption, len(fs.Faces))
		for i, f := range fs.Faces {
			opts[i] = FaceOption{ID: f.ID, Label: faceLabel(f)}
		}
		snap.FaceSets[fs.ID] = opts
	}
	byseq := make(map[int64]tracker.Event, len(events))
	for _, e := range events {
		if e.Event.Type == tracker.EvRoll || e.Event.Type == tracker.EvReroll {
			byseq[e.Seq] = e.Event
		}
	}
	snap.Fairness = fairness(v.c, g.Rolls, byseq)
	snap.Rolls = v.rolls(g.Rolls, byseq)
	if !g.Started {
		snap.Setup = v.setup()
		return snap
	}
	st := g.State
	c := v.c
	snap.Result = st.Result
	snap.Scenario = Named{ID: st.Scenario, Name: st.Scenario}
	if sc, ok := c.Scenario(st.Scenario); ok {
		snap.Scenario.Name = sc.Name
	}
	snap.Loyal = Named{ID: st.Loyal, Name: v.factionName(st.Loyal)}
	snap.Opposing = Named{ID: st.Opposing, Name: v.factionName(st.Opposing)}
	snap.Round = st.Round
	if st.FirstPlayer >= 0 && st.FirstPlayer < len(st.Survivors) {
		s := st.Survivors[st.FirstPlayer]
		snap.FirstPlayer = Named{ID: s.ID, Name: s.Name}
	}
	snap.Power = PowerView{Space: st.Power + 1, Spaces: st.PowerTrack, Owner: snap.Opposing.Name}
	snap.Goals = GoalsView{Done: st.Goals, Required: st.GoalsRequired}
	snap.Camps = st.Camps
	snap.Deck = DeckView{Cards: len(st.Deck), Discard: len(st.Discard),
		Remaining: append([]string{}, st.Deck...), Discarded: append([]string{}, st.Discard...)}
	for i, s := range st.Survivors {
		snap.Survivors = append(snap.Survivors, Survivor{ID: s.ID, Name: s.Name, HP: s.HP(), MaxHP: s.MaxHP,
			Rads: s.Rads, XP: s.XP, Caps: s.Caps, Special: s.Special, First: i == st.FirstPlayer,
			Out: s.Out, Mutated: s.Mutated, WellRested: s.WellRested, Deaths: s.Deaths})
	}
	groups := map[[2]string]*EnemyGroup{}
	var order [][2]string
	for i, e := range st.Enemies {
		ev := Enemy{ID: e.ID, Type: e.Type, TypeName: engine.TypeName(c, e.Type, false), Token: e.Token,
			Name: st.EnemyName(c, i), Faction: e.Faction, Active: e.Active, With: e.With, Adjacent: e.Adjacent}
		if e.Faction != "" {
			ev.FactionName = v.factionName(e.Faction)
		}
		if tok, err := engine.TokenFor(c, e); err == nil {
			ev.Level = tok.Level
		}
		snap.Enemies = append(snap.Enemies, ev)
		k := [2]string{e.Type, e.Faction}
		grp, ok := groups[k]
		if !ok {
			grp = &EnemyGroup{Type: e.Type, Name: engine.TypeName(c, e.Type, true), Faction: e.Faction, FactionName: ev.FactionName}
			groups[k] = grp
			order = append(order, k)
		}
		if e.Active {
			grp.Active++
		} else {
			grp.Facedown++
		}
		snap.Targets = append(snap.Targets, Named{ID: e.ID, Name: fmt.Sprintf("%s %s", ev.TypeName, ev.Name)})
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i][1] != order[j][1] {
			return order[i][1] < order[j][1]
		}
		return order[i][0] < order[j][0]
	})
	for _, k := range order {
		snap.EnemyGroups = append(snap.EnemyGroups, *groups[k])
	}
	for _, t := range c.EnemyTypes {
		snap.Targets = append(snap.Targets, Named{ID: t.ID, Name: t.Name})
	}
	if g.Pending != nil && g.Pending.Context.Kind != tracker.CtxNone {
		snap.Pending = v.pending(st, *g.Pending)
	}
	return snap
}

// setup lists the scenarios and their factions for the setup form.
func (v view) setup() *SetupView {
	sv := &SetupView{Scenarios: []ScenarioOption{}, MaxHP: v.c.Rules.SurvivorMaxHP}
	for _, sc := range v.c.Scenarios {
		o := ScenarioOption{ID: sc.ID, Name: sc.Name, Factions: []Named{}, PowerTrack: sc.PowerTrack,
			GoalsRequired: sc.GoalsRequired}
		for _, f := range sc.Factions {
			o.Factions = append(o.Factions, Named{ID: f.Faction, Name: v.factionName(f.Faction)})
		}
		sv.Scenarios = append(sv.Scenarios, o)
	}
	return sv
}

func (v view) factionName(id string) string {
	if f, ok := v.c.Faction(id); ok {
		return f.Name
	}
	return id
}

// face returns the face option of set for id (unknown ids keep the id).
func (v view) face(set, id string) FaceOption {
	if fs, ok := v.c.FaceSet(set); ok {
		if f, ok := fs.Face(id); ok {
			return FaceOption{ID: f.ID, Label: faceLabel(f)}
		}
	}
	return FaceOption{ID: id, Label: id}
}

func (v view) faces(set string, ids []string) []FaceOption {
	out := make([]FaceOption, len(ids))
	for i, id := range ids {
		out[i] = v.face(set, id)
	}
	return out
}

// rolls builds the trail, newest first, at most maxRolls.
func (v view) rolls(rs []tracker.RollRecord, byseq map[int64]tracker.Event) []RollView {
	out := []RollView{}
	for i := len(rs) - 1; i >= 0 && len(out) < maxRolls; i-- {
		r := rs[i]
		rv := RollView{Seq: r.Seq, Set: r.Set, Kind: "roll", Faces: v.faces(r.Set, r.Faces), Source: r.Source,
			Frame: r.Frame, FrameURL: frameURL(v.framesDir, r.Frame)}
		if r.Assist != "" {
			a := v.face("assist", r.Assist)
			rv.Assist = &a
		}
		if ev, ok := byseq[r.Seq]; ok {
			if ev.Type == tracker.EvReroll {
				rv.Kind = "reroll"
				rv.Dice = append([]int{}, ev.Dice...)
				for k, d := range ev.Dice {
					switch {
					case d == 0:
						rv.Corrected = rv.Corrected || k >= len(ev.Faces) || ev.Faces[k] != r.Assist
					case d <= len(r.Faces):
						rv.Corrected = rv.Corrected || k >= len(ev.Faces) || ev.Faces[k] != r.Faces[d-1]
					}
				}
			} else {
				rv.Corrected = strings.Join(ev.Faces, " ") != strings.Join(r.Faces, " ") ||
					(ev.Assist != "" && ev.Assist != r.Assist)
			}
		}
		out = append(out, rv)
	}
	return out
}

// pending builds the pending roll's view with its odds.
func (v view) pending(st engine.State, p tracker.Pending) *PendingView {
	c := v.c
	pv := &PendingView{Kind: p.Context.Kind, Difficulty: p.Context.Difficulty, Special: p.Context.Special,
		Draw: p.Context.Draw, Set: p.Set, Rolled: p.Rolled, RerollsLeft: p.RerollsLeft, Rested: p.Rested,
		RollSeq: p.RollSeq, Frame: p.Frame, FrameURL: frameURL(v.framesDir, p.Frame)}
	if pv.Set == "" {
		pv.Set = "vats"
	}
	var surv engine.SurvivorState
	if i := st.Survivor(p.Context.Survivor); i >= 0 {
		surv = st.Survivors[i]
		pv.Survivor = Named{ID: surv.ID, Name: surv.Name}
	} else {
		pv.Survivor = Named{ID: p.Context.Survivor, Name: p.Context.Survivor}
	}
	if p.Context.Assistant != "" {
		a := Named{ID: p.Context.Assistant, Name: p.Context.Assistant}
		if i := st.Survivor(p.Context.Assistant); i >= 0 {
			a.Name = st.Survivors[i].Name
		}
		pv.Assistant = &a
	}
	if p.Rolled {
		pv.Faces = v.faces(pv.Set, p.Faces)
		if p.Assist != "" {
			a := v.face("assist", p.Assist)
			pv.Assist = &a
		}
	}
	fs, ok := c.FaceSet(pv.Set)
	if !ok {
		pv.OddsError = fmt.Sprintf("unknown dice set %q", pv.Set)
		return pv
	}
	current, err := lookupFaces(fs, p.Faces)
	if err != nil {
		pv.OddsError = err.Error()
		return pv
	}
	var goal engine.Goal
	var assistSet *models.FaceSet
	var assistFace *models.Face
	if p.Context.Kind == tracker.CtxFight && p.Context.Assistant != "" {
		if a, ok := c.FaceSet("assist"); ok {
			assistSet = &a
			if p.Assist != "" {
				if f, ok := a.Face(p.Assist); ok {
					assistFace = &f
				}
			}
		}
	}
	dice := vatsDice
	if p.Rolled {
		dice = len(current)
	}
	switch p.Context.Kind {
	case tracker.CtxTest:
		g := engine.TestGoal{Difficulty: p.Context.Difficulty}
		goal = g
		if p.Rolled {
			r := engine.Test(current, g.Difficulty)
			pv.Now = &RollResult{Hits: r.Hits, Needed: r.Difficulty, Success: r.Passed}
		} else {
			o, err := engine.TestOdds(fs, dice, g.Difficulty, p.RerollsLeft)
			if err != nil {
				pv.OddsError = err.Error()
				return pv
			}
			pv.Odds = &OddsView{P: o.P, PByRerolls: o.PByRerolls, Dice: dice, Needed: o.Needed}
		}
	case tracker.CtxFight:
		typ, tok, i, err := engine.FightToken(c, &st, p.Context.Enemy, p.Context.Draw)
		if err != nil {
			pv.OddsError = err.Error()
			return pv
		}
		name := engine.TypeName(c, typ, false)
		if i >= 0 {
			name += " " + st.EnemyName(c, i)
		}
		pv.Enemy = &Named{ID: p.Context.Enemy, Name: name}
		g := engine.FightGoal{Token: tok, Armor: surv.Armor, Ranged: surv.Ranged, Rules: st.Rules}
		goal = g
		if p.Rolled {
			r := g.Resolve(current, assistFace)
			pv.Now = &RollResult{Hits: r.SurvivorHits, Needed: r.Needed, Success: r.Killed, Damage: r.Damage,
				Rads: r.Rads, AssistDamage: r.AssistDamage}
		} else {
			o, err := engine.FightOdds(fs, dice, g, assistSet, p.RerollsLeft)
			if err != nil {
				pv.OddsError = err.Error()
				return pv
			}
			pv.Odds = &OddsView{P: o.P, PByRerolls: o.PByRerolls, Dice: dice, Needed: o.Needed,
				ExpectedDamage: o.ExpectedDamage, DamageKind: o.DamageKind, PAssistHurt: o.PAssistHurt}
		}
	default:
		pv.OddsError = fmt.Sprintf("unknown roll context %q", p.Context.Kind)
		return pv
	}
	if !p.Rolled {
		return pv
	}
	if assistSet != nil && assistFace == nil {
		assistSet = nil // the assist die is not on the table yet
	}
	adv, err := engine.RerollAdvice(fs, current, assistSet, assistFace, goal, p.RerollsLeft)
	if err != nil {
		pv.OddsError = err.Error()
		return pv
	}
	pv.Odds = &OddsView{P: adv.P, Dice: len(current), Needed: pv.Now.Needed}
	if p.RerollsLeft > 0 {
		av := &AdviceView{Reroll: []int{}, RerollAssist: adv.RerollAssist, PIfKeep: adv.PIfKeep,
			PIfReroll: adv.PIfReroll, P: adv.P}
		for _, i := range adv.Reroll {
			av.Reroll = append(av.Reroll, i+1)
		}
		pv.Advice = av
	}
	return pv
}

// lookupFaces turns face ids into faces of fs.
func lookupFaces(fs models.FaceSet, ids []string) ([]models.Face, error) {
	out := make([]models.Face, 0, len(ids))
	for _, id := range ids {
		f, ok := fs.Face(id)
		if !ok {
			return nil, fmt.Errorf("%s has no face %q", fs.Name, id)
		}
		out = append(out, f)
	}
	return out, nil
}

// frameURL is the URL of a frame reference under dir, or "" when the frames
// directory is not served, the reference is not inside it or no such frame
// was kept (a link must open its frame).
func frameURL(dir, ref string) string {
	if dir == "" || ref == "" {
		return ""
	}
	rel := ref
	if filepath.IsAbs(ref) {
		r, err := filepath.Rel(dir, ref)
		if err != nil {
			return ""
		}
		rel = r
	}
	rel = filepath.ToSlash(rel)
	if !validFramePath(rel) {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return "/frames/" + strings.Join(parts, "/")
}

// validFramePath reports whether p is a clean relative slash path that
// stays inside its directory.
func validFramePath(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	if path.Clean(p) != p {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "." || part == "" {
			return false
		}
	}
	return true
}
