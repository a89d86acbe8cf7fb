// The rummydsl playground page: the editor, the rules in words, a hand against the computer.
// It talks only to the server that served it (its JSON API: docs/playground.md).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const EXAMPLE = {
    id: "example",
    name: "A house rule of Gin Rummy (an example)",
    text: "rummydsl: 1\nid: my_gin\nname: My Gin\ndescription: Gin Rummy, but you may knock only with 5 or less.\n" +
          "extends: gin_rummy\nknock:\n  limit: 5\n",
  };
  const { shareFragment, readFragment, renderMarkdown } = window.RummyText;
  const { cardFace, card, back, sortedCards, cardRow } = window.RummyCards;

  // ------------------------------------------------------------------ the API

  // The server's token for this page: a text posted with it that has no error may be
  // extended (by its id) by this page's later texts, and by no one else's.
  let session = null;

  async function api(path, body) {
    if (session && body && typeof body.text === "string") body = { ...body, session };
    const init = body === undefined ? { method: "GET" }
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const response = await fetch(path, init);
    let data;
    try {
      data = await response.json();
    } catch (problem) {
      throw new Error(`the server answered ${response.status} without JSON`);
    }
    if (!response.ok) {
      const error = new Error(data.error || `the server answered ${response.status}`);
      error.data = data;
      throw error;
    }
    return data;
  }

  // ------------------------------------------------------------------ the editor and its problems

  let editor = null;
  let checked = null;  // the last diagnostics

  function showProblems(found) {
    checked = found;
    const list = $("problems");
    list.replaceChildren();
    const errors = found.filter((d) => d.severity === "error").length;
    const warnings = found.length - errors;
    const status = $("status");
    if (!found.length) {
      status.textContent = "No problems: the rule is ready to explain and play.";
      status.className = "status good";
    } else {
      const parts = [];
      if (errors) parts.push(`${errors} problem${errors === 1 ? "" : "s"}`);
      if (warnings) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
      status.textContent = parts.join(" and ") + (errors ? ": fix them to play." : ".");
      status.className = errors ? "status bad" : "status";
    }
    for (const d of found) {
      const item = document.createElement("li");
      item.className = d.severity;
      const button = document.createElement("button");
      button.type = "button";
      const where = document.createElement("span");
      where.className = "where";
      where.textContent = d.line ? `line ${d.line}, column ${d.column}` : "file";
      button.append(where, document.createTextNode(d.message));
      button.addEventListener("click", () => editor.goTo(d.line, d.column));
      item.append(button);
      list.append(item);
    }
  }

  async function loadPresets() {
    const select = $("preset");
    const presets = [EXAMPLE];
    try {
      const found = await api("/api/variants");
      session = found.session || null;
      const agents = $("agents");
      agents.replaceChildren();
      for (const name of found.agents || ["greedy"]) {
        const option = document.createElement("option");
        option.value = option.textContent = name;
        if (name === "greedy") option.selected = true;
        agents.append(option);
      }
      for (const v of found.variants) presets.push({ id: v.id, name: v.name + (v.parent ? ` (a house rule of ${v.parent})` : ""), text: v.text });
    } catch (problem) {
      $("status").textContent = `Could not load the shipped games: ${problem.message}`;
    }
    for (const p of presets) {
      const option = document.createElement("option");
      option.value = p.id;
      option.textContent = p.name;
      select.append(option);
    }
    select.addEventListener("change", () => {
      const chosen = presets.find((p) => p.id === select.value);
      if (chosen) editor.setText(chosen.text);
    });
    return presets;
  }

  // ------------------------------------------------------------------ the rules in words

  async function explainRule() {
    const target = $("rules");
    target.textContent = "Reading your rule…";
    try {
      const found = await api("/api/explain", { text: editor.text(), name: "house.yaml" });
      renderMarkdown(target, found.markdown);
    } catch (problem) {
      target.replaceChildren();
      const p = document.createElement("p");
      p.className = "status bad";
      p.textContent = "The rule has problems to fix first: " + problem.message;
      target.append(p);
    }
  }

  // ------------------------------------------------------------------ tabs (arrow keys move between them)

  function setupTabs() {
    const tabs = [$("tab-rules"), $("tab-try"), $("tab-play")];
    const select = (tab) => {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute("aria-selected", String(on));
        t.tabIndex = on ? 0 : -1;
        $(t.getAttribute("aria-controls")).hidden = !on;
      }
    };
    tabs.forEach((tab, i) => {
      tab.addEventListener("click", () => select(tab));
      tab.addEventListener("keydown", (event) => {
        if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
          const next = tabs[(i + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
          select(next);
          next.focus();
          event.preventDefault();
        }
      });
    });
    return select;
  }

  // ------------------------------------------------------------------ playing

  let game = null;   // {id, view}
  let busy = false;
  let meldMode = false;  // the person is picking the cards of a lay-down
  let groups = [[]];     // the melds picked so far: positions in the sorted hand

  function pick(index) {
    const inside = groups.findIndex((g) => g.includes(index));
    if (inside >= 0) groups[inside] = groups[inside].filter((i) => i !== index);
    else groups[groups.length - 1].push(index);
  }

  function words(action, seat) {
    return action.startsWith(seat + " ") ? action.slice(seat.length + 1) : action;
  }

  function meldCards(meld) {
    if (Array.isArray(meld)) return meld;
    if (meld && Array.isArray(meld.cards)) return meld.cards;
    return [];
  }

  async function play(path, body) {
    if (busy) return;
    busy = true;
    document.body.setAttribute("aria-busy", "true");
    try {
      const found = await api(path, body);
      if (found.id) game = { id: found.id };
      game.view = found.view;
      meldMode = false;
      groups = [[]];
      render();
    } catch (problem) {
      $("play-status").textContent = problem.message;
      $("play-status").className = "status bad";
    } finally {
      busy = false;
      document.body.removeAttribute("aria-busy");
    }
  }

  function newGame() {
    const body = { text: editor.text(), name: "house.yaml", agents: $("agents").value, hand: $("length").value === "hand" };
    const seed = $("seed").value.trim();
    if (seed) body.seed = Number(seed);
    const players = $("players").value.trim();
    if (players) body.players = Number(players);
    game = null;
    play("/api/games", body);
  }

  function render() {
    const view = game.view;
    const seat = view.seat;
    $("table").hidden = false;
    $("undo").disabled = !view.can_undo;
    const status = $("play-status");
    status.className = "status";
    if (view.over) {
      status.textContent = view.one_hand ? "The hand is over: see how it ended below. Deal again, or undo." : "The game is over.";
      if (view.game && view.game.result) status.textContent = `The game is over: ${view.game.result.winner} wins.`;
      if (view.stalled) status.textContent = `The game stopped: ${view.stalled}`;
    } else if (view.to_move === seat) {
      status.textContent = `Your move (${(view.phase || "").replace(/_/g, " ")}). Click a card or a move.`;
    } else {
      status.textContent = `${view.to_move} to move.`;
    }

    // once a single hand is over, the table shows how it ended (the match has dealt the next)
    $("live").hidden = Boolean(view.over && (view.rounds || []).length);

    // opponents
    const opponents = $("opponents");
    opponents.replaceChildren();
    for (const p of view.players) {
      if (p.seat === seat) continue;
      const box = document.createElement("div");
      box.className = "opponent";
      const name = document.createElement("div");
      name.className = "name";
      const size = (view.hand_sizes || {})[p.seat] || 0;
      name.textContent = `${p.seat} (${p.agent}): ${size} card${size === 1 ? "" : "s"}`;
      box.append(name, back(size));
      const known = (view.known || {})[p.seat] || [];
      if (known.length) {
        const label = document.createElement("div");
        label.className = "muted";
        label.textContent = "seen in that hand:";
        box.append(label, cardRow(known));
      }
      opponents.append(box);
    }

    // piles
    const stock = $("stock");
    stock.replaceChildren(view.stock_size ? back(view.stock_size) : document.createTextNode("empty"));
    stock.append(document.createTextNode(` ${view.stock_size || 0}`));
    const discard = $("discard");
    discard.replaceChildren();
    const discards = view.discards || [];
    if (discards.length) {
      discard.append(card(discards[discards.length - 1]));
      if (discards.length > 1) discard.append(document.createTextNode(` +${discards.length - 1} below`));
    } else {
      discard.textContent = "empty";
    }
    if (view.offered) {
      const offer = document.createElement("div");
      offer.append(document.createTextNode("offered: "), card(view.offered, { small: true }));
      discard.append(offer);
    }

    // table melds
    const melds = $("melds");
    melds.replaceChildren();
    for (const [owner, list] of Object.entries(view.table || {})) {
      list.forEach((meld, i) => {
        const box = document.createElement("div");
        box.className = "meld";
        box.append(document.createTextNode(`${owner}#${i + 1}`), cardRow(meldCards(meld)));
        melds.append(box);
      });
    }

    // the hand: a card click plays the move it names (a chosen lay-down's step > discard > offer);
    // choosing melds, a card click puts the card into the meld being chosen
    const legal = view.legal || [];
    const canMeld = legal.some((a) => a.split(" ")[1] === "meld");
    if (!canMeld) { meldMode = false; groups = [[]]; }
    const byCard = {};
    const rank = view.pending && view.pending.length ? { choose: 0, discard: 1, offer: 2 } : { discard: 1, offer: 2, choose: 3 };
    for (const action of legal) {
      const parts = action.split(" ");
      if (parts.length === 3 && parts[0] === seat && parts[1] in rank) {
        const current = byCard[parts[2]];
        if (!current || rank[parts[1]] < rank[current.split(" ")[1]]) byCard[parts[2]] = action;
      }
    }
    const chosen = new Set((view.pending || []).map((a) => a.split(" ").pop()));
    const picked = new Map();  // hand position -> the meld (1, 2, ...) it is picked for
    groups.forEach((group, g) => group.forEach((i) => picked.set(i, g + 1)));
    const hand = $("hand");
    hand.replaceChildren();
    sortedCards(view.hand || []).forEach((c, i) => {
      const button = card(c, { button: true });
      button.dataset.index = String(i);
      const action = byCard[c];
      if (chosen.has(c)) button.classList.add("chosen");
      if (meldMode) {
        const group = picked.get(i);
        if (group) {
          button.classList.add("chosen");
          button.setAttribute("aria-pressed", "true");
          button.dataset.meld = String(group);
        } else {
          button.setAttribute("aria-pressed", "false");
        }
        button.setAttribute("aria-label", `${cardFace(c).label}${group ? `: in meld ${group}` : ""}`);
        button.addEventListener("click", () => { pick(i); render(); });
      } else if (action) {
        button.classList.add("playable");
        button.dataset.action = action;
        button.setAttribute("aria-label", `${cardFace(c).label}: ${words(action, seat).split(" ")[0]}`);
        button.addEventListener("click", () => play(`/api/games/${game.id}/actions`, { action }));
      } else {
        button.disabled = true;
      }
      hand.append(button);
    });
    $("deadwood").textContent = view.knock_limit !== null && view.knock_limit !== undefined ? `(knock limit ${view.knock_limit})` : "";

    // the moves: a button each, but a lay-down of melds is chosen by clicking cards
    const moves = $("moves");
    moves.replaceChildren();
    const button = (text, handler, data = {}) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
      b.addEventListener("click", handler);
      moves.append(b);
      return b;
    };
    if (meldMode) {
      const cards = sortedCards(view.hand || []);
      const shown = groups.filter((g) => g.length).map((g) => "[" + g.map((i) => cards[i]).join(" ") + "]").join(" ");
      const note = document.createElement("p");
      note.className = "meld-note";
      note.textContent = "Click the cards of a meld, then Next meld for another, then Lay down. " + (shown ? "Chosen: " + shown : "");
      moves.append(note);
      button("Next meld", () => { if (groups[groups.length - 1].length) groups.push([]); render(); }, { role: "meld-next" });
      button("Lay down", () => {
        const melds = groups.filter((g) => g.length).map((g) => "[" + g.map((i) => cards[i]).join(" ") + "]");
        if (!melds.length) return;
        const action = `${seat} meld ${melds.join(" ")}`;
        meldMode = false; groups = [[]];
        play(`/api/games/${game.id}/actions`, { action });
      }, { role: "meld-lay" });
      button("Cancel", () => { meldMode = false; groups = [[]]; render(); }, { role: "meld-cancel" });
    } else {
      if (canMeld) button("Lay down melds: pick the cards", () => { meldMode = true; groups = [[]]; render(); }, { role: "meld-start" });
      const meldActions = legal.filter((a) => a.split(" ")[1] === "meld");
      for (const action of legal) {
        const verb = action.split(" ")[1];
        if (verb === "choose" || (verb === "meld" && meldActions.length > 4)) continue;
        button(words(action, seat), () => play(`/api/games/${game.id}/actions`, { action }), { action });
      }
    }
    if (!legal.length) {
      const none = document.createElement("span");
      none.className = "muted";
      none.textContent = view.over ? "none: it is over" : "none now";
      moves.append(none);
    }

    // the round summary
    const summary = $("summary");
    summary.replaceChildren();
    const rounds = view.rounds || [];
    if (rounds.length) {
      const last = rounds[rounds.length - 1];
      const title = document.createElement("h3");
      title.textContent = `Round ${last.round}: ${last.ending}${last.ender ? " by " + last.ender : ""}${last.undercut ? " (undercut)" : ""}`;
      const table = document.createElement("table");
      const head = table.createTHead().insertRow();
      for (const h of ["Player", "Melds, then unmatched cards", "Deadwood", "Points"]) {
        const th = document.createElement("th");
        th.textContent = h;
        head.append(th);
      }
      const body = table.createTBody();
      for (const s of last.seats) {
        const row = body.insertRow();
        row.insertCell().textContent = s.seat + (s.you ? " (you)" : "");
        const meldCell = document.createElement("div");
        meldCell.className = "meld-list";
        row.insertCell().append(meldCell);
        const arranged = s.arranged || { melds: [], unmatched: s.hand || [] };
        for (const meld of [...s.melds, ...arranged.melds]) meldCell.append(cardRow(meldCards(meld)));
        if ((arranged.unmatched || []).length) {
          const loose = cardRow(arranged.unmatched);
          loose.classList.add("unmatched");
          loose.setAttribute("aria-label", "unmatched");
          meldCell.append(loose);
        }
        if (s.hand === null) meldCell.textContent = "hand not shown";
        row.insertCell().textContent = s.deadwood === null ? "-" : String(s.deadwood);
        row.insertCell().textContent = String(s.points);
      }
      const scroll = document.createElement("div");
      scroll.className = "scroll";
      scroll.append(table);
      summary.append(title, scroll);
    }

    // what happened, the scores
    const log = $("log");
    log.replaceChildren();
    for (const line of view.log || []) {
      const item = document.createElement("li");
      item.textContent = line;
      log.append(item);
    }
    log.scrollTop = log.scrollHeight;
    const scores = (view.game && view.game.scores) || view.scores || {};
    $("scores").textContent = "Scores: " + Object.entries(scores).map(([p, v]) => `${p} ${v}`).join(" · ");

    // the score sheet: each round's points, then the totals
    const sheet = $("sheet");
    sheet.replaceChildren();
    if (rounds.length > 1 || (rounds.length && !view.one_hand)) {
      const seats = view.players.map((p) => p.seat);
      const table = document.createElement("table");
      table.className = "sheet-table";
      const caption = table.createCaption();
      caption.textContent = "Score sheet";
      const head = table.createTHead().insertRow();
      for (const h of ["Round", "Ending", ...seats]) {
        const th = document.createElement("th");
        th.textContent = h;
        head.append(th);
      }
      const body = table.createTBody();
      for (const r of rounds) {
        const row = body.insertRow();
        row.insertCell().textContent = String(r.round);
        row.insertCell().textContent = r.ending + (r.ender ? " by " + r.ender : "");
        for (const s of r.seats) row.insertCell().textContent = String(s.points);
      }
      const total = body.insertRow();
      total.className = "total";
      total.insertCell().textContent = "Total";
      total.insertCell();
      for (const seatName of seats) total.insertCell().textContent = String(scores[seatName] ?? "");
      sheet.append(table);
    }
  }

  // ------------------------------------------------------------------ try it: the lab's comparison

  function shown(kind, value, points) {
    if (value === null || value === undefined) return "-";
    if (kind === "rate") return (points && value > 0 ? "+" : "") + (value * 100).toFixed(1) + (points ? " pts" : "%");
    return (points && value > 0 ? "+" : "") + value.toFixed(2);
  }

  function bar(kind, value, scale) {
    const outer = document.createElement("span");
    outer.className = "bar";
    const inner = document.createElement("span");
    inner.className = "bar-fill";
    const share = kind === "rate" ? value.value : (scale ? value.value / scale : 0);
    inner.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
    outer.append(inner);
    if (kind === "rate" && value.low !== undefined) {
      const whisker = document.createElement("span");
      whisker.className = "bar-interval";
      whisker.style.left = `${value.low * 100}%`;
      whisker.style.width = `${Math.max(0, value.high - value.low) * 100}%`;
      outer.append(whisker);
    }
    return outer;
  }

  function renderTrial(result) {
    const target = $("trial");
    target.replaceChildren();
    const arms = result.variants;
    const alone = arms.length === 1;
    const note = document.createElement("p");
    if (alone) {
      note.textContent = `${result.games} games of ${arms[0].label}, seed ${result.seed} (it extends nothing, so it is played alone).`;
    } else {
      const paired = result.paired[0];
      const changed = paired.changed_winners;
      note.textContent = `${result.games} games of each, seed ${result.seed}: ${arms[0].label} against ${arms[1].label}` +
        (paired.paired ? ` (the same deals; ${changed} game${changed === 1 ? "" : "s"} had another winner).`
          : " (the deals differ, so no game pairs with another).");
    }
    const table = document.createElement("table");
    table.className = "figures";
    const head = table.createTHead().insertRow();
    for (const h of ["Figure", ...arms.map((a) => a.label), ...(alone ? [] : ["Change", ""])]) {
      const th = document.createElement("th");
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    for (const f of result.figures) {
      const row = body.insertRow();
      row.insertCell().textContent = f.label;
      const scale = Math.max(...f.values.map((v) => Math.abs(v.value) || 0)) || 1;
      for (const v of f.values) {
        const cell = row.insertCell();
        cell.append(document.createTextNode(shown(f.kind, v.value, false)), bar(f.kind, v, scale));
      }
      if (alone) continue;
      const c = f.comparisons[0];
      row.insertCell().textContent = c ? shown(f.kind, c.difference.value, true) : "-";
      const mark = row.insertCell();
      if (c && c.significant) { mark.textContent = "significant"; row.className = "significant"; }
    }
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "The lab's table (as rummydsl compare prints it)";
    const pre = document.createElement("pre");
    pre.textContent = result.text;
    details.append(summary, pre);
    const scroll = document.createElement("div");
    scroll.className = "scroll";
    scroll.append(table);
    target.append(note, scroll, plots(result), details);
  }

  // The lab's plots (those of compare --report), drawn by the server; or why there are none.
  function plots(result) {
    const box = document.createElement("div");
    box.className = "plots";
    for (const plot of result.plots || []) {
      const figure = document.createElement("figure");
      const image = document.createElement("img");
      image.id = plot.id;
      image.alt = plot.alt;
      image.src = plot.src;
      const caption = document.createElement("figcaption");
      caption.textContent = plot.alt;
      figure.append(image, caption);
      box.append(figure);
    }
    if (result.plots_note) {
      const p = document.createElement("p");
      p.className = "status";
      p.textContent = result.plots_note;
      box.append(p);
    }
    return box;
  }

  async function compare() {
    const status = $("trial-status");
    const progress = $("trial-progress");
    const games = Number($("trial-games").value || 20);
    const seed = Number($("trial-seed").value || 1);
    $("trial").replaceChildren();
    $("compare").disabled = true;
    status.className = "status";
    status.textContent = "Starting…";
    try {
      let trial = await api("/api/compare", { text: editor.text(), name: "house.yaml", games, seed });
      const id = trial.id;
      progress.hidden = false;
      progress.max = trial.total;
      while (trial.state === "waiting" || trial.state === "running") {
        progress.value = trial.done;
        status.textContent = trial.state === "waiting" ? "Waiting for another comparison to finish…"
          : `Playing: ${trial.done} of ${trial.total} games of each`;
        await new Promise((resolve) => setTimeout(resolve, 400));
        trial = await api(`/api/compare/${id}`);
      }
      progress.value = trial.done;
      if (trial.state === "failed") throw new Error(trial.error);
      status.textContent = trial.result.variants.length === 1 ? `Done: ${trial.total} games.` : `Done: ${trial.total} games of each.`;
      renderTrial(trial.result);
    } catch (problem) {
      status.className = "status bad";
      status.textContent = problem.message;
    } finally {
      progress.hidden = true;
      $("compare").disabled = false;
    }
  }

  // ------------------------------------------------------------------ start

  async function start() {
    const selectTab = setupTabs();
    const presets = await loadPresets();
    let text = EXAMPLE.text;
    const fragment = decodeURIComponent(location.hash.slice(1));
    if (fragment) {
      try {
        text = await readFragment(fragment);
      } catch (problem) {
        $("status").textContent = `This link's rule could not be read (${problem.message}); here is an example instead.`;
      }
    }
    editor = window.RummyEditor.create($("editor"), {
      doc: text,
      label: "your variant file (YAML)",
      check: async (t) => (await api("/api/check", { text: t, name: "house.yaml" })).diagnostics,
      complete: async (t, line, column) => (await api("/api/complete", { text: t, line, column })).items,
      hover: async (t, line, column) => (await api("/api/hover", { text: t, line, column })).markdown,
      renderMarkdown,
      onDiagnostics: showProblems,
      onChange: () => { $("share-box").hidden = true; },
    });
    $("explain").addEventListener("click", explainRule);
    $("compare").addEventListener("click", compare);
    $("share").addEventListener("click", async () => {
      const link = location.origin + location.pathname + "#" + (await shareFragment(editor.text()));
      history.replaceState(null, "", link);
      $("share-box").hidden = false;
      $("share-link").value = link;
      $("share-link").select();
      try { await navigator.clipboard.writeText(link); } catch (problem) { /* the link is shown to copy */ }
    });
    $("new-game").addEventListener("click", () => { selectTab($("tab-play")); newGame(); });
    $("undo").addEventListener("click", () => game && play(`/api/games/${game.id}/undo`, {}));
    window.playgroundEditor = editor;  // for the browser tests and the console
    window.playgroundView = () => (game ? game.view : null);
    document.body.dataset.ready = "true";
    void presets;
  }

  document.addEventListener("DOMContentLoaded", start);
})();
