package marker

// A sticker is black ink on white paper: whatever the light's colour, every
// cell of a marker and of its quiet zone has the colour of the white paper
// under that light, only darker or brighter (black ink is neutral, blur
// and glare mix the two). Card art that happens to decode as a marker (a
// picture panel with a dark frame and a bright shape in it) has colours of
// its own: its cells differ from its quiet zone in hue, not only in
// brightness. The grey decoders cannot see that; tint measures it on the
// colour picture.

import (
	"math"

	"tablecam/vision/geom"
)

// maxTint is the largest tint of a marker read: the RMS colour of its
// cells off the quiet zone's hue, as a share of its contrast. Training
// scenes (28,000 stickers, every condition): stickers up to 0.17 (camera
// noise 8), card art that decoded 0.49 to 1.4.
const maxTint = 0.3

// tint returns, for the marker with outer black square q, the RMS over its
// cells (border and data) of their colour's component orthogonal to the
// mean colour of the quiet-zone ring, in units of the ring's brightness
// minus the border's (the contrast); ok is false when there is no colour
// picture or no contrast.
func (cb *codebook) tint(cv geom.View, q [4]geom.Point) (tint float64, ok bool) {
	if cv.Channels != 3 {
		return 0, false
	}
	M := cb.bits + 2
	mf := float64(M)
	h, ok := moduleH(q, mf)
	if !ok {
		return 0, false
	}
	sample := func(cx, cy float64) [3]float64 {
		x, y := h.Apply(cx, cy)
		return cv.At3(x, y)
	}
	// The paper's colour: the quiet zone (cells' centres 0.4 modules out,
	// as the decoders sample it); the ink's level: the border.
	var paper [3]float64
	n := 0
	for k := range M {
		t := float64(k) + 0.5
		for _, p := range [4][2]float64{{t, -0.4}, {t, mf + 0.4}, {-0.4, t}, {mf + 0.4, t}} {
			c := sample(p[0], p[1])
			for ch := range 3 {
				paper[ch] += c[ch]
			}
			n++
		}
	}
	pn := 0.0
	for ch := range 3 {
		paper[ch] /= float64(n)
		pn += paper[ch] * paper[ch]
	}
	pn = math.Sqrt(pn)
	if pn < 1 {
		return 0, false
	}
	u := [3]float64{paper[0] / pn, paper[1] / pn, paper[2] / pn}
	var ss, ink float64
	nb := 0
	for i := range M {
		for j := range M {
			c := sample(float64(j)+0.5, float64(i)+0.5)
			along := c[0]*u[0] + c[1]*u[1] + c[2]*u[2]
			var off float64
			for ch := range 3 {
				d := c[ch] - along*u[ch]
				off += d * d
			}
			ss += off
			if i == 0 || j == 0 || i == M-1 || j == M-1 {
				ink += along
				nb++
			}
		}
	}
	contrast := (pn - ink/float64(nb)) / math.Sqrt(3) // per channel, as grey levels
	if contrast < 1 {
		return 0, false
	}
	return math.Sqrt(ss/float64(M*M)) / contrast, true
}

// inked reports whether read m passes the ink check: its tint on the
// picture's colour view (forget) is at most maxTint, or there is no
// colour view.
func (s *Scanner) inked(m Sticker) bool {
	t, ok := s.cb.tint(s.colour, m.Marker.Corners)
	return !ok || t <= maxTint
}
