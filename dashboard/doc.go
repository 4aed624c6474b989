// Package dashboard is tablecam's big-type web dashboard: one page that a
// group reads across the table (dark theme, large numbers, tablet-friendly),
// served by tablecam itself with every asset embedded, so it works offline.
//
// On a landscape screen (1920×1080, a 1280×800 tablet) one viewport holds
// what a group needs during a round: the latest announcement, round, first
// player, goals, C.A.M.P. tokens and the power track, the pending roll with
// its exact odds and which dice to reroll, the live camera view with what
// was recognised labelled over it, the survivors' HP, rads and XP, the
// enemies on the map under the names the announcements use (e1, e2, with
// the printed token when known), and the controls. Below it, on demand:
// the announcement log, adjustments, the survivors' details, the readings
// with the frame each came from (the roll-proof trail), and per-face
// fairness statistics of the dice with a χ² test. Before the setup the page
// offers a setup form (scenario, loyal faction, survivors) instead.
//
// Every control (setup, confirm, correct a reading, undo, redo, roll
// context, adjust counts, next round) becomes a tracker command line, parsed with
// [tracker.ParseLine] and submitted through [tracker.Session.Submit], so the
// session's event log stays the single source of truth. Updates reach the
// browsers as Server-Sent Events.
//
// # Wiring
//
//	voice := dashboard.NewMuteSwitch(announce.NewVoice(...))
//	out := announce.Multi{announce.NewConsole(w, false), voice}
//	srv, err := dashboard.New(dashboard.Options{Session: s, Content: c,
//		Addr: cfg.Dashboard.Addr, Lang: cfg.Language, Output: out,
//		Mute: voice.SetMuted, Frames: frameBuffer, FramesDir: framesDir, Logger: log})
//	all := announce.Multi{out, srv.Announcer()} // what the prompt and camera announce to
//	fmt.Println("dashboard:", srv.URL())       // with ?token=... when one is required
//	go srv.Serve(ctx)                           // graceful shutdown when ctx ends
//
// # Security
//
// Bound to a loopback address (the default 127.0.0.1:8080) the dashboard
// needs no token, but it only answers requests whose Host is a loopback
// name (a DNS-rebinding page cannot reach it). Bound to any other address it
// requires a token ([Options.Token], or a random one): the URL from
// [Server.URL] carries it as ?token=...; the first request with it sets an
// HttpOnly cookie and redirects to the same page without it. API clients may
// send the token in the X-Tablecam-Token header (or Authorization: Bearer)
// instead. Every POST must carry the header X-Tablecam-Request (any value;
// browsers cannot send a custom header cross-origin without a CORS
// preflight, which the dashboard never grants) and a JSON content type, and
// its Origin (or Referer) must be the dashboard itself, so another web page
// cannot drive the game.
//
// # JSON API
//
//	GET  /api/state         the Snapshot: game state, pending roll with odds and
//	                        reroll advice, fairness, recent announcements ("log",
//	                        newest first), roll-proof trail ("rolls"), camera status;
//	                        before the setup, the setup form's choices ("setup")
//	GET  /api/events        Server-Sent Events:
//	                          event "state":    a Snapshot (sent on connect with "log",
//	                                            and whenever the state changes without
//	                                            an announcement)
//	                          event "announce": {"announcement": LogEntry, "state": Snapshot}
//	                                            for every announcement (state without "log")
//	POST /api/command       {"line": "undo"} → 200 {"announcements": [...], "state": Snapshot}
//	                        or 400 (the line does not parse) / 422 (the tracker refused
//	                        the event) with {"error": "..."}
//	POST /api/mute          {"muted": true} → 200 {"muted": true}; 404 without Options.Mute
//	GET  /api/frame.jpg     the latest camera frame (204 when none yet)
//	GET  /api/labels        FrameLabels: the latest frame's boxes and labels, which
//	                        the page draws over the camera view (404 unless the
//	                        feed is a LabeledFeed, such as FrameBuffer)
//	GET  /api/stream.mjpeg  the camera as multipart/x-mixed-replace JPEG frames
//	GET  /frames/PATH       a stored frame under Options.FramesDir (read-only;
//	                        paths that leave the directory are refused)
//
// The command lines are the tracker's (see [tracker.Commands]); the
// dashboard's controls send: setup SCENARIO loyal FACTION survivors
// ID[:HP[:SPECIAL]]... [first ID], done, correct SEQ FACE... [assist FACE], undo,
// redo, test SURVIVOR DIFFICULTY [LETTERS], fight SURVIVOR ENEMY [assist
// SURVIVOR], nocontext, hp|rads|xp|caps SURVIVOR +1|-1, setpower SPACE,
// setgoals N, goal, camps +1|-1, card CARD, round.
package dashboard
