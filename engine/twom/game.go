package twom

import (
	"fmt"
	"slices"
)

// Outcome is one thing the rules say happened, or a prompt for what the
// players do next, in order.
type Outcome struct {
	Kind string         `json:"kind"`
	Vars map[string]any `json:"vars,omitempty"`
}

// Outcome kinds. Each needs a sentence in the tracker's message catalogs.
const (
	KindStep        = "twom.step"         // a Journal step begins: vars phase, step, day, leader, script
	KindJournal     = "twom.journal"      // the Journal passes: vars leader
	KindStatus      = "twom.status"       // vars character, status, from, to
	KindStatusMax   = "twom.status_max"   // level 4 reached: apply the marker's consequence
	KindNoise       = "twom.noise"        // vars noise
	KindNoiseTest   = "twom.noise_test"   // vars roll, noise, encounter
	KindEncounter   = "twom.encounter"    // draw the top encounter card and resolve it
	KindScript      = "twom.script"       // resolve a script number: vars script
	KindLockpick    = "twom.lockpick"     // vars roll, opens
	KindEmpathyTest = "twom.empathy_test" // vars roll, reason, affected
	KindGone        = "twom.gone"         // a character died or left: vars character
)

// Phase is one of the seven phases of a round (a day/night cycle).
type Phase string

// Phases, in order (seed 004 "Tagebuch": 7 phases).
const (
	Morning    Phase = "morning"
	Day        Phase = "day"
	Dusk       Phase = "dusk"
	Evening    Phase = "evening"
	Scavenging Phase = "scavenging"
	NightRaid  Phase = "night_raid"
	Dawn       Phase = "dawn"
)

// Step is one step of the Journal.
type Step struct {
	ID    string `json:"id"`
	Phase Phase  `json:"phase"`
	// PassAfter: a "NÄCHSTER SPIELER" mark follows the step.
	PassAfter bool `json:"pass_after,omitempty"`
	// Script is the script number the step names, if any.
	Script int `json:"script,omitempty"`
}

// Step ids whose rules this package applies.
const (
	StepNoise    = "scavenging.noise" // the noise marker is set to 1
	StepDeath    = "dawn.death"       // "death walks among us"
	StepSave     = "dawn.save"        // save the game now (script 10)
	StepRaidCard = "raid.card"        // the night raid card and the guards' dice
)

// Journal lists the steps of a round in order (seed 004, "Morgen" to
// "Spielstand sichern").
func Journal() []Step {
	return []Step{
		{ID: "morning.event", Phase: Morning, PassAfter: true},
		{ID: "day.action1", Phase: Day},
		{ID: "day.action2", Phase: Day},
		{ID: "day.action3", Phase: Day},
		{ID: "dusk.thirst", Phase: Dusk},
		{ID: "dusk.hunger", Phase: Dusk, PassAfter: true},
		{ID: "evening.tasks", Phase: Evening, PassAfter: true},
		{ID: "scavenging.location", Phase: Scavenging},
		{ID: "scavenging.equipment", Phase: Scavenging},
		{ID: StepNoise, Phase: Scavenging},
		{ID: "scavenging.explore", Phase: Scavenging},
		{ID: "scavenging.items", Phase: Scavenging},
		{ID: "raid.arm", Phase: NightRaid},
		{ID: StepRaidCard, Phase: NightRaid},
		{ID: "raid.crime", Phase: NightRaid, PassAfter: true},
		{ID: "dawn.return", Phase: Dawn},
		{ID: "dawn.medicine", Phase: Dawn},
		{ID: "dawn.fate", Phase: Dawn, PassAfter: true},
		{ID: "dawn.narrative", Phase: Dawn, PassAfter: true},
		{ID: "dawn.alcohol", Phase: Dawn},
		{ID: StepDeath, Phase: Dawn},
		{ID: StepSave, Phase: Dawn, Script: 10},
	}
}

// Game is the state of a game of This War of Mine.
type Game struct {
	// Day counts rounds from 1.
	Day int `json:"day"`
	// Step indexes Journal().
	Step int `json:"step"`
	// Players and Leader: the seat (0-based) holding the Journal.
	Players    int         `json:"players"`
	Leader     int         `json:"leader"`
	Characters []Character `json:"characters"`
	// Noise is the noise marker during scavenging.
	Noise int `json:"noise"`
	// DeathToday: a character died or left the group this day.
	DeathToday bool `json:"death_today,omitempty"`
	// DeathTested: the "death walks among us" roll is done this Dawn.
	DeathTested bool `json:"death_tested,omitempty"`
	// Raid is tonight's night raid, from arming the guards to the
	// defence; nil outside it.
	Raid *RaidState `json:"raid,omitempty"`
}

// MaxCharacters is the most characters in play at once (seed 004 "Das
// 4-Charaktere-Limit").
const MaxCharacters = 4

// StartHunger is every starting character's hunger (seed 004 "3
// Charakterkarten ziehen": a hunger marker of level 2).
const StartHunger = 2

// NewGame sets up a game after the players drew the leader at random and
// the starting characters: each gets hunger 2 and stands guard (seed 004
// "Spielaufbau"). It returns the first step, the morning event.
func NewGame(players, leader int, chars []Character) (Game, []Outcome, error) {
	switch {
	case players < 1:
		return Game{}, nil, fmt.Errorf("new game: %d players; need 1 or more", players)
	case leader < 0 || leader >= players:
		return Game{}, nil, fmt.Errorf("new game: leader seat %d is not one of %d players", leader, players)
	case len(chars) < 1 || len(chars) > MaxCharacters:
		return Game{}, nil, fmt.Errorf("new game: %d characters; need 1 to %d", len(chars), MaxCharacters)
	}
	g := Game{Day: 1, Players: players, Leader: leader}
	var out []Outcome
	for _, c := range chars {
		if c.Name == "" || g.index(c.Name) >= 0 {
			return Game{}, nil, fmt.Errorf("new game: character name %q is empty or repeated", c.Name)
		}
		c.Levels = nil
		c.Task = Guard
		var o []Outcome
		c, o = changeStatus(c, Hunger, StartHunger)
		out = append(out, o...)
		g.Characters = append(g.Characters, c)
	}
	return g, append(out, g.stepOutcome()), nil
}

// Current is the Journal step the game is at.
func (g Game) Current() Step { return Journal()[g.Step] }

// Phase is the phase the game is in.
func (g Game) Phase() Phase { return g.Current().Phase }

func (g Game) stepOutcome() Outcome {
	s := g.Current()
	v := map[string]any{"phase": string(s.Phase), "step": s.ID, "day": g.Day, "leader": g.Leader}
	if s.Script != 0 {
		v["script"] = s.Script
	}
	if s.ID == StepDeath {
		v["needed"] = g.DeathToday
	}
	return Outcome{Kind: KindStep, Vars: v}
}

// Advance finishes the current step and starts the next: the Journal
// passes to the next player at each "NÄCHSTER SPIELER" mark, the noise
// marker is set to 1 when the noise step starts, and after saving at the
// end of Dawn a new day begins with the morning event. Dawn cannot end while
// a character died or left this day and the "death walks among us" roll is
// not in (seed 004 "Der Tod wandelt unter uns").
func Advance(g Game) (Game, []Outcome, error) {
	cur := g.Current()
	if cur.ID == StepDeath && g.DeathToday && !g.DeathTested {
		return g, nil, fmt.Errorf("advance: a character died or left today; roll the black die for \"death walks among us\" first")
	}
	if cur.ID == StepRaidCard && g.Raid != nil && g.Raid.Card != nil && !g.Raid.Resolved {
		return g, nil, fmt.Errorf("advance: the night raid card is drawn; defend against it first")
	}
	g = g.clone()
	var out []Outcome
	if cur.PassAfter {
		var o Outcome
		g, o = passJournal(g)
		out = append(out, o)
	}
	g.Step++
	if g.Step == len(Journal()) {
		g.Step = 0
		g.Day++
		g.DeathToday, g.DeathTested = false, false
	}
	if g.Phase() != NightRaid {
		g.Raid = nil
	}
	if g.Current().ID == StepNoise {
		g.Noise = 1
	}
	out = append(out, g.stepOutcome())
	if g.Current().ID == StepNoise {
		out = append(out, Outcome{Kind: KindNoise, Vars: map[string]any{"noise": g.Noise}})
	}
	return g, out, nil
}

// PassJournal hands the Journal to the next player on the left (seed 004
// "Gemeinsames Spielerlebnis"), for a pass the group makes outside the
// explicit marks.
func PassJournal(g Game) (Game, Outcome) { return passJournal(g.clone()) }

func passJournal(g Game) (Game, Outcome) {
	g.Leader = (g.Leader + 1) % g.Players
	return g, Outcome{Kind: KindJournal, Vars: map[string]any{"leader": g.Leader}}
}

func (g Game) clone() Game {
	g.Characters = slices.Clone(g.Characters)
	for i := range g.Characters {
		g.Characters[i].Levels = cloneLevels(g.Characters[i].Levels)
	}
	g.Raid = g.Raid.clone()
	return g
}

func (g Game) index(name string) int {
	for i, c := range g.Characters {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// present lists the indexes of the characters still in the group.
func (g Game) present() []int {
	var idx []int
	for i, c := range g.Characters {
		if !c.Gone {
			idx = append(idx, i)
		}
	}
	return idx
}

// Join adds a character to the group, unless four are in play (seed 004
// "Das 4-Charaktere-Limit").
func Join(g Game, c Character) (Game, error) {
	if len(g.present()) >= MaxCharacters {
		return g, fmt.Errorf("join %s: %d characters are in play already", c.Name, MaxCharacters)
	}
	if c.Name == "" || g.index(c.Name) >= 0 {
		return g, fmt.Errorf("join: character name %q is empty or repeated", c.Name)
	}
	g = g.clone()
	g.Characters = append(g.Characters, c)
	return g, nil
}

// Lose records that a character died or left the group, for the Dawn's
// "death walks among us" roll (seed 004 "Der Tod wandelt unter uns").
func Lose(g Game, name string) (Game, []Outcome, error) {
	i := g.index(name)
	if i < 0 || g.Characters[i].Gone {
		return g, nil, fmt.Errorf("lose: no character %q in the group", name)
	}
	g = g.clone()
	g.Characters[i].Gone = true
	g.DeathToday = true
	return g, []Outcome{{Kind: KindGone, Vars: map[string]any{"character": name}}}, nil
}
