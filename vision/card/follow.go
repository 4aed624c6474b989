package card

// Cards read with the reference are followed from frame to frame. A card
// held in a hand trembles by a pixel or two a frame, and the outlines
// found for it move by more (10–30 px on a busy cloth), so a reader that
// reads every frame afresh pays for a held card nearly what a new one
// costs. Instead, after a frame read (in full or partly, below), each
// reading (a taught card, an untaught one, a sticker) keeps the grey
// picture sampled on a grid inside its outline; in the next frames the
// reader looks for that picture near where the card was (a few pixels and
// a degree each way, followShift, followTurns). A card found again
// (the picture within followDiff of its own, still on what changed,
// its sticker read again) is followed; when every place that changed
// against the empty table is made of the cards followed (what is left
// beyond them and their rims is skin, shadows (soft ones too:
// change.Unshaded) or less than followRest of the smallest card: no new
// card), the frame returns them moved, without searching for stickers or
// outlines. Otherwise the frame is partly followed: the places that are
// not (a new card, one moved or turned too far, one put in another's
// place, a hand over one, the light changing) are read as a frame is read
// in full, and the cards followed elsewhere are kept; a card not found
// again that left no such place was taken away. Every followFrames-th
// frame is read in full (an untaught card found later, a partial outline
// mended). Without the reference, nothing is followed.

import (
	"image"
	"math"
	"slices"

	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

const (
	// followGrid is the grid's points on a side (grey samples inside
	// the outline, from a tenth of it in).
	followGrid = 20
	// followShift is the largest shift (pixels, each way, whole
	// pixels) searched from a card's last place.
	followShift = 3
	// followDiff is the largest difference (followTrack.diff, grey
	// levels) of a card's picture from its own, where it is found, for it
	// to be followed. BenchmarkReadCards720pHeld's trembling cards (6
	// tables, 3 scenes each, 872 taught and unknown cards followed): at
	// most 3.29 (99% within 2.87); with the sensor's noise at σ 5 instead
	// of 2, at most 3.35. Another scene's frame at the card's place (68
	// cards): at least 7.11, 95% above 13.3. Stickers are read again
	// instead: 880 of 880 held ones, none of 58 in another scene's frame.
	followDiff = 5.0
	// followRest is the changed area that may be left beyond the cards
	// followed (their rims, skin and shadows not counted), in smallest
	// cards: more, and a new card may lie there. It is refRestMin, the
	// least that a blob must leave to be searched for a card's keypoints
	// (calibrated there); at half of it, on felt 2 in 13 held frames left
	// 0.52–0.64 (a held card's shadow).
	followRest = refRestMin
	// followFrames is the most frames in a row that are followed
	// before one is read in full again.
	followFrames = 10
	// followExposure is the most the mean brightness of a card's
	// picture may change from frame to frame (the camera's exposure) and
	// be taken out of its difference.
	followExposure = 12.0
)

// followTurns are the turns (degrees) tried from the card's last
// angle at the best shift, none first.
var followTurns = [...]float64{0, -0.6, 0.6}

// followTrack is a card followed: its reading, its sticker's read (marker
// readings), where it lies (the outline's centre and its turn since it was
// read) and the picture it was read with, sampled at offs from the centre.
type followTrack struct {
	rd     Reading
	marker *marker.Sticker // when read
	now    marker.Sticker  // where it was read again this frame
	q0     [4]geom.Point   // the outline when read
	q      [4]geom.Point   // and now
	c0     geom.Point      // its centre
	c      geom.Point      // the centre now
	turn   float64         // radians since read
	offs   [followGrid * followGrid][2]float32
	px     [followGrid * followGrid]float32
	box    [followGrid * followGrid]float32 // px, each the mean of 2×2 pixels
}

// startFollowing starts following the readings out of a frame read in full
// with the reference (g its grey view); without the reference nothing is
// followed.
func (r *Reader) startFollowing(g geom.View, out []Reading) {
	r.followed = r.followed[:0]
	r.followRun = 0
	if !r.refUsed {
		return
	}
	for _, rd := range out {
		if !geom.QuadFinite(rd.Corners) {
			r.followed = r.followed[:0]
			return // a card reaching out of the frame: read in full
		}
		t := followTrack{rd: rd, q0: rd.Corners}
		t.c0 = geom.QuadCentre(rd.Corners)
		t.c = t.c0
		if rd.Method == MethodMarker && rd.Marker != nil {
			if m, ok := r.markerRead(*rd.Marker, rd.Box); ok {
				t.marker = &m
			}
		}
		s := &r.followSamples
		quadGrid(rd.Corners, followGrid, func(i int, x, y float64) {
			t.offs[i] = [2]float32{float32(x) - t.c0.X, float32(y) - t.c0.Y}
			s.x[i], s.y[i] = x, y
		})
		s.atAndBox(g)
		for i := range s.px {
			t.px[i], t.box[i] = float32(s.px[i]), float32(s.box[i])
		}
		r.followed = append(r.followed, t)
	}
}

// markerRead is the sticker read this frame with marker id whose centre
// lies in box.
func (r *Reader) markerRead(id int, box image.Rectangle) (marker.Sticker, bool) {
	for _, m := range r.reads {
		p := m.Marker.Center
		if m.Marker.ID == id && float64(p.X) >= float64(box.Min.X)-1 && float64(p.X) <= float64(box.Max.X)+1 &&
			float64(p.Y) >= float64(box.Min.Y)-1 && float64(p.Y) <= float64(box.Max.Y)+1 {
			return m, true
		}
	}
	return marker.Sticker{}, false
}

// follow returns the cards followed into this frame (g its grey view,
// compared with the reference: r.ref.blobs are its changed places) and
// the blobs they do not make (open, indices of r.ref.blobs); false when
// the frame must be read in full. A card not found again (its picture
// changed, it moved too far, it left what changed, its sticker reads no
// more) is left out: where it went, or what now covers it, is an open
// blob, and where it was taken away the table is as it was. The cards
// returned lie outside the open blobs, which ReadCards reads (partly
// followed, the frame still counts in r.followRun); a card followed in an
// open blob is read there again with what else is in it.
func (r *Reader) follow(g geom.View, minW float64) (out []Reading, open []int, ok bool) {
	if !r.refUsed || len(r.followed) == 0 || r.followRun >= followFrames {
		return nil, nil, false
	}
	r.kept = r.kept[:0]
	for i := range r.followed {
		t := &r.followed[i]
		if r.refound(g, t) {
			r.kept = append(r.kept, i)
		}
	}
	out = make([]Reading, 0, len(r.kept))
	r.reads = r.reads[:0]
	for _, i := range r.kept {
		t := &r.followed[i]
		rd := t.rd
		rd.Corners, rd.Box = t.q, geom.QuadBox(t.q)
		out = append(out, rd)
		if t.marker != nil { // blobFree's reach of a sticker (nearSticker)
			r.reads = append(r.reads, t.now)
		}
	}
	cardArea := minW * minW * refAspect
	for bi, b := range r.ref.Blobs {
		if b.Area < refMinBlob*cardArea {
			continue
		}
		if l := r.blobFreeOf(b, out, true); l.unshaded >= followRest*cardArea {
			open = append(open, bi) // a card not followed may lie there
		}
	}
	if len(open) > 0 {
		// The cards in an open blob are read again there.
		n := 0
		for k, rd := range out {
			ctr := geom.QuadCentre(rd.Corners)
			if slices.ContainsFunc(open, func(bi int) bool { return pointInRect(ctr, r.ref.Blobs[bi].Box) }) {
				continue
			}
			out[n], r.kept[n] = rd, r.kept[k]
			n++
		}
		out, r.kept = out[:n], r.kept[:n]
	} else if len(r.kept) < len(r.followed) {
		// Followed, but for cards taken away: they are not looked for
		// again.
		for k, i := range r.kept {
			r.followed[k] = r.followed[i]
		}
		r.followed = r.followed[:len(r.kept)]
	}
	r.followRun++
	return out, open, true
}

// refound reports whether the card followed t is found again in g (its
// new place in t.c, t.turn and t.q; a sticker's new read in t.now).
func (r *Reader) refound(g geom.View, t *followTrack) bool {
	c, turn := t.find(g)
	if t.marker == nil && t.diff(g, c, turn) > followDiff {
		return false
	}
	t.c, t.turn = c, turn
	for k := range 4 {
		t.q[k] = t.move(t.q0[k])
	}
	// Still on what changed against the empty table: a card taken
	// away leaves the table, however alike its picture.
	if r.ref.ChangedIn(t.q) < refUnknownChanged {
		return false
	}
	if t.marker != nil {
		// A sticker's sharp picture differs more from frame to frame:
		// its marker is read where it now lies instead.
		var q [4]geom.Point
		for k := range 4 {
			q[k] = t.move(t.marker.Marker.Corners[k])
		}
		m, ok := r.scanner.Read(r.grey, g, q)
		if !ok || m.Marker.ID != t.marker.Marker.ID {
			return false
		}
		t.now = m
	}
	return true
}

// pointInRect reports whether p lies in r.
func pointInRect(p geom.Point, r image.Rectangle) bool {
	return p.X >= float32(r.Min.X) && p.X < float32(r.Max.X) && p.Y >= float32(r.Min.Y) && p.Y < float32(r.Max.Y)
}

// keepFollowed adds to out, the readings of a partly followed frame's open
// blobs, the cards followed outside them (kept; r.kept their indices in
// r.followed) that no card read covers and whose marker (stickers) no
// reading near them has (a card followed reaching into an open blob's
// place may be read there again), drops the unknown readings lying on one
// (one reading per card: an outline of it, or of it and the hand), and
// puts the kept stickers' reads back in r.reads (startFollowing follows
// them by it).
func (r *Reader) keepFollowed(out, kept []Reading) []Reading {
	n := len(out)
	for k, rd := range kept {
		ctr := geom.QuadCentre(rd.Corners)
		near := rd.Box.Inset(-max(rd.Box.Dx(), rd.Box.Dy()) / 2)
		if slices.ContainsFunc(out[:n], func(o Reading) bool {
			read := o.ID != Unknown || o.Method == MethodMarker // unknown ones on it go below
			return read && geom.InQuad(ctr, o.Corners) ||
				rd.Marker != nil && o.Marker != nil && *o.Marker == *rd.Marker && o.Box.Min.Add(o.Box.Max).Div(2).In(near)
		}) {
			continue // read again there (a sticker: its marker read again near it)
		}
		out = append(out, rd)
		if t := &r.followed[r.kept[k]]; t.marker != nil {
			r.reads = append(r.reads, t.now)
		}
	}
	held := slices.Clone(out[n:])
	return slices.DeleteFunc(out, func(o Reading) bool {
		if o.ID != Unknown || o.Method != MethodLearned {
			return false
		}
		ctr := geom.QuadCentre(o.Corners)
		return slices.ContainsFunc(held, func(k Reading) bool { return geom.InQuad(ctr, k.Corners) })
	})
}

// move is where point p of the card as read lies now.
func (t *followTrack) move(p geom.Point) geom.Point {
	s, c := math.Sincos(t.turn)
	x, y := float64(p.X-t.c0.X), float64(p.Y-t.c0.Y)
	return geom.Point{X: t.c.X + float32(c*x-s*y), Y: t.c.Y + float32(s*x+c*y)}
}

// find searches g for the card's picture around its last place: every
// whole shift within followShift on every third point of the grid,
// then at the best one the turns of followTurns, each with the shifts
// of a pixel around it, and last the shifts of half a pixel, on every
// point. It returns the centre and the turn.
func (t *followTrack) find(g geom.View) (geom.Point, float64) {
	diff := func(c geom.Point, turn float64, step int, bound float64) float64 {
		s, co := math.Sincos(turn)
		sum, n := 0.0, 0
		lim := bound * float64(len(t.offs)/step)
		for i := 0; i < len(t.offs); i += step {
			o := t.offs[i]
			x := float64(c.X) + co*float64(o[0]) - s*float64(o[1])
			y := float64(c.Y) + s*float64(o[0]) + co*float64(o[1])
			sum += math.Abs(g.At(x, y) - float64(t.px[i]))
			n++
			if sum > lim {
				return math.Inf(1) // worse than the best so far
			}
		}
		return sum / float64(max(1, n))
	}
	best, bc := math.Inf(1), t.c
	for dy := -followShift; dy <= followShift; dy++ {
		for dx := -followShift; dx <= followShift; dx++ {
			c := geom.Point{X: t.c.X + float32(dx), Y: t.c.Y + float32(dy)}
			if d := diff(c, t.turn, 3, best); d < best {
				best, bc = d, c
			}
		}
	}
	best, bturn, bestC := math.Inf(1), t.turn, bc
	for _, dt := range followTurns {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				c := geom.Point{X: bc.X + float32(dx), Y: bc.Y + float32(dy)}
				if d := diff(c, t.turn+dt*math.Pi/180, 1, best); d < best {
					best, bturn, bestC = d, t.turn+dt*math.Pi/180, c
				}
			}
		}
	}
	// Half a pixel each way: a sticker's sharp edges.
	bc = bestC
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			c := geom.Point{X: bc.X + 0.5*float32(dx), Y: bc.Y + 0.5*float32(dy)}
			if d := diff(c, bturn, 1, best); d < best {
				best, bestC = d, c
			}
		}
	}
	return bestC, bturn
}

// diff is the mean difference of the card's picture at centre c and turn
// from its own, each point the mean of 2×2 pixels (a camera's noise
// halved), the two pictures' mean difference taken out (the camera's
// exposure changing) up to followExposure grey levels.
func (t *followTrack) diff(g geom.View, c geom.Point, turn float64) float64 {
	s, co := math.Sincos(turn)
	var now [followGrid * followGrid]float64
	mean := 0.0
	for i, o := range t.offs {
		x := float64(c.X) + co*float64(o[0]) - s*float64(o[1])
		y := float64(c.Y) + s*float64(o[0]) + co*float64(o[1])
		now[i] = boxAt(g, x, y)
		mean += now[i] - float64(t.box[i])
	}
	mean /= float64(len(now))
	mean = max(-followExposure, min(followExposure, mean))
	sum := 0.0
	for i, v := range now {
		sum += math.Abs(v - float64(t.box[i]) - mean)
	}
	return sum / float64(len(now))
}

// followSamples are the points of a followed card's grid and their
// samples (startFollowing's).
type followSamples struct {
	x, y, px, box [followGrid * followGrid]float64
}

// atAndBox takes atAndBox at every point into s.px and s.box.
func (s *followSamples) atAndBox(g geom.View) {
	for i := range s.x {
		s.px[i], s.box[i] = atAndBox(g, s.x[i], s.y[i])
	}
}

// atAndBox is g.at(x, y) and boxAt(g, x, y) (the same values) in
// one call, the grey's five samples without at's test of the channels.
func atAndBox(g geom.View, x, y float64) (px, box float64) {
	if g.Channels == 3 {
		return g.At(x, y), boxAt(g, x, y)
	}
	return g.At1(x, y), (g.At1(x-0.5, y-0.5) + g.At1(x+0.5, y-0.5) + g.At1(x-0.5, y+0.5) + g.At1(x+0.5, y+0.5)) / 4
}

// boxAt is the mean of the 2×2 pixels around (x, y) of g, sampled
// bilinearly.
func boxAt(g geom.View, x, y float64) float64 {
	return (g.At(x-0.5, y-0.5) + g.At(x+0.5, y-0.5) + g.At(x-0.5, y+0.5) + g.At(x+0.5, y+0.5)) / 4
}

// stopFollowing stops following (a new reference).
func (r *Reader) stopFollowing() {
	r.followed = slices.Delete(r.followed, 0, len(r.followed))
	r.followRun = 0
}
