package wasteland

// One test (or table) per luck rule of seed 001. Every test cites its
// source by section and line:
//   seed 001 = ../shared/seeds/001_b11b5a38a322a6c2.txt (luck tokens, German)

import (
	"slices"
	"testing"
)

func num(v int) SkillFace { return SkillFace{Kind: Number, Value: v} }

func unit(tokens int) Unit { return Unit{LUC: 3, Tokens: tokens} }

func mustApply(t *testing.T, r Roll, u Use, shown bool) Roll {
	t.Helper()
	r, _, err := Apply(r, u, shown)
	if err != nil {
		t.Fatalf("Apply(%s, %v): %v", u, shown, err)
	}
	return r
}

// seed 001 line 1 (tokens equal to LUC at setup) and line 3 ("nie mehr
// Glücksmarken ... als seinem LUC-Wert entspricht").
func TestSeed001_TokensAtMostLUC(t *testing.T) {
	if got := SetupTokens(3); got != 3 {
		t.Errorf("SetupTokens(3) = %d, want 3", got)
	}
	rows := []struct {
		luc, tokens, gain, want int
	}{
		{3, 1, 1, 2}, // below LUC: gains
		{3, 2, 4, 3}, // capped at LUC
		{2, 2, 1, 2}, // already full
		{0, 0, 2, 0}, // no LUC, no tokens
	}
	for _, r := range rows {
		got := GainTokens(Unit{LUC: r.luc, Tokens: r.tokens}, r.gain)
		if got.Tokens != r.want {
			t.Errorf("GainTokens(LUC %d, %d tokens, +%d) = %d, want %d", r.luc, r.tokens, r.gain, got.Tokens, r.want)
		}
	}
}

// seed 001 "Genauigkeit" (lines 14–16): after a failed skill test a token
// showing luck gives the skill die −2; not on a success, not on an X; one
// token per test. Line 3: the token is discarded whatever it shows.
func TestSeed001Genauigkeit_Accuracy(t *testing.T) {
	rows := []struct {
		name      string
		skill     int
		face      SkillFace
		legal     bool
		shown     bool
		successAf bool
	}{
		{"failed by 2 becomes a success (line 15–16)", 5, num(7), true, true, true},
		{"failed by 3 stays failed", 5, num(8), true, true, false},
		{"blank side: no change", 5, num(6), true, false, false},
		{"a success cannot be improved (line 16)", 5, num(5), false, false, true},
		{"an X cannot be changed (line 16)", 9, SkillFace{Kind: X}, false, false, false},
		{"a critical is not changed by luck (line 18–19)", 0, SkillFace{Kind: Critical}, false, false, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			roll := NewTest(r.skill, r.face, unit(2))
			ok := slices.Contains(Legal(roll), Option{Accuracy, Actor})
			if ok != r.legal {
				t.Fatalf("accuracy legal = %v, want %v (Legal = %v)", ok, r.legal, Legal(roll))
			}
			if !r.legal {
				if _, _, err := Apply(roll, Accuracy, true); err == nil {
					t.Error("Apply accepted an illegal accuracy token")
				}
				return
			}
			after, res, err := Apply(roll, Accuracy, r.shown)
			if err != nil {
				t.Fatal(err)
			}
			if after.Success() != r.successAf || res.Success != r.successAf {
				t.Errorf("success after accuracy = %v (%+v), want %v", after.Success(), res, r.successAf)
			}
			if after.Tester.Tokens != 1 {
				t.Errorf("tokens after one throw = %d, want 1 (line 3: discarded after use)", after.Tester.Tokens)
			}
			if slices.Contains(Legal(after), Option{Accuracy, Actor}) {
				t.Error("a second accuracy token is legal on the same test (line 15: one per test)")
			}
		})
	}
}

// seed 001 "Ausweichen" (lines 17–20): after a successful attack roll the
// target's token showing luck adds +2 to the attacker's roll; a critical
// cannot be dodged; after a successful dodge the attacker throws no luck.
func TestSeed001Ausweichen_Dodge(t *testing.T) {
	// A hit by 2 or less becomes a miss.
	r := NewAttack(6, num(5), unit(2), unit(1))
	if !slices.Contains(Legal(r), Option{Dodge, Target}) {
		t.Fatalf("dodge not legal after a hit: %v", Legal(r))
	}
	r = mustApply(t, r, Dodge, true)
	if r.Success() || !r.Dodged {
		t.Errorf("after a shown dodge: success %v dodged %v, want a miss and dodged", r.Success(), r.Dodged)
	}
	// line 20: the attacker may not throw accuracy now, though it has tokens
	// and has thrown none.
	if slices.Contains(Legal(r), Option{Accuracy, Actor}) || r.Tester.Tokens != 2 {
		t.Errorf("after a successful dodge Legal = %v (attacker tokens %d), want no accuracy", Legal(r), r.Tester.Tokens)
	}
	// A hit by 3 survives a shown dodge: not dodged, extra critical stays open.
	r = mustApply(t, NewAttack(6, num(3), unit(2), unit(1)), Dodge, true)
	if !r.Success() || r.Dodged {
		t.Errorf("3+2 vs 6: success %v dodged %v, want the hit to stand", r.Success(), r.Dodged)
	}
	// line 18–19: a critical cannot be dodged.
	c := NewAttack(6, SkillFace{Kind: Critical}, unit(2), unit(1))
	if slices.Contains(Legal(c), Option{Dodge, Target}) {
		t.Error("dodge legal against a critical")
	}
	if _, _, err := Apply(c, Dodge, true); err == nil {
		t.Error("Apply accepted a dodge against a critical")
	}
	// line 18: a missed attack gives nothing to dodge.
	if slices.Contains(Legal(NewAttack(6, num(8), unit(0), unit(1))), Option{Dodge, Target}) {
		t.Error("dodge legal after a miss")
	}
	// Accuracy then dodge: the target may dodge a hit that accuracy made.
	a := mustApply(t, NewAttack(5, num(7), unit(2), unit(1)), Accuracy, true)
	if !slices.Contains(Legal(a), Option{Dodge, Target}) {
		t.Errorf("dodge not legal after accuracy made the hit: %v", Legal(a))
	}
}

// seed 001 "Zähigkeit" (lines 21–23): after the damage is computed after
// armour and before it is applied, a token showing luck reduces it by 1.
func TestSeed001Zaehigkeit_Toughness(t *testing.T) {
	r := NewAttack(6, num(4), unit(1), unit(2))
	if slices.Contains(Legal(r), Option{Toughness, Target}) {
		t.Error("toughness legal before the damage is computed")
	}
	r, err := SetDamage(r, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(Legal(r), Option{Toughness, Target}) {
		t.Fatalf("toughness not legal with damage 3: %v", Legal(r))
	}
	r = mustApply(t, r, Toughness, true)
	if r.Damage != 2 || r.Defender.Tokens != 1 {
		t.Errorf("after shown toughness: damage %d tokens %d, want 2 and 1", r.Damage, r.Defender.Tokens)
	}
	// line 5: not two tokens on the same damage.
	if slices.Contains(Legal(r), Option{Toughness, Target}) {
		t.Error("a second toughness token is legal on the same damage")
	}
	// line 22: any source of damage.
	if got := ToughnessDamage(1, true); got != 0 {
		t.Errorf("ToughnessDamage(1, shown) = %d, want 0", got)
	}
	if got := ToughnessDamage(2, false); got != 2 {
		t.Errorf("ToughnessDamage(2, blank) = %d, want 2", got)
	}
	// No damage to a missed attack.
	if _, err := SetDamage(NewAttack(6, num(9), unit(1), unit(1)), 2); err == nil {
		t.Error("SetDamage accepted a missed attack")
	}
}

// seed 001 "Extra-Kritisch" (lines 24–26): after a successful attack, once
// all tokens on the roll are thrown, a token showing luck gives the weapon
// +1 critical point, whether or not the attack did damage.
func TestSeed001ExtraKritisch(t *testing.T) {
	r := NewAttack(6, num(4), unit(2), unit(1))
	if slices.Contains(Legal(r), Option{ExtraCritical, Actor}) {
		t.Error("extra critical legal before the roll is final (line 25)")
	}
	r = Resolve(r)
	if slices.Contains(Legal(r), Option{Dodge, Target}) {
		t.Error("dodge legal after the roll is final")
	}
	r = mustApply(t, r, ExtraCritical, true)
	if r.ExtraCP != 1 {
		t.Errorf("ExtraCP = %d, want 1", r.ExtraCP)
	}
	// line 26: also when the attack did no damage.
	z, err := SetDamage(NewAttack(6, num(4), unit(1), unit(0)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(Legal(z), Option{ExtraCritical, Actor}) {
		t.Errorf("extra critical not legal on a 0-damage hit: %v", Legal(z))
	}
	// A missed attack earns none.
	if slices.Contains(Legal(Resolve(NewAttack(6, num(9), unit(2), unit(1)))), Option{ExtraCritical, Actor}) {
		t.Error("extra critical legal after a miss")
	}
	// A plain skill test is no attack (line 24–25).
	if slices.Contains(Legal(Resolve(NewTest(6, num(2), unit(2)))), Option{ExtraCritical, Actor}) {
		t.Error("extra critical legal on a skill test that is not an attack")
	}
}

// seed 001 "Mehrere Glücksmarker nutzen" (lines 4–5): the same unit may
// throw a token to dodge and, if that fails, another to reduce the damage.
func TestSeed001MehrereMarker(t *testing.T) {
	r := mustApply(t, NewAttack(6, num(3), unit(1), unit(2)), Dodge, false)
	if !r.Success() {
		t.Fatal("a blank dodge turned the hit into a miss")
	}
	r, err := SetDamage(r, 2)
	if err != nil {
		t.Fatal(err)
	}
	r = mustApply(t, r, Toughness, true)
	if r.Damage != 1 || r.Defender.Tokens != 0 {
		t.Errorf("dodge then toughness: damage %d tokens %d, want 1 and 0", r.Damage, r.Defender.Tokens)
	}
	// A unit without tokens has no options.
	if got := Legal(NewAttack(6, num(8), unit(0), unit(0))); len(got) != 0 {
		t.Errorf("Legal without tokens = %v, want none", got)
	}
}

// seed 001 "Änderung im Vault-Tec Simulator" (lines 9–13): no luck tokens.
func TestSeed001Simulator(t *testing.T) {
	r := NewAttack(5, num(7), unit(3), unit(3))
	r.Simulator = true
	if got := Legal(r); len(got) != 0 {
		t.Errorf("Legal in the simulator = %v, want none", got)
	}
	if _, _, err := Apply(r, Accuracy, true); err == nil {
		t.Error("Apply accepted a token in the simulator")
	}
}

// rules-other-games.md "Dice": AP and Critical read 1, X always fails; the
// test passes on a reading at most the skill value.
func TestSkillPasses(t *testing.T) {
	rows := []struct {
		skill int
		face  SkillFace
		mod   int
		want  bool
	}{
		{5, num(5), 0, true},
		{5, num(6), 0, false},
		{1, SkillFace{Kind: AP}, 0, true},
		{1, SkillFace{Kind: AP}, 2, false},
		{1, SkillFace{Kind: Critical}, 2, true}, // seed 001 line 18–19: no luck changes a critical
		{20, SkillFace{Kind: X}, -5, false},
	}
	for _, r := range rows {
		if got := SkillPasses(r.skill, r.face, r.mod); got != r.want {
			t.Errorf("SkillPasses(%d, %+v, %d) = %v, want %v", r.skill, r.face, r.mod, got, r.want)
		}
	}
	for id, want := range map[string]SkillFace{"7": num(7), "AP": {Kind: AP}, "crit": {Kind: Critical}, "x": {Kind: X}} {
		if got, err := ParseFace(id); err != nil || got != want {
			t.Errorf("ParseFace(%q) = %+v, %v; want %+v", id, got, err, want)
		}
	}
	if _, err := ParseFace("21"); err == nil {
		t.Error("ParseFace accepted 21")
	}
}
