package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"tablecam/models"
)

// TaughtFaceSets returns the face sets that were created by teaching (the
// profiles under the data directory's profiles/dice marked Custom), in the
// order of their ids, without loading the example pictures. The rules need
// these sets to accept rolls of them. A profile that cannot be read is
// reported in bad (its folder and why) and left out: reading with it fails
// later with its own message, and the rest of the game is unaffected.
func TaughtFaceSets(dataDir string) (sets []models.FaceSet, bad []error) {
	root := filepath.Join(dataDir, "profiles", "dice")
	ents, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("taught dice sets: %w", err)}
	}
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "profile.json"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			bad = append(bad, fmt.Errorf("taught dice set in %s: %w", dir, err))
			continue
		}
		var p struct {
			Set    models.FaceSet `json:"set"`
			Custom bool           `json:"custom"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			bad = append(bad, fmt.Errorf("taught dice set in %s: profile.json: %w", dir, err))
			continue
		}
		if !p.Custom {
			continue
		}
		if p.Set.ID != e.Name() {
			bad = append(bad, fmt.Errorf("taught dice set in %s: profile.json names set %q", dir, p.Set.ID))
			continue
		}
		sets = append(sets, p.Set)
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i].ID < sets[j].ID })
	return sets, bad
}
