package tracker

import (
	"strings"
	"testing"

	"tablecam/engine"
)

// Issue 40: enemies are named so the table can find them. The group names
// an enemy when it places it (as NAME); announcements call it by that name,
// else by the level printed on its known token, else by its id; every
// command that takes an enemy takes what the announcements say.

// `enemy add ... as NAME` and `enemy place ... as NAME` name an enemy;
// announcements and the fight prompt use the name; a fight, a removal and a
// placement take it back; the session replays to the same state.
func TestEnemyNames_AnnouncedAndTypedBack(t *testing.T) {
	h := newHistorySession(t)
	as := h.must(histSetup, "enemy add raider-1 with alice as Bandit")
	if a, _ := find(as, engine.KindEnemyAdded); a.Text != "Raider Bandit placed." {
		t.Errorf("added: %q, want %q", a.Text, "Raider Bandit placed.")
	}
	as = h.must("card activation-6") // ghoul, raider: the raider attacks Alice
	if a, _ := find(as, engine.KindEnemyAttack); a.Text != "Raider Bandit attacks Alice." || a.Data["enemy_id"] != "e1" {
		t.Errorf("attack: %q %v", a.Text, a.Data)
	}
	if a, _ := find(as, KindFightPrompt); a.Text != "Alice, roll the fight against Raider Bandit." {
		t.Errorf("prompt: %q", a.Text)
	}
	// The waiting turn names the fight as the group types it, and takes it
	// by the name (with an assistant).
	h.rejects("test alice 1", "`fight alice Bandit assist SURVIVOR`")
	h.must("fight alice bandit assist bob")
	if f := h.pendingFight(); f != "alice>e1" {
		t.Errorf("pending fight %q, want alice>e1", f)
	}
	h.must("roll torso torso torso assist blank", "enemy place BANDIT with bob as Rex")
	if g := h.s.Game(); len(g.State.Enemies) != 1 || g.State.Enemies[0].Name != "Rex" {
		t.Fatalf("enemies %+v, want e1 renamed Rex", g.State.Enemies)
	}
	as = h.must("enemy remove rex")
	if a, _ := find(as, engine.KindEnemyRemoved); a.Text != "Raider Rex removed." {
		t.Errorf("removed: %q", a.Text)
	}
	h.checkReplay()
}

// Without a name, a known token's printed level names the enemy ("Raider
// L2"), and the level and the token id both find it; a level on enemies of
// two types is an error that says which enemies have it.
func TestEnemyNames_PrintedLevelAndToken(t *testing.T) {
	h := newHistorySession(t)
	as := h.must(histSetup, "enemy add raider-2 with alice", "enemy add ghoul")
	if a, _ := find(as, engine.KindEnemyAdded); a.Text != "Raider L2 placed." {
		t.Errorf("added: %q", a.Text)
	}
	h.must("fight alice L2", "nocontext", "fight alice l2")
	if f := h.pendingFight(); f != "alice>e1" {
		t.Errorf("fight alice L2: pending fight %q, want alice>e1", f)
	}
	as = h.must("enemy place e2 token ghoul-2")
	if a, _ := find(as, engine.KindEnemyPlaced); a.Text != "Ghoul L2." {
		t.Errorf("placed: %q", a.Text)
	}
	h.must("nocontext")
	h.rejects("fight alice L2", `"L2" is on more than one enemy on the map: Raider e1 (token raider-2), Ghoul e2 (token ghoul-2)`)
	// The token id finds the enemy on the map that has it: the kill
	// discards it and a replacement is placed.
	h.must("fight alice raider-2")
	if f := h.pendingFight(); f != "alice>e1" {
		t.Errorf("fight alice raider-2: pending fight %q, want alice>e1", f)
	}
	as = h.must("roll arms arms legs")
	if a, ok := find(as, engine.KindFightReplace); !ok || a.Data["enemy_id"] != "e1.2" {
		t.Errorf("no replacement of e1 after the kill: %v", as)
	}
	h.checkReplay()
}

// A name is 1 to 12 letters or digits, unique on the map, and not an id,
// type, faction or token; a bad name is refused with a clear error and
// nothing is stored.
func TestEnemyNames_Refused(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "enemy add ghoul as Ugly")
	for line, msg := range map[string]string{
		"enemy add ghoul as ugly":          `enemy name "ugly" is taken by Ghoul e1; names are unique on the map`,
		"enemy add ghoul as e2":            "looks like an enemy id",
		"enemy add ghoul as Thirteenchars": "use 1 to 12 letters or digits",
		"enemy place e1 as big-one":        "use only letters and digits",
		"enemy place e1 as Raider":         "is an enemy type, faction or token id",
		"enemy remove e9":                  `no enemy "e9" on the map`,
	} {
		h.rejects(line, msg)
	}
	ev, _, err := ParseLine(h.c, "enemy add ghoul as")
	if err == nil || !strings.Contains(err.Error(), "as needs a value") {
		t.Errorf("`enemy add ghoul as`: %+v, %v; want an error", ev, err)
	}
}
