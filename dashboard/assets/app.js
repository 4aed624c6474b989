// tablecam dashboard: renders /api/events snapshots; every control posts a
// tracker command line to /api/command. Vanilla JS, no dependencies.
"use strict";

(function () {
  const T = {
    en: {
      connecting: "connecting…", live: "live", offline: "reconnecting…",
      undo: "Undo", redo: "Redo", mute: "Mute voice", unmute: "Voice off",
      latest: "Latest", round: "Round", first: "First player", goals: "Goals", camps: "C.A.M.P.",
      deck: "Deck", discard: "Discard", power: "Power", pending: "Roll", survivors: "Survivors",
      camera: "Camera", nocamera: "No camera connected.", log: "Announcements", enemies: "Enemies",
      controls: "Controls", nexttest: "Next roll: test", difficulty: "Difficulty", settest: "Set test",
      nextfight: "Next roll: fight", setfight: "Set fight", nocontext: "No context", adjust: "Adjust",
      goaldone: "Goal done", nextround: "Next round", card: "Activation card", showcard: "Shown",
      command: "Command", send: "Send", rolls: "Readings",
      rollshelp: "Every reading with the frame it came from. Correct one if the camera misread it.",
      fairness: "Dice fairness", cancel: "Cancel", apply: "Apply correction",
      nogame: "No game set up yet: choose the scenario, the loyal faction and the survivors.",
      noroll: "No roll in progress. Set a test or a fight in Controls.",
      details: "Details ▾", newgame: "New game", scenario: "Scenario", loyalto: "Loyal faction",
      survivorsplayers: "Survivors, in player order", name: "Name", specialshort: "S.P.E.C.I.A.L.",
      startgame: "Start the game", deckdiscard: "Deck · discard", difficultyshort: "Diff.", cardshort: "Card",
      adjustshort: "Adjust ▾", survivordetails: "Survivors' details", token: "token",
      nosurvivors: "Name at least one survivor.", firstshort: "1st", track: "spaces", goalsreq: "goals",
      test: "Test", fight: "Fight", vs: "vs", assist: "assist", waiting: "Waiting for the roll…",
      rerollsleft: "rerolls left", rerollleft: "reroll left", chance: "chance", pass: "pass", kill: "kill",
      withrerolls: "{n} rerolls", withreroll: "{n} reroll", keep: "Keep the dice", reroll: "Reroll",
      die: "die", assistdie: "assist die", ifkeep: "keeping", confirm: "Confirm (done)",
      correct: "Correct", hits: "hits", hit: "hit", needed: "needed", passing: "passing", failing: "failing",
      kills: "kills", survives: "survives", damage: "damage", rads: "rads", assistdmg: "assistant damage",
      expdamage: "expected damage", asshurt: "assistant hurt",
      hp: "HP", xp: "XP", caps: "Caps", out: "out", mutated: "mutated", rested: "well rested",
      active: "active", facedown: "facedown", with: "with", adjacent: "next to",
      noenemies: "No enemies tracked.", norolls: "No readings yet.",
      frame: "frame", manual: "typed", camera_src: "camera", corrected: "corrected",
      toofew: "need {need} dice for the test, {n} so far", fair: "consistent with a fair die",
      suspicious: "suspicious: p < 0.01", dice: "dice", expected: "expected",
      correcttitle: "Correct reading #{seq}", noassist: "no assistant",
      won: "GAME WON", lost: "GAME LOST", lostspace: "lost",
      nocards: "deck empty",
    },
    de: {
      connecting: "verbinde…", live: "live", offline: "verbinde neu…",
      undo: "Rückgängig", redo: "Wiederholen", mute: "Stimme aus", unmute: "Stimme ist aus",
      latest: "Zuletzt", round: "Runde", first: "Startspieler", goals: "Aufgaben", camps: "C.A.M.P.",
      deck: "Stapel", discard: "Ablage", power: "Macht", pending: "Wurf", survivors: "Überlebende",
      camera: "Kamera", nocamera: "Keine Kamera verbunden.", log: "Ansagen", enemies: "Gegner",
      controls: "Steuerung", nexttest: "Nächster Wurf: Probe", difficulty: "Schwierigkeit", settest: "Probe setzen",
      nextfight: "Nächster Wurf: Kampf", setfight: "Kampf setzen", nocontext: "Ohne Kontext", adjust: "Anpassen",
      goaldone: "Aufgabe erfüllt", nextround: "Nächste Runde", card: "Aktivierungskarte", showcard: "Gezeigt",
      command: "Befehl", send: "Senden", rolls: "Würfe",
      rollshelp: "Jeder gelesene Wurf mit dem Bild, aus dem er stammt. Falsch gelesen? Korrigieren.",
      fairness: "Fairness der Würfel", cancel: "Abbrechen", apply: "Korrigieren",
      nogame: "Noch kein Spiel: Szenario, loyale Fraktion und Überlebende wählen.",
      noroll: "Kein Wurf offen. Unter Steuerung Probe oder Kampf setzen.",
      details: "Details ▾", newgame: "Neues Spiel", scenario: "Szenario", loyalto: "Loyale Fraktion",
      survivorsplayers: "Überlebende, in Spielerreihenfolge", name: "Name", specialshort: "S.P.E.C.I.A.L.",
      startgame: "Spiel beginnen", deckdiscard: "Stapel · Ablage", difficultyshort: "Schw.", cardshort: "Karte",
      adjustshort: "Anpassen ▾", survivordetails: "Überlebende im Detail", token: "Marker",
      nosurvivors: "Mindestens einen Überlebenden eintragen.", firstshort: "Start", track: "Felder", goalsreq: "Aufgaben",
      test: "Probe", fight: "Kampf", vs: "gegen", assist: "Hilfe", waiting: "Warte auf den Wurf…",
      rerollsleft: "Neuwürfe übrig", rerollleft: "Neuwurf übrig", chance: "Chance", pass: "bestehen", kill: "töten",
      withrerolls: "{n} Neuwürfe", withreroll: "{n} Neuwurf", keep: "Würfel behalten", reroll: "Neu würfeln",
      die: "Würfel", assistdie: "Hilfswürfel", ifkeep: "behalten", confirm: "Bestätigen (done)",
      correct: "Korrigieren", hits: "Treffer", hit: "Treffer", needed: "nötig", passing: "bestanden", failing: "nicht bestanden",
      kills: "tötet", survives: "überlebt", damage: "Schaden", rads: "Rads", assistdmg: "Schaden Helfer",
      expdamage: "erwarteter Schaden", asshurt: "Helfer verletzt",
      hp: "TP", xp: "EP", caps: "Kronkorken", out: "raus", mutated: "mutiert", rested: "ausgeruht",
      active: "aktiv", facedown: "verdeckt", with: "bei", adjacent: "neben",
      noenemies: "Keine Gegner erfasst.", norolls: "Noch keine Würfe.",
      frame: "Bild", manual: "getippt", camera_src: "Kamera", corrected: "korrigiert",
      toofew: "{need} Würfel für den Test nötig, bisher {n}", fair: "passt zu einem fairen Würfel",
      suspicious: "auffällig: p < 0,01", dice: "Würfel", expected: "erwartet",
      correcttitle: "Wurf #{seq} korrigieren", noassist: "ohne Helfer",
      won: "SPIEL GEWONNEN", lost: "SPIEL VERLOREN", lostspace: "verloren",
      nocards: "Stapel leer",
    },
  };

  let lang = "en";
  let S = null;          // the latest snapshot
  let LOG = [];          // announcements, newest first
  let version = 0;       // snapshot version shown
  let cameraMode = "";   // "", "mjpeg" or "poll"
  let pollTimer = 0;
  let labelTimer = 0;    // polls /api/labels while the camera has labels
  let labelSeq = -1;     // frame of the labels shown
  let frameSize = { w: 0, h: 0 };
  let cameraObserver = null;
  const labelInterval = 250;
  let errorTimer = 0;

  const $ = (id) => document.getElementById(id);

  function t(key, vars) {
    let s = (T[lang] && T[lang][key]) || T.en[key] || key;
    if (vars) {
      for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
    }
    return s;
  }

  // h builds an element: h("div", {class: "x", onclick: fn}, "text", child...).
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
        else if (k === "class") el.className = v;
        else if (k === "text") el.textContent = v;
        else if (k === "style") Object.assign(el.style, v); // CSSOM: allowed by the CSP
        else el.setAttribute(k, v === true ? "" : String(v));
      }
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function fill(el, ...children) {
    el.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  }

  const pct = (p) => (p * 100 >= 99.95 || p * 100 < 0.05 ? (p * 100).toFixed(0) : (p * 100).toFixed(1)) + "%";

  function translateStatic() {
    document.documentElement.lang = lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-title]")) el.title = t(el.dataset.title);
  }

  // ---- commands ----------------------------------------------------------

  async function post(url, body) {
    const res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Tablecam-Request": "1" },
      body: JSON.stringify(body),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) throw new Error((data && data.error) || res.status + " " + res.statusText);
    return data;
  }

  async function cmd(line) {
    try {
      const data = await post("/api/command", { line: line });
      hideError();
      if (data && data.state) apply(data.state);
      return true;
    } catch (e) {
      showError(e.message);
      return false;
    }
  }

  function showError(msg) {
    $("error-text").textContent = msg;
    $("error").hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(hideError, 12000);
  }

  function hideError() {
    $("error").hidden = true;
  }

  // ---- state -------------------------------------------------------------

  function apply(snap) {
    if (snap.version && snap.version < version) return; // stale
    version = snap.version || version;
    if (snap.log) LOG = snap.log;
    if (snap.lang && snap.lang !== lang) {
      lang = snap.lang;
      translateStatic();
    }
    S = snap;
    render();
  }

  function render() {
    if (!S) return;
    renderBar();
    renderLatest();
    renderSetup();
    renderParty();
    renderBoard();
    renderPending();
    renderSurvivors();
    renderCamera();
    renderLog();
    renderEnemies();
    renderControls();
    renderRolls();
    renderFairness();
    renderGame();
  }

  // Another game than Fallout: The Board Game shows its state table in
  // place of the Fallout panels.
  function renderGame() {
    const g = S.game;
    $("game").hidden = !g;
    for (const id of ["board", "pending", "party", "enemies", "survivors"]) $(id).hidden = !!g;
    // Fallout's test, fight and card controls do not apply to another
    // game: its panel has its own buttons; the command line stays.
    for (const row of document.querySelectorAll("#controls > .control-group:not(#command-form)")) row.hidden = !!g;
    $("no-context").hidden = !!g;
    $("controls").classList.toggle("controls-game", !!g);
    $("command-line").placeholder = g && g.controls && g.controls.length ? g.controls[0] : g ? "next" : "enemy add raider";
    if (!g) return;
    $("scenario").textContent = g.name;
    $("game-name").textContent = g.name;
    $("game-state").textContent = g.state;
    // The buttons are command lines as typed: the same in every language.
    // A line without its die reading waits for the camera.
    fill($("game-controls"), (g.controls || []).map((line) =>
      h("button", { class: "btn game-cmd", type: "button", "data-line": line, onclick: () => cmd(line) }, line)));
  }

  function renderBar() {
    $("scenario").textContent = S.started
      ? S.scenario.name + " · " + S.loyal.name + " / " + S.opposing.name
      : "";
    const r = $("result");
    r.hidden = !S.result;
    r.textContent = S.result === "won" ? t("won") : S.result === "lost" ? t("lost") : "";
    r.className = "chip " + (S.result === "won" ? "chip-good" : "chip-bad");
    const m = $("mute");
    m.hidden = !S.can_mute;
    m.textContent = S.muted ? t("unmute") : t("mute");
    m.classList.toggle("btn-on", !!S.muted);
    m.setAttribute("aria-pressed", S.muted ? "true" : "false");
  }

  function renderLatest() {
    const a = LOG[0];
    $("latest-text").textContent = a ? a.text : S.started ? "" : t("nogame");
  }

  function renderBoard() {
    const dash = "–";
    $("round").textContent = S.started ? S.round : dash;
    $("first").textContent = S.started ? S.first_player.name : dash;
    $("goals").textContent = S.started ? S.goals.done + "\u2009/\u2009" + S.goals.required : dash;
    $("goals").classList.toggle("good", S.started && S.goals.done >= S.goals.required);
    $("camps").textContent = S.started ? S.camps : dash;
    $("deck").textContent = S.started ? S.deck.cards : dash;
    $("discard").textContent = S.started ? S.deck.discard : dash;
    const track = $("power-track");
    if (!S.started) {
      fill(track);
      $("power-text").textContent = "";
      $("power-owner").textContent = "";
      return;
    }
    $("power-owner").textContent = S.power.owner;
    $("power-text").textContent = S.power.space + " / " + S.power.spaces;
    const items = [];
    for (let i = 1; i <= S.power.spaces; i++) {
      let cls = "space";
      if (i < S.power.space) cls += " passed";
      if (i === S.power.space) cls += " token";
      if (i === S.power.spaces) cls += " last";
      items.push(h("li", { class: cls, "data-space": i, title: i === S.power.spaces ? t("lostspace") : null },
        h("span", { class: "space-num" }, i === S.power.spaces ? "✕" : i)));
    }
    fill(track, items);
  }

  function dieChip(face, opts) {
    opts = opts || {};
    return h("span", { class: "die" + (opts.reroll ? " die-reroll" : "") + (opts.assist ? " die-assist" : "") },
      opts.num !== undefined ? h("span", { class: "die-num" }, opts.num) : null,
      h("span", { class: "die-face" }, face.label || face.id),
      opts.reroll ? h("span", { class: "die-tag" }, t("reroll")) : null);
  }

  function renderPending() {
    const body = $("pending-body");
    fill($("pending-actions"));
    if (!S.started) { fill(body, h("p", { class: "muted" }, t("nogame"))); return; }
    const p = S.pending;
    if (!p) { fill(body, h("p", { class: "muted" }, t("noroll"))); return; }
    const title = [];
    if (p.kind === "test") {
      title.push(h("span", { class: "ctx-kind" }, t("test")), " ", h("b", null, p.survivor.name),
        " · " + t("difficulty") + " ", h("b", null, p.difficulty), p.special ? " · " + p.special : "");
    } else {
      title.push(h("span", { class: "ctx-kind" }, t("fight")), " ", h("b", null, p.survivor.name),
        " " + t("vs") + " ", h("b", null, p.enemy ? p.enemy.name : "?"),
        p.assistant ? " · " + t("assist") + " " + p.assistant.name : "");
    }
    const parts = [h("div", { class: "ctx" }, title)];
    const advise = new Set((p.advice && p.advice.reroll) || []);
    if (p.rolled) {
      const dice = p.faces.map((f, i) => dieChip(f, { num: i + 1, reroll: advise.has(i + 1) }));
      if (p.assist) dice.push(dieChip(p.assist, { num: "A", assist: true, reroll: p.advice && p.advice.reroll_assist }));
      parts.push(h("div", { class: "dice" }, dice));
      if (p.now) {
        let now;
        if (p.kind === "test") {
          now = [h("b", null, p.now.hits), " " + t(p.now.hits === 1 ? "hit" : "hits") + " / " + p.now.needed + " " + t("needed") + " — ",
            h("b", { class: p.now.success ? "good" : "bad" }, p.now.success ? t("passing") : t("failing"))];
        } else {
          now = [h("b", null, p.now.hits), " " + t(p.now.hits === 1 ? "hit" : "hits") + " / " + p.now.needed + " " + t("needed") + " — ",
            h("b", { class: p.now.success ? "good" : "bad" }, p.now.success ? t("kills") : t("survives")),
            p.now.damage ? " · " + p.now.damage + " " + t("damage") : "",
            p.now.rads ? " · " + p.now.rads + " " + t("rads") : "",
            p.now.assist_damage ? " · " + p.now.assist_damage + " " + t("assistdmg") : ""];
        }
        parts.push(h("div", { class: "now" }, now));
      }
    } else {
      parts.push(h("div", { class: "waiting" }, t("waiting")));
    }
    const odds = [];
    if (p.odds) {
      const sub = [];
      sub.push(h("span", { class: "rerolls-left" }, p.rerolls_left + " " + t(p.rerolls_left === 1 ? "rerollleft" : "rerollsleft")));
      if (!p.rolled && p.odds.p_by_rerolls && p.odds.p_by_rerolls.length > 1) {
        sub.push(" · " + p.odds.p_by_rerolls.map((x, i) => t(i === 1 ? "withreroll" : "withrerolls", { n: i }) + ": " + pct(x)).join(" · "));
      }
      if (!p.rolled && p.kind === "fight") {
        if (p.odds.expected_damage) sub.push(" · " + t("expdamage") + " " + p.odds.expected_damage.toFixed(1));
        if (p.odds.p_assist_hurt) sub.push(" · " + t("asshurt") + " " + pct(p.odds.p_assist_hurt));
      }
      odds.push(h("div", { class: "odds-big" }, h("span", { class: "odds-p", id: "odds-p" }, pct(p.odds.p)),
        h("div", { class: "odds-side" },
          h("div", { class: "odds-label" }, t("chance") + " " + (p.kind === "test" ? t("pass") : t("kill"))),
          h("div", { class: "odds-sub" }, sub))));
    } else {
      odds.push(h("div", { class: "odds-sub" }, p.rerolls_left + " " + t(p.rerolls_left === 1 ? "rerollleft" : "rerollsleft")));
    }
    if (p.advice) {
      const a = p.advice;
      let text;
      if (!a.reroll.length && !a.reroll_assist) {
        text = [h("b", { class: "good" }, t("keep")), " — " + pct(a.p_if_keep)];
      } else {
        const which = a.reroll.map((d) => t("die") + " " + d + " (" + p.faces[d - 1].label + ")");
        if (a.reroll_assist) which.push(t("assistdie"));
        text = [h("b", { class: "warn" }, t("reroll") + " " + which.join(", ")), " → " + pct(a.p_if_reroll) +
          " (" + t("ifkeep") + " " + pct(a.p_if_keep) + ")"];
      }
      odds.push(h("div", { class: "advice", id: "advice" }, text));
    }
    if (p.odds_error) odds.push(h("div", { class: "muted small" }, p.odds_error));
    parts.push(h("div", { class: "odds" }, odds));
    const actions = [];
    if (p.rolled) {
      if (p.frame_url) actions.push(frameThumb(p.frame_url, p.frame));
      if (p.roll_seq) {
        const r = (S.rolls || []).find((x) => x.seq === p.roll_seq);
        if (r) actions.push(h("button", { class: "btn", type: "button", onclick: () => openCorrect(r) }, t("correct")));
      }
      actions.push(h("button", { class: "btn btn-primary", id: "confirm", type: "button", onclick: () => cmd("done") }, t("confirm")));
    }
    // The actions sit in the panel's heading, where they take no line of
    // their own.
    fill($("pending-actions"), actions);
    fill(body, parts);
  }

  function bar(kind, value, max) {
    const w = max > 0 ? Math.max(0, Math.min(100, (100 * value) / max)) : 0;
    return h("div", { class: "meter meter-" + kind }, h("div", { class: "meter-fill", style: { width: w.toFixed(1) + "%" } }));
  }

  function statRow(s, key, label, value, max, shown) {
    return h("div", { class: "stat stat-" + key },
      h("span", { class: "stat-label" }, label),
      bar(key, value, max),
      h("span", { class: "stat-value", "data-stat": key }, shown),
      h("button", { class: "btn btn-pm", type: "button", "aria-label": label + " −1", onclick: () => cmd(key + " " + s.id + " -1") }, "−"),
      h("button", { class: "btn btn-pm", type: "button", "aria-label": label + " +1", onclick: () => cmd(key + " " + s.id + " +1") }, "+"));
  }

  function renderSurvivors() {
    const list = $("survivor-list");
    if (!S.started) { fill(list); return; }
    const maxXP = Math.max(10, ...S.survivors.map((s) => s.xp));
    const maxCaps = Math.max(10, ...S.survivors.map((s) => s.caps));
    fill(list, S.survivors.map((s) => {
      const flags = [];
      if (s.first) flags.push(h("span", { class: "chip chip-accent" }, t("first")));
      if (s.out) flags.push(h("span", { class: "chip chip-bad" }, t("out")));
      if (s.mutated) flags.push(h("span", { class: "chip chip-rads" }, t("mutated")));
      if (s.well_rested) flags.push(h("span", { class: "chip" }, t("rested")));
      if (s.special) flags.push(h("span", { class: "chip chip-dim" }, s.special));
      return h("div", { class: "survivor" + (s.out ? " is-out" : ""), id: "survivor-" + s.id },
        h("div", { class: "survivor-head" }, h("span", { class: "survivor-name" }, s.name), flags),
        statRow(s, "hp", t("hp"), s.hp, s.max_hp, s.hp + "/" + s.max_hp),
        statRow(s, "rads", t("rads"), s.rads, s.max_hp, s.rads),
        statRow(s, "xp", t("xp"), s.xp, maxXP, s.xp),
        statRow(s, "caps", t("caps"), s.caps, maxCaps, s.caps));
    }));
  }

  function renderCamera() {
    const st = $("camera-status");
    const cam = S.camera || {};
    st.hidden = !cam.status;
    st.textContent = cam.status || "";
    st.className = "chip chip-bad";
    const body = $("camera-body");
    if (!cam.available) {
      if (cameraMode !== "") { cameraMode = ""; clearInterval(pollTimer); clearInterval(labelTimer); }
      fill(body, h("p", { class: "muted" }, t("nocamera")));
      return;
    }
    if (cam.labels && !labelTimer) {
      labelTimer = setInterval(pollLabels, labelInterval);
      pollLabels();
    }
    if (cameraMode !== "") return; // the stream keeps running
    cameraMode = "mjpeg";
    const img = h("img", { class: "camera-img", id: "camera-img", alt: t("camera") });
    img.addEventListener("error", () => {
      if (cameraMode !== "mjpeg") return;
      cameraMode = "poll"; // MJPEG failed: poll single frames instead
      clearInterval(pollTimer);
      pollTimer = setInterval(() => { img.src = "/api/frame.jpg?t=" + Date.now(); }, 250);
    });
    img.addEventListener("load", fitCamera);
    const frame = h("div", { class: "camera-frame", id: "camera-frame" }, img,
      h("div", { class: "camera-labels", id: "camera-labels" }));
    fill(body, frame);
    img.src = "/api/stream.mjpeg";
    if (window.ResizeObserver && !cameraObserver) {
      cameraObserver = new ResizeObserver(fitCamera);
      cameraObserver.observe(body);
    }
    fitCamera();
  }

  // fitCamera sizes the frame box to the largest size of the frame's aspect
  // that fits the panel, so that the labels drawn over it line up with the
  // picture.
  function fitCamera() {
    const body = $("camera-body");
    const frame = $("camera-frame");
    const img = $("camera-img");
    if (!frame || !img) return;
    const w = frameSize.w || img.naturalWidth;
    const hh = frameSize.h || img.naturalHeight;
    if (!w || !hh) return;
    const bw = body.clientWidth;
    const bh = body.clientHeight;
    let scale = bw / w;
    // In the one-screen layout the panel's height is bounded too.
    if (getComputedStyle(body).flexGrow !== "0" && bh > 0) scale = Math.min(scale, bh / hh);
    frame.style.width = Math.floor(w * scale) + "px";
    frame.style.height = Math.floor(hh * scale) + "px";
  }

  async function pollLabels() {
    if (document.hidden) return;
    let l;
    try {
      const res = await fetch("/api/labels", { credentials: "same-origin", cache: "no-store" });
      if (!res.ok) return;
      l = await res.json();
    } catch (e) {
      return;
    }
    if (l.seq === labelSeq) return;
    labelSeq = l.seq;
    if (l.width && l.height && (l.width !== frameSize.w || l.height !== frameSize.h)) {
      frameSize = { w: l.width, h: l.height };
      fitCamera();
    }
    drawLabels(l);
  }

  // drawLabels puts the recognised things' labels over the live view in
  // the page's type (positions in percent of the frame).
  function drawLabels(l) {
    const layer = $("camera-labels");
    if (!layer || !l.width || !l.height) return;
    const pc = (v, of) => (100 * v / of).toFixed(2) + "%";
    fill(layer, (l.labels || []).map((x) => {
      const kind = x.kind || "die";
      if (kind === "note" && !x.w) {
        return h("div", { class: "cam-note" }, h("span", { class: "cam-label cam-label-note" }, x.text));
      }
      return h("div", { class: "cam-box cam-" + kind,
        style: { left: pc(x.x, l.width), top: pc(x.y, l.height), width: pc(x.w, l.width), height: pc(x.h, l.height) } },
        h("span", { class: "cam-label cam-label-" + kind + (x.y < l.height * 0.08 ? " cam-label-in" : "") +
          (x.x + x.w > l.width * 0.7 ? " cam-label-right" : "") }, x.text));
    }));
  }

  function frameThumb(url, ref) {
    return h("a", { class: "thumb", href: url, target: "_blank", rel: "noopener", title: ref || t("frame") },
      h("img", { src: url, alt: t("frame") + " " + (ref || ""), loading: "lazy" }));
  }

  function renderLog() {
    fill($("log-list"), LOG.slice(0, 60).map((a, i) => {
      const when = a.at ? new Date(a.at).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
      return h("li", { class: "entry" + (i === 0 ? " entry-new" : ""), "data-kind": a.kind, "data-seq": a.seq },
        h("div", { class: "entry-meta" }, a.seq ? "#" + a.seq : "", " ", when),
        h("div", { class: "entry-text" }, a.text),
        a.frame_url ? frameThumb(a.frame_url) : null);
    }));
  }

  function renderEnemies() {
    if (!S.started || !S.enemies.length) {
      fill($("enemy-groups"));
      fill($("enemy-list"), h("li", { class: "muted" }, S.started ? t("noenemies") : ""));
      return;
    }
    fill($("enemy-groups"), S.enemy_groups.map((g) =>
      h("span", { class: "group chip", title: g.name + (g.faction_name ? " · " + g.faction_name : "") },
        g.name + " ", h("b", { class: "count-active" }, g.active), g.facedown ? h("span", { class: "muted" }, " +" + g.facedown) : null)));
    // Each enemy shows the name the announcements use (its name, printed
    // level or id: "Super Mutant L2") and the printed token, which the
    // group finds on the map; its id is the badge's tooltip.
    fill($("enemy-list"), S.enemies.map((e) => {
      const where = [];
      if (e.with && e.with.length) where.push(t("with") + " " + e.with.map(survivorName).join(", "));
      if (e.adjacent && e.adjacent.length) where.push(t("adjacent") + " " + e.adjacent.map(survivorName).join(", "));
      return h("li", { class: "enemy" + (e.active ? " is-active" : " is-down"), "data-enemy": e.id },
        h("span", { class: "enemy-id", title: e.id }, e.name || e.id),
        h("span", { class: "enemy-main" },
          h("span", { class: "enemy-name" }, e.type_name + (e.level ? " L" + e.level : "")),
          e.token || where.length ? h("span", { class: "enemy-where muted" },
            e.token ? h("span", { class: "enemy-token", title: t("token") }, e.token) : null,
            where.join(" · ")) : null),
        h("span", { class: "chip " + (e.active ? "chip-bad" : "chip-dim") }, e.active ? t("active") : t("facedown")));
    }));
  }

  function survivorName(id) {
    const s = S.started ? S.survivors.find((x) => x.id === id) : null;
    return s ? s.name : id;
  }

  function renderParty() {
    if (!S.started) { fill($("party-list")); return; }
    fill($("party-list"), S.survivors.map((s) =>
      h("li", { class: "member" + (s.out ? " is-out" : ""), "data-survivor": s.id },
        h("span", { class: "member-name" }, s.name),
        s.first ? h("span", { class: "chip chip-accent", title: t("first") }, t("firstshort")) : null,
        h("span", { class: "member-stat member-hp" + (s.hp * 3 <= s.max_hp ? " bad" : "") }, s.hp + "/" + s.max_hp, h("small", null, " " + t("hp"))),
        h("span", { class: "member-stat member-rads" }, s.rads, h("small", null, " " + t("rads"))),
        h("span", { class: "member-stat member-xp" }, s.xp, h("small", null, " " + t("xp"))),
        s.out ? h("span", { class: "chip chip-bad" }, t("out")) : null)));
  }

  // ---- setup form --------------------------------------------------------

  const maxPlayers = 4;

  function renderSetup() {
    const fresh = !S.started && !!S.setup;
    $("setup").hidden = !fresh;
    $("play").hidden = fresh;
    if (!fresh) return;
    const sel = $("setup-scenario");
    setOptions(sel, S.setup.scenarios.map((sc) => ({ id: sc.id,
      name: sc.name + " (" + sc.power_track + " " + t("track") + ", " + sc.goals_required + " " + t("goalsreq") + ")" })));
    renderLoyal();
    const rows = $("setup-survivors");
    if (!rows.childElementCount) {
      for (let i = 0; i < maxPlayers; i++) {
        rows.append(h("div", { class: "setup-row" },
          h("input", { class: "input", type: "text", name: "name", autocomplete: "off", spellcheck: "false",
            maxlength: "24", "aria-label": t("name") + " " + (i + 1), placeholder: t("name") + " " + (i + 1), oninput: previewSetup }),
          h("input", { class: "input input-num", type: "number", name: "hp", min: "1", max: "99",
            "aria-label": t("hp"), placeholder: String(S.setup.max_hp || ""), oninput: previewSetup }),
          h("input", { class: "input input-special", type: "text", name: "special", autocomplete: "off", spellcheck: "false",
            maxlength: "7", "aria-label": t("specialshort"), placeholder: "SE", oninput: previewSetup }),
          h("input", { class: "radio", type: "radio", name: "first", value: String(i), "aria-label": t("first"),
            checked: i === 0, onchange: previewSetup })));
      }
    }
    previewSetup();
  }

  function renderLoyal() {
    const sc = S.setup.scenarios.find((x) => x.id === $("setup-scenario").value) || S.setup.scenarios[0];
    const box = $("setup-loyal");
    const key = sc ? sc.id : "";
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    fill(box, sc ? sc.factions.map((f, i) =>
      h("label", { class: "choice" }, h("input", { type: "radio", name: "loyal", value: f.id, checked: i === 0, onchange: previewSetup }),
        " " + f.name)) : []);
  }

  // survivorID makes the id a setup line takes from a typed name: the
  // tracker shows it capitalised, so "carla" reads as "Carla".
  function survivorID(name) {
    return name.trim().toLowerCase().replace(/[\s:]+/g, "-").replace(/^-+|-+$/g, "");
  }

  // setupLine builds the setup command from the form, or "" when it lacks
  // a survivor.
  function setupLine() {
    const scenario = $("setup-scenario").value;
    const loyal = (document.querySelector("#setup-loyal input:checked") || {}).value || "";
    const parts = [];
    let first = "";
    for (const row of $("setup-survivors").children) {
      const id = survivorID(row.querySelector("[name=name]").value);
      if (!id) continue;
      let p = id;
      const hp = row.querySelector("[name=hp]").value.trim();
      const special = row.querySelector("[name=special]").value.trim().toUpperCase().replace(/[^A-Z]/g, "");
      if (hp || special) p += ":" + hp;
      if (special) p += ":" + special;
      parts.push(p);
      if (row.querySelector("[name=first]").checked) first = id;
    }
    if (!scenario || !loyal || !parts.length) return "";
    let line = "setup " + scenario + " loyal " + loyal + " survivors " + parts.join(" ");
    if (first && first !== survivorID(parts[0].split(":")[0])) line += " first " + first;
    return line;
  }

  function previewSetup() {
    $("setup-preview").textContent = setupLine();
  }

  function setOptions(sel, options) {
    // Rebuild only when the list changed, so an open drop-down stays open.
    const key = JSON.stringify(options);
    if (sel.dataset.key === key) return;
    sel.dataset.key = key;
    const keep = sel.value;
    fill(sel, options.map((o) => h("option", { value: o.id }, o.name)));
    if (options.some((o) => o.id === keep)) sel.value = keep;
  }

  function renderControls() {
    const surv = S.started ? S.survivors.map((s) => ({ id: s.id, name: s.name })) : [];
    setOptions($("test-survivor"), surv);
    setOptions($("fight-survivor"), surv);
    setOptions($("fight-enemy"), S.targets || []);
    setOptions($("fight-assist"), [{ id: "", name: t("noassist") }].concat(surv));
    const cards = S.started ? S.deck.remaining.map((c) => ({ id: c, name: c })) : [];
    setOptions($("card-select"), cards.length ? cards : [{ id: "", name: t("nocards") }]);
    const sp = $("special");
    if (!sp.childElementCount) {
      for (const l of "SPECIAL") {
        sp.append(h("button", { class: "btn btn-letter", type: "button", "data-letter": l, "aria-pressed": "false",
          onclick: (e) => {
            const b = e.currentTarget;
            b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
          } }, l));
      }
    }
  }

  function renderRolls() {
    const rolls = S.rolls || [];
    if (!rolls.length) { fill($("roll-list"), h("li", { class: "muted" }, t("norolls"))); return; }
    fill($("roll-list"), rolls.slice(0, 20).map((r) => {
      const faces = r.faces.map((f, i) => {
        const changed = r.kind === "reroll" && r.dice && r.dice.includes(i + 1);
        return h("span", { class: "face" + (r.kind === "reroll" && !changed ? " face-kept" : "") }, f.label);
      });
      if (r.assist) faces.push(h("span", { class: "face face-assist" }, "A: " + r.assist.label));
      const meta = [];
      if (r.kind === "reroll") meta.push(t("reroll"));
      if (r.source === "camera") meta.push(t("camera_src"));
      else if (r.source === "manual") meta.push(t("manual"));
      if (!r.frame_url && r.frame) meta.push(r.frame);
      return h("li", { class: "roll", "data-seq": r.seq },
        h("span", { class: "roll-seq" }, "#" + r.seq),
        h("span", { class: "roll-faces" }, faces),
        r.frame_url ? frameThumb(r.frame_url, r.frame) : h("span"),
        h("button", { class: "btn correct", type: "button", onclick: () => openCorrect(r) }, t("correct")),
        h("span", { class: "roll-meta" }, meta.join(" · "),
          r.corrected ? h("span", { class: "chip chip-accent" }, t("corrected")) : null));
    }));
  }

  function renderFairness() {
    const list = S.fairness || [];
    if (!list.length) { fill($("fairness-body"), h("p", { class: "muted" }, t("norolls"))); return; }
    fill($("fairness-body"), list.map((f) => {
      const max = Math.max(f.expected, ...f.faces.map((x) => x.count), 1);
      let verdict;
      if (f.verdict === "too-few") verdict = h("span", { class: "chip chip-dim" }, t("toofew", { need: f.need_n, n: f.n }));
      else verdict = h("span", { class: "chip " + (f.verdict === "fair" ? "chip-good" : "chip-bad") },
        (f.verdict === "fair" ? t("fair") : t("suspicious")));
      const stats = f.chi2 !== undefined
        ? h("div", { class: "chi" }, "χ² = " + f.chi2.toFixed(2) + ", df " + f.df + ", p = " + (f.p < 0.001 ? f.p.toExponential(1) : f.p.toFixed(3)))
        : null;
      return h("div", { class: "fair", "data-set": f.set },
        h("div", { class: "fair-head" }, h("b", null, f.name), " · " + f.n + " " + t("dice") + " ", verdict),
        stats,
        h("div", { class: "hist" }, f.faces.map((x) =>
          h("div", { class: "hist-row" },
            h("span", { class: "hist-label" }, x.label),
            h("div", { class: "hist-bar" },
              h("div", { class: "hist-fill", style: { width: ((100 * x.count) / max).toFixed(1) + "%" } }),
              h("div", { class: "hist-exp", style: { left: ((100 * f.expected) / max).toFixed(1) + "%" }, title: t("expected") })),
            h("span", { class: "hist-count" }, x.count)))));
    }));
  }

  // ---- correction dialog -------------------------------------------------

  let correcting = null;

  function openCorrect(r) {
    correcting = { roll: r, picks: [] };
    const sets = S.face_sets || {};
    const rows = [];
    const addRow = (label, set, current) => {
      const idx = correcting.picks.length;
      correcting.picks.push(current);
      const faces = sets[set] || [];
      rows.push(h("div", { class: "pick" },
        h("div", { class: "pick-label" }, label),
        h("div", { class: "pick-faces", "data-die": idx }, faces.map((f) =>
          h("button", { class: "btn btn-face", type: "button", "data-face": f.id, "aria-pressed": f.id === current ? "true" : "false",
            onclick: (e) => {
              correcting.picks[idx] = f.id;
              for (const b of e.currentTarget.parentNode.children) b.setAttribute("aria-pressed", "false");
              e.currentTarget.setAttribute("aria-pressed", "true");
            } }, f.label)))));
    };
    if (r.kind === "reroll") {
      for (const d of r.dice || []) {
        if (d === 0) addRow(t("assistdie"), "assist", r.assist ? r.assist.id : "");
        else addRow(t("die") + " " + d, r.set, r.faces[d - 1].id);
      }
    } else {
      r.faces.forEach((f, i) => addRow(t("die") + " " + (i + 1), r.set, f.id));
      if (r.assist) addRow(t("assistdie"), "assist", r.assist.id);
    }
    correcting.hasAssist = r.kind !== "reroll" && !!r.assist;
    $("correct-title").textContent = t("correcttitle", { seq: r.seq });
    fill($("correct-dice"), rows);
    $("correct-dialog").showModal();
  }

  async function applyCorrect() {
    if (!correcting) return;
    const r = correcting.roll;
    let picks = correcting.picks.slice();
    let line = "correct " + r.seq;
    if (correcting.hasAssist) {
      const a = picks.pop();
      line += " " + picks.join(" ") + " assist " + a;
    } else {
      line += " " + picks.join(" ");
    }
    $("correct-dialog").close();
    correcting = null;
    await cmd(line);
  }

  // ---- events ------------------------------------------------------------

  function connect() {
    const es = new EventSource("/api/events");
    es.addEventListener("open", () => {
      version = 0; // a restarted server counts its snapshots from 1 again
      $("conn").textContent = t("live");
      $("conn").className = "chip chip-good";
    });
    es.addEventListener("error", () => {
      $("conn").textContent = t("offline");
      $("conn").className = "chip chip-warn";
    });
    es.addEventListener("state", (e) => apply(JSON.parse(e.data)));
    es.addEventListener("announce", (e) => {
      const m = JSON.parse(e.data);
      LOG.unshift(m.announcement);
      if (LOG.length > 200) LOG.length = 200;
      apply(m.state);
      const l = $("latest");
      l.classList.remove("flash");
      void l.offsetWidth; // restart the animation
      l.classList.add("flash");
    });
  }

  function bind() {
    $("undo").addEventListener("click", () => cmd("undo"));
    $("redo").addEventListener("click", () => cmd("redo"));
    $("error-close").addEventListener("click", hideError);
    $("mute").addEventListener("click", async () => {
      try {
        const r = await post("/api/mute", { muted: !(S && S.muted) });
        if (S) { S.muted = r.muted; renderBar(); }
      } catch (e) { showError(e.message); }
    });
    $("set-test").addEventListener("click", () => {
      const letters = [...document.querySelectorAll("#special [aria-pressed=true]")].map((b) => b.dataset.letter).join("");
      const d = parseInt($("test-difficulty").value, 10) || 0;
      cmd(("test " + $("test-survivor").value + " " + d + " " + letters).trim()).then((ok) => {
        if (ok) for (const b of document.querySelectorAll("#special [aria-pressed=true]")) b.setAttribute("aria-pressed", "false");
      });
    });
    $("set-fight").addEventListener("click", () => {
      let line = "fight " + $("fight-survivor").value + " " + $("fight-enemy").value;
      if ($("fight-assist").value) line += " assist " + $("fight-assist").value;
      cmd(line);
    });
    $("no-context").addEventListener("click", () => cmd("nocontext"));
    $("goal").addEventListener("click", () => cmd("goal"));
    $("round-next").addEventListener("click", () => cmd("round"));
    $("card-show").addEventListener("click", () => { if ($("card-select").value) cmd("card " + $("card-select").value); });
    for (const b of document.querySelectorAll("[data-adjust]")) {
      b.addEventListener("click", () => {
        if (!S || !S.started) return;
        const d = parseInt(b.dataset.delta, 10);
        switch (b.dataset.adjust) {
          case "power": cmd("setpower " + (S.power.space + d)); break;
          case "goals": cmd("setgoals " + (S.goals.done + d)); break;
          case "camps": cmd("camps " + (d > 0 ? "+" : "") + d); break;
        }
      });
    }
    $("command-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = $("command-line");
      const line = input.value.trim();
      if (line && await cmd(line)) input.value = "";
    });
    $("setup-scenario").addEventListener("change", () => { renderLoyal(); previewSetup(); });
    $("setup-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const line = setupLine();
      if (!line) { showError(t("nosurvivors")); return; }
      cmd(line);
    });
    // A link to a details panel opens it.
    for (const a of document.querySelectorAll('a[href^="#"]')) {
      const d = document.getElementById(a.getAttribute("href").slice(1));
      if (d && d.tagName === "DETAILS") a.addEventListener("click", () => { d.open = true; });
    }
    for (const d of document.querySelectorAll("details.panel")) {
      const k = "tablecam-open-" + d.id;
      const v = localStorage.getItem(k);
      if (v !== null) d.open = v === "1";
      d.addEventListener("toggle", () => localStorage.setItem(k, d.open ? "1" : "0"));
    }
    $("correct-cancel").addEventListener("click", () => { $("correct-dialog").close(); correcting = null; });
    $("correct-apply").addEventListener("click", applyCorrect);
  }

  document.addEventListener("DOMContentLoaded", () => {
    bind();
    connect();
  });
})();
