package tracker

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tablecam/models"
)

// ---------------------------------------------------------------------------
// A store-less model of Session.Submit and a generator of long valid event
// streams (shared by the crash test, the fuzz seeds and the benchmarks).

// simSession mirrors Session.Submit without a store: the n-th stored event
// gets sequence number n, as in a fresh store holding one session.
//
// Undo and redo follow Effective's stacks: an undo restores the game from
// before the undone event was (re)applied, a redo the game right after it;
// recent games are kept for that (refolding a long log for every undo would
// make generating long streams slow), older ones are refolded. A correction
// always refolds. That these agree with Session (which refolds) and with
// Replay is checked wherever the streams are used.
type simSession struct {
	c       *models.Content
	log     []entry
	game    Game
	applied []simSnap // undo stack
	redo    []simSnap // redo stack
}

// simSnap is the game before and after an event in force; nil when no
// longer kept.
type simSnap struct{ before, after *Game }

const simKeep = 32

var errNotStored = errors.New("accepted but not stored (nothing to undo/redo)")

// simPanic is a panic of the code under test, turned into an error so the
// generator can avoid (and count) such candidates.
type simPanic struct{ v any }

func (p *simPanic) Error() string { return fmt.Sprint("panic: ", p.v) }

// try returns the game after ev without committing it, or the error
// Session.Submit would return; errNotStored when Submit would accept ev
// without storing it.
func (m *simSession) try(ev Event) (g Game, err error) {
	n := len(m.log)
	defer func() {
		m.log = m.log[:n]
		if r := recover(); r != nil {
			g, err = m.game, &simPanic{r}
		}
	}()
	seq := int64(n + 1)
	switch ev.Type {
	case EvUndo:
		if len(m.applied) == 0 {
			return m.game, errNotStored
		}
		if s := m.applied[len(m.applied)-1]; s.before != nil {
			return *s.before, nil
		}
	case EvRedo:
		if len(m.redo) == 0 {
			return m.game, errNotStored
		}
		if s := m.redo[len(m.redo)-1]; s.after != nil {
			return *s.after, nil
		}
	case EvCorrect:
		if err := checkCorrection(m.c, Effective(m.log), ev); err != nil {
			return m.game, err
		}
	default:
		g, _, err := apply(m.c, m.game, seq, ev)
		return g, err
	}
	m.log = append(m.log, entry{Seq: seq, Ev: ev})
	return fold(m.c, Effective(m.log)).Game, nil
}

// commit adds ev, whose resulting game try returned.
func (m *simSession) commit(ev Event, g Game) {
	m.log = append(m.log, entry{Seq: int64(len(m.log) + 1), Ev: ev})
	switch ev.Type {
	case EvUndo:
		top := m.applied[len(m.applied)-1]
		m.applied = m.applied[:len(m.applied)-1]
		m.redo = append(m.redo, top)
	case EvRedo:
		top := m.redo[len(m.redo)-1]
		m.redo = m.redo[:len(m.redo)-1]
		m.applied = append(m.applied, top)
	default:
		before, after := m.game, g
		m.applied = append(m.applied, simSnap{&before, &after})
		if k := len(m.applied) - simKeep - 1; k >= 0 {
			m.applied[k] = simSnap{}
		}
		m.redo = nil
	}
	m.game = g
}

// canonJSON is gameJSON of a copy made like Session.Game makes it. The copy
// turns a nil enemy list into an empty one ("enemies": null becomes []; see
// TestRegression_GameCopyChangesJSON), so states from Session.Game and from
// Replay compare equal only in this form.
func canonJSON(g Game) string { return gameJSON(g.clone()) }

// jsonDiff shows where two JSON texts first differ.
func jsonDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	return fmt.Sprintf("first difference at byte %d:\n got  …%s\n want …%s", i, got[from:min(len(got), i+120)], want[from:min(len(want), i+120)])
}

// streamMix weights the generator's choices of undo, redo and corrections
// (out of 1000 steps each).
type streamMix struct{ undo, redo, correct int }

var (
	crashMix = streamMix{undo: 50, redo: 30, correct: 40}
	benchMix = streamMix{undo: 3, redo: 1, correct: 1}
)

// streamGen generates a deterministic stream of command lines that are all
// valid (checked against simSession) and keep the game running: the power
// token is retreated before it gets near the last space, and a candidate that
// would end the game or un-set-up it is never chosen.
type streamGen struct {
	rng   *rand.Rand
	sim   simSession
	mix   streamMix
	lines []string
	evs   []Event
	// states[i] is gameJSON of the session after i events, when kept.
	states     []string
	keepStates bool
	// panics lists candidates that made the code under test panic (they
	// are not used).
	panics []string
}

var genSurvivors = []string{"alice", "bob", "carol"}

const genSetup = "setup commonwealth loyal railroad survivors alice:12:SA bob:12:PE carol:10:LI"

func newStreamGen(c *models.Content, seed uint64, mix streamMix, keepStates bool) *streamGen {
	g := &streamGen{rng: rand.New(rand.NewPCG(seed, 0x5e5510)), sim: simSession{c: c}, mix: mix, keepStates: keepStates}
	if keepStates {
		g.states = append(g.states, canonJSON(g.sim.game))
	}
	if !g.accept(genSetup) {
		panic("generator: setup rejected")
	}
	return g
}

// accept parses line and commits it if the model accepts and stores it and
// the game stays set up and not over.
func (g *streamGen) accept(line string) bool {
	ev, ok, err := ParseLine(g.sim.c, line)
	if err != nil || !ok {
		return false
	}
	next, err := g.sim.try(ev)
	var p *simPanic
	if errors.As(err, &p) {
		g.panics = append(g.panics, fmt.Sprintf("after %d events, %q: %v", len(g.evs), line, p.v))
	}
	if err != nil || !next.Started || next.State.Over() {
		return false
	}
	g.sim.commit(ev, next)
	g.lines = append(g.lines, line)
	g.evs = append(g.evs, ev)
	if g.keepStates {
		g.states = append(g.states, canonJSON(next))
	}
	return true
}

func (g *streamGen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *streamGen) faces(set string, n int) []string {
	fs, _ := g.sim.c.FaceSet(set)
	ids := fs.FaceIDs()
	out := make([]string, n)
	for i := range out {
		out[i] = g.pick(ids)
	}
	return out
}

func (g *streamGen) vats(n int) string { return strings.Join(g.faces("vats", n), " ") }

func (g *streamGen) assist() string { return g.faces("assist", 1)[0] }

// step appends one valid event to the stream.
func (g *streamGen) step() {
	st := g.sim.game.State
	if st.Power >= 3 {
		if g.accept(fmt.Sprintf("retreat %d", st.Power)) {
			return
		}
	}
	for try := 0; try < 40; try++ {
		if g.accept(g.candidate()) {
			return
		}
	}
	// Always valid while the game runs.
	if !g.accept(fmt.Sprintf("xp %s +1", g.pick(genSurvivors))) {
		panic("generator: fallback rejected")
	}
}

// candidate proposes a line that is likely, not certainly, valid.
func (g *streamGen) candidate() string {
	if n := len(g.lines); n > 0 && g.lines[n-1] == "undo" && g.rng.IntN(2) == 0 {
		return "redo"
	}
	r := g.rng.IntN(1000)
	switch {
	case r < g.mix.undo:
		return "undo"
	case r < g.mix.undo+g.mix.redo:
		return "redo"
	case r < g.mix.undo+g.mix.redo+g.mix.correct:
		if l := g.correction(); l != "" {
			return l
		}
	}
	game := g.sim.game
	st := game.State
	surv := g.pick(genSurvivors)
	if p := game.Pending; p != nil {
		withAssist := ""
		if p.Context.Assistant != "" {
			withAssist = " assist " + g.assist()
		}
		switch x := g.rng.IntN(20); {
		case !p.Rolled && x < 18:
			return "roll " + g.vats(2+g.rng.IntN(3)) + withAssist
		case !p.Rolled:
			return "nocontext"
		case x < 8:
			n := len(p.Faces)
			d := 1 + g.rng.IntN(n)
			l := fmt.Sprintf("reroll %d:%s", d, g.faces("vats", 1)[0])
			if d2 := 1 + g.rng.IntN(n); d2 != d && x < 3 {
				l += fmt.Sprintf(" %d:%s", d2, g.faces("vats", 1)[0])
			}
			return l
		case x < 11:
			return "roll " + g.vats(len(p.Faces))
		case x < 19:
			return "done"
		default:
			return "nocontext"
		}
	}
	var fightable []string
	for _, e := range st.Enemies {
		if e.Faction != st.Loyal {
			fightable = append(fightable, e.ID)
		}
	}
	switch x := g.rng.IntN(100); {
	case x < 14:
		letters := st.Survivors[st.Survivor(surv)].Special // the survivor's own letters give rerolls
		if g.rng.IntN(3) == 0 {
			letters = g.pick([]string{"S", "P", "E", "C", "I", "A", "L"})
		}
		l := fmt.Sprintf("test %s %d %s", surv, g.rng.IntN(4), letters)
		if g.rng.IntN(5) == 0 {
			l += fmt.Sprintf(" rerolls %d", g.rng.IntN(3))
		}
		return l
	case x < 28 && len(fightable) > 0:
		l := fmt.Sprintf("fight %s %s", surv, g.pick(fightable))
		if g.rng.IntN(4) == 0 {
			if a := g.pick(genSurvivors); a != surv {
				l += " assist " + a
			}
		}
		if g.rng.IntN(3) == 0 {
			l += fmt.Sprintf(" rerolls %d", 1+g.rng.IntN(2))
		}
		return l
	case x < 31:
		return fmt.Sprintf("fight %s %s draw", surv, g.pick([]string{"raider-1", "robot", "creature-1", "institute-2"}))
	case x < 35:
		if g.rng.IntN(3) == 0 {
			return "roll d6 " + strings.Join(g.faces("d6", 1+g.rng.IntN(2)), " ")
		}
		return "roll " + g.vats(1+g.rng.IntN(3))
	case x < 42:
		return fmt.Sprintf("card activation-%d", 1+g.rng.IntN(8))
	case x < 47:
		return "round"
	case x < 55:
		if len(st.Enemies) >= 6 {
			return "enemy remove " + st.Enemies[g.rng.IntN(len(st.Enemies))].ID
		}
		l := "enemy add " + g.pick([]string{"raider-1", "raider", "robot-1", "robot-2", "super-mutant", "creature-1", "ghoul-1", "institute", "institute-2"})
		switch g.rng.IntN(4) {
		case 0:
			l += " with " + surv
		case 1:
			l += " adjacent " + surv
		case 2:
			l += " inactive"
		}
		return l
	case x < 58 && len(st.Enemies) > 0:
		e := st.Enemies[g.rng.IntN(len(st.Enemies))].ID
		if g.rng.IntN(3) == 0 {
			return "enemy remove " + e
		}
		return fmt.Sprintf("enemy place %s with %s", e, surv)
	case x < 66:
		if g.rng.IntN(2) == 0 {
			return fmt.Sprintf("hp %s +%d", surv, 1+g.rng.IntN(4))
		}
		return fmt.Sprintf("hp %s -%d", surv, 1+g.rng.IntN(3))
	case x < 73:
		return fmt.Sprintf("xp %s %+d", surv, []int{-1, 1, 2, 3}[g.rng.IntN(4)])
	case x < 79:
		i := st.Survivor(surv)
		if c := st.Survivors[i].Caps; c > 0 && g.rng.IntN(2) == 0 {
			return fmt.Sprintf("caps %s -%d", surv, 1+g.rng.IntN(c))
		}
		return fmt.Sprintf("caps %s +%d", surv, 1+g.rng.IntN(3))
	case x < 81:
		if st.Survivors[st.Survivor(surv)].Rads > 0 {
			return "rads " + surv + " -1"
		}
		return "rads " + surv + " +1"
	case x < 85:
		return "goal"
	case x < 87:
		return "first " + surv
	case x < 89:
		return "camps +1"
	case x < 92:
		return "set " + surv + " rested on"
	case x < 94:
		return "power institute +1"
	case x < 95:
		return "power railroad +1"
	case x < 96:
		return fmt.Sprintf("setgoals %d", g.rng.IntN(4))
	default:
		return fmt.Sprintf("xp %s +1", surv)
	}
}

// correction proposes a correction of a recent roll or reroll still in force.
func (g *streamGen) correction() string {
	eff := Effective(g.sim.log)
	var rolls []entry
	for i := len(eff) - 1; i >= 0 && len(rolls) < 6 && i >= len(eff)-40; i-- {
		if t := eff[i].Ev.Type; t == EvRoll || t == EvReroll {
			rolls = append(rolls, eff[i])
		}
	}
	if len(rolls) == 0 {
		return ""
	}
	e := rolls[g.rng.IntN(len(rolls))]
	set := e.Ev.Set
	if set == "" || e.Ev.Type == EvReroll {
		set = "vats" // a reroll's faces are V.A.T.S. faces in these streams
	}
	l := fmt.Sprintf("correct %d %s", e.Seq, strings.Join(g.faces(set, len(e.Ev.Faces)), " "))
	if e.Ev.Assist != "" && g.rng.IntN(2) == 0 {
		l += " assist " + g.assist()
	}
	return l
}

// generateStream returns n valid events (and their lines) from seed.
func generateStream(c *models.Content, seed uint64, n int, mix streamMix, keepStates bool) *streamGen {
	g := newStreamGen(c, seed, mix, keepStates)
	for len(g.evs) < n {
		g.step()
	}
	return g
}

// streamStats counts the event types of a stream (context kinds separately).
func streamStats(evs []Event) map[string]int {
	m := map[string]int{}
	for _, ev := range evs {
		k := ev.Type
		if ev.Type == EvContext && ev.Context != nil {
			k += ":" + ev.Context.Kind
		}
		if ev.Type == EvAdjust {
			k += ":" + ev.Field
		}
		m[k]++
	}
	return m
}

func loggedStream(evs []Event) []LoggedEvent {
	out := make([]LoggedEvent, len(evs))
	for i, ev := range evs {
		out[i] = LoggedEvent{Seq: int64(i + 1), Event: ev}
	}
	return out
}

func TestGeneratedStreamIsValid(t *testing.T) {
	c := testContent(t)
	n := 600
	g := generateStream(c, 7, n, crashMix, false)
	stats := streamStats(g.evs)
	t.Logf("event mix: %v", stats)
	if len(g.panics) > 0 {
		t.Logf("candidates left out because they panic (see TestRegression_*): %v", g.panics)
	}
	for _, k := range []string{EvSetup, EvContext + ":" + CtxTest, EvContext + ":" + CtxFight, EvRoll, EvReroll, EvDone,
		EvCard, EvRound, EvEnemy, EvAdjust + ":hp", EvAdjust + ":xp", EvAdjust + ":caps", EvGoal, EvUndo, EvRedo, EvCorrect, EvRetreat} {
		if stats[k] == 0 {
			t.Errorf("the generated stream has no %s event", k)
		}
	}
	// Submitted through a real session, every event is accepted and stored,
	// and the live state equals a clean replay.
	st, s := newSession(t, c, "en")
	ctx := context.Background()
	for i, ev := range g.evs {
		as, err := s.Submit(ctx, ev)
		if err != nil {
			t.Fatalf("event %d %q rejected: %v", i+1, g.lines[i], err)
		}
		for _, a := range as {
			if a.Kind == KindNothingUndo || a.Kind == KindNothingRedo {
				t.Fatalf("event %d %q stored nothing", i+1, g.lines[i])
			}
		}
	}
	if cnt, err := st.Count(ctx, s.ID()); err != nil || cnt != n {
		t.Fatalf("store holds %d events (%v), want %d", cnt, err, n)
	}
	live, replay := canonJSON(s.Game()), canonJSON(Replay(c, loggedStream(g.evs)))
	if live != replay || live != canonJSON(g.sim.game) {
		t.Fatalf("live state, clean replay and model differ: live vs replay %s\nlive vs model %s", jsonDiff(live, replay), jsonDiff(live, canonJSON(g.sim.game)))
	}
	// Same seed, same stream.
	if again := generateStream(c, 7, n, crashMix, false); strings.Join(again.lines, "\n") != strings.Join(g.lines, "\n") {
		t.Fatal("the generator is not deterministic")
	}
}

// ---------------------------------------------------------------------------
// Crash safety: a child process submits the stream through a Session on a
// real store; the parent SIGKILLs it at random points and restarts it.

const (
	sessionChildEnv       = "TABLECAM_SESSION_CHILD"
	sessionChildDBEnv     = "TABLECAM_SESSION_CHILD_DB"
	sessionChildStreamEnv = "TABLECAM_SESSION_CHILD_STREAM"
	sessionCrashSeedEnv   = "TABLECAM_SESSION_CRASH_SEED"
)

// TestSessionCrashChild is the helper process of TestSessionCrashSafety: it
// resumes the latest open session and submits the stream's events from
// index len(log) on, printing "ack <seq> <index>" after each Submit returns,
// then "final <game JSON>".
func TestSessionCrashChild(t *testing.T) {
	if os.Getenv(sessionChildEnv) != "1" {
		t.Skip("helper process for TestSessionCrashSafety")
	}
	time.AfterFunc(60*time.Second, func() { os.Exit(3) }) // never outlive a vanished parent by long
	fail := func(format string, a ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", a...)
		os.Exit(2)
	}
	c, err := models.DefaultContent()
	if err != nil {
		fail("content: %v", err)
	}
	raw, err := os.ReadFile(os.Getenv(sessionChildStreamEnv))
	if err != nil {
		fail("%v", err)
	}
	evs, err := ParseFile(c, "stream", bytes.NewReader(raw))
	if err != nil {
		fail("%v", err)
	}
	ctx := context.Background()
	st, err := OpenStore(os.Getenv(sessionChildDBEnv))
	if err != nil {
		fail("%v", err)
	}
	cat, err := NewCatalog("en")
	if err != nil {
		fail("%v", err)
	}
	s, err := OpenSession(ctx, st, c, cat, "", "crash")
	if err != nil {
		fail("open session: %v", err)
	}
	start := len(s.Events())
	if n, err := st.Count(ctx, s.ID()); err != nil || n != start {
		fail("session log has %d events, store %d (%v)", start, n, err)
	}
	for i := start; i < len(evs); i++ {
		if _, err := s.Submit(ctx, evs[i]); err != nil {
			fail("event %d: %v", i, err)
		}
		log := s.Events()
		if len(log) != i+1 {
			fail("event %d: log has %d events", i, len(log))
		}
		// os.Stdout is unbuffered: the line is out before the next Submit.
		if _, err := fmt.Printf("ack %d %d\n", log[i].Seq, i); err != nil {
			os.Exit(4)
		}
	}
	fmt.Printf("final %s\n", canonJSON(s.Game()))
	if err := st.Close(); err != nil {
		fail("%v", err)
	}
}

type sessionAck struct {
	seq   int64
	index int
}

type childRun struct {
	acks   []sessionAck
	final  string
	exited bool // the child exited by itself (finished or failed)
	code   int
	stderr string
}

// runSessionChild starts a child and lets wait read its acks; when wait
// returns, the child is SIGKILLed (unless it has exited) and every complete
// ack line it wrote is returned.
func runSessionChild(t *testing.T, dbPath, streamPath string, wait func(ack <-chan sessionAck, got *[]sessionAck)) childRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSessionCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), sessionChildEnv+"=1", sessionChildDBEnv+"="+dbPath, sessionChildStreamEnv+"="+streamPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ack := make(chan sessionAck, 4096)
	var final string
	readErr := make(chan error, 1)
	go func() {
		defer close(ack)
		defer close(readErr)
		br := bufio.NewReader(stdout)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				if err != io.EOF { // a partial last line (killed mid-write) is not an ack
					readErr <- err
				}
				return
			}
			line = strings.TrimSuffix(line, "\n")
			if j, ok := strings.CutPrefix(line, "final "); ok {
				final = j
				continue
			}
			rest, ok := strings.CutPrefix(line, "ack ")
			if !ok {
				continue // test framework chatter
			}
			a, b, _ := strings.Cut(rest, " ")
			seq, err1 := strconv.ParseInt(a, 10, 64)
			idx, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil {
				readErr <- fmt.Errorf("malformed ack line %q", line)
				return
			}
			ack <- sessionAck{seq, idx}
		}
	}()
	var got []sessionAck
	wait(ack, &got)
	if err := cmd.Process.Signal(os.Kill); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatalf("kill child: %v", err)
	}
	for a := range ack {
		got = append(got, a)
	}
	if err := <-readErr; err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	r := childRun{acks: got, final: final, stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	r.exited = r.code != -1 // -1: killed by a signal
	return r
}

func TestSessionCrashSafety(t *testing.T) {
	if os.Getenv(sessionChildEnv) != "" {
		t.Skip("in the child")
	}
	kills := 50
	if testing.Short() {
		kills = 10
	}
	seed := uint64(1)
	if v := os.Getenv(sessionCrashSeedEnv); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s: %v", sessionCrashSeedEnv, err)
		}
	}
	t.Logf("seed %d (set %s to change)", seed, sessionCrashSeedEnv)
	c := testContent(t)
	cat, err := NewCatalog("en")
	if err != nil {
		t.Fatal(err)
	}
	const streamLen = 1200
	start := time.Now()
	gen := generateStream(c, seed, streamLen, crashMix, true)
	t.Logf("generated %d events in %v: %v", streamLen, time.Since(start).Round(time.Millisecond), streamStats(gen.evs))
	if len(gen.panics) > 0 {
		t.Logf("candidates left out because they panic (see TestRegression_*): %v", gen.panics)
	}
	wantPayload := make([]string, len(gen.evs))
	for i, ev := range gen.evs {
		b, err := ev.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		wantPayload[i] = string(b)
	}
	dir := t.TempDir()
	dbPath, streamPath := filepath.Join(dir, "crash.db"), filepath.Join(dir, "stream.events")
	if err := os.WriteFile(streamPath, []byte(strings.Join(gen.lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(seed, 0xc7a54))
	ctx := context.Background()
	var (
		stored, killed, unacked, runs, lastKillAt int
		noSession, killedAtZero                   int
		finished                                  bool
		final                                     string
	)
	for !finished {
		runs++
		if runs > kills+20 {
			t.Fatalf("%d runs without finishing the stream", runs)
		}
		kill := killed < kills
		// Kill plan: early kills land anywhere from process start (opening
		// the store, replaying the log); late ones after some acks plus a
		// random delay (mid-Submit, mid-fsync, mid-print).
		early := rng.IntN(5) == 0
		earlyDelay := time.Duration(rng.IntN(60_000)) * time.Microsecond
		// Spread the kills over the whole stream (later kills replay a
		// longer log on restart).
		spread := 2 * (len(gen.evs) - stored) / (kills - killed + 2)
		wantAcks := 1 + rng.IntN(max(1, min(40, spread)))
		lateDelay := time.Duration(rng.IntN(3000)) * time.Microsecond
		r := runSessionChild(t, dbPath, streamPath, func(ack <-chan sessionAck, got *[]sessionAck) {
			deadline := time.NewTimer(60 * time.Second)
			defer deadline.Stop()
			if !kill {
				for a := range ack {
					*got = append(*got, a)
				}
				return
			}
			var timer <-chan time.Time
			if early {
				timer = time.After(earlyDelay)
			}
			for early || len(*got) < wantAcks {
				select {
				case a, ok := <-ack:
					if !ok {
						return
					}
					*got = append(*got, a)
				case <-timer:
					return
				case <-deadline.C:
					return
				}
			}
			time.Sleep(lateDelay)
		})
		if r.exited {
			if r.code != 0 {
				t.Fatalf("run %d: child failed (exit %d):\n%s", runs, r.code, r.stderr)
			}
			finished = true
			final = r.final
		} else {
			killed++
		}

		// Verify the store after the kill (or the finish).
		st, err := OpenStore(dbPath)
		if err != nil {
			t.Fatalf("run %d: reopen store: %v", runs, err)
		}
		info, ok, err := st.LatestOpenSession(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			// Killed before the session was created.
			noSession++
			st.Close()
			if stored != 0 || len(r.acks) != 0 {
				t.Fatalf("run %d: no open session after %d stored events and %d acks", runs, stored, len(r.acks))
			}
			continue
		}
		recs, err := st.Records(ctx, info.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) < stored || len(recs) > len(gen.evs) {
			t.Fatalf("run %d: %d records; %d were stored before, the stream has %d", runs, len(recs), stored, len(gen.evs))
		}
		logged := make([]LoggedEvent, len(recs))
		for i, rec := range recs {
			if rec.Seq != int64(i+1) {
				t.Fatalf("run %d: record %d has seq %d: not contiguous from 1", runs, i, rec.Seq)
			}
			if string(rec.Payload) != wantPayload[i] {
				t.Fatalf("run %d: seq %d holds %s, want stream event %d %s", runs, rec.Seq, rec.Payload, i, wantPayload[i])
			}
			ev, err := DecodeEvent(rec.Payload)
			if err != nil {
				t.Fatalf("run %d: seq %d: %v", runs, rec.Seq, err)
			}
			if b, _ := ev.Marshal(); string(b) != wantPayload[i] {
				t.Fatalf("run %d: seq %d decodes to %s, want %s", runs, rec.Seq, b, wantPayload[i])
			}
			logged[i] = LoggedEvent{Seq: rec.Seq, Event: ev}
		}
		for k, a := range r.acks {
			if a.index != stored+k || a.seq != int64(a.index+1) {
				t.Fatalf("run %d: ack %d is seq %d index %d; want index %d, seq index+1", runs, k, a.seq, a.index, stored+k)
			}
			if a.seq > int64(len(recs)) {
				t.Fatalf("run %d: acked seq %d (index %d) is not in the store (%d records)", runs, a.seq, a.index, len(recs))
			}
		}
		// At most the one Submit in flight at the kill may have stored its
		// event without acknowledging it.
		switch extra := len(recs) - stored - len(r.acks); extra {
		case 0:
		case 1:
			unacked++
		default:
			t.Fatalf("run %d: %d stored events were not acknowledged, want at most 1", runs, extra)
		}
		if !r.exited && len(r.acks) == 0 && len(recs) == stored {
			killedAtZero++ // killed while starting, replaying or in the first Submit
		}
		stored = len(recs)
		if !r.exited {
			lastKillAt = stored
		}

		s, err := OpenSession(ctx, st, c, cat, "", "")
		if err != nil {
			t.Fatalf("run %d: reopen session: %v", runs, err)
		}
		if s.ID() != info.ID {
			t.Fatalf("run %d: resumed %s, want %s", runs, s.ID(), info.ID)
		}
		got, replay := canonJSON(s.Game()), canonJSON(Replay(c, logged))
		if got != replay {
			t.Fatalf("run %d: reopened state after %d events differs from a clean replay: %s", runs, stored, jsonDiff(got, replay))
		}
		if got != gen.states[stored] {
			t.Fatalf("run %d: reopened state after %d events differs from the model's live state: %s", runs, stored, jsonDiff(got, gen.states[stored]))
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if killed < kills {
		t.Fatalf("the child finished the stream after only %d of %d kills; lengthen the stream", killed, kills)
	}
	if stored != len(gen.evs) {
		t.Fatalf("finished with %d of %d events stored", stored, len(gen.evs))
	}
	want := canonJSON(Replay(c, loggedStream(gen.evs)))
	if final != want {
		t.Fatalf("the child's final live state differs from a clean in-memory replay of the stream: %s", jsonDiff(final, want))
	}
	if gen.states[len(gen.evs)] != want {
		t.Fatal("the model's final state differs from a clean in-memory replay of the stream")
	}
	t.Logf("%d kills, %d runs in %v: %d events stored (%d before the last kill), %d committed but unacked at a kill, "+
		"%d kills before any event was stored by that run (%d before the session existed)",
		killed, runs, time.Since(start).Round(time.Millisecond), stored, lastKillAt, unacked, killedAtZero+noSession, noSession)
}
