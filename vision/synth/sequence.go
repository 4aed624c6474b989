package synth

import (
	"context"
	"fmt"
	"image"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/models"
)

// StepKind is what one step of a sequence script does.
type StepKind int

// Script steps.
const (
	// StepThrow throws every die that is not on the table (or the first
	// Count of them) in from an edge; the dice tumble, slow down and stop.
	// The step ends when all have stopped. A token slides in flipping over
	// and lands flat.
	StepThrow StepKind = iota + 1
	// StepWait keeps everything still for Frames frames (default 30).
	StepWait
	// StepReroll: a hand reaches for die Die, picks it up, shakes it and
	// throws it again; it tumbles and stops elsewhere showing Face ("":
	// seeded). The other dice stay untouched.
	StepReroll
	// StepPickUp: a hand picks die Die up and carries it out of the frame.
	StepPickUp
	// StepHandPass: a hand reaches over the table and withdraws without
	// touching a die (it may hide some while it passes).
	StepHandPass
)

// String returns the step kind's name.
func (k StepKind) String() string {
	switch k {
	case StepThrow:
		return "throw"
	case StepWait:
		return "wait"
	case StepReroll:
		return "reroll"
	case StepPickUp:
		return "pickup"
	case StepHandPass:
		return "handpass"
	}
	return fmt.Sprintf("step(%d)", int(k))
}

// Step is one step of a sequence script.
type Step struct {
	// Kind is what the step does.
	Kind StepKind
	// Die is the index in the scene's dice of the die a hand picks up.
	Die int
	// Face is the face a rerolled die lands on ("": seeded).
	Face string
	// Frames is the length of a wait.
	Frames int
	// Count is how many of the dice not on the table a throw throws, in
	// the scene's order (0: all): the others come in with a later throw.
	Count int
	// Edge is where thrown dice or the hand come from (EdgeAuto: seeded).
	Edge Edge
}

// SequenceSpec describes a rolling sequence.
type SequenceSpec struct {
	// Scene sets the table, camera, light, style, image options and the
	// dice. Each die's Face is what it shows after its first throw and its
	// Center where that throw leaves it (both seeded when empty). Scene.Hand
	// is ignored: hands come from the script.
	Scene Scene
	// Script is the list of steps; empty means [StepThrow, StepWait 45].
	Script []Step
	// FPS is the frame rate (default 30).
	FPS int
}

// EventKind marks what happens at a frame of a sequence.
type EventKind int

// Sequence events.
const (
	// EventThrow: dice are thrown (the first frame of the throw).
	EventThrow EventKind = iota + 1
	// EventSettled: every die on the table is at rest from this frame on
	// (until the next event).
	EventSettled
	// EventHandIn: a hand, or its shadow, appears in the frame.
	EventHandIn
	// EventHandOut: the hand and its shadow have left the frame (the first
	// frame without them).
	EventHandOut
	// EventPickUp: the hand lifts die Die.
	EventPickUp
	// EventRelease: the hand throws die Die.
	EventRelease
	// EventGone: die Die has left the frame.
	EventGone
)

// String returns the event kind's name.
func (k EventKind) String() string {
	return [...]string{"?", "throw", "settled", "hand-in", "hand-out", "pickup", "release", "gone"}[min(int(k), 7)]
}

// Event is a marker in a sequence.
type Event struct {
	// Frame is the first frame the event applies to.
	Frame int
	// Kind is what happens.
	Kind EventKind
	// Die is the die concerned, -1 when the event is about all of them.
	Die int
}

// Sequence is a rendered rolling sequence and a [frame.Source]. Frames are
// drawn on demand (Read or Frame) and depend only on the spec and the frame
// index. Not safe for concurrent use. Close releases its buffers.
type Sequence struct {
	st      *stage
	spec    SequenceSpec
	fps     int
	n       int
	dice    []dieTrack
	hands   []handTrack
	events  []Event
	settled []int
	next    int
	closed  bool
}

// segKind is what a die does during a segment.
type segKind int

const (
	segGone   segKind = iota // off the table
	segRest                  // at rest
	segTumble                // thrown: moving, rolling, bouncing
	segHeld                  // in a hand
)

// dieSeg is a stretch of frames [f0, f1) of one die.
type dieSeg struct {
	kind   segKind
	f0, f1 int
	// rest is the resting die (rest), the landing pose (tumble) or the pose
	// it was picked up from (held).
	rest cube
	// Tumble: start position and height, top faces in order, spin.
	from     vec2
	fromLift float64
	tops     []string
	spin     float64
	// Held: the hand track holding it.
	hand int
}

type dieTrack struct {
	segs []dieSeg
}

func (t *dieTrack) add(s dieSeg) {
	if n := len(t.segs); n > 0 {
		t.segs[n-1].f1 = s.f0
	}
	t.segs = append(t.segs, s)
}

func (t *dieTrack) last() *dieSeg { return &t.segs[len(t.segs)-1] }

// handKey is a keyframe of a hand: its fingertip position, curl and height.
type handKey struct {
	f      int
	tip    vec2
	curl   float64
	height float64
}

type handTrack struct {
	pose   handPose
	keys   []handKey
	shake0 int
	shake1 int
	amp    float64
}

func smooth(t float64) float64 {
	t = math.Max(0, math.Min(1, t))
	return t * t * (3 - 2*t)
}

// at returns the hand at frame time t (fractional frames allowed), and
// whether the track is active then.
func (h *handTrack) at(t float64) (handPose, bool) {
	k := h.keys
	if len(k) == 0 || t < float64(k[0].f) || t > float64(k[len(k)-1].f) {
		return handPose{}, false
	}
	p := h.pose
	i := 0
	for i+1 < len(k)-1 && t >= float64(k[i+1].f) {
		i++
	}
	a, b := k[i], k[i+1]
	u := smooth((t - float64(a.f)) / math.Max(1, float64(b.f-a.f)))
	p.tip = a.tip.lerp(b.tip, u)
	p.curl = a.curl + (b.curl-a.curl)*u
	p.height = a.height + (b.height-a.height)*u
	if t >= float64(h.shake0) && t < float64(h.shake1) {
		dir := p.tip.sub(p.entry).unit()
		n := vec2{-dir.Y, dir.X}
		ph := (t - float64(h.shake0)) / 5 * 2 * math.Pi
		p.tip = p.tip.add(n.scale(h.amp * math.Sin(ph))).add(dir.scale(0.4 * h.amp * math.Sin(2*ph)))
	}
	return p, true
}

// pose returns the hand at frame i with its motion blur.
func (h *handTrack) poseAt(i int) (handPose, bool) {
	p, ok := h.at(float64(i))
	if !ok {
		return p, false
	}
	a, okA := h.at(float64(i) - 0.3)
	b, okB := h.at(float64(i) + 0.3)
	if okA && okB {
		p.blur = b.tip.sub(a.tip)
	}
	return p, true
}

// heldCenter is where a held die appears: under the fingers.
func (p *handPose) heldCenter() vec2 {
	dir := p.tip.sub(p.entry).unit()
	n := vec2{-dir.Y, dir.X}.scale(p.side)
	return p.tip.sub(dir.scale(0.42 * p.width)).add(n.scale(0.06 * p.width))
}

// NewSequence lays out a rolling sequence. It fails when the spec is invalid
// or the script cannot be played (a reroll of a die that is not on the
// table, no room to land).
func NewSequence(c *models.Content, spec SequenceSpec) (*Sequence, error) {
	s, err := spec.Scene.normalized(c)
	if err != nil {
		return nil, err
	}
	spec.Scene = s
	spec.Scene.Hand = Hand{}
	if spec.FPS == 0 {
		spec.FPS = 30
	}
	if spec.FPS < 1 || spec.FPS > 240 {
		return nil, specErr("fps %d outside 1…240", spec.FPS)
	}
	if len(spec.Script) == 0 {
		spec.Script = []Step{{Kind: StepThrow}, {Kind: StepWait, Frames: 45}}
	}
	spec.Script = append([]Step(nil), spec.Script...)
	for i, st := range spec.Script {
		switch st.Kind {
		case StepThrow, StepWait, StepHandPass:
		case StepReroll, StepPickUp:
			if st.Die < 0 || st.Die >= len(s.Dice) {
				return nil, specErr("step %d: no die %d", i, st.Die)
			}
			if st.Face != "" {
				fs, _ := c.FaceSet(s.Dice[st.Die].Set)
				if _, ok := fs.Face(st.Face); !ok {
					return nil, specErr("step %d: face set %q has no face %q", i, fs.ID, st.Face)
				}
			}
		default:
			return nil, specErr("step %d: unknown kind %d", i, st.Kind)
		}
		if st.Frames < 0 || st.Frames > 10000 {
			return nil, specErr("step %d: frames %d outside 0…10000", i, st.Frames)
		}
		if st.Count < 0 {
			return nil, specErr("step %d: count %d below 0", i, st.Count)
		}
		if st.Edge < EdgeAuto || st.Edge > EdgeRight {
			return nil, specErr("step %d: unknown edge %d", i, st.Edge)
		}
	}
	stg, err := newStage(c, spec.Scene)
	if err != nil {
		return nil, err
	}
	seq := &Sequence{st: stg, spec: spec, fps: spec.FPS}
	if err := seq.plan(); err != nil {
		stg.close()
		return nil, err
	}
	return seq, nil
}

// planner holds the state while a script is laid out.
type planner struct {
	seq    *Sequence
	st     *stage
	rng    *rand.Rand
	frame  int
	onTbl  []bool
	thrown []bool
	base   []cube // resolved dice (look, size, faces of the first throw)
	rest   []image.Rectangle
}

func (s *Sequence) plan() error {
	st := s.st
	spec := st.spec
	p := &planner{seq: s, st: st, rng: rngFor(spec.Seed, saltScript)}
	n := len(spec.Dice)
	p.onTbl, p.thrown = make([]bool, n), make([]bool, n)
	p.rest = make([]image.Rectangle, n)
	s.dice = make([]dieTrack, n)
	// First-throw rest poses: the same layout as Render of the scene.
	lay, err := st.layout(rngFor(spec.Seed, saltLayout))
	if err != nil {
		return err
	}
	for i, ld := range lay {
		p.base = append(p.base, ld.cube)
		s.dice[i].add(dieSeg{kind: segGone, f0: 0})
	}
	st.setGlare(lay)
	for si, step := range s.spec.Script {
		var err error
		switch step.Kind {
		case StepThrow:
			err = p.throw(step, lay)
		case StepWait:
			f := step.Frames
			if f == 0 {
				f = 30
			}
			p.frame += f
		case StepReroll, StepPickUp:
			err = p.pick(step)
		case StepHandPass:
			err = p.pass(step)
		}
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", si, step.Kind, err)
		}
		if p.frame > 20000 {
			return specErr("sequence longer than 20000 frames")
		}
	}
	s.n = max(1, p.frame)
	for i := range s.dice {
		s.dice[i].last().f1 = s.n
	}
	s.sortEvents()
	return nil
}

// sortEvents orders events by frame (stable).
func (s *Sequence) sortEvents() {
	ev := s.events
	for i := 1; i < len(ev); i++ {
		for j := i; j > 0 && ev[j].Frame < ev[j-1].Frame; j-- {
			ev[j], ev[j-1] = ev[j-1], ev[j]
		}
	}
}

func (p *planner) edge(e Edge) Edge {
	if e == EdgeAuto {
		return randomEdge(p.rng)
	}
	return e
}

// occupied lists the rest boxes of the dice on the table, except skip.
func (p *planner) occupied(skip int) []image.Rectangle {
	var out []image.Rectangle
	for i, on := range p.onTbl {
		if on && i != skip {
			out = append(out, p.rest[i])
		}
	}
	return out
}

// findRest places die cb at random, clear of boxes.
func (p *planner) findRest(cb *cube, boxes []image.Rectangle) (image.Rectangle, bool) {
	st := p.st
	m := float64(st.spec.Margin)
	for range 400 {
		q := vec2{m + p.rng.Float64()*(float64(st.spec.Width)-2*m), m + p.rng.Float64()*(float64(st.spec.Height)-2*m)}
		st.placeAt(cb, q)
		g := cb.geometry(&st.cam, st.light)
		if st.fits(g.box, boxes) {
			return g.box, true
		}
	}
	return image.Rectangle{}, false
}

// tumble adds a tumbling segment of die i from (from, lift) at frame f0 to
// the rest pose rest, and the rest segment after it; it returns the frame
// at which the die stops.
func (p *planner) tumble(i int, f0 int, from vec2, lift float64, rest cube) int {
	st := p.st
	dist := rest.base.sub(from).len()
	turns := max(2, min(14, int(math.Round(dist/rest.size))))
	frames := int(math.Round(16+2.2*dist/rest.size)) + p.rng.IntN(7)
	frames = max(18, min(70, frames))
	fs := rest.set
	// Top faces in order; the last two agree with the rest pose's sides so
	// that the die does not change when it stops.
	tops := make([]string, turns+1)
	tops[turns] = rest.faces[0]
	for k := turns - 1; k >= 0; k-- {
		if k == turns-1 && rest.faces[2] != "" {
			tops[k] = rest.faces[2]
			continue
		}
		for try := 0; ; try++ {
			f := fs.Faces[p.rng.IntN(len(fs.Faces))].ID
			if f != tops[k+1] || try > 8 {
				tops[k] = f
				break
			}
		}
	}
	seg := dieSeg{kind: segTumble, f0: f0, rest: rest, from: from, fromLift: lift, tops: tops,
		spin: (60 + 300*p.rng.Float64()) * float64(1-2*p.rng.IntN(2))}
	p.seq.dice[i].add(seg)
	stop := f0 + frames
	p.seq.dice[i].add(dieSeg{kind: segRest, f0: stop, rest: rest})
	_ = st
	return stop
}

// throw throws every die that is off the table.
func (p *planner) throw(step Step, lay []*layoutDie) error {
	st := p.st
	edge := p.edge(step.Edge)
	var idx []int
	for i, on := range p.onTbl {
		if !on && (step.Count == 0 || len(idx) < step.Count) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	p.seq.events = append(p.seq.events, Event{Frame: p.frame, Kind: EventThrow, Die: -1})
	boxes := p.occupied(-1)
	type landing struct {
		i    int
		rest cube
		box  image.Rectangle
	}
	var lands []landing
	for _, i := range idx {
		cb := p.base[i]
		if !p.thrown[i] {
			// The first throw lands where Render would put the die, unless
			// that spot is taken now.
			g := cb.geometry(&st.cam, st.light)
			if lay[i].fixed || st.fits(g.box, boxes) {
				lands = append(lands, landing{i, cb, g.box})
				boxes = append(boxes, g.box)
				continue
			}
		} else {
			fs := cb.set
			cb.faces = sideFaces(fs, fs.Faces[p.rng.IntN(len(fs.Faces))].ID, p.rng, st.spec.Style.SideArt)
			cb.yaw = p.rng.Float64() * 360
		}
		box, ok := p.findRest(&cb, boxes)
		if !ok {
			return fmt.Errorf("%w: die %d", ErrNoRoom, i)
		}
		lands = append(lands, landing{i, cb, box})
		boxes = append(boxes, box)
	}
	stop := p.frame
	for k, l := range lands {
		// Start outside the edge, near the landing spot along the edge.
		g := l.rest.geometry(&st.cam, st.light)
		along := 0.5
		w, h := float64(st.spec.Width), float64(st.spec.Height)
		if edge == EdgeTop || edge == EdgeBottom {
			along = g.center.X / w
		} else {
			along = g.center.Y / h
		}
		along = math.Max(0.05, math.Min(0.95, 0.6*along+0.4*p.rng.Float64()))
		out := 1.5 * g.topSide
		start, _ := st.edgePoint(edge, along, out)
		from := st.cam.unproject(start, 0)
		f0 := p.frame + k*p.rng.IntN(4)
		lift := l.rest.size * (0.8 + 0.8*p.rng.Float64())
		stop = max(stop, p.tumble(l.i, f0, from, lift, l.rest))
		p.onTbl[l.i], p.thrown[l.i] = true, true
		p.rest[l.i] = l.box
	}
	p.frame = stop
	p.seq.events = append(p.seq.events, Event{Frame: stop, Kind: EventSettled, Die: -1})
	p.seq.settled = append(p.seq.settled, stop)
	return nil
}

// nearestEdge is the frame edge closest to point q.
func (p *planner) nearestEdge(q vec2) Edge {
	w, h := float64(p.st.spec.Width), float64(p.st.spec.Height)
	d := []float64{q.Y, h - q.Y, q.X, w - q.X}
	best := 0
	for i := range d {
		if d[i] < d[best] {
			best = i
		}
	}
	return Edge(best + 1)
}

// newHand starts a hand track entering from edge at fraction along.
func (p *planner) newHand(edge Edge, along float64) (handTrack, vec2, vec2) {
	st := p.st
	var sizes []float64
	for i, on := range p.onTbl {
		if on {
			sizes = append(sizes, p.base[i].size*st.cam.imageScale(p.base[i].base))
		}
	}
	mean := 0.0
	for _, s := range sizes {
		mean += s / float64(len(sizes))
	}
	if mean == 0 {
		lo, hi := st.spec.sizeRange("vats")
		mean = float64(lo+hi) / 2
	}
	w := st.handWidth(mean)
	outside, in := st.edgePoint(edge, along, 1.4*w)
	entry := outside.sub(in.scale(2.5 * w))
	h := handTrack{pose: handPose{
		entry: entry, width: w, side: float64(1 - 2*p.rng.IntN(2)),
		spread: 0.7 + 0.6*p.rng.Float64(),
	}}
	return h, outside, in
}

// pick plays a reroll or a pick-up of one die.
func (p *planner) pick(step Step) error {
	st := p.st
	i := step.Die
	if !p.onTbl[i] {
		return fmt.Errorf("%w: die %d is not on the table", ErrSpec, i)
	}
	track := &p.seq.dice[i]
	restSeg := track.last()
	if restSeg.kind != segRest {
		return fmt.Errorf("%w: die %d is not at rest", ErrSpec, i)
	}
	rest := restSeg.rest
	g := rest.geometry(&st.cam, st.light)
	edge := step.Edge
	if edge == EdgeAuto {
		edge = p.nearestEdge(g.center)
	}
	w, hgt := float64(st.spec.Width), float64(st.spec.Height)
	along := g.center.X / w
	if edge == EdgeLeft || edge == EdgeRight {
		along = g.center.Y / hgt
	}
	along = math.Max(0, math.Min(1, along+(p.rng.Float64()-0.5)*0.3))
	ht, outside, _ := p.newHand(edge, along)
	wd := ht.pose.width
	dir := g.center.sub(ht.pose.entry).unit()
	grabTip := g.center.add(dir.scale(0.42 * wd)).add(vec2{-dir.Y, dir.X}.scale(-0.06 * wd * ht.pose.side))
	f := p.frame
	tIn := 12 + p.rng.IntN(9)
	tGrab := 5
	hi := 0.6 * wd
	ht.keys = []handKey{
		{f: f, tip: outside, curl: 0.1, height: hi},
		{f: f + tIn, tip: grabTip.sub(dir.scale(0.05 * wd)), curl: 0.2, height: 0.25 * wd},
		{f: f + tIn + tGrab, tip: grabTip, curl: 0.7, height: 0.15 * wd},
	}
	grab := f + tIn + tGrab
	hand := len(p.seq.hands)
	p.seq.events = append(p.seq.events, Event{Frame: grab, Kind: EventPickUp, Die: i})
	p.onTbl[i] = false
	if step.Kind == StepPickUp {
		tOut := 14 + p.rng.IntN(9)
		ht.keys = append(ht.keys, handKey{f: grab + tOut, tip: outside.sub(dir.scale(0.8 * wd)), curl: 0.8, height: hi})
		track.add(dieSeg{kind: segHeld, f0: grab, rest: rest, hand: hand})
		p.seq.hands = append(p.seq.hands, ht)
		// The die is gone once the hand carrying it is out of view.
		gone := grab + tOut
		for k := grab; k <= grab+tOut; k++ {
			hp, _ := ht.at(float64(k))
			c := hp.heldCenter()
			r := 0.8 * g.topSide
			if c.X < -r || c.Y < -r || c.X > w+r || c.Y > hgt+r {
				gone = k
				break
			}
		}
		track.add(dieSeg{kind: segGone, f0: gone})
		p.seq.events = append(p.seq.events, Event{Frame: gone, Kind: EventGone, Die: i})
		p.frame = p.handEvents(&ht, f, grab+tOut+1)
		return nil
	}
	// Reroll: lift, shake while drawing back, throw, withdraw.
	tCarry := 10 + p.rng.IntN(7)
	release := grab + tCarry
	back := grabTip.lerp(outside, 0.35+0.15*p.rng.Float64())
	ht.keys = append(ht.keys, handKey{f: release, tip: back, curl: 0.8, height: hi})
	tOut := 10 + p.rng.IntN(5)
	ht.keys = append(ht.keys, handKey{f: release + tOut, tip: outside.sub(dir.scale(0.6 * wd)), curl: 0.2, height: hi})
	ht.shake0, ht.shake1, ht.amp = grab+2, release-1, 0.05*wd
	track.add(dieSeg{kind: segHeld, f0: grab, rest: rest, hand: hand})
	p.seq.hands = append(p.seq.hands, ht)
	hp, _ := ht.at(float64(release))
	fromImg := hp.heldCenter()
	// New landing spot and face.
	cb := p.base[i]
	fs := cb.set
	face := step.Face
	if face == "" {
		face = fs.Faces[p.rng.IntN(len(fs.Faces))].ID
	}
	cb.faces = sideFaces(fs, face, p.rng, st.spec.Style.SideArt)
	cb.yaw = p.rng.Float64() * 360
	box, ok := p.findRest(&cb, p.occupied(i))
	if !ok {
		return fmt.Errorf("%w: die %d", ErrNoRoom, i)
	}
	lift := 0.9 * cb.size
	from := st.cam.unproject(fromImg, lift+cb.size)
	stop := p.tumble(i, release, from, lift, cb)
	p.onTbl[i] = true
	p.rest[i] = box
	p.seq.events = append(p.seq.events, Event{Frame: release, Kind: EventRelease, Die: i})
	end := p.handEvents(&ht, f, release+tOut+1)
	p.seq.events = append(p.seq.events, Event{Frame: stop, Kind: EventSettled, Die: -1})
	p.seq.settled = append(p.seq.settled, stop)
	p.frame = max(stop, end)
	return nil
}

// pass plays a hand reaching over the table and withdrawing.
func (p *planner) pass(step Step) error {
	edge := p.edge(step.Edge)
	ht, outside, in := p.newHand(edge, 0.2+0.6*p.rng.Float64())
	wd := ht.pose.width
	w, h := float64(p.st.spec.Width), float64(p.st.spec.Height)
	depth := (0.35 + 0.25*p.rng.Float64()) * math.Abs(in.dot(vec2{w, h}))
	side := vec2{-in.Y, in.X}.scale((p.rng.Float64() - 0.5) * 0.5 * math.Abs(vec2{-in.Y, in.X}.dot(vec2{w, h})))
	a := outside.add(in.scale(1.4*wd + depth))
	b := a.add(side)
	f := p.frame
	t1 := 12 + p.rng.IntN(8)
	t2 := t1 + 8 + p.rng.IntN(10)
	t3 := t2 + 12 + p.rng.IntN(8)
	hi := (0.8 + 0.6*p.rng.Float64()) * wd
	ht.keys = []handKey{
		{f: f, tip: outside, height: hi},
		{f: f + t1, tip: a, curl: 0.1, height: hi},
		{f: f + t2, tip: b, curl: 0.2, height: hi},
		{f: f + t3, tip: outside.add(side), curl: 0.1, height: hi},
	}
	p.seq.hands = append(p.seq.hands, ht)
	p.frame = p.handEvents(&ht, f, f+t3+1)
	return nil
}

// handEvents records when hand ht (or its shadow) enters and leaves the
// frame between frames f0 and f1, and returns f1.
func (p *planner) handEvents(ht *handTrack, f0, f1 int) int {
	in, out := -1, f1
	for k := f0; k < f1; k++ {
		vis := false
		if hp, ok := ht.poseAt(k); ok {
			vis = !p.st.handFootprint(&hp).Empty()
		}
		if vis && in < 0 {
			in = k
		}
		if vis {
			out = k + 1
		}
	}
	if in >= 0 {
		p.seq.events = append(p.seq.events, Event{Frame: in, Kind: EventHandIn, Die: -1}, Event{Frame: out, Kind: EventHandOut, Die: -1})
	}
	return f1
}

// Len is the number of frames.
func (s *Sequence) Len() int { return s.n }

// FPS is the frame rate.
func (s *Sequence) FPS() int { return s.fps }

// Spec returns the sequence's spec with defaults filled in.
func (s *Sequence) Spec() SequenceSpec { return s.spec }

// Events lists the sequence's markers in frame order.
func (s *Sequence) Events() []Event { return append([]Event(nil), s.events...) }

// StoppedAt is the frame at which all dice came to rest after the last throw
// or reroll (-1 when the script throws nothing). Frames after it are still
// in the dice area until the next hand event.
func (s *Sequence) StoppedAt() int {
	if len(s.settled) == 0 {
		return -1
	}
	return s.settled[len(s.settled)-1]
}

// Settles lists every frame at which all dice came to rest, in order.
func (s *Sequence) Settles() []int { return append([]int(nil), s.settled...) }

// state computes what frame i shows.
func (s *Sequence) state(i int) frameState {
	st := s.st
	fs := frameState{noiseRng: rngFor(st.spec.Seed^int64(uint64(i+1)*0x9e3779b97f4a7c15), saltNoise)}
	var hand *handPose
	for hi := range s.hands {
		if hp, ok := s.hands[hi].poseAt(i); ok {
			h := hp
			hand = &h
		}
	}
	fs.hand = hand
	for di := range s.dice {
		fs.dice = append(fs.dice, s.dieAt(di, i))
	}
	return fs
}

// dieAt returns die di at frame i (nil when off the table).
func (s *Sequence) dieAt(di, i int) *cube {
	st := s.st
	tr := &s.dice[di]
	var seg *dieSeg
	for k := range tr.segs {
		if tr.segs[k].f0 <= i && i < tr.segs[k].f1 {
			seg = &tr.segs[k]
		}
	}
	if seg == nil {
		return nil
	}
	switch seg.kind {
	case segRest:
		c := seg.rest
		return &c
	case segTumble:
		c := seg.tumbleAt(float64(i))
		pa := seg.tumbleAt(float64(i) - 0.3)
		pb := seg.tumbleAt(float64(i) + 0.3)
		ga := st.cam.project(vec3{pa.base.X, pa.base.Y, pa.lift + pa.size/2})
		gb := st.cam.project(vec3{pb.base.X, pb.base.Y, pb.lift + pb.size/2})
		c.blur = gb.sub(ga)
		c.moving = true
		return &c
	case segHeld:
		h := &s.hands[seg.hand]
		hp, ok := h.poseAt(i)
		if !ok {
			return nil
		}
		c := seg.rest
		c.moving, c.held = true, true
		t := float64(i - seg.f0)
		lift := c.size * math.Min(1, 0.3+t/4)
		target := st.cam.unproject(hp.heldCenter(), lift+c.size)
		k := math.Min(1, (t+1)/3)
		c.base = seg.rest.base.lerp(target, k)
		c.lift = lift
		c.yaw = seg.rest.yaw + 20*math.Sin(t*0.9)
		c.roll = int(t/3) & 3
		c.phi = 18 + 10*math.Sin(t*1.3)
		c.blur = hp.blur.scale(0.8)
		return &c
	}
	return nil
}

// tumbleAt is the tumbling die at frame time t.
func (seg *dieSeg) tumbleAt(t float64) cube {
	c := seg.rest
	u := math.Max(0, math.Min(1, (t-float64(seg.f0))/float64(seg.f1-seg.f0)))
	e := 1 - (1-u)*(1-u)
	c.base = seg.from.lerp(seg.rest.base, e)
	c.yaw = seg.rest.yaw - seg.spin*(1-e)
	turns := len(seg.tops) - 1
	phi := float64(turns) * 90 * e
	k := int(math.Floor(phi/90 + 0.5))
	k = max(0, min(turns, k))
	c.phi = phi - 90*float64(k)
	c.roll = 0
	top := seg.tops[k]
	c.faces[0] = top
	if k < turns {
		c.faces[1] = seg.tops[k+1]
	}
	if k > 0 {
		c.faces[2] = seg.tops[k-1]
	}
	// Hops while thrown: a few decaying bounces in the first 40%.
	const ub = 0.4
	if u < ub {
		c.lift = seg.fromLift * (1 - u/ub) * (1 - u/ub) * math.Abs(math.Cos(math.Pi*2.5*u/ub))
	}
	return c
}

// Frame renders frame i and its truth; the caller closes the Mat.
func (s *Sequence) Frame(i int) (gocv.Mat, Truth, error) {
	if s.closed {
		return gocv.NewMat(), Truth{}, frame.ErrClosed
	}
	if i < 0 || i >= s.n {
		return gocv.NewMat(), Truth{}, fmt.Errorf("synth: frame %d outside 0…%d", i, s.n-1)
	}
	m, t, err := s.st.render(s.state(i), drawCopy)
	if err != nil {
		m.Close()
		return gocv.NewMat(), Truth{}, err
	}
	return m, t, nil
}

// Truth returns the truth of frame i without drawing the frame (only the
// hand's coverage is drawn, to decide occlusion); empty when i is out of
// range.
func (s *Sequence) Truth(i int) Truth {
	if i < 0 || i >= s.n || s.closed {
		return Truth{}
	}
	m, t, err := s.st.render(s.state(i), truthOnly)
	m.Close()
	if err != nil {
		return Truth{}
	}
	return t
}

// Read returns the next frame (frame.Source); io.EOF after the last.
func (s *Sequence) Read(ctx context.Context) (frame.Frame, error) {
	if s.closed {
		return frame.Frame{}, frame.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return frame.Frame{}, err
	}
	if s.next >= s.n {
		return frame.Frame{}, io.EOF
	}
	i := s.next
	m, _, err := s.Frame(i)
	if err != nil {
		return frame.Frame{}, err
	}
	s.next++
	return frame.Frame{Mat: m, Index: i, Time: time.Duration(i) * time.Second / time.Duration(s.fps)}, nil
}

// Rewind makes the next Read return frame 0 again.
func (s *Sequence) Rewind() { s.next = 0 }

// Close releases the sequence's buffers; Read returns frame.ErrClosed
// after it. Closing twice is harmless.
func (s *Sequence) Close() error {
	if !s.closed {
		s.closed = true
		s.st.close()
	}
	return nil
}
