package background_test

import (
	"sync"
	"testing"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/defaults"
	"tablecam/vision/synth"
)

// The default dice profiles are taught once per test binary from the
// renderer's default art on training seeds, then calibrated on other
// training seeds: teaching runs the same code a user's examples go
// through.
var (
	diceProfilesOnce sync.Once
	diceProfiles     map[string]*vision.DiceProfile
	diceProfilesErr  error
	diceContent      *models.Content
)

// diceDefaultProfiles returns the default profiles of the given sets.
func diceDefaultProfiles(t testing.TB, sets ...string) (*models.Content, []*vision.DiceProfile) {
	t.Helper()
	diceProfilesOnce.Do(func() {
		diceContent, diceProfilesErr = models.DefaultContent()
		if diceProfilesErr != nil {
			return
		}
		diceProfiles = map[string]*vision.DiceProfile{}
		for i, s := range []string{"vats", "assist", "d6", "d10"} {
			seed := synth.TrainSeedMin + 7000 + int64(i)*10000
			p, _, err := defaults.Profile(diceContent, s, defaults.Options{Seed: seed}, nil)
			if err != nil {
				diceProfilesErr = err
				return
			}
			if _, err := defaults.Calibrate(diceContent, p, synth.Style{}, seed+5000, 36); err != nil {
				diceProfilesErr = err
				return
			}
			diceProfiles[s] = p
		}
	})
	if diceProfilesErr != nil {
		t.Fatal(diceProfilesErr)
	}
	var out []*vision.DiceProfile
	for _, s := range sets {
		p, ok := diceProfiles[s]
		if !ok {
			t.Fatalf("no default profile for %q", s)
		}
		out = append(out, p)
	}
	return diceContent, out
}
