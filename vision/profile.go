package vision

// Dice profiles: what the dice of one face set look like, learned from
// examples ([TeachDiceProfile], [TeachDice]) and stored in the data
// directory (profiles/dice/<set>/: profile.json and one PNG per example).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"tablecam/frame"

	"tablecam/models"
)

// DiceProfileVersion is the version of the profile format Save writes;
// LoadDiceProfile reads it and nothing newer.
const DiceProfileVersion = 1

// DefaultDiceThreshold is the confidence below which a die is reported
// Uncertain when a profile has no calibrated threshold.
const DefaultDiceThreshold = 0.35

// exampleCrop is the side in pixels of a stored example: the top face with
// a quarter of its side around it, so that examples can be resampled with
// small shifts, turns and changes of scale.
const exampleCrop = 48

// exampleFace is the part of an example crop's side the face covers.
const exampleFace = 32.0 / 48.0

// DiceProfile is what the dice of one face set look like.
type DiceProfile struct {
	// Version is the format version (DiceProfileVersion).
	Version int `json:"version"`
	// Set is the face set. For a set of the content pack the content's
	// faces (regions, hits, values) take precedence when reading.
	Set models.FaceSet `json:"set"`
	// Custom is set for a face set that is not in the content pack (it was
	// created by teaching).
	Custom bool `json:"custom,omitempty"`
	// Source says where the examples came from.
	Source string `json:"source,omitempty"`
	// Threshold is the confidence below which a reading is Uncertain.
	Threshold float64 `json:"threshold"`
	// Body lists the colours of the dice's bodies, for finding the dice
	// without a reference frame.
	Body []DieColour `json:"body,omitempty"`
	// Examples are the taught faces.
	Examples []DieExample `json:"examples"`
	// Skipped lists the example pictures LoadDiceProfile could not read
	// and left out.
	Skipped []error `json:"-"`
}

// DieExample is one taught face: a square crop around the top face,
// upright as the face was found (any multiple of 90°).
type DieExample struct {
	// Face is the face id.
	Face string `json:"face"`
	// File is the PNG file the crop is stored in, relative to the profile's
	// directory.
	File string `json:"file,omitempty"`
	// From names the image the example was taken from.
	From string `json:"from,omitempty"`
	// Crop holds exampleCrop×exampleCrop 8-bit BGR pixels; the face covers
	// the central two thirds.
	Crop []byte `json:"-"`
}

// DieColour is a die body's colour: chroma per brightness (red-green and
// yellow-blue over the largest channel, so that light level does not
// change it) and the brightness (largest channel, 0–255) in the examples.
type DieColour struct {
	RG    float64 `json:"rg"`
	YB    float64 `json:"yb"`
	Value float64 `json:"value"`
}

// match reports whether a pixel could be this body colour under another
// light: chroma within 0.2, brightness from 30% to 160% of the example's.
func (c DieColour) match(b, g, r byte) bool { return c.dist(b, g, r) < bodyFits }

// bodyFits is the squared chroma distance within which a colour is a body
// colour (see DieColour.dist).
const bodyFits = 0.04

// dist is the squared distance of a pixel's chroma to this body colour's,
// +Inf when its brightness is out of reach of the example's (below 30% or
// above 160%).
func (c DieColour) dist(b, g, r byte) float64 {
	v := float64(max(b, g, r))
	if v < 0.3*c.Value || v > 1.6*c.Value+8 || v < 12 {
		return math.Inf(1)
	}
	rg := (float64(r) - float64(g)) / v
	yb := ((float64(r)+float64(g))/2 - float64(b)) / v
	return (rg-c.RG)*(rg-c.RG) + (yb-c.YB)*(yb-c.YB)
}

// colourOf returns the DieColour of a BGR pixel.
func colourOf(b, g, r float64) DieColour {
	v := math.Max(1, math.Max(b, math.Max(g, r)))
	return DieColour{RG: (r - g) / v, YB: ((r+g)/2 - b) / v, Value: v}
}

// Validate checks the profile's structure.
func (p *DiceProfile) Validate() error {
	if p == nil {
		return errors.New("vision: dice profile: nil")
	}
	if p.Version < 1 || p.Version > DiceProfileVersion {
		return fmt.Errorf("vision: dice profile %q: version %d, this program reads 1 … %d", p.Set.ID, p.Version, DiceProfileVersion)
	}
	if p.Set.ID == "" || strings.ContainsAny(p.Set.ID, `/\`) || p.Set.ID == "." || p.Set.ID == ".." {
		return fmt.Errorf("vision: dice profile: bad face set id %q", p.Set.ID)
	}
	if len(p.Set.Faces) == 0 {
		return fmt.Errorf("vision: dice profile %q: no faces", p.Set.ID)
	}
	have := map[string]int{}
	for i, e := range p.Examples {
		if _, ok := p.Set.Face(e.Face); !ok {
			return fmt.Errorf("vision: dice profile %q: example %d has unknown face %q", p.Set.ID, i, e.Face)
		}
		if len(e.Crop) != 3*exampleCrop*exampleCrop {
			return fmt.Errorf("vision: dice profile %q: example %d has %d bytes, want %d", p.Set.ID, i, len(e.Crop), 3*exampleCrop*exampleCrop)
		}
		have[e.Face]++
	}
	for _, f := range p.Set.Faces {
		if have[f.ID] == 0 {
			return fmt.Errorf("vision: dice profile %q: no example of face %q", p.Set.ID, f.ID)
		}
	}
	if !(p.Threshold >= 0 && p.Threshold <= 1) {
		return fmt.Errorf("vision: dice profile %q: threshold %g outside 0 … 1", p.Set.ID, p.Threshold)
	}
	return nil
}

// Save writes the profile to dir (created if needed): profile.json and the
// examples as PNG files. Files of an earlier profile in dir that the new
// one does not use are left alone.
func (p *DiceProfile) Save(dir string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("vision: save dice profile: %w", err)
	}
	q := *p
	q.Examples = slices.Clone(p.Examples)
	counts := map[string]int{}
	for i := range q.Examples {
		e := &q.Examples[i]
		counts[e.Face]++
		e.File = fmt.Sprintf("%s-%03d.png", safeName(e.Face), counts[e.Face])
		if err := writeCropPNG(filepath.Join(dir, e.File), e.Crop); err != nil {
			return fmt.Errorf("vision: save dice profile %q: %w", p.Set.ID, err)
		}
	}
	data, err := json.MarshalIndent(&q, "", "  ")
	if err != nil {
		return fmt.Errorf("vision: save dice profile %q: %w", p.Set.ID, err)
	}
	tmp := filepath.Join(dir, "profile.json.tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("vision: save dice profile %q: %w", p.Set.ID, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "profile.json")); err != nil {
		return fmt.Errorf("vision: save dice profile %q: %w", p.Set.ID, err)
	}
	return nil
}

// safeName turns a face id into a file name part.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "~%x", r)
		}
	}
	if b.Len() == 0 {
		return "face"
	}
	return b.String()
}

// LoadDiceProfile reads the profile saved in dir.
func LoadDiceProfile(dir string) (*DiceProfile, error) {
	data, err := os.ReadFile(filepath.Join(dir, "profile.json"))
	if err != nil {
		return nil, fmt.Errorf("vision: load dice profile: %w", err)
	}
	var p DiceProfile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("vision: load dice profile %s: %w", dir, err)
	}
	if p.Version < 1 || p.Version > DiceProfileVersion {
		return nil, fmt.Errorf("vision: load dice profile %s: version %d, this program reads 1 … %d", dir, p.Version, DiceProfileVersion)
	}
	// An example whose picture cannot be read costs that example only,
	// as long as every face keeps one.
	kept := p.Examples[:0]
	for i, e := range p.Examples {
		if e.File == "" || filepath.Base(e.File) != e.File {
			return nil, fmt.Errorf("vision: load dice profile %s: example %d: bad file name %q", dir, i, e.File)
		}
		crop, err := readCropPNG(filepath.Join(dir, e.File))
		if err != nil {
			p.Skipped = append(p.Skipped, err)
			continue
		}
		e.Crop = crop
		kept = append(kept, e)
	}
	p.Examples = kept
	if err := p.Validate(); err != nil {
		if len(p.Skipped) > 0 {
			return nil, fmt.Errorf("%w (in %s; %d example pictures could not be read: %w)", err, dir, len(p.Skipped), errors.Join(p.Skipped...))
		}
		return nil, fmt.Errorf("%w (in %s)", err, dir)
	}
	return &p, nil
}

// LoadDiceProfiles reads every profile saved in a subdirectory of dir (the
// data directory's profiles/dice), in the order of the set ids. A missing
// dir holds no profiles.
func LoadDiceProfiles(dir string) ([]*DiceProfile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vision: load dice profiles: %w", err)
	}
	var out []*DiceProfile
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, "profile.json")); err != nil {
			continue
		}
		p, err := LoadDiceProfile(sub)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Set.ID < out[j].Set.ID })
	return out, nil
}

// ProfileDir is where the profile of a face set lives under a data
// directory.
func ProfileDir(dataDir, set string) string {
	return filepath.Join(dataDir, "profiles", "dice", set)
}

func writeCropPNG(path string, crop []byte) error {
	if len(crop) != 3*exampleCrop*exampleCrop {
		return fmt.Errorf("%s: crop has %d bytes", path, len(crop))
	}
	img := image.NewNRGBA(image.Rect(0, 0, exampleCrop, exampleCrop))
	for i := 0; i < exampleCrop*exampleCrop; i++ {
		img.Pix[4*i] = crop[3*i+2]
		img.Pix[4*i+1] = crop[3*i+1]
		img.Pix[4*i+2] = crop[3*i]
		img.Pix[4*i+3] = 255
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readCropPNG reads an example crop, exampleCrop px square. Its header is
// checked (frame.ReadImageBytes, then the crop's size) before it is decoded: a
// crop file whose header claims a huge picture costs an error, not the
// memory of decoding it.
func readCropPNG(path string) ([]byte, error) {
	data, err := frame.ReadImageBytes(path)
	if err != nil {
		return nil, err
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width != exampleCrop || cfg.Height != exampleCrop {
		return nil, fmt.Errorf("%s: %dx%d, want %dx%d", path, cfg.Width, cfg.Height, exampleCrop, exampleCrop)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b := img.Bounds()
	if b.Dx() != exampleCrop || b.Dy() != exampleCrop {
		return nil, fmt.Errorf("%s: %dx%d, want %dx%d", path, b.Dx(), b.Dy(), exampleCrop, exampleCrop)
	}
	crop := make([]byte, 3*exampleCrop*exampleCrop)
	for y := 0; y < exampleCrop; y++ {
		for x := 0; x < exampleCrop; x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			i := 3 * (y*exampleCrop + x)
			crop[i], crop[i+1], crop[i+2] = c.B, c.G, c.R
		}
	}
	return crop, nil
}
