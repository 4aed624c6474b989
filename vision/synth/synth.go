// Package synth renders synthetic table scenes with dice for tests, accuracy
// evaluation and the demo: a procedural table (wood, felt, cloth, slate,
// paper, playmat) seen by a webcam above it, dice of any face set of the
// content pack drawn as small cubes (the top face plus the visible, darker
// sides), soft shadows, lighting, glare, hands, camera tilt, blur, sensor
// noise and JPEG artefacts, each scene with its exact truth.
//
// Everything is reproducible: the same spec and seed give byte-identical
// images; every random choice comes from the spec's seed. No game art is
// used: the face art is drawn here (see [RenderFace] and [Style]).
//
// [Render] draws one scene, [RenderEmpty] the same table without dice (a
// background reference frame), and [NewSequence] a rolling sequence at
// 30 fps that is a [tablecam/frame.Source]: dice thrown in from an edge, tumbling,
// stopping and staying still, hands picking dice up, rerolling them and
// passing over the table, with the truth of every frame.
//
// Seeds: the seeds that tune or teach a recognizer (templates, thresholds)
// and the seeds that measure it must never overlap. Use [TrainSeedMin] ..
// [TrainSeedMax] for the first and [EvalSeedMin] .. [EvalSeedMax] for held-out
// evaluation (see [IsEvalSeed]). [RandomScene] and [RandomSequenceSpec] turn
// a seed into a varied spec.
//
// # Geometry
//
// A pinhole camera looks down at the table from a little off the frame's
// centre (so every die shows a darker side band), tilted by Scene.Tilt.
// Dice are cubes of edge Size table pixels; with no tilt a table pixel is a
// frame pixel on the table, and the top face looks a few percent larger
// because it is nearer the camera. The truth is exact for what is drawn:
// Corners are the projected corners of the top face (of the square; the
// drawn face has rounded corners), Center its projected centre, Box the
// bounds of everything visible of the die. Angle is clockwise in the frame.
//
// # Face art
//
// V.A.T.S. faces show a body silhouette with the face's regions highlighted
// and its hits as icons; assist faces show hit and hurt icons; a symbol set
// the package does not know gets a glyph hashed from each face id (plus its
// hits, hurt icons and silhouette), so any face set renders and its faces
// differ. d6 faces show pips in the standard layout (on a resting die,
// opposite sides add up to seven). d10, d20 and other numeric faces show the
// face id as a numeral (d10 "0" shows 0; 6 and 9 are underlined). Their
// footprint stays a square cube, like every die, so readers and truth work
// the same for all sets; in the default style the top face carries a
// lighter kite (d10) or triangle (d20) facet with the numeral, the
// neighbouring facets darker, and the sides show facets without numerals.
// [Style] holds colours, shapes and layout; [StyleDefault], [StyleAlt] and
// [StyleWorn] are presets to derive from. This War of Mine's combat dice
// and Wasteland Warfare's luck token (a flat disc, thrown flipping over)
// have art of their own, drawn for scenes that name their sets with a
// content that has them ([WithGamePieces]); the random mix never draws them.
//
// Every function that returns a gocv.Mat hands it to the caller, who closes
// it. The package keeps no state between calls and is safe for concurrent
// use; a [Sequence] is not.
package synth

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"tablecam/models"
)

// Seed ranges. Tests and tuning draw seeds from [TrainSeedMin, TrainSeedMax);
// held-out accuracy evaluation draws them from [EvalSeedMin, EvalSeedMax) so
// that nothing a recognizer was tuned or taught on is ever measured.
const (
	TrainSeedMin int64 = 0
	TrainSeedMax int64 = 1_000_000
	EvalSeedMin  int64 = 1_000_000_000
	EvalSeedMax  int64 = 2_000_000_000
)

// IsEvalSeed reports whether seed belongs to the held-out evaluation range.
func IsEvalSeed(seed int64) bool { return seed >= EvalSeedMin && seed < EvalSeedMax }

// IsTrainSeed reports whether seed belongs to the training/tuning range.
func IsTrainSeed(seed int64) bool { return seed >= TrainSeedMin && seed < TrainSeedMax }

// Background is the kind of procedural table surface.
type Background string

// Table surfaces.
const (
	BackgroundWood    Background = "wood"    // brown boards with grain
	BackgroundFelt    Background = "felt"    // green, noisy
	BackgroundCloth   Background = "cloth"   // a woven plaid table cloth
	BackgroundSlate   Background = "slate"   // dark grey stone
	BackgroundPaper   Background = "paper"   // light paper or a white table
	BackgroundPlaymat Background = "playmat" // a busy multi-coloured printed mat
)

// Backgrounds lists every table surface.
func Backgrounds() []Background {
	return []Background{BackgroundWood, BackgroundFelt, BackgroundCloth, BackgroundSlate, BackgroundPaper, BackgroundPlaymat}
}

// Edge is a side of the frame.
type Edge int

// Frame edges. EdgeAuto lets the seed choose.
const (
	EdgeAuto Edge = iota
	EdgeTop
	EdgeBottom
	EdgeLeft
	EdgeRight
)

// String returns the edge's name.
func (e Edge) String() string {
	switch e {
	case EdgeTop:
		return "top"
	case EdgeBottom:
		return "bottom"
	case EdgeLeft:
		return "left"
	case EdgeRight:
		return "right"
	}
	return "auto"
}

// Lighting describes the room light. The zero value is a normal, neutral,
// even light.
type Lighting struct {
	// Level scales the brightness: 0.45 dim, 1 normal, 1.5 bright (0 means 1).
	Level float64
	// Temperature tints the light: -1 warm (orange) … 0 neutral … +1 cool (blue).
	Temperature float64
	// Gradient in [0, 1] darkens away from the light: a vignette or a linear
	// fall-off across the table (the seed picks which and its direction).
	Gradient float64
	// Glare in [0, 1] is the strength of a bright specular spot (0: none).
	Glare float64
	// GlareOnDie puts the glare spot over a die (when there is one).
	GlareOnDie bool
}

// MotionBlur smears the whole frame along a line (camera shake).
type MotionBlur struct {
	// Length of the smear in pixels (0 or 1: none).
	Length float64
	// Angle of the smear in degrees (0: horizontal).
	Angle float64
}

// Hand places a hand and forearm over the table, entering from a frame edge.
type Hand struct {
	// Present turns the hand on.
	Present bool
	// Edge is where the arm enters (EdgeAuto: seeded).
	Edge Edge
	// Cover makes the fingers reach over part of die Die; otherwise the hand
	// rests where it covers no die when such a place exists.
	Cover bool
	// Die is the index in Scene.Dice of the die to cover when Cover is set.
	Die int
}

// Look overrides a die's colours. Zero fields take the style's choice.
type Look struct {
	// Color is the die body colour.
	Color color.RGBA
	// Pips is the colour of pips, numerals, or the silhouette of symbol dice.
	Pips color.RGBA
	// Finish is the body material.
	Finish Finish
}

// DieSpec is one die of a scene.
type DieSpec struct {
	// Set is the face set id (vats, assist, d6, d10, d20 or any set of the
	// content pack).
	Set string
	// Face is the face id on top; "" picks one from the seed.
	Face string
	// Center is the top face's centre in the frame; the zero point places
	// the die at random, inside the frame and clear of the other dice.
	Center image.Point
	// Angle is the die's rotation in degrees, clockwise in the frame. It is
	// used when Center is set or FixAngle is true; otherwise it is random.
	Angle float64
	// FixAngle makes a randomly placed die use Angle.
	FixAngle bool
	// Size is the die's edge in table pixels (with no tilt: the top face's
	// side in frame pixels); 0 picks one from Scene.DieSize.
	Size int
	// Look overrides the style's colours for this die.
	Look Look
}

// Scene describes one synthetic frame. The zero value of every field but
// Dice is a sensible default; Seed picks every choice the spec leaves open.
type Scene struct {
	// Seed decides every choice the spec leaves open.
	Seed int64
	// Width and Height of the frame (default 1280×720).
	Width, Height int
	// Dice on the table.
	Dice []DieSpec
	// DieSize is the range [min, max] of random die sizes in table pixels;
	// zero takes a set-dependent default scaled to the frame (about 44–64 px
	// for V.A.T.S. dice at 720p).
	DieSize [2]int
	// Margin keeps randomly placed dice this many pixels inside the frame
	// (0: 3% of the shorter side).
	Margin int
	// Style of the face art (zero value: StyleDefault()).
	Style Style
	// Background is the table surface ("": wood).
	Background Background
	// Lighting of the room.
	Lighting Lighting
	// NoShadows turns off the soft shadows under dice and hands.
	NoShadows bool
	// Tilt is the camera's tilt from looking straight down, in degrees
	// (0 … 30): the table and the dice are seen in perspective.
	Tilt float64
	// Blur is the sigma in pixels of a Gaussian (focus) blur; 0: none.
	Blur float64
	// MotionBlur smears the frame (camera shake).
	MotionBlur MotionBlur
	// Noise is the sigma of Gaussian sensor noise in grey levels; 0: none.
	Noise float64
	// JPEGQuality, when in 1 … 100, encodes and decodes the frame as JPEG.
	JPEGQuality int
	// Touching places every second randomly placed die edge to edge with the
	// one before it (when there is room).
	Touching bool
	// Hand adds a hand and forearm over the table.
	Hand Hand
	// SetupSeed, when not 0, decides the table's texture, the camera and
	// the light instead of Seed: scenes with the same SetupSeed show the
	// same table from the same camera (a session's frames), while Seed
	// still decides the dice, noise and hands.
	SetupSeed int64
}

// setupSeed is the seed of the table, camera and light.
func (s Scene) setupSeed() int64 {
	if s.SetupSeed != 0 {
		return s.SetupSeed
	}
	return s.Seed
}

// DieTruth is the exact truth about one die in a frame.
type DieTruth struct {
	// Index is the die's index in Scene.Dice (or SequenceSpec.Scene.Dice).
	Index int
	// Set and Face are the die's face set and the face on top.
	Set, Face string
	// Value is the number a numeric face reads as (d10 "0" reads 10), 0
	// for symbol faces.
	Value int
	// Center is the pixel at the centre of the top face.
	Center image.Point
	// Angle is the rotation of the top face's art in degrees, clockwise in
	// the frame, in [0, 360): the direction from Corners[0] to Corners[1].
	Angle float64
	// Corners are the top face's corners in the frame: the top-left,
	// top-right, bottom-right and bottom-left corner of the upright art.
	// They are the corners of the square; the drawn die has slightly
	// rounded corners.
	Corners [4]image.Point
	// Box bounds everything visible of the die (top face and sides),
	// clipped to the frame.
	Box image.Rectangle
	// Size is the mean length in frame pixels of the top face's edges.
	Size float64
	// Occluded is set when a hand covers any part of the die.
	Occluded bool
	// Visible is the fraction of the top face that is in the frame and not
	// covered by a hand.
	Visible float64
	// Moving is set while the die is thrown, tumbling or carried (sequences).
	Moving bool
	// Held is set while a hand holds the die: no reading may be taken.
	Held bool
}

// Truth is the exact content of a frame.
type Truth struct {
	// Dice lists the dice that are at least partly in the frame, in the
	// order of the spec.
	Dice []DieTruth
	// Hand bounds the hand and arm in the frame; empty when there is none.
	Hand image.Rectangle
}

// Errors.
var (
	// ErrSpec reports an invalid scene or sequence spec.
	ErrSpec = errors.New("synth: invalid spec")
	// ErrNoRoom reports that the dice could not be placed without overlap.
	ErrNoRoom = errors.New("synth: no room for the dice")
)

func specErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSpec, fmt.Sprintf(format, args...))
}

// normalized returns the spec with defaults filled in, or an error.
func (s Scene) normalized(c *models.Content) (Scene, error) {
	if c == nil {
		return s, specErr("no content")
	}
	if s.Width == 0 && s.Height == 0 {
		s.Width, s.Height = 1280, 720
	}
	if s.Width < 64 || s.Height < 64 || s.Width > 4096 || s.Height > 4096 {
		return s, specErr("frame size %d×%d outside 64…4096", s.Width, s.Height)
	}
	if s.Background == "" {
		s.Background = BackgroundWood
	}
	known := false
	for _, b := range Backgrounds() {
		known = known || b == s.Background
	}
	if !known {
		return s, specErr("unknown background %q", s.Background)
	}
	if s.Style.Name == "" {
		s.Style = StyleDefault()
	}
	if err := s.Style.validate(); err != nil {
		return s, err
	}
	l := &s.Lighting
	if l.Level == 0 {
		l.Level = 1
	}
	switch {
	case l.Level < 0.1 || l.Level > 3 || math.IsNaN(l.Level):
		return s, specErr("light level %g outside 0.1…3", l.Level)
	case !(l.Temperature >= -1 && l.Temperature <= 1):
		return s, specErr("light temperature %g outside -1…1", l.Temperature)
	case !(l.Gradient >= 0 && l.Gradient <= 1):
		return s, specErr("light gradient %g outside 0…1", l.Gradient)
	case !(l.Glare >= 0 && l.Glare <= 1):
		return s, specErr("glare %g outside 0…1", l.Glare)
	case !(s.Tilt >= 0 && s.Tilt <= 30):
		return s, specErr("tilt %g outside 0…30 degrees", s.Tilt)
	case !(s.Blur >= 0 && s.Blur <= 20):
		return s, specErr("blur %g outside 0…20", s.Blur)
	case !(s.MotionBlur.Length >= 0 && s.MotionBlur.Length <= 100) || math.IsNaN(s.MotionBlur.Angle):
		return s, specErr("motion blur length %g outside 0…100", s.MotionBlur.Length)
	case !(s.Noise >= 0 && s.Noise <= 60):
		return s, specErr("noise %g outside 0…60", s.Noise)
	case s.JPEGQuality < 0 || s.JPEGQuality > 100:
		return s, specErr("JPEG quality %d outside 0…100", s.JPEGQuality)
	case s.Margin < 0 || 2*s.Margin >= min(s.Width, s.Height):
		return s, specErr("margin %d does not fit the frame", s.Margin)
	}
	if s.Margin == 0 {
		s.Margin = max(2, int(0.03*float64(min(s.Width, s.Height))))
	}
	maxSize := min(s.Width, s.Height) / 3
	if s.DieSize != [2]int{} {
		if s.DieSize[0] < 8 || s.DieSize[1] < s.DieSize[0] || s.DieSize[1] > maxSize {
			return s, specErr("die size range %v outside 8…%d", s.DieSize, maxSize)
		}
	}
	dice := make([]DieSpec, len(s.Dice))
	copy(dice, s.Dice)
	s.Dice = dice
	for i, d := range s.Dice {
		fs, ok := c.FaceSet(d.Set)
		if !ok {
			return s, specErr("die %d: unknown face set %q", i, d.Set)
		}
		if len(fs.Faces) == 0 {
			return s, specErr("die %d: face set %q has no faces", i, d.Set)
		}
		if d.Face != "" {
			if _, ok := fs.Face(d.Face); !ok {
				return s, specErr("die %d: face set %q has no face %q", i, d.Set, d.Face)
			}
		}
		if d.Size != 0 && (d.Size < 8 || d.Size > maxSize) {
			return s, specErr("die %d: size %d outside 8…%d", i, d.Size, maxSize)
		}
		if d.Center != (image.Point{}) && !d.Center.In(image.Rect(0, 0, s.Width, s.Height)) {
			return s, specErr("die %d: centre %v outside the frame", i, d.Center)
		}
		if math.IsNaN(d.Angle) || math.IsInf(d.Angle, 0) {
			return s, specErr("die %d: bad angle", i)
		}
	}
	if s.Hand.Present && s.Hand.Cover && (s.Hand.Die < 0 || s.Hand.Die >= len(s.Dice)) {
		return s, specErr("hand covers die %d of %d", s.Hand.Die, len(s.Dice))
	}
	if s.Hand.Edge < EdgeAuto || s.Hand.Edge > EdgeRight {
		return s, specErr("unknown hand edge %d", s.Hand.Edge)
	}
	return s, nil
}

// sizeRange returns the die size range for a set in a normalized scene.
func (s Scene) sizeRange(set string) (int, int) {
	if s.DieSize != [2]int{} {
		return s.DieSize[0], s.DieSize[1]
	}
	k := math.Sqrt(float64(s.Width*s.Height) / (1280 * 720))
	lo, hi := 44.0, 64.0
	switch set {
	case "d6":
		lo, hi = 36, 54
	case "d10", "d20":
		lo, hi = 42, 60
	case SetLuckToken:
		lo, hi = tokenMin, tokenMax
	}
	maxSize := float64(min(s.Width, s.Height) / 3)
	a := math.Max(8, math.Min(maxSize, math.Round(lo*k)))
	b := math.Max(a, math.Min(maxSize, math.Round(hi*k)))
	return int(a), int(b)
}

// faceValue is the number a face reads as, 0 for symbol faces.
func faceValue(fs models.FaceSet, face string) int {
	if fs.Kind != models.KindNumeric {
		return 0
	}
	v, _ := models.NumericValue(fs, face)
	return v
}
