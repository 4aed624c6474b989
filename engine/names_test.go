package engine

import (
	"strings"
	"testing"
)

// Issue 40: enemies are named so the table can find them. These tests cite
// the rule of EnemyName, FindEnemy and the name checks each checks.

// EnemyName: the group's name first, else the level printed on a known
// token ("L2"), else the id; and every outcome that names an enemy carries
// that name as "id" and the id as "enemy_id".
func TestEnemyName_NameThenPrintedLevelThenID(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot"})                             // e1: token not known
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2"})                           // e2: printed level 2
	st, out, err := AddEnemy(c, st, EnemySpec{Type: "super-mutant", Name: "Rex"}) // e3: named
	if err != nil {
		t.Fatal(err)
	}
	rtVar(t, rtMust(t, out, KindEnemyAdded), "id", "Rex")
	rtVar(t, rtMust(t, out, KindEnemyAdded), "enemy_id", "e3")
	for i, want := range []string{"e1", "L2", "Rex"} {
		if got := st.EnemyName(c, i); got != want {
			t.Errorf("EnemyName(%s) = %q, want %q", st.Enemies[i].ID, got, want)
		}
	}
	// Scanning e1's token gives it its printed level.
	st, out, err = PlaceEnemy(c, st, "e1", Placement{Token: "robot-1"})
	if err != nil {
		t.Fatal(err)
	}
	rtVar(t, rtMust(t, out, KindEnemyPlaced), "id", "L1")
	rtVar(t, rtMust(t, out, KindEnemyPlaced), "enemy_id", "e1")
}

// EnemyName: two enemies of one type showing the same level cannot be told
// apart on the table by it, so both are called by their ids; the same level
// on another type stays, as the type is said with it ("Raider L2").
func TestEnemyName_SameLevelOfOneTypeFallsBackToID(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2"})
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2"})
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "raider-2"})
	for i, want := range []string{"e1", "e2", "L2"} {
		if got := st.EnemyName(c, i); got != want {
			t.Errorf("EnemyName(%s) = %q, want %q", st.Enemies[i].ID, got, want)
		}
	}
}

// The enemy turn's announcements name the enemy as EnemyName does: "Robot
// L2 attacks Ann", with the id kept under enemy_id.
func TestEnemyName_ActivationOutcomesUseTheName(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2", With: []string{"ann"}})
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Name: "Tin"})
	st, _, out := rtActivate(t, c, st, "activation-3") // robot, ghoul
	a := rtMust(t, out, KindEnemyAttack)
	rtVar(t, a, "id", "L2")
	rtVar(t, a, "enemy_id", "e1")
	m := rtMust(t, out, KindEnemyMove)
	rtVar(t, m, "id", "Tin")
	rtVar(t, m, "enemy_id", "e2")
	if got := AttackText(c, &st, Attack{Enemy: "e1", Type: "robot", Survivor: "ann"}); got != "Ann's fight against Robot L2" {
		t.Errorf("AttackText = %q", got)
	}
}

// FindEnemy takes the id, the name in any letter case, a token id or a
// printed level that exactly one enemy on the map has; a token or level on
// more than one enemy is an error that lists them.
func TestFindEnemy_IDNameTokenLevel(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2"})                // e1
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "raider-3", Name: "Boss"}) // e2
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "ghoul-2"})                // e3
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "super-mutant-1"})         // e4
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "super-mutant-1"})         // e5, same token
	for ref, want := range map[string]string{"e1": "e1", "boss": "e2", "BOSS": "e2", "robot-2": "e1", "ghoul-2": "e3", "L3": "e2", "l3": "e2"} {
		i, err := st.FindEnemy(c, ref)
		if err != nil || st.Enemies[i].ID != want {
			t.Errorf("FindEnemy(%q) = %d, %v; want %s", ref, i, err, want)
		}
	}
	for ref, msg := range map[string]string{
		"L2":             `"L2" is on more than one enemy on the map: Robot e1 (token robot-2), Ghoul e3 (token ghoul-2)`,
		"super-mutant-1": `"super-mutant-1" is on more than one enemy on the map`,
		"e9":             `no enemy "e9" on the map`,
	} {
		if _, err := st.FindEnemy(c, ref); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("FindEnemy(%q) error %v, want %q", ref, err, msg)
		}
	}
}

// A name is 1 to 12 letters or digits, unique among the enemies on the map
// (names and ids, any letter case), and not something a command reads as
// another enemy: an id form, a type, faction or token id.
func TestEnemyName_Checks(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Name: "Tin"})
	for name, msg := range map[string]string{
		"tin":           `enemy name "tin" is taken by Robot e1`,
		"Thirteenchars": "use 1 to 12 letters or digits",
		"big-one":       "use only letters and digits",
		"e7":            "looks like an enemy id",
		"ghoul":         "is an enemy type, faction or token id",
		"Ghoul":         "is an enemy type, faction or token id",
		"railroad":      "is an enemy type, faction or token id",
	} {
		if _, _, err := AddEnemy(c, st, EnemySpec{Type: "ghoul", Name: name}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("name %q: error %v, want %q", name, err, msg)
		}
	}
	// Renaming an enemy to its own name, and a German name, are fine.
	if _, _, err := PlaceEnemy(c, st, "Tin", Placement{Name: "TIN"}); err != nil {
		t.Errorf("renaming Tin to TIN: %v", err)
	}
	if _, _, err := AddEnemy(c, st, EnemySpec{Type: "ghoul", Name: "Jörg2"}); err != nil {
		t.Errorf("name Jörg2: %v", err)
	}
}

// A killed enemy's replacement is a new, facedown token: it does not take
// the killed one's name (the group wrote it on the discarded token), and
// the replacement announcement names it by its id.
func TestEnemyName_ReplacementIsNotNamed(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-1", Name: "Tin", With: []string{"ann"}})
	// robot-1: level 1, armor 1, vulnerable head and arms; three head hits kill it.
	st, _, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: "tin", Faces: rtVATS(t, c, "head", "head", "head")})
	r := rtMust(t, out, KindFightReplace)
	rtVar(t, r, "id", "e1.2")
	if len(st.Enemies) != 1 || st.Enemies[0].Name != "" {
		t.Errorf("enemies after the kill %+v, want one unnamed replacement", st.Enemies)
	}
}

// FightToken is the one place that says what a fight is against, for the
// tracker and the dashboard: a map enemy by any reference FindEnemy takes
// (not for a drawn token), else a token, type or faction.
func TestFightToken(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot-2", Name: "Tin"})
	for _, tc := range []struct {
		ref   string
		drawn bool
		typ   string
		level int
		i     int
		err   string
	}{
		{ref: "tin", typ: "robot", level: 2, i: 0},
		{ref: "robot-2", typ: "robot", level: 2, i: 0},
		{ref: "robot-3", typ: "robot", level: 3, i: -1},
		{ref: "robot-2", drawn: true, typ: "robot", level: 2, i: -1},
		{ref: "ghoul", typ: "ghoul", level: 1, i: -1},
		{ref: "Tin", drawn: true, err: "is on the map; draw is for tokens drawn from the supply"},
		{ref: "e1", drawn: true, err: "is on the map"},
		{ref: "nothing", err: `no enemy "nothing" on the map and no such token or type`},
	} {
		typ, tok, i, err := FightToken(c, &st, tc.ref, tc.drawn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("FightToken(%q, drawn %v) error %v, want %q", tc.ref, tc.drawn, err, tc.err)
			}
			continue
		}
		if err != nil || typ != tc.typ || tok.Level != tc.level || i != tc.i {
			t.Errorf("FightToken(%q, drawn %v) = %s L%d %d %v, want %s L%d %d", tc.ref, tc.drawn, typ, tok.Level, i, err, tc.typ, tc.level, tc.i)
		}
	}
}
