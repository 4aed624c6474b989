package engine

import (
	"fmt"
	"sort"

	"tablecam/models"
)

// Attack is an enemy attacking a survivor during activation; the tracker asks
// the group for the fight roll.
type Attack struct {
	Enemy    string `json:"enemy"`
	Survivor string `json:"survivor"`
}

// Activation is what an activation card did, beyond its outcomes.
type Activation struct {
	Card    string   `json:"card"`
	Attacks []Attack `json:"attacks,omitempty"`
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

// activateGroup activates every active enemy matching match, then turns the
// group's inactive enemies faceup except this round's replacements (seed 000
// "1. Gegneraktivierung"). Each active enemy that is, before moving, in a
// survivor's space (or adjacent, if ranged) attacks the priority target;
// otherwise it moves 1 space (fast: up to 2) toward the nearest survivor.
func activateGroup(c *models.Content, st State, label string, match func(Enemy) bool, act *Activation) (State, []Outcome) {
	var out []Outcome
	var active, inactive []int
	for i, e := range st.Enemies {
		if !match(e) {
			continue
		}
		if e.Active {
			active = append(active, i)
		} else {
			inactive = append(inactive, i)
		}
	}
	out = append(out, Outcome{Kind: KindActivateType, Vars: Vars{"type": label, "active": len(active), "inactive": len(inactive)}})
	for _, i := range active {
		e := st.Enemies[i]
		tok, err := TokenFor(c, e)
		if err != nil {
			tok = models.EnemyToken{Level: 1}
		}
		name := TypeName(c, e.Type, false)
		cand := candidates(&st, e)
		here := pick(&st, cand, e.With)
		if tok.Has(models.AbilityRanged) {
			here = append(here, pick(&st, cand, e.Adjacent)...)
		}
		steps := 1
		if tok.Has(models.AbilityFast) {
			steps = 2
		}
		switch {
		case len(here) > 0:
			order := targetOrder(&st, here)
			t := st.Survivors[order[0]]
			act.Attacks = append(act.Attacks, Attack{Enemy: e.ID, Survivor: t.ID})
			out = append(out, Outcome{Kind: KindEnemyAttack, Vars: Vars{
				"enemy": name, "id": e.ID, "survivor": t.Name, "hp": t.HP(), "ranged": tok.Has(models.AbilityRanged) && len(pick(&st, cand, e.With)) == 0,
			}})
		case len(cand) == 0:
			out = append(out, Outcome{Kind: KindEnemyIdle, Vars: Vars{"enemy": name, "id": e.ID}})
		default:
			adj := pick(&st, cand, e.Adjacent)
			if len(adj) > 0 {
				// The nearest survivors are one space away: it moves into
				// the priority target's space and stops there.
				t := st.Survivors[targetOrder(&st, adj)[0]]
				st.Enemies[i].With = []string{t.ID}
				st.Enemies[i].Adjacent = nil
				out = append(out, Outcome{Kind: KindEnemyMoveTo, Vars: Vars{
					"enemy": name, "id": e.ID, "survivor": t.Name, "aggressive": tok.Has(models.AbilityAggressive),
				}})
				continue
			}
			out = append(out, Outcome{Kind: KindEnemyMove, Vars: Vars{
				"enemy": name, "id": e.ID, "steps": steps, "priority": names(&st, targetOrder(&st, cand)),
			}})
		}
	}
	flipped := 0
	for _, i := range inactive {
		if st.Enemies[i].Replacement {
			continue
		}
		st.Enemies[i].Active = true
		flipped++
	}
	if flipped > 0 {
		out = append(out, Outcome{Kind: KindEnemyFlip, Vars: Vars{"type": label, "n": flipped}})
	}
	return st, out
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

// Activate resolves an activation card at the end of a round (seed 003
// "Activation cards", seed 000 "Ende der Runde"): the card is drawn; its two
// enemy types activate top then bottom; a loyal faction icon is ignored; an
// opposing faction icon activates that faction's enemies, advances its power
// token and resolves the scenario's activation effect for the number of
// opposing-faction enemies on the map.
func Activate(c *models.Content, st State, cardID string) (State, Activation, []Outcome, error) {
	act := Activation{Card: cardID}
	if st.Over() {
		return st, act, nil, fmt.Errorf("the game is over (%s)", st.Result)
	}
	card, ok := c.Card(cardID)
	if !ok {
		return st, act, nil, fmt.Errorf("unknown activation card %q", cardID)
	}
	st, out, err := Draw(c, st, cardID)
	if err != nil {
		return st, act, out, err
	}
	out = append(out, Outcome{Kind: KindActivationCard, Vars: Vars{
		"card": cardID, "first": TypeName(c, card.Types[0], true), "second": TypeName(c, card.Types[1], true),
	}})
	for _, typ := range card.Types {
		typ := typ
		var o []Outcome
		st, o = activateGroup(c, st, TypeName(c, typ, true), func(e Enemy) bool { return e.Type == typ && e.Faction == "" }, &act)
		out = append(out, o...)
	}
	if card.Icon == "" {
		return st, act, out, nil
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
		out = append(out, Outcome{Kind: KindLoyalIcon, Vars: Vars{"faction": factionName(c, st.Loyal)}})
	case st.Opposing:
		out = append(out, Outcome{Kind: KindOpposingIcon, Vars: Vars{"faction": factionName(c, st.Opposing)}})
		opp := st.Opposing
		var o []Outcome
		st, o = activateGroup(c, st, factionName(c, opp), func(e Enemy) bool { return e.Faction == opp }, &act)
		out = append(out, o...)
		st, o = advance(c, st, st.Rules.ActivationPower, "activation")
		out = append(out, o...)
		if st.Over() {
			return st, act, out, nil
		}
		n := st.CountEnemies("", opp)
		side, _ := sc.Side(opp)
		for _, r := range side.Activation {
			if r.Matches(n) {
				out = append(out, Outcome{Kind: KindActivationRow, Vars: Vars{
					"faction": factionName(c, opp), "enemies": n, "label": r.Label,
				}})
				break
			}
		}
	}
	return st, act, out, nil
}

// EndRound starts the next round: this round's replacement tokens become
// ordinary facedown tokens.
func EndRound(c *models.Content, st State) (State, []Outcome) {
	st = st.Clone()
	st.Round++
	for i := range st.Enemies {
		st.Enemies[i].Replacement = false
	}
	fp := st.Survivors[st.FirstPlayer].Name
	return st, []Outcome{{Kind: KindRound, Vars: Vars{"round": st.Round, "first": fp}}}
}

// SetFirstPlayer passes the first-player role (and with it the activation
// deck and its discard) to survivor id (seed 003 "Choose first player").
func SetFirstPlayer(c *models.Content, st State, id string) (State, []Outcome, error) {
	st = st.Clone()
	i := st.Survivor(id)
	if i < 0 {
		return st, nil, fmt.Errorf("unknown survivor %q", id)
	}
	st.FirstPlayer = i
	return st, []Outcome{{Kind: KindFirstPlayer, Vars: Vars{"survivor": st.Survivors[i].Name}}}, nil
}
