package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tablecam/announce"
	"tablecam/dashboard"
	"tablecam/models"
	"tablecam/tracker"
)

// outputs builds the announcers: console text or JSON lines, plus voice
// (behind a mute switch the dashboard can flip).
func (a *app) outputs(ctx context.Context, w io.Writer, jsonOut bool, voice string) (announce.Multi, *dashboard.MuteSwitch, error) {
	var list announce.Multi
	if jsonOut || a.cfg.Output.JSON {
		list = append(list, announce.NewJSONLines(w))
	} else {
		list = append(list, announce.NewConsole(w, false))
	}
	speak := a.cfg.Voice.Enabled
	switch voice {
	case "on":
		speak = true
	case "off":
		speak = false
	case "config", "":
	default:
		return nil, nil, fmt.Errorf("--voice must be on, off or config, got %q", voice)
	}
	var mute *dashboard.MuteSwitch
	if speak || a.wavDir != "" {
		mute = dashboard.NewMuteSwitch(announce.NewVoice(announce.VoiceOptions{
			Engine: a.cfg.Voice.Engine, Rate: a.cfg.Voice.Rate, Voices: a.cfg.Voice.Voices(),
			Logger: a.log, Notice: a.notice, WAVDir: a.wavDir, QueueSize: 64,
		}))
		list = append(list, mute)
	}
	return list, mute, nil
}

// serve starts the dashboard for a session; the returned announcer feeds
// both the outputs and the browsers. stop waits for the server to end.
func (a *app) serve(ctx context.Context, c *models.Content, s *tracker.Session, out announce.Multi, mute *dashboard.MuteSwitch,
	frames dashboard.FrameFeed, framesDir string, errw io.Writer) (announce.Announcer, func(), error) {
	opts := dashboard.Options{Session: s, Content: c, Addr: a.cfg.Dashboard.Addr, Lang: a.cfg.Language,
		Output: out, Frames: frames, FramesDir: framesDir, Logger: a.log}
	if mute != nil {
		opts.Mute = mute.SetMuted
	}
	srv, err := dashboard.New(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("dashboard: %w", err)
	}
	fmt.Fprint(errw, a.catalog().T("dashboardAt", srv.URL()))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx); err != nil {
			a.log.Error("dashboard", "err", err)
		}
	}()
	return append(out, srv.Announcer()), func() { <-done }, nil
}

// flush waits until every announcer that queues (the voice) is done, so a
// replay speaks every announcement instead of dropping the oldest.
func flush(ctx context.Context, ann announce.Announcer) {
	if m, ok := ann.(announce.Multi); ok {
		for _, x := range m {
			flush(ctx, x)
		}
		return
	}
	if f, ok := ann.(interface{ Flush(context.Context) error }); ok {
		_ = f.Flush(ctx)
	}
}

// openSession opens session id to play: the latest open (last used) one
// when id is "", a new one when fresh or when none is open. The new
// session is named by play --name; a resumed one given --name is renamed.
// A closed session is refused: it takes no new events.
func (a *app) openSession(ctx context.Context, c *models.Content, id string, fresh bool) (*tracker.Store, *tracker.Session, error) {
	cat, err := tracker.NewCatalog(a.cfg.Language)
	if err != nil {
		return nil, nil, err
	}
	st, err := tracker.OpenStore(a.cfg.Session.DB)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*tracker.Store, *tracker.Session, error) {
		st.Close()
		return nil, nil, err
	}
	if id == "" && !fresh {
		info, ok, err := st.LatestOpenSession(ctx)
		if err != nil {
			return fail(err)
		}
		fresh = !ok
		id = info.ID
	}
	name := strings.TrimSpace(a.sessionName)
	switch {
	case fresh && id == "":
		id = tracker.NewSessionID(st.Now())
		if name == "" {
			name = id
		}
		if err := st.CreateSession(ctx, id, name); err != nil {
			return fail(err)
		}
	default:
		info, err := st.Session(ctx, id)
		if errors.Is(err, tracker.ErrUnknownSession) {
			return fail(errors.New(cat.T("noSuchSession", id, a.cfg.Session.DB)))
		}
		if err != nil {
			return fail(err)
		}
		if info.Ended != nil {
			return fail(errors.New(cat.T("sessionClosed", id)))
		}
		if name != "" && name != info.Name {
			if err := st.RenameSession(ctx, id, name); err != nil {
				return fail(err)
			}
		}
	}
	s, err := tracker.OpenSession(ctx, st, c, cat, id, "")
	if err != nil {
		return fail(err)
	}
	return st, s, nil
}

// checkDashboardAddr fails if the dashboard's address cannot be listened
// on, before a session is opened (or created) for nothing.
func (a *app) checkDashboardAddr() error {
	ln, err := net.Listen("tcp", a.cfg.Dashboard.Addr)
	if err != nil {
		return fmt.Errorf("dashboard: %w (set dashboard.addr to a free address)", err)
	}
	return ln.Close()
}

func (a *app) playCmd() *cobra.Command {
	var manual, jsonOut, fresh, serve, realtime, noPrompt bool
	var demoGame, session, voice, video, images string
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Run a game session from the camera (--video/--images: from a recording; --manual: typed events only; --demo: the bundled demo)",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if len(args) > 0 && (demoGame == "" || len(args) > 1) {
				return fmt.Errorf("play takes no arguments besides the demo's game (--demo twom), got %q", strings.Join(args, " "))
			}
			c, err := a.content()
			if err != nil {
				return err
			}
			if demoGame != "" {
				// `--demo twom` leaves the game as an argument (the flag's
				// value is optional); `--demo=twom` sets it.
				if len(args) == 1 {
					demoGame = args[0]
				}
				return a.runDemo(ctx, c, demoGame, cmd.OutOrStdout(), cmd.ErrOrStderr(), jsonOut, voice, serve, realtime)
			}
			if serve {
				if err := a.checkDashboardAddr(); err != nil {
					return err
				}
			}
			if !manual {
				return a.runCamera(ctx, c, cameraOpts{video: video, images: images, realtime: realtime, session: session, fresh: fresh,
					serve: serve, jsonOut: jsonOut, voice: voice, noPrompt: noPrompt}, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			st, s, err := a.openSession(ctx, c, session, fresh)
			if err != nil {
				return err
			}
			defer st.Close()
			out, mute, err := a.outputs(ctx, cmd.OutOrStdout(), jsonOut, voice)
			if err != nil {
				return err
			}
			defer out.Close()
			var ann announce.Announcer = out
			if serve {
				ctx, cancel := context.WithCancel(ctx)
				defer cancel()
				all, wait, err := a.serve(ctx, c, s, out, mute, nil, a.framesDir(), cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				defer wait()
				defer cancel()
				ann = all
			}
			return prompt(ctx, c, s, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), ann, isTerminal(cmd.InOrStdin()))
		},
	}
	cmd.Flags().BoolVar(&manual, "manual", false, "type events at a prompt (roll 2h head arms, card activation-3, undo, help)")
	cmd.Flags().StringVar(&demoGame, "demo", "", "play a bundled demo game through the camera pipeline (rendered frames): fallout (alone: --demo), twom, warfare or wasteland")
	cmd.Flags().Lookup("demo").NoOptDefVal = tracker.GameFallout
	cmd.Flags().BoolVar(&jsonOut, "json", false, "announcements as JSON lines")
	cmd.Flags().BoolVar(&fresh, "new", false, "start a new session instead of resuming the open one used last")
	cmd.Flags().BoolVar(&serve, "serve", false, "serve the dashboard (dashboard.addr) while playing")
	cmd.Flags().StringVar(&session, "session", "", "session id to resume (default: the open one used last)")
	cmd.Flags().StringVar(&a.sessionName, "name", "", "name of the session (a new one; a resumed one is renamed)")
	cmd.Flags().StringVar(&voice, "voice", "config", "speak announcements: on, off, or config (voice.enabled)")
	cmd.Flags().StringVar(&a.wavDir, "voice-wav", "", "write spoken announcements as WAV files into this directory instead of playing them")
	cmd.Flags().StringVar(&video, "video", "", "read a recorded video file instead of the camera")
	cmd.Flags().StringVar(&images, "images", "", "read a folder of pictures (in name order) instead of the camera")
	cmd.Flags().BoolVar(&realtime, "realtime", false, "play --video/--images at their frame rate instead of as fast as possible")
	cmd.Flags().BoolVar(&noPrompt, "no-prompt", false, "do not read typed commands from standard input while the camera runs")
	return cmd
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// historyLines is how many events the prompt's history shows.
const historyLines = 20

// prompt reads commands line by line and submits them. A bad line (one
// that does not parse, is rejected, or is longer than
// tracker.MaxLineBytes) is reported with its number and the next line is
// read. Events that could not be stored make it fail at the end, saying how
// many.
func prompt(ctx context.Context, c *models.Content, s *tracker.Session, in io.Reader, out, errw io.Writer, ann announce.Announcer, interactive bool) error {
	cat := s.Catalog()
	if interactive {
		fmt.Fprint(out, cat.T("promptHello", s.ID()))
		if g := s.Game(); g.Started {
			fmt.Fprint(out, s.Summary())
		}
	}
	lr := tracker.NewLineReader(in)
	lost := lostEvents{cat: cat}
	for {
		if interactive {
			fmt.Fprint(out, "> ")
		}
		raw, lineNo, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, tracker.ErrLineTooLong) {
			fmt.Fprint(errw, cat.T("lineSkipped", lineNo, cat.Error(err)))
			continue
		}
		if err != nil {
			return errors.Join(fmt.Errorf("read commands after line %d: %w", lineNo, err), lost.err())
		}
		line := strings.TrimSpace(raw)
		switch strings.ToLower(line) {
		case "quit", "exit":
			return lost.err()
		case "help", "?":
			for _, cm := range cat.Commands() {
				fmt.Fprintf(out, "  %-58s %s\n", cm.Usage, cm.Summary)
			}
			fmt.Fprintln(out, "  "+cat.T("promptMore"))
			continue
		case "state":
			fmt.Fprint(out, s.Summary())
			continue
		case "history":
			for _, h := range s.History(historyLines) {
				undone := ""
				if h.Undone {
					undone = cat.T("undone")
				}
				fmt.Fprintf(out, "  %6d  %s%s\n", h.Seq, h.What, undone)
			}
			continue
		}
		ev, ok, err := tracker.ParseLine(c, line)
		if err != nil {
			fmt.Fprint(errw, cat.T("line", lineNo, cat.Error(err)))
			continue
		}
		if !ok {
			continue
		}
		lost.events++
		as, err := s.Submit(ctx, ev)
		if err != nil {
			if errors.Is(err, tracker.ErrNotStored) {
				lost.lines = append(lost.lines, lineNo)
			}
			// Named by the word typed; the event's own errors often
			// start with it already.
			word := strings.ToLower(strings.Fields(line)[0])
			if strings.HasPrefix(err.Error(), word+":") || strings.HasPrefix(err.Error(), ev.Type+":") {
				fmt.Fprint(errw, cat.T("line", lineNo, cat.Error(err)))
			} else {
				fmt.Fprint(errw, cat.T("lineEvent", lineNo, word, cat.Error(err)))
			}
			continue
		}
		for _, x := range as {
			if err := ann.Announce(ctx, x); err != nil {
				fmt.Fprint(errw, cat.T("announceErr", err))
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	return lost.err()
}

// lostEvents counts the events of a prompt and the lines of those the
// store failed to keep.
type lostEvents struct {
	cat    *tracker.Catalog
	events int
	lines  []int
}

func (l lostEvents) err() error {
	if len(l.lines) == 0 {
		return nil
	}
	return errors.New(l.cat.T("lostEvents", len(l.lines), l.events, l.lines[0], l.lines[len(l.lines)-1]))
}

// replayEvents runs an events file through a fresh session in a temporary
// store and announces everything. Every bad line (one that does not parse,
// is rejected, or is longer than tracker.MaxLineBytes) is reported with its
// number and skipped, and the rest is replayed; it returns how many there
// were.
func (a *app) replayEvents(ctx context.Context, c *models.Content, name string, r io.Reader, ann announce.Announcer, errw io.Writer) (int, error) {
	dir, err := os.MkdirTemp("", "tablecam-replay-")
	if err != nil {
		return 0, fmt.Errorf("temporary store: %w", err)
	}
	defer os.RemoveAll(dir)
	st, err := tracker.OpenStore(filepath.Join(dir, "replay.db"))
	if err != nil {
		return 0, err
	}
	defer st.Close()
	cat, err := tracker.NewCatalog(a.cfg.Language)
	if err != nil {
		return 0, err
	}
	if err := st.CreateSession(ctx, "replay", name); err != nil {
		return 0, err
	}
	s, err := tracker.OpenSession(ctx, st, c, cat, "replay", "")
	if err != nil {
		return 0, err
	}
	lr := tracker.NewLineReader(r)
	im := importer{}
	bad := 0
	for {
		line, n, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return bad, nil
		}
		if errors.Is(err, tracker.ErrLineTooLong) {
			bad++
			fmt.Fprintf(errw, "%s:%d: %s\n", name, n, cat.Error(err))
			continue
		}
		if err != nil {
			return bad, fmt.Errorf("read %s after line %d: %w", name, n, err)
		}
		ev, orig, ok, err := im.parse(c, line)
		if err != nil {
			bad++
			fmt.Fprintf(errw, "%s:%d: %s\n", name, n, cat.Error(err))
			continue
		}
		if !ok {
			continue
		}
		as, err := s.Submit(ctx, ev)
		if err == nil && orig > 0 {
			im[orig] = s.LastSeq()
		}
		if errors.Is(err, tracker.ErrNotStored) {
			// The temporary store failed: nothing after this can be replayed.
			return bad, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if err != nil {
			bad++
			// Named by the word typed, as at the prompt; the event's own
			// errors often start with it already.
			word := tracker.EventWord(ev)
			if f := strings.Fields(line); orig == 0 && len(f) > 0 {
				word = strings.ToLower(f[0])
			}
			if strings.HasPrefix(err.Error(), word+":") || strings.HasPrefix(err.Error(), ev.Type+":") {
				fmt.Fprintf(errw, "%s:%d: %s\n", name, n, cat.Error(err))
			} else {
				fmt.Fprintf(errw, "%s:%d: %s: %s\n", name, n, word, cat.Error(err))
			}
			continue
		}
		for _, x := range as {
			if err := ann.Announce(ctx, x); err != nil {
				return bad, err
			}
		}
		flush(ctx, ann)
		if ctx.Err() != nil {
			return bad, ctx.Err()
		}
	}
}

// importer reads a line of an events file: a command, or an event as
// `sessions --export` writes it (JSON: the event's sequence number in the
// store it came from, and the event as stored). It maps those sequence
// numbers to the ones the events get here, for corrections' targets.
type importer map[int64]int64

// parse returns the event of line and, for an exported event, its
// sequence number in the store it came from.
func (im importer) parse(c *models.Content, line string) (tracker.Event, int64, bool, error) {
	if !strings.HasPrefix(strings.TrimSpace(line), "{") {
		ev, ok, err := tracker.ParseLine(c, line)
		return ev, 0, ok, err
	}
	var le tracker.LoggedEvent
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&le); err != nil {
		return tracker.Event{}, 0, false, fmt.Errorf("not an exported event: %w", err)
	}
	if le.Event.Type == "" || le.Seq <= 0 {
		return tracker.Event{}, 0, false, errors.New(`not an exported event: want {"seq":N,"event":{"type":...}}`)
	}
	ev := le.Event
	if ev.Type == tracker.EvCorrect {
		t, ok := im[ev.Target]
		if !ok {
			return tracker.Event{}, 0, false, fmt.Errorf("correct: the corrected event %d was not replayed", ev.Target)
		}
		ev.Target = t
	}
	return ev, le.Seq, true, nil
}

func (a *app) replayCmd() *cobra.Command {
	var events, voice string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "replay --events FILE",
		Short: "Replay an events file through the tracker and print the announcements (deterministic)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if events == "" {
				return fmt.Errorf("replay needs --events FILE")
			}
			c, err := a.content()
			if err != nil {
				return err
			}
			f, err := os.Open(events)
			if err != nil {
				return fmt.Errorf("open events file: %w", err)
			}
			defer f.Close()
			if voice == "config" {
				voice = "off"
			}
			out, _, err := a.outputs(ctx, cmd.OutOrStdout(), jsonOut, voice)
			if err != nil {
				return err
			}
			defer out.Close()
			bad, err := a.replayEvents(ctx, c, events, f, out, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if bad == 1 {
				return fmt.Errorf("1 line of %s was rejected (see above); the others were replayed", events)
			}
			if bad > 1 {
				return fmt.Errorf("%d lines of %s were rejected (see above); the others were replayed", bad, events)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&events, "events", "", "events file: one command per line, as at the manual prompt, or events as `sessions --export` writes them")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "announcements as JSON lines")
	cmd.Flags().StringVar(&voice, "voice", "off", "speak announcements: on, off, or config")
	cmd.Flags().StringVar(&a.wavDir, "voice-wav", "", "write spoken announcements as WAV files into this directory instead of playing them")
	return cmd
}

func (a *app) stateCmd() *cobra.Command {
	var session string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Show the state of the open session used last (or of --session ID)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			c, err := a.content()
			if err != nil {
				return err
			}
			st, s, err := a.viewSession(ctx, c, session)
			if err != nil {
				return err
			}
			defer st.Close()
			if jsonOut {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Session string       `json:"session"`
					Game    tracker.Game `json:"game"`
				}{s.ID(), s.Game()})
			}
			fmt.Fprint(cmd.OutOrStdout(), s.Catalog().T("session", s.ID()))
			fmt.Fprint(cmd.OutOrStdout(), s.Summary())
			return nil
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "session id (default: the open one used last)")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the state as JSON")
	return cmd
}

// viewSession opens session id, or the latest open one, to look at: it
// creates neither the store nor a session.
func (a *app) viewSession(ctx context.Context, c *models.Content, id string) (*tracker.Store, *tracker.Session, error) {
	cat, err := tracker.NewCatalog(a.cfg.Language)
	if err != nil {
		return nil, nil, err
	}
	st, err := a.viewStore()
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		info, ok, err := st.LatestOpenSession(ctx)
		if err != nil {
			st.Close()
			return nil, nil, err
		}
		if !ok {
			st.Close()
			return nil, nil, errors.New(cat.T("noOpenSession", a.cfg.Session.DB))
		}
		id = info.ID
	}
	s, err := tracker.OpenSession(ctx, st, c, cat, id, "")
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, s, nil
}

// viewStore opens the sessions database to read it, or says there is none.
func (a *app) viewStore() (*tracker.Store, error) {
	if _, err := os.Stat(a.cfg.Session.DB); errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New(a.catalog().T("noStore", a.cfg.Session.DB))
	}
	// Read-only: no lock, so it works while play writes.
	return tracker.OpenStoreWith(a.cfg.Session.DB, tracker.StoreOptions{ReadOnly: true})
}

func (a *app) sessionsCmd() *cobra.Command {
	var check, yes bool
	var export, rename, closeID, deleteID string
	cmd := &cobra.Command{
		Use:   "sessions [--rename ID NAME | --close ID | --delete ID --yes | --check | --export ID FILE]",
		Short: "List stored sessions, the one used last first; rename, close or delete one; check the store; export a session",
		Long: `List stored sessions, the one used last first: id, name, open or closed,
events, last used. play resumes the open session used last.

  --rename ID NAME   give a session a name (play --name names a new one)
  --close ID         close a session: its events stay and replay, it takes no new ones
  --delete ID --yes  delete a session and its events for good (without --yes
                     it only says what would be deleted)

A store that is not whole (damaged pages, an event changed or missing,
acknowledged events lost with the WAL file) is refused by every command;
--check reports what is whole and what is not, and --export ID FILE writes
what is readable of session ID to FILE, which tablecam replay --events FILE
reads back.`,
		Args: func(cmd *cobra.Command, args []string) error {
			picked := 0
			for _, on := range []bool{check, export != "", rename != "", closeID != "", deleteID != ""} {
				if on {
					picked++
				}
			}
			switch {
			case picked > 1:
				return errors.New("give one of --check, --export, --rename, --close and --delete at a time")
			case export != "" && len(args) != 1:
				return errors.New("--export ID FILE: give the file to write (e.g. tablecam sessions --export game-1 game-1.events)")
			case rename != "" && len(args) != 1:
				return errors.New(`--rename ID NAME: give the new name (e.g. tablecam sessions --rename game-1 "Friday night")`)
			case export == "" && rename == "" && len(args) > 0:
				return fmt.Errorf("unexpected arguments %q", args)
			case yes && deleteID == "":
				return errors.New("--yes confirms --delete ID")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, out := cmd.Context(), cmd.OutOrStdout()
			cat := a.catalog()
			switch {
			case check:
				return a.checkSessions(ctx, out)
			case export != "":
				return a.exportSession(ctx, export, args[0], out)
			case rename != "", closeID != "", deleteID != "":
				return a.changeSession(ctx, out, sessionChange{rename: rename, name: strings.Join(args, " "), close: closeID, del: deleteID, yes: yes})
			}
			if _, err := os.Stat(a.cfg.Session.DB); errors.Is(err, fs.ErrNotExist) {
				fmt.Fprint(out, cat.T("noSessions", a.cfg.Session.DB))
				return nil
			}
			st, err := a.viewStore()
			if err != nil {
				return err
			}
			defer st.Close()
			list, err := st.Sessions(ctx)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprint(out, cat.T("noSessions", a.cfg.Session.DB))
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprint(tw, cat.T("listHeader"))
			for _, s := range list {
				state := cat.T("open")
				if s.Ended != nil {
					state = cat.T("closed")
				}
				name := s.Name
				if name == s.ID {
					name = ""
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", s.ID, name, state, s.Events, s.LastUsed.Local().Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.BoolVar(&check, "check", false, "check that the store is whole and report what is not")
	f.StringVar(&export, "export", "", "write what is readable of session ID to FILE (the argument), an events file for replay")
	f.StringVar(&rename, "rename", "", "give session ID the name NAME (the argument)")
	f.StringVar(&closeID, "close", "", "close session ID: its events stay, it takes no new ones")
	f.StringVar(&deleteID, "delete", "", "delete session ID and its events (needs --yes)")
	f.BoolVar(&yes, "yes", false, "confirm --delete")
	return cmd
}

// sessionChange is what sessions --rename, --close or --delete asks.
type sessionChange struct {
	rename, name, close, del string
	yes                      bool
}

// changeSession renames, closes or deletes a session. It opens the store
// to write, so it waits for no one: while play runs it is refused.
func (a *app) changeSession(ctx context.Context, w io.Writer, ch sessionChange) error {
	id := ch.rename + ch.close + ch.del
	cat := a.catalog()
	if _, err := os.Stat(a.cfg.Session.DB); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no sessions yet (no %s)", a.cfg.Session.DB)
	}
	st, err := tracker.OpenStore(a.cfg.Session.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	info, err := st.Session(ctx, id)
	if errors.Is(err, tracker.ErrUnknownSession) {
		return errors.New(cat.T("noSuchSession", id, a.cfg.Session.DB))
	}
	if err != nil {
		return err
	}
	switch {
	case ch.rename != "":
		if err := st.RenameSession(ctx, id, ch.name); err != nil {
			return err
		}
		fmt.Fprint(w, cat.T("renamed", id, strings.TrimSpace(ch.name)))
	case ch.close != "":
		if info.Ended != nil {
			fmt.Fprint(w, cat.T("closedAlready", id, info.Ended.Local().Format("2006-01-02 15:04")))
			return nil
		}
		if err := st.EndSession(ctx, id); err != nil {
			return err
		}
		fmt.Fprint(w, cat.T("closedNow", id, cat.Count(info.Events, "events")))
	case !ch.yes:
		return errors.New(cat.T("deleteAsk", id, info.Name, cat.Count(info.Events, "events"), info.LastUsed.Local().Format("2006-01-02 15:04")))
	default:
		n, err := st.DeleteSession(ctx, id)
		if err != nil {
			return err
		}
		frames, _ := filepath.Glob(filepath.Join(a.framesDir(), id+"-frame-*.jpg"))
		for _, f := range frames {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("session %s deleted, but not all its frames: %w", id, err)
			}
		}
		fmt.Fprint(w, cat.T("deleted", id, cat.Count(n, "events"), cat.Count(len(frames), "frames")))
	}
	return nil
}

// salvageStore opens the sessions database read-only, damaged or not.
func (a *app) salvageStore() (*tracker.Store, error) {
	if _, err := os.Stat(a.cfg.Session.DB); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no sessions (no %s)", a.cfg.Session.DB)
	}
	return tracker.OpenStoreWith(a.cfg.Session.DB, tracker.StoreOptions{Salvage: true})
}

// salvageCheck opens the store as salvageStore does and checks it; the
// caller closes the store.
func (a *app) salvageCheck(ctx context.Context) (*tracker.Store, tracker.StoreReport, error) {
	st, err := a.salvageStore()
	if err != nil {
		return nil, tracker.StoreReport{}, err
	}
	rep, err := st.Check(ctx)
	if err != nil {
		st.Close()
		return nil, tracker.StoreReport{}, err
	}
	return st, rep, nil
}

// checkSessions prints what of the store is whole; it fails if anything
// is not.
func (a *app) checkSessions(ctx context.Context, w io.Writer) error {
	st, rep, err := a.salvageCheck(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	cat := a.catalog()
	acked := cat.T("ackUnknown")
	if rep.Acked >= 0 {
		acked = fmt.Sprint(rep.Acked)
	}
	fmt.Fprint(w, cat.T("checkHead", a.cfg.Session.DB, cat.Count(rep.Events, "events"), rep.WholeTo, acked))
	for _, sc := range rep.Sessions {
		state := cat.T("checkWhole")
		if len(sc.Broken) > 0 {
			state = cat.T("checkBroken", len(sc.Broken), sc.Broken[:min(len(sc.Broken), 10)])
		}
		fmt.Fprint(w, cat.T("checkSession", sc.ID, sc.Events, state))
	}
	if rep.Whole() {
		fmt.Fprint(w, cat.T("storeWhole"))
		return nil
	}
	for _, p := range rep.Problems {
		fmt.Fprint(w, cat.T("storeProblem", cat.Error(errors.New(p))))
	}
	if len(rep.Problems) == 1 {
		return errors.New("the store is not whole (1 problem): tablecam sessions --export ID FILE saves what is readable of a session")
	}
	return fmt.Errorf("the store is not whole (%d problems): tablecam sessions --export ID FILE saves what is readable of a session", len(rep.Problems))
}

// exportSession writes what is readable of a session as an events file:
// one stored event a line, as JSON ({"seq":N,"event":{...}}), which replay
// reads back; events that do not match their hash or cannot be read are
// marked by comments.
func (a *app) exportSession(ctx context.Context, id, file string, w io.Writer) error {
	st, rep, err := a.salvageCheck(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	broken := map[int64]bool{}
	for _, sc := range rep.Sessions {
		for _, q := range sc.Broken {
			broken[q] = true
		}
	}
	recs, readErr := st.ReadableRecords(ctx, id)
	if readErr == nil && len(recs) == 0 {
		return fmt.Errorf("session %s has no readable events (tablecam sessions --check lists the sessions)", id)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	bw := bufio.NewWriter(f)
	cat := a.catalog()
	fmt.Fprint(bw, cat.T("exportHead", id, cat.Count(len(recs), "readable"), a.cfg.Session.DB))
	fmt.Fprint(bw, cat.T("exportReplay", file))
	unsure := 0
	for _, r := range recs {
		ev, err := tracker.DecodeEvent(r.Payload)
		if err != nil {
			unsure++
			fmt.Fprint(bw, cat.T("exportUnreadable", r.Seq, cat.Error(err), r.Payload))
			continue
		}
		if broken[r.Seq] {
			unsure++
			fmt.Fprint(bw, cat.T("exportHash", r.Seq))
		}
		line, err := json.Marshal(tracker.LoggedEvent{Seq: r.Seq, Event: ev})
		if err != nil {
			unsure++
			fmt.Fprint(bw, cat.T("exportUnwritable", r.Seq, cat.Error(err)))
			continue
		}
		bw.Write(append(line, '\n'))
	}
	if readErr != nil {
		fmt.Fprint(bw, cat.T("exportStopped", cat.Error(readErr)))
	}
	err = errors.Join(bw.Flush(), f.Sync(), f.Close())
	if err != nil {
		return fmt.Errorf("export %s: %w", file, err)
	}
	fmt.Fprint(w, cat.T("exported", file, cat.Count(len(recs), "events"), id, unsure))
	if readErr != nil {
		return fmt.Errorf("exported what was readable of %s; the rest could not be read: %w", id, readErr)
	}
	return nil
}

func (a *app) oddsCmd() *cobra.Command {
	var r tracker.OddsRequest
	var g tracker.GameOddsRequest
	var faces, skillFaces, combatFaces string
	var noise, empathy, luckA, luckB int
	cmd := &cobra.Command{
		Use:   "odds",
		Short: "Exact odds of a test or fight, and which dice to reroll",
		Example: `  tablecam odds --difficulty 2 --rerolls 1
  tablecam odds --enemy ghoul-2 --rerolls 2 --assist
  tablecam odds --enemy raider-1 --faces head,torso,2h --rerolls 1
  tablecam odds --game twom --noise 3 --empathy 6
  tablecam odds --game twom --combat hatchet --combat-faces 0,0,1,1,2,hatchet
  tablecam odds --game twom --combat pistol --enemy-roll --strength 2
  tablecam odds --game warfare --stat 7 --mod +2
  tablecam odds --game warfare --melee 7 --ac 2 --behind
  tablecam odds --game warfare --shoot 8 --ac 1 --cover --light dusk
  tablecam odds --game warfare --initiative --last-attacker a --luck-b 3
  tablecam odds --game warfare --mine 5
  tablecam odds --game wasteland --skill 5 --skill-faces crit,ap,2,2,3,3,4,4,5,5,6,6,7,7,8,9,10,x,x,x`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if g.Game != "" {
				if cmd.Flags().Changed("noise") {
					g.Noise = &noise
				}
				if cmd.Flags().Changed("empathy") {
					g.Empathy = &empathy
				}
				if cmd.Flags().Changed("luck-a") {
					g.Warfare.LuckA = &luckA
				}
				if cmd.Flags().Changed("luck-b") {
					g.Warfare.LuckB = &luckB
				}
				if skillFaces != "" {
					g.SkillFaces = strings.Split(skillFaces, ",")
				}
				if g.Combat.Die != "" {
					if combatFaces != "" {
						g.Combat.Faces = strings.Split(combatFaces, ",")
					}
					c, err := a.content()
					if err != nil {
						return err
					}
					g.Content = c
				}
				g.Lang = a.cfg.Language
				text, err := tracker.GameOddsReport(g)
				if err != nil {
					return err
				}
				fmt.Fprint(cmd.OutOrStdout(), text)
				return nil
			}
			c, err := a.content()
			if err != nil {
				return err
			}
			if faces != "" {
				r.Faces = strings.Split(faces, ",")
				r.Dice = len(r.Faces)
			}
			r.Lang = a.cfg.Language
			text, err := tracker.OddsReport(c, r)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), text)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&r.Set, "set", "vats", "dice set")
	f.IntVar(&r.Dice, "dice", 3, "number of dice")
	f.IntVar(&r.Difficulty, "difficulty", 1, "test difficulty (hits needed)")
	f.StringVar(&r.Enemy, "enemy", "", "fight: enemy token, type or faction id")
	f.IntVar(&r.Armor, "armor", 0, "fight: the survivor's armor icons")
	f.BoolVar(&r.Ranged, "ranged", false, "fight: the survivor's weapon is ranged")
	f.BoolVar(&r.Assist, "assist", false, "fight: add the assist die")
	f.IntVar(&r.Rerolls, "rerolls", 0, "rerolls available")
	f.StringVar(&faces, "faces", "", "the current roll (comma-separated face ids): which dice to reroll now")
	f.StringVar(&r.AssistFace, "assist-face", "", "the assist die's current face")
	f.StringVar(&g.Game, "game", "", "another game: twom, warfare or wasteland")
	f.IntVar(&noise, "noise", 1, "twom: a noise test at this noise level")
	f.IntVar(&empathy, "empathy", 0, "twom: an empathy test for this empathy")
	f.StringVar(&g.Combat.Die, "combat", "", "twom: a combat roll with this die (grey, yellow, red) or weapon")
	f.StringVar(&combatFaces, "combat-faces", "", "twom: your combat die's faces, comma-separated (0-6 symbols, shotgun, hatchet, out_of_ammo, fate)")
	f.IntVar(&g.Combat.Shots, "shots", 1, "twom: 2 for the assault rifle's two rolls")
	f.BoolVar(&g.Combat.Enemy, "enemy-roll", false, "twom: the combat roll is an enemy's")
	f.IntVar(&g.Combat.Strength, "strength", 0, "twom: the roller's strength: its rerolls (an enemy rerolls 0 wounds automatically)")
	f.IntVar(&g.Stat, "stat", 0, "warfare: the stat the d10 rolls under")
	f.IntVar(&g.Mod, "mod", 0, "warfare: the modifiers added to the roll")
	wo := &g.Warfare
	f.IntVar(&wo.Melee, "melee", 0, "warfare: a melee attack at this Strength")
	f.IntVar(&wo.Shoot, "shoot", 0, "warfare: a ranged attack at this Agility")
	f.IntVar(&wo.AC, "ac", 0, "warfare: the target's armour class")
	f.BoolVar(&wo.Behind, "behind", false, "warfare: a melee attack from behind")
	f.BoolVar(&wo.Charge, "charge", false, "warfare: a melee attack at the end of a charge")
	f.BoolVar(&wo.Moving, "moving", false, "warfare: an attack at the end of a move and fire")
	f.BoolVar(&wo.Cover, "cover", false, "warfare: the target is by a wall or rough ground")
	f.BoolVar(&wo.Flying, "flying", false, "warfare: a flying target")
	f.BoolVar(&wo.Area, "area", false, "warfare: an area-effect weapon (no armour class)")
	f.StringVar(&wo.Light, "light", "", "warfare: the light level (dawn, day, dusk, darkness)")
	f.StringVar(&wo.Shooter, "shooter", "", "warfare: the shooter if robot, ghoul or super_mutant")
	f.BoolVar(&wo.Initiative, "initiative", false, "warfare: the initiative roll")
	f.StringVar(&wo.LastAttacker, "last-attacker", "", "warfare: the side that attacked last turn (a or b)")
	f.IntVar(&luckA, "luck-a", 0, "warfare: the Luck of side a's best hero")
	f.IntVar(&luckB, "luck-b", 0, "warfare: the Luck of side b's best hero")
	f.IntVar(&wo.Mine, "mine", 0, "warfare: a unit of this Endurance caught by a mine")
	f.IntVar(&g.Skill, "skill", 0, "wasteland: the skill value")
	f.StringVar(&skillFaces, "skill-faces", "", "wasteland: your skill die's faces, comma-separated (2-10, ap, crit, x)")
	return cmd
}

// catalog is the catalog of the configured language (English when there
// is none for it).
func (a *app) catalog() *tracker.Catalog {
	cat, err := tracker.NewCatalog(a.cfg.Language)
	if err != nil {
		return nil
	}
	return cat
}

// framesDir is where roll-proof frames are kept.
func (a *app) framesDir() string { return filepath.Join(a.cfg.DataDir, "frames") }
