package engine

import (
	"fmt"
	"sort"

	"tablecam/models"
)

// Attack is an enemy attacking a survivor during the enemy turn; the
// tracker asks the group for the fight roll.
type Attack struct {
	Enemy    string `json:"enemy"`
	Type     string `json:"type"`
	Survivor string `json:"survivor"`
}

// Enemy turn groups: the card's two enemy types, top then bottom, then the
// opposing faction's enemies.
const (
	groupTop = iota
	groupBottom
	groupFaction
)

// EnemyTurn is an activation card being resolved one enemy at a time (seed
// 000 "1. Gegneraktivierung": each enemy acts, and fights, in turn). It is
// part of the state, so a turn paused on a fight is replayed, undone and
// resumed like any other state.
type EnemyTurn struct {
	Card string `json:"card"`
	// Group is the group acting: 0 and 1 the card's enemy types, 2 the
	// opposing faction.
	Group int `json:"group"`
	// Queue holds the ids of the group's enemies still to act: the enemies
	// faceup when the group began, in map order.
	Queue []string `json:"queue,omitempty"`
	// Attack is the fight the turn waits for; the next enemy acts only
	// after it is resolved.
	Attack *Attack `json:"attack,omitempty"`
}

func (t *EnemyTurn) clone() *EnemyTurn {
	c := *t
	c.Queue = append([]string(nil), t.Queue...)
	if t.Attack != nil {
		a := *t.Attack
		c.Attack = &a
	}
	return &c
}

// Waiting returns the attack the enemy turn waits for, if any.
func (s *State) Waiting() (Attack, bool) {
	if s.Turn == nil || s.Turn.Attack == nil {
		return Attack{}, false
	}
	return *s.Turn.Attack, true
}

// targetOrder sorts survivor indices by the target priority: fewer HP first,
// then player order starting from the first player (seed 000 "Ende der
// Runde": "Weniger TP > Spielerreihenfolge").
func targetOrder(st *State, idx []int) []int {
	out := append([]int(nil), idx...)
	n := len(st.Survivors)
	order := func(i int) int { return (i - st.FirstPlayer + n) % n }
	sort.SliceStable(out, func(a, b int) bool {
		ha, hb := st.Survivors[out[a]].HP(), st.Survivors[out[b]].HP()
		if ha != hb {
			return ha < hb
		}
		return order(out[a]) < order(out[b])
	})
	return out
}

// candidates are the survivors enemy e may target: in the game and not loyal
// to the enemy's faction (seed 000 "Loyalitaet").
func candidates(st *State, e Enemy) []int {
	var out []int
	for i, s := range st.Survivors {
		if s.Out {
			continue
		}
		if e.Faction != "" && s.Loyal == e.Faction {
			continue
		}
		out = append(out, i)
	}
	return out
}

func pick(st *State, cand []int, ids []string) []int {
	var out []int
	for _, i := range cand {
		for _, id := range ids {
			if st.Survivors[i].ID == id {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

func names(st *State, idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = st.Survivors[i].Name
	}
	return out
}

// groupMatch reports whether enemy e belongs to group g of the turn.
func groupMatch(st *State, card models.ActivationCard, g int, e Enemy) bool {
	if g == groupFaction {
		return e.Faction != "" && e.Faction == st.Opposing
	}
	return e.Type == card.Types[g] && e.Faction == ""
}

func groupLabel(c *models.Content, st *State, card models.ActivationCard, g int) string {
	if g == groupFaction {
		return factionName(c, st.Opposing)
	}
	return TypeName(c, card.Types[g], true)
}

// startGroup queues the group's faceup enemies; facedown ones do not act
// (seed 000 "[V] Kampf": "Ein verdeckter Gegner ist inaktiv").
func startGroup(c *models.Content, st *State, card models.ActivationCard, g int) Outcome {
	st.Turn.Group = g
	st.Turn.Queue = nil
	inactive := 0
	for _, e := range st.Enemies {
		if !groupMatch(st, card, g, e) {
			continue
		}
		if e.Active {
			st.Turn.Queue = append(st.Turn.Queue, e.ID)
		} else {
			inactive++
		}
	}
	return Outcome{Kind: KindActivateType, Vars: Vars{"type": groupLabel(c, st, card, g), "active": len(st.Turn.Queue), "inactive": inactive}}
}

// endGroup turns the group's inactive enemies faceup once all its active
// enemies have acted, except replacements placed facedown this round (seed
// 000 "1. Gegneraktivierung"). An enemy that retreated during this group's
// fights is inactive and no replacement: it turns faceup too.
func endGroup(c *models.Content, st *State, card models.ActivationCard, g int) []Outcome {
	flipped := 0
	for i, e := range st.Enemies {
		if !groupMatch(st, card, g, e) || e.Active || e.Replacement {
			continue
		}
		st.Enemies[i].Active = true
		flipped++
	}
	if flipped == 0 {
		return nil
	}
	return []Outcome{{Kind: KindEnemyFlip, Vars: Vars{"type": groupLabel(c, st, card, g), "n": flipped}}}
}

// inReach returns the survivors enemy e may attack without moving: those in
// its space, and those adjacent if it is ranged.
func inReach(st *State, e Enemy, tok models.EnemyToken) []int {
	cand := candidates(st, e)
	here := pick(st, cand, e.With)
	if tok.Has(models.AbilityRanged) {
		here = append(here, pick(st, cand, e.Adjacent)...)
	}
	return here
}

func enemyToken(c *models.Content, e Enemy) models.EnemyToken {
	tok, err := TokenFor(c, e)
	if err != nil {
		return models.EnemyToken{Level: 1}
	}
	return tok
}

// act lets enemy i act (seed 000 "1. Gegneraktivierung"): if, before
// moving, a survivor is in its space (or adjacent, if ranged), it attacks
// the priority target and the turn waits for the fight; otherwise it moves
// 1 space (fast: up to 2) toward the nearest survivor. An aggressive enemy
// that moves into a survivor's space fights at once (seed 000
// "Gegnereigenschaften": "Trifft dieser Gegner auf dich, beginnt sofort ein
// Kampf"). Targets are chosen from the state as it is now, after the
// fights of the enemies that acted before.
func act(c *models.Content, st *State, i int) []Outcome {
	e := st.Enemies[i]
	tok := enemyToken(c, e)
	name := TypeName(c, e.Type, false)
	cand := candidates(st, e)
	steps := 1
	if tok.Has(models.AbilityFast) {
		steps = 2
	}
	if here := inReach(st, e, tok); len(here) > 0 {
		t := st.Survivors[targetOrder(st, here)[0]]
		st.Turn.Attack = &Attack{Enemy: e.ID, Type: e.Type, Survivor: t.ID}
		return []Outcome{{Kind: KindEnemyAttack, Vars: st.enemyVars(c, i, Vars{
			"enemy": name, "survivor": t.Name, "hp": t.HP(), "ranged": indexOf(e.With, t.ID) < 0,
		})}}
	}
	if len(cand) == 0 {
		return []Outcome{{Kind: KindEnemyIdle, Vars: st.enemyVars(c, i, Vars{"enemy": name})}}
	}
	if adj := pick(st, cand, e.Adjacent); len(adj) > 0 {
		// The nearest survivors are one space away: it moves into the
		// priority target's space and stops there.
		t := st.Survivors[targetOrder(st, adj)[0]]
		st.Enemies[i].With = []string{t.ID}
		st.Enemies[i].Adjacent = nil
		aggressive := tok.Has(models.AbilityAggressive)
		out := []Outcome{{Kind: KindEnemyMoveTo, Vars: st.enemyVars(c, i, Vars{
			"enemy": name, "survivor": t.Name, "aggressive": aggressive,
		})}}
		if aggressive {
			st.Turn.Attack = &Attack{Enemy: e.ID, Type: e.Type, Survivor: t.ID}
			out = append(out, Outcome{Kind: KindEnemyAggressive, Vars: st.enemyVars(c, i, Vars{
				"enemy": name, "survivor": t.Name, "hp": t.HP(),
			})})
		}
		return out
	}
	return []Outcome{{Kind: KindEnemyMove, Vars: st.enemyVars(c, i, Vars{
		"enemy": name, "steps": steps, "priority": names(st, targetOrder(st, cand)),
	})}}
}

// run resolves the enemy turn from where it stands until an enemy attacks
// (the turn waits for that fight) or the turn ends (st.Turn is nil): the
// card's two types in order, each followed by its flip; then the faction
// icon: nothing for the loyal faction; for the opposing faction its enemies
// act, its power token advances and the scenario's activation effect for
// the number of its enemies on the map follows (seed 003 "Activation
// cards", seed 000 "Verfeindete Fraktionen aktivieren"). st is already a
// private copy.
func run(c *models.Content, st *State) []Outcome {
	var out []Outcome
	card, ok := c.Card(st.Turn.Card)
	for ok && !st.Over() && st.Turn.Attack == nil {
		t := st.Turn
		if len(t.Queue) > 0 {
			id := t.Queue[0]
			t.Queue = t.Queue[1:]
			// An enemy that left the map or was turned facedown since the
			// group began does not act.
			if i := st.Enemy(id); i >= 0 && st.Enemies[i].Active {
				out = append(out, act(c, st, i)...)
			}
			continue
		}
		out = append(out, endGroup(c, st, card, t.Group)...)
		switch t.Group {
		case groupTop:
			out = append(out, startGroup(c, st, card, groupBottom))
			continue
		case groupBottom:
			out = append(out, factionIcon(c, st, card)...)
			if st.Turn.Group == groupFaction {
				continue
			}
		case groupFaction:
			var o []Outcome
			opp := st.Opposing
			*st, o = advance(c, *st, st.Rules.ActivationPower, "activation")
			out = append(out, o...)
			if !st.Over() {
				out = append(out, activationRow(c, st, opp)...)
			}
		}
		break
	}
	if !ok || st.Over() || st.Turn.Attack == nil {
		st.Turn = nil
	}
	return out
}

// factionIcon resolves the card's faction icon: the loyal faction's icon
// does nothing; the opposing faction's starts its group.
func factionIcon(c *models.Content, st *State, card models.ActivationCard) []Outcome {
	if card.Icon == "" {
		return nil
	}
	sc, _ := c.Scenario(st.Scenario)
	var iconFaction string
	for _, f := range sc.Factions {
		if f.Icon == card.Icon {
			iconFaction = f.Faction
		}
	}
	switch iconFaction {
	case st.Loyal:
		return []Outcome{{Kind: KindLoyalIcon, Vars: Vars{"faction": factionName(c, st.Loyal)}}}
	case st.Opposing:
		return []Outcome{
			{Kind: KindOpposingIcon, Vars: Vars{"faction": factionName(c, st.Opposing)}},
			startGroup(c, st, card, groupFaction),
		}
	}
	return nil
}

// activationRow is the scenario sheet's activation effect for the number of
// the opposing faction's enemies on the map.
func activationRow(c *models.Content, st *State, opp string) []Outcome {
	sc, _ := c.Scenario(st.Scenario)
	n := st.CountEnemies("", opp)
	side, _ := sc.Side(opp)
	for i, r := range side.Activation {
		if r.Matches(n) {
			return []Outcome{{Kind: KindActivationRow, Vars: Vars{
				"faction": factionName(c, opp), "enemies": n, "label": r.Label,
				"text": r.Text, "row": i + 1, "min": r.Min, "max": r.Max,
			}}}
		}
	}
	return nil
}

// Draw takes a card from the activation deck. A card not in the draw pile
// (the physical deck was reshuffled or a card was misread) is taken from the
// discard with a warning. An empty deck is reshuffled from the discard or
// stops, per the deck_empty switch (assumption, rules-fallout-bg.md).
func Draw(c *models.Content, st State, card string) (State, []Outcome, error) {
	st = st.Clone()
	if _, ok := c.Card(card); !ok {
		return st, nil, fmt.Errorf("unknown activation card %q (known: %v)", card, c.CardIDs())
	}
	var out []Outcome
	if len(st.Deck) == 0 {
		if st.Rules.DeckEmpty == models.DeckStop {
			return st, []Outcome{{Kind: KindDeckEmpty}}, fmt.Errorf("the activation deck is empty (rules.deck_empty = stop)")
		}
		st.Deck, st.Discard = st.Discard, nil
		sort.Strings(st.Deck)
		out = append(out, Outcome{Kind: KindDeckReshuffled, Vars: Vars{"n": len(st.Deck)}})
	}
	if k := indexOf(st.Deck, card); k >= 0 {
		st.Deck = append(st.Deck[:k], st.Deck[k+1:]...)
	} else if k := indexOf(st.Discard, card); k >= 0 {
		st.Discard = append(st.Discard[:k], st.Discard[k+1:]...)
		out = append(out, Outcome{Kind: KindDeckRedrawn, Vars: Vars{"card": card}})
	}
	st.Discard = append(st.Discard, card)
	return st, out, nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// Activate shows an activation card at the end of a round (seed 003
// "Activation cards", seed 000 "Ende der Runde"): the card is drawn and the
// enemy turn runs one enemy at a time until an enemy attacks, when the
// returned state's Turn waits for that fight (Waiting); the caller resolves
// it with Fight and continues with ResumeTurn. A turn with no attack ends
// at once (Turn nil).
func Activate(c *models.Content, st State, cardID string) (State, []Outcome, error) {
	if st.Over() {
		return st, nil, fmt.Errorf("the game is over (%s)", st.Result)
	}
	if err := turnFinished(c, &st, "show another activation card"); err != nil {
		return st, nil, err
	}
	card, ok := c.Card(cardID)
	if !ok {
		return st, nil, fmt.Errorf("unknown activation card %q", cardID)
	}
	st, out, err := Draw(c, st, cardID)
	if err != nil {
		return st, out, err
	}
	out = append(out, Outcome{Kind: KindActivationCard, Vars: Vars{
		"card": cardID, "first": TypeName(c, card.Types[0], true), "second": TypeName(c, card.Types[1], true),
	}})
	st.Turn = &EnemyTurn{Card: cardID}
	out = append(out, startGroup(c, &st, card, groupTop))
	out = append(out, run(c, &st)...)
	return st, out, nil
}

// ResumeTurn continues the enemy turn after the fight it waited for has
// been resolved (with Fight): the next enemy acts, choosing its target from
// the state after that fight.
func ResumeTurn(c *models.Content, st State) (State, []Outcome, error) {
	if _, ok := st.Waiting(); !ok {
		return st, nil, fmt.Errorf("no enemy turn is waiting for a fight")
	}
	st = st.Clone()
	st.Turn.Attack = nil
	return st, run(c, &st), nil
}

// RecheckTurn checks, after a change made while the enemy turn waits for a
// fight (an enemy placed or removed, a survivor's values changed), that the
// attack can still happen: its enemy faceup on the map and the survivor in
// the game and in its reach. If not, the attack is dropped and that enemy
// acts again from the state as it is now; the turn then goes on.
func RecheckTurn(c *models.Content, st State) (State, []Outcome) {
	a, ok := st.Waiting()
	if !ok {
		return st, nil
	}
	if st.Over() {
		st = st.Clone()
		st.Turn = nil
		return st, nil
	}
	if i := st.Enemy(a.Enemy); i >= 0 && st.Enemies[i].Active {
		e := st.Enemies[i]
		for _, k := range inReach(&st, e, enemyToken(c, e)) {
			if st.Survivors[k].ID == a.Survivor {
				return st, nil
			}
		}
	}
	st = st.Clone()
	name := a.Survivor
	if k := st.Survivor(a.Survivor); k >= 0 {
		name = st.Survivors[k].Name
	}
	v := Vars{"enemy": TypeName(c, a.Type, false), "id": a.Enemy, "enemy_id": a.Enemy, "survivor": name}
	if i := st.Enemy(a.Enemy); i >= 0 {
		v = st.enemyVars(c, i, v)
	}
	out := []Outcome{{Kind: KindAttackDropped, Vars: v}}
	st.Turn.Attack = nil
	st.Turn.Queue = append([]string{a.Enemy}, st.Turn.Queue...)
	return st, append(out, run(c, &st)...)
}

// turnFinished refuses a step that comes after the enemy turn while a turn
// waits for a fight.
func turnFinished(c *models.Content, st *State, what string) error {
	a, ok := st.Waiting()
	if !ok {
		return nil
	}
	return fmt.Errorf("the enemy turn of %s is not finished: it waits for %s; resolve that fight before you %s",
		st.Turn.Card, AttackText(c, st, a), what)
}

// AttackText names an attack for messages, the enemy as the group types it
// (EnemyRef): "Ann's fight against Robot L2".
func AttackText(c *models.Content, st *State, a Attack) string {
	name := a.Survivor
	if i := st.Survivor(a.Survivor); i >= 0 {
		name = st.Survivors[i].Name
	}
	return fmt.Sprintf("%s's fight against %s %s", name, TypeName(c, a.Type, false), st.AttackRef(c, a))
}

// AttackRef is how a typed command names the enemy of attack a (EnemyRef),
// or its id when it has left the map.
func (s *State) AttackRef(c *models.Content, a Attack) string {
	if i := s.Enemy(a.Enemy); i >= 0 {
		return s.EnemyRef(c, i)
	}
	return a.Enemy
}

// EndRound starts the next round: this round's replacement tokens become
// ordinary facedown tokens.
func EndRound(c *models.Content, st State) (State, []Outcome, error) {
	if err := turnFinished(c, &st, "end the round"); err != nil {
		return st, nil, err
	}
	st = st.Clone()
	st.Round++
	for i := range st.Enemies {
		st.Enemies[i].Replacement = false
	}
	fp := st.Survivors[st.FirstPlayer].Name
	return st, []Outcome{{Kind: KindRound, Vars: Vars{"round": st.Round, "first": fp}}}, nil
}

// SetFirstPlayer passes the first-player role (and with it the activation
// deck and its discard) to survivor id (seed 003 "Choose first player").
func SetFirstPlayer(c *models.Content, st State, id string) (State, []Outcome, error) {
	// Choosing the first player is the step after the enemy turn (seed 003
	// "Activation cards" 3); the target order of the turn counts from the
	// first player.
	if err := turnFinished(c, &st, "choose the first player"); err != nil {
		return st, nil, err
	}
	st = st.Clone()
	i := st.Survivor(id)
	if i < 0 {
		return st, nil, fmt.Errorf("unknown survivor %q", id)
	}
	st.FirstPlayer = i
	return st, []Outcome{{Kind: KindFirstPlayer, Vars: Vars{"survivor": st.Survivors[i].Name}}}, nil
}
