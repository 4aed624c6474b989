package card

import "time"

// times adds up where a reader's time goes, by part of the reading
// (tests: timeCardsForTest); a nil *times adds nothing. The parts of
// ReadCards follow each other (laps); the parts inside them (the
// comparisons with the taught cards and theirs, the keypoint searches)
// are added too (add), so they overlap the laps.
type times struct {
	at time.Time
	d  map[string]time.Duration
	n  map[string]int
}

func newTimes() *times {
	return &times{d: map[string]time.Duration{}, n: map[string]int{}}
}

// start starts the laps of a frame.
func (t *times) start() {
	if t != nil {
		t.at = time.Now()
	}
}

// lap adds the time since the last lap (or start) to part name.
func (t *times) lap(name string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.d[name] += now.Sub(t.at)
	t.n[name]++
	t.at = now
}

// since adds the time since t0 to part name.
func (t *times) since(name string, t0 time.Time) {
	if t == nil {
		return
	}
	t.d[name] += time.Since(t0)
	t.n[name]++
}

// now is time.Now when t adds up, the zero time otherwise.
func (t *times) now() time.Time {
	if t == nil {
		return time.Time{}
	}
	return time.Now()
}
