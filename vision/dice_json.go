package vision

import (
	"encoding/json"
	"image"
	"math"
)

// dieJSON is the CLI's (and the dashboard's) form of a die: the set, face,
// value for numeric sets, regions and hits for symbol sets, the box as
// [x0, y0, x1, y1], the confidence and whether it must be confirmed.
type dieJSON struct {
	Set        string   `json:"set"`
	Face       string   `json:"face"`
	Value      *int     `json:"value,omitempty"`
	Regions    []string `json:"regions,omitempty"`
	Hits       *int     `json:"hits,omitempty"`
	Hurt       int      `json:"hurt,omitempty"`
	Box        [4]int   `json:"box"`
	Confidence float64  `json:"confidence"`
	Uncertain  bool     `json:"uncertain"`
}

// MarshalJSON writes the die as `tablecam dice --json` prints it. Value is
// present for numeric faces; regions and hits for symbol faces (hits also
// when 0, so "no hit" is explicit).
func (d Die) MarshalJSON() ([]byte, error) {
	j := dieJSON{Set: d.Set, Face: d.Face, Regions: d.Regions, Hurt: d.Hurt,
		Box:        [4]int{d.Box.Min.X, d.Box.Min.Y, d.Box.Max.X, d.Box.Max.Y},
		Confidence: math.Round(d.Confidence*1000) / 1000, Uncertain: d.Uncertain}
	if d.Value != 0 {
		v := d.Value
		j.Value = &v
	} else {
		h := d.Hits
		j.Hits = &h
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Die) UnmarshalJSON(data []byte) error {
	var j dieJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*d = Die{Set: j.Set, Face: j.Face, Regions: j.Regions, Hurt: j.Hurt,
		Box:        image.Rect(j.Box[0], j.Box[1], j.Box[2], j.Box[3]),
		Confidence: j.Confidence, Uncertain: j.Uncertain}
	if j.Value != nil {
		d.Value = *j.Value
	}
	if j.Hits != nil {
		d.Hits = *j.Hits
	}
	d.Center = image.Pt((d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2)
	return nil
}
