package defaults

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"tablecam/models"
	"tablecam/vision"
)

// Generation names the way the built-in profiles are made; bump it when
// Examples, Profile or Calibrate change so that cached profiles are rebuilt.
// (A binary built from a git checkout also keys the cache by its revision.)
const Generation = 4 // 3: d10 read by its numeral; 4: conflict check, d6 pip refit (calibrated thresholds change)

// BuiltinDir is where the built-in profile of a face set is cached under a
// data directory. Taught profiles live in vision.ProfileDir and win over it.
func BuiltinDir(dataDir, set string) string {
	return filepath.Join(dataDir, "profiles", "dice-builtin", set)
}

// Source tells where a loaded profile came from.
type Source struct {
	Set string
	// Taught is true for a profile the group taught (tablecam learn dice).
	Taught bool
	// Built is true when the built-in profile was built now (not cached).
	Built bool
	Dir   string
}

// Load returns the profiles of sets for reading: a profile the group
// taught (vision.ProfileDir(dataDir, set)) wins; otherwise the built-in
// profile from the renderer's art, built once (a few seconds per set) and
// cached in BuiltinDir. dataDir "" builds without caching. A set that is
// neither taught nor in the content pack is an error that says how to
// teach it. progress (may be nil) hears about builds.
func Load(c *models.Content, dataDir string, sets []string, progress func(string)) ([]*vision.DiceProfile, []Source, error) {
	if progress == nil {
		progress = func(string) {}
	}
	var out []*vision.DiceProfile
	var srcs []Source
	for _, set := range sets {
		if dataDir != "" {
			dir := vision.ProfileDir(dataDir, set)
			if _, err := os.Stat(filepath.Join(dir, "profile.json")); err == nil {
				p, err := vision.LoadDiceProfile(dir)
				if err != nil {
					return nil, nil, fmt.Errorf("taught dice set %q: %w (teach it again with: tablecam learn dice --set %s DIR)", set, err, set)
				}
				for _, e := range p.Skipped {
					progress(fmt.Sprintf("taught dice set %q: an example is left out: %v", set, e))
				}
				out = append(out, p)
				srcs = append(srcs, Source{Set: set, Taught: true, Dir: dir})
				continue
			}
		}
		fs, ok := c.FaceSet(set)
		if !ok {
			return nil, nil, fmt.Errorf("dice set %q is neither in the content pack nor taught (teach it with: tablecam learn dice --set %s DIR)", set, set)
		}
		key := cacheKey(fs)
		if dataDir != "" {
			dir := BuiltinDir(dataDir, set)
			if p, err := loadCached(dir, key); err == nil {
				out = append(out, p)
				srcs = append(srcs, Source{Set: set, Dir: dir})
				continue
			}
		}
		progress(fmt.Sprintf("preparing the built-in %s dice profile (once; a few seconds)", set))
		ps, err := Profiles(c, []string{set}, Options{})
		if err != nil {
			return nil, nil, fmt.Errorf("built-in dice profile %q: %w", set, err)
		}
		p := ps[0]
		src := Source{Set: set, Built: true}
		if dataDir != "" {
			dir := BuiltinDir(dataDir, set)
			if err := saveCached(dir, key, p); err != nil {
				// Not fatal: the profile works, it is only built again next time.
				progress(fmt.Sprintf("could not cache the %s dice profile in %s: %v", set, dir, err))
			} else {
				src.Dir = dir
			}
		}
		out = append(out, p)
		srcs = append(srcs, src)
	}
	return out, srcs, nil
}

// cacheKey identifies what a built-in profile was made from.
func cacheKey(fs models.FaceSet) string {
	h := sha256.New()
	fmt.Fprintf(h, "gen %d profile %d\n", Generation, vision.DiceProfileVersion)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				fmt.Fprintf(h, "%s=%s\n", s.Key, s.Value)
			}
		}
	}
	_ = json.NewEncoder(h).Encode(fs)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

const keyFile = "builtin.key"

func loadCached(dir, key string) (*vision.DiceProfile, error) {
	k, err := os.ReadFile(filepath.Join(dir, keyFile))
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(k)) != key {
		return nil, errors.New("stale")
	}
	p, err := vision.LoadDiceProfile(dir)
	if err == nil && len(p.Skipped) > 0 {
		// A cache with a damaged picture is built again whole.
		return nil, errors.Join(p.Skipped...)
	}
	return p, err
}

func saveCached(dir, key string, p *vision.DiceProfile) error {
	// Remove the key first: a crash between the writes leaves no key, so
	// the profile is rebuilt rather than half-read.
	_ = os.Remove(filepath.Join(dir, keyFile))
	if err := p.Save(dir); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, keyFile), []byte(key+"\n"), 0o644)
}
