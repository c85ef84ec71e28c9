// The studio page: it adapts to the loaded model (/health and the voice list), clones voices from a
// file or the microphone (Base), speaks over the streaming speech API (24 kHz 16-bit PCM played
// through Web Audio as it arrives), keeps a history in IndexedDB, and speaks while typing over the
// WebSocket. Nothing is fetched from anywhere but this server.
"use strict";

const $ = (id) => document.getElementById(id);
const RATE = 24000;
const KEY_STORE = "mlx_qwen3tts.apikey";  // sessionStorage: asked once, kept for the session only
const DESIGNS_STORE = "mlx_qwen3tts.designs";
const HISTORY_LIMIT = 20;
const KEY_NEEDED = "This server needs an API key: enter the key above.";
const EXAMPLES = {
  custom_voice: ["Speak calmly and warmly.", "Very happy and excited!", "Whisper, as if telling a secret.",
                 "Slow and serious, like a news anchor."],
  voice_design: ["A warm, middle-aged male narrator with a deep, calm voice.",
                 "A bright young female voice, cheerful and quick.",
                 "An elderly storyteller: slow, gentle and a little hoarse."],
};
const LANGUAGE_NAMES = { beijing_dialect: "Chinese, Beijing dialect", sichuan_dialect: "Chinese, Sichuan dialect" };
let health = null, speakers = {};

// --- messages ------------------------------------------------------------------------------
const statusEl = $("status");
function setStatus(text, state, seconds) {
  statusEl.textContent = text;
  statusEl.dataset.state = state;
  if (seconds !== undefined) statusEl.dataset.receivedSeconds = seconds.toFixed(3);
}

// An error goes next to the control that caused it; one that asked for the key is cleared once the key works.
function showError(el, text, forKey) {
  el.textContent = text;
  if (forKey) el.dataset.forKey = "1"; else delete el.dataset.forKey;
}

function clearKeyErrors() {
  document.querySelectorAll("[data-for-key]").forEach((el) => { el.textContent = ""; delete el.dataset.forKey; });
}

function title(name) { return name.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" "); }
function languageName(l) { return LANGUAGE_NAMES[l] || title(l); }

// --- the server ----------------------------------------------------------------------------
function authHeaders() {
  const key = sessionStorage.getItem(KEY_STORE);
  return key ? { Authorization: "Bearer " + key } : {};
}

async function errorText(response) {
  try { return (await response.json()).error.message; } catch (e) { return response.status + " " + response.statusText; }
}

// fetch with the key; a refusal is shown in `errorEl` in the server's words (null returned).
async function api(path, options, errorEl) {
  let response;
  try {
    response = await fetch(path, { ...options, headers: { ...(options.headers || {}), ...authHeaders() } });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    showError(errorEl, "Cannot reach the server: " + e.message);
    return null;
  }
  if (response.status === 401) {
    askForKey(errorEl);
    return null;
  }
  if (!response.ok) {
    showError(errorEl, await errorText(response));
    return null;
  }
  if (sessionStorage.getItem(KEY_STORE)) clearKeyErrors();
  showError(errorEl, "");
  return response;
}

function askForKey(errorEl) {
  $("key-section").hidden = false;
  const tried = sessionStorage.getItem(KEY_STORE);
  showError($("key-error"), tried ? "The server refused this key: check it and enter the key above again." : KEY_NEEDED, true);
  if (errorEl !== $("key-error")) showError(errorEl, KEY_NEEDED, true);
  setStatus(KEY_NEEDED, "error");
  $("apikey").focus();
}

function useKey() {
  const key = $("apikey").value.trim();
  if (key) sessionStorage.setItem(KEY_STORE, key); else sessionStorage.removeItem(KEY_STORE);
  if (socket) socket.close();
  load();
}

// --- playback ------------------------------------------------------------------------------
let audioCtx = null, playAt = 0, sources = [];

function player() {
  if (!audioCtx) {
    try { audioCtx = new AudioContext({ sampleRate: RATE }); } catch (e) { audioCtx = null; }
  }
  if (audioCtx && audioCtx.state === "suspended") audioCtx.resume();
  return audioCtx;
}

function play(samples) {
  const ctx = player();
  if (!ctx || samples.length === 0) return;
  const buffer = ctx.createBuffer(1, samples.length, RATE);
  buffer.copyToChannel(samples, 0);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(ctx.destination);
  playAt = Math.max(playAt, ctx.currentTime + 0.05);
  source.start(playAt);
  playAt += buffer.duration;
  sources.push(source);
  source.onended = () => { sources = sources.filter((s) => s !== source); };
}

function stopPlayback() {
  sources.forEach((s) => { try { s.stop(); } catch (e) {} });
  sources = [];
  playAt = 0;
}

// Little-endian int16 bytes -> float32 samples; an odd trailing byte waits for the next piece.
class PcmDecoder {
  constructor() { this.carry = null; }
  decode(bytes) {
    if (this.carry) {
      const joined = new Uint8Array(this.carry.length + bytes.length);
      joined.set(this.carry); joined.set(bytes, this.carry.length);
      bytes = joined; this.carry = null;
    }
    const whole = bytes.length - (bytes.length % 2);
    if (whole < bytes.length) this.carry = bytes.slice(whole);
    const view = new DataView(bytes.buffer, bytes.byteOffset, whole);
    const out = new Float32Array(whole / 2);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt16(2 * i, true) / 32768;
    return out;
  }
}

function wavBlob(chunks, rate) {
  const n = chunks.reduce((a, c) => a + c.length, 0);
  const buf = new ArrayBuffer(44 + 2 * n), v = new DataView(buf);
  const text = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
  text(0, "RIFF"); v.setUint32(4, 36 + 2 * n, true); text(8, "WAVE"); text(12, "fmt ");
  v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true); v.setUint32(24, rate, true);
  v.setUint32(28, 2 * rate, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true); text(36, "data");
  v.setUint32(40, 2 * n, true);
  let o = 44;
  for (const c of chunks) for (let i = 0; i < c.length; i++, o += 2)
    v.setInt16(o, Math.max(-32768, Math.min(32767, Math.round(c[i] * 32768))), true);
  return new Blob([buf], { type: "audio/wav" });
}

// --- speaking ------------------------------------------------------------------------------
let controller = null;

// The voice asked for: the one chosen, or (Blend with) a mix of it and a second one, the share the second's.
function chosenVoice() {
  const first = $("voice").value, second = $("blend").value;
  if (!first || !second) return first || undefined;
  const share = parseInt($("blend-share").value, 10) / 100;
  return `${first}:${(1 - share).toFixed(2)}+${second}:${share.toFixed(2)}`;
}

function updateBlend() {
  $("blend").disabled = !$("voice").value;  // the server's default voice is not one of its presets: no blend
  $("blend-share").disabled = $("blend").disabled || !$("blend").value;
  $("blend-share-out").textContent = `${$("blend-share").value}%`;
}

function settings() {
  const s = { voice: chosenVoice(), language: $("language").value || "auto",
              speed: parseFloat($("speed").value) || 1 };
  const instructions = $("instructions").value.trim();
  if (!$("instruct-box").hidden && instructions) s.instructions = instructions;
  return s;
}

function voiceLabel(id) {
  const option = [...$("voice").options].find((o) => o.value === (id || ""));
  return option ? option.text : id || "default";
}

// One request streamed as PCM; each piece played as it comes. Returns {chunks, firstMs, words} or null.
// With a server that times words (--aligner), the PCM comes in SSE events and the words' times in the
// event after the last of them.
async function stream(body, errorEl, onProgress) {
  if (controller) controller.abort();
  stopPlayback();
  const mine = controller = new AbortController();
  const started = performance.now(), chunks = [], decoder = new PcmDecoder();
  const timed = Boolean(health && health.timestamps);
  let firstMs = null, received = 0, words = null;
  const take = (samples) => {
    if (firstMs === null && samples.length) firstMs = performance.now() - started;
    received += samples.length;
    chunks.push(samples);
    play(samples);
    onProgress(received / RATE);
  };
  player();
  try {
    const response = await api("/v1/audio/speech", {
      method: "POST", signal: mine.signal, headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ model: "tts-1", response_format: "pcm", ...body,
                             ...(timed ? { stream_format: "sse", timestamps: true } : { stream_format: "audio" }) }),
    }, errorEl);
    if (!response) return null;
    $("notice").textContent = response.headers.get("X-Notice") || "";
    const reader = response.body.getReader(), text = new TextDecoder();
    let pending = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!timed) { take(decoder.decode(value)); continue; }
      pending += text.decode(value, { stream: true });
      const events = pending.split("\n\n");
      pending = events.pop();
      for (const event of events) {
        if (!event.startsWith("data: ")) continue;
        const data = JSON.parse(event.slice(6));
        if (data.type === "speech.audio.delta") take(decoder.decode(Uint8Array.from(atob(data.audio), (c) => c.charCodeAt(0))));
        else if (data.type === "speech.timestamps") words = data.timestamps;
        else if (data.type === "error") throw new Error(data.error.message);
      }
    }
    return { chunks, firstMs: firstMs || 0, seconds: received / RATE, words };
  } catch (e) {
    if (e.name !== "AbortError") showError(errorEl, "The audio stream broke off: " + e.message);
    return null;
  } finally {
    if (controller === mine) controller = null;  // a newer request may have taken its place
  }
}

// Where each timed word lies in the text: the aligner keeps letters, digits and apostrophes of the
// text in order, so each word is found by walking those; [] where they do not match.
function wordPlaces(text, words) {
  const kept = /[\p{L}\p{N}']/u, places = [];
  let i = 0, k = 0, start = 0;
  for (let pos = 0; pos < text.length && i < words.length; pos++) {
    const ch = text[pos];
    if (!kept.test(ch)) continue;
    if (ch !== words[i].word[k]) return [];
    if (k === 0) start = pos;
    if (++k === words[i].word.length) { places.push([start, pos + 1]); i++; k = 0; }
  }
  return i === words.length ? places : [];
}

// The entry's text with each timed word in a span, the one being heard marked as the audio plays.
function highlighted(textEl, input, words, audio) {
  const places = words && words.length ? wordPlaces(input, words) : [];
  if (!places.length) { textEl.textContent = input; return; }
  let last = 0;
  const spans = places.map(([a, b]) => {
    textEl.append(input.slice(last, a));
    const span = document.createElement("span");
    span.className = "word"; span.textContent = input.slice(a, b);
    textEl.append(span);
    last = b;
    return span;
  });
  textEl.append(input.slice(last));
  const mark = () => {
    const t = audio.currentTime, playing = !audio.paused || t > 0;
    spans.forEach((span, i) => {
      const end = i + 1 < words.length ? words[i + 1].start_time : words[i].end_time;
      const on = playing && t >= words[i].start_time && (t < end || (i === words.length - 1 && t <= end));
      span.classList.toggle("speaking", on);
    });
  };
  ["timeupdate", "seeked", "ended"].forEach((e) => audio.addEventListener(e, mark));
}

async function speak(given) {
  const text = given ? given.input : $("text").value;
  if (!text.trim()) { showError($("speak-error"), "Type some text to speak first."); $("text").focus(); return; }
  const body = given || { input: text, ...settings(), seed: Math.floor(Math.random() * 2 ** 31) };
  setStatus("Generating…", "streaming", 0);
  const result = await stream(body, $("speak-error"), (s) =>
    setStatus(`Streaming… received ${s.toFixed(2)} s of audio`, "streaming", s));
  if (!result) { if (statusEl.dataset.state === "streaming") setStatus("Stopped.", "idle"); return; }
  setStatus(`Done: received ${result.seconds.toFixed(2)} s of audio; first audio after ${Math.round(result.firstMs)} ms.`,
            "done", result.seconds);
  await addHistory({ created: Date.now(), request: body, voice: voiceLabel(body.voice), seconds: result.seconds,
                     firstMs: result.firstMs, wav: wavBlob(result.chunks, RATE), words: result.words });
}

function stop() {
  if (controller) controller.abort();
  stopPlayback();
  setStatus("Stopped.", "idle");
}

// --- history (IndexedDB: survives reloads) -------------------------------------------------
let dbPromise = null;
function db() {
  dbPromise = dbPromise || new Promise((resolve, reject) => {
    const open = indexedDB.open("mlx_qwen3tts", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("history", { keyPath: "id", autoIncrement: true });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  return dbPromise;
}

async function store(mode, work) {
  const tx = (await db()).transaction("history", mode), result = work(tx.objectStore("history"));
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(result.result);
    tx.onerror = () => reject(tx.error);
  });
}

async function addHistory(entry) {
  await store("readwrite", (s) => s.add(entry));
  const entries = await store("readonly", (s) => s.getAll());
  const old = entries.slice(0, Math.max(0, entries.length - HISTORY_LIMIT));
  if (old.length) await store("readwrite", (s) => { old.forEach((e) => s.delete(e.id)); return s.count(); });
  await renderHistory();
}

let historyUrls = [];
async function renderHistory() {
  const entries = (await store("readonly", (s) => s.getAll())).reverse();
  historyUrls.forEach((u) => URL.revokeObjectURL(u));
  historyUrls = [];
  $("history").replaceChildren(...entries.map(historyItem));
  $("history-clear").disabled = entries.length === 0;
}

function historyItem(entry) {
  const li = document.createElement("li");
  const r = entry.request, short = r.input.length > 40 ? r.input.slice(0, 40) + "…" : r.input;
  const text = document.createElement("p");
  text.className = "htext";
  const meta = document.createElement("p");
  meta.className = "muted";
  meta.textContent = [entry.voice, r.language, `speed ${r.speed}`, r.instructions && `“${r.instructions}”`,
                      `${entry.seconds.toFixed(2)} s`, `first audio after ${Math.round(entry.firstMs)} ms`]
    .filter(Boolean).join(" · ");
  const url = URL.createObjectURL(entry.wav);
  historyUrls.push(url);
  const audio = document.createElement("audio");
  audio.controls = true; audio.preload = "metadata"; audio.src = url;
  audio.setAttribute("aria-label", `Play: ${short}`);
  highlighted(text, r.input, entry.words, audio);
  const format = document.createElement("select");
  format.setAttribute("aria-label", `Download format for: ${short}`);
  format.append(...["wav", "mp3", "flac", "opus"].map((f) => new Option(f, f)));
  const download = button("Download", `Download: ${short}`, () => downloadEntry(entry, url, format.value, error));
  const again = button("Again", `Speak again: ${short}`, () => {
    $("text").value = r.input;
    speak({ ...r, seed: Math.floor(Math.random() * 2 ** 31) });
  });
  const row = document.createElement("div");
  row.className = "row wrap";
  row.append(audio, format, download, again);
  const error = document.createElement("p");
  error.className = "error"; error.setAttribute("role", "alert");
  li.append(text, meta, row, error);
  return li;
}

function button(label, name, onClick, secondary = true) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label;
  if (name) b.setAttribute("aria-label", name);
  if (secondary) b.className = "secondary";
  b.addEventListener("click", onClick);
  return b;
}

function save(url, name) {
  const a = document.createElement("a");
  a.href = url; a.download = name; a.hidden = true;
  document.body.append(a); a.click(); a.remove();
}

// WAV is the audio as heard; another format is made by the server from the same request and seed.
async function downloadEntry(entry, url, format, errorEl) {
  const name = `speech-${entry.id}.${format}`;
  if (format === "wav") return save(url, name);
  const body = { ...entry.request, model: "tts-1", response_format: format };
  const response = await api("/v1/audio/speech", { method: "POST", headers: { "Content-Type": "application/json" },
                                                   body: JSON.stringify(body) }, errorEl);
  if (!response) return;
  const fileUrl = URL.createObjectURL(await response.blob());
  save(fileUrl, name);
  setTimeout(() => URL.revokeObjectURL(fileUrl), 60000);
}

async function clearHistory() {
  await store("readwrite", (s) => s.clear());
  await renderHistory();
}

// --- cloning (Base) ------------------------------------------------------------------------
let clip = null;  // {blob, name} to upload
let recording = null;

function chooseFile() {
  const file = $("clone-file").files[0];
  if (!file) return;
  clip = { blob: file, name: file.name };
  $("clone-source").textContent = `Clip: ${file.name}`;
  if (!$("clone-name").value) $("clone-name").value = file.name.replace(/\.[^.]*$/, "");
}

async function startRecording() {
  showError($("clone-error"), "");
  let media;
  try {
    media = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false } });
  } catch (e) {
    showError($("clone-error"), "The microphone is not available: " + e.message);
    return;
  }
  const ctx = new AudioContext();
  await ctx.audioWorklet.addModule("/static/recorder.js");
  const node = new AudioWorkletNode(ctx, "recorder");
  const mute = ctx.createGain();
  mute.gain.value = 0;  // the worklet runs only when pulled by the output; nothing is heard
  ctx.createMediaStreamSource(media).connect(node).connect(mute).connect(ctx.destination);
  const take = { ctx, media, node, chunks: [] };
  recording = take;
  node.port.onmessage = (event) => {
    const block = event.data;
    take.chunks.push(block);
    let sum = 0;
    for (let i = 0; i < block.length; i++) sum += block[i] * block[i];
    $("rec-level").value = Math.min(1, Math.sqrt(sum / block.length) * 4);
  };
  $("rec-start").hidden = true; $("rec-stop").hidden = false; $("rec-level").hidden = false;
  $("clone-source").textContent = "Recording… speak now, then Stop recording.";
  $("rec-stop").focus();
}

function stopRecording() {
  if (!recording) return;
  const { ctx, media, node, chunks } = recording;
  recording = null;
  node.port.onmessage = null;  // blocks still in flight belong to no take
  media.getTracks().forEach((t) => t.stop());
  const seconds = chunks.reduce((a, c) => a + c.length, 0) / ctx.sampleRate;
  const blob = wavBlob(chunks, ctx.sampleRate);
  ctx.close();
  clip = { blob, name: "recording.wav" };
  $("rec-take").src = URL.createObjectURL(blob);
  $("rec-take").hidden = false;
  $("rec-start").hidden = false; $("rec-stop").hidden = true; $("rec-level").hidden = true;
  $("clone-source").textContent = `Clip: ${seconds.toFixed(1)} s recorded from the microphone.`;
  $("rec-start").focus();
}

async function saveVoice() {
  const errorEl = $("clone-error");
  $("clone-notice").textContent = "";
  if (!clip) { showError(errorEl, "Choose a reference audio file or record one first."); return; }
  const form = new FormData();
  form.append("audio_sample", clip.blob, clip.name);
  form.append("name", $("clone-name").value);
  if ($("clone-text").value.trim()) form.append("ref_text", $("clone-text").value);
  if ($("clone-xvector").checked) form.append("x_vector_only", "true");
  $("clone-save").disabled = true;
  setStatus("Cloning the voice…", "working");
  try {
    const response = await api("/v1/audio/voices", { method: "POST", body: form }, errorEl);
    if (!response) { setStatus("The voice was not saved.", "error"); return; }
    const voice = await response.json();
    $("clone-notice").textContent = response.headers.get("X-Notice") || "";
    if (voice.transcribed) {  // no transcript was given: the server's recognizer heard this one (--asr)
      $("clone-text").value = voice.ref_text;
      $("clone-notice").textContent = `Heard in the clip: “${voice.ref_text}”. If a word is wrong, correct ` +
        "the transcript above and save the voice again (under another name, or delete this one first).";
    }
    setStatus(`Saved the voice “${voice.name}” (id ${voice.id}).`, "done");
    $("clone-name").value = "";
    await loadVoices(voice.id);
  } finally {
    $("clone-save").disabled = false;
  }
}

function savedItem(v) {
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.textContent = v.name === v.id ? v.name : `${v.name} (${v.id})`;
  const sample = button("Play sample", `Play a sample of ${v.name}`, () => {
    setStatus(`Sample of ${v.name}…`, "streaming", 0);
    stream({ input: `This is the voice ${v.name}.`, voice: v.id, language: $("language").value || "auto" },
           $("clone-error"), (s) => setStatus(`Sample of ${v.name}: ${s.toFixed(2)} s`, "streaming", s))
      .then((r) => r && setStatus(`Sample of ${v.name}: ${r.seconds.toFixed(2)} s of audio.`, "done", r.seconds));
  });
  const remove = button("Delete", `Delete ${v.name}`, async () => {
    if (!confirm(`Delete the voice “${v.name}” from the server? This cannot be undone.`)) return;
    if (await api(`/v1/audio/voices/${encodeURIComponent(v.id)}`, { method: "DELETE" }, $("clone-error"))) {
      setStatus(`Deleted the voice “${v.name}”.`, "done");
      await loadVoices();
    }
  });
  li.append(name, sample, remove);
  return li;
}

// --- instructions and designs --------------------------------------------------------------
function designs() {
  try { return JSON.parse(localStorage.getItem(DESIGNS_STORE)) || []; } catch (e) { return []; }
}

function renderDesigns() {
  const options = designs().map((d, i) => new Option(d.name, String(i)));
  $("designs").replaceChildren(new Option("—", ""), ...options);
}

function keepDesign() {
  const description = $("instructions").value.trim();
  if (!description) { showError($("speak-error"), "Write a voice description first."); $("instructions").focus(); return; }
  const kept = designs().filter((d) => d.description !== description);
  const name = description.length > 48 ? description.slice(0, 48) + "…" : description;
  kept.unshift({ name, description, language: $("language").value, speed: $("speed").value });
  localStorage.setItem(DESIGNS_STORE, JSON.stringify(kept.slice(0, 20)));
  renderDesigns();
  $("designs").value = "0";
  setStatus(`Kept the design “${name}”.`, "done");
}

function useDesign() {
  const d = designs()[Number($("designs").value)];
  if (!$("designs").value || !d) return;
  $("instructions").value = d.description;
  if ([...$("language").options].some((o) => o.value === d.language)) $("language").value = d.language;
  $("speed").value = d.speed;
  updateLive();
}

function setUpInstructions() {
  const variant = health.variant;
  const shown = variant === "voice_design" || (variant === "custom_voice" && health.instructions);
  $("instruct-box").hidden = !shown;
  $("designs-box").hidden = variant !== "voice_design";
  $("instruct-label").textContent = variant === "voice_design" ? "Voice description" : "Instructions";
  $("instructions").placeholder = variant === "voice_design"
    ? "who speaks, and how: age, gender, timbre, pace, mood" : "how to speak: mood, pace, emphasis";
  const examples = EXAMPLES[variant] || [];
  $("examples").replaceChildren(...examples.map((text) => button(text, `Use example: ${text}`, () => {
    $("instructions").value = text;
    updateLive();
  })));
  const note = variant === "custom_voice" && !health.instructions
    ? "This 0.6B CustomVoice model does not follow instructions; the 1.7B CustomVoice model does."
    : variant === "base" ? "Base models speak in a cloned voice; they do not follow instructions." : "";
  $("instruct-note").textContent = note;
  $("instruct-note").hidden = !note;
  if (variant === "voice_design") renderDesigns();
}

// --- speech that follows typing -------------------------------------------------------------
let socket = null, sent = "", liveReceived = 0, liveStopped = false;
const liveDecoder = new PcmDecoder();

function liveSession() {
  const s = settings();  // null, not left out: a session keeps a field it is not sent
  return { ...s, voice: s.voice || null, instructions: s.instructions || null, response_format: "pcm" };
}

function connectLive() {
  if (socket && socket.readyState <= 1) return socket;
  const key = sessionStorage.getItem(KEY_STORE);
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/audio/speech/stream";
  const ws = key ? new WebSocket(url, ["openai-insecure-api-key." + key]) : new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "session.update", session: liveSession() }));
    $("live-state").textContent = "connected";
  };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "speech.audio.delta") {
      if (liveStopped) return;  // audio of a cancelled utterance still on its way
      const raw = atob(msg.audio), bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      const samples = liveDecoder.decode(bytes);
      liveReceived += samples.length;
      play(samples);
      setStatus(`Live: received ${(liveReceived / RATE).toFixed(2)} s of audio`, "streaming", liveReceived / RATE);
    } else if (msg.type === "speech.audio.done") {
      if (!msg.cancelled && !liveStopped)
        setStatus(`Live: utterance done, ${(liveReceived / RATE).toFixed(2)} s of audio`, "done", liveReceived / RATE);
      liveReceived = 0;
    } else if (msg.type === "error") {
      showError($("live-error"), msg.error.message);
    } else if (msg.type === "session.updated") {
      showError($("live-error"), "");
    }
  };
  ws.onclose = (event) => {
    $("live-state").textContent = "not connected";
    if (socket === ws) socket = null;
    if (event.code === 1008) askForKey($("live-error"));
  };
  return ws;
}

function sendLive(message) {
  const ws = connectLive();
  const payload = JSON.stringify(message);
  if (ws.readyState === 1) ws.send(payload);
  else ws.addEventListener("open", () => ws.send(payload), { once: true });
}

function updateLive() {  // every settings change reaches an open session at once
  if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "session.update", session: liveSession() }));
}

function appendLive(text) {
  if (!text) return;
  liveStopped = false;
  player();
  sendLive({ type: "input_text.append", text });
  sent += text;
}

// Words go out once the space after them is typed, so a word being typed can still be corrected;
// the protocol has no way to take back text already sent, and the page says so when it is edited.
function onLiveInput() {
  const value = $("live").value;
  if (!value.startsWith(sent)) {
    $("live-note").textContent = `Text already sent cannot be taken back: “${sent.trim()}” is spoken as it was sent; `
      + "your edit applies only to text not sent yet.";
    const boundary = value.search(/\s\S*$/) + 1;
    sent = value.slice(0, Math.max(boundary, 0));  // the edited part is not sent again
    return;
  }
  const end = value.search(/\s\S*$/) + 1;  // just after the last whitespace
  if (end > sent.length) appendLive(value.slice(sent.length, end));
}

function endLive() {
  const value = $("live").value;
  if (value.startsWith(sent)) appendLive(value.slice(sent.length));
  if (sent) sendLive({ type: "input_text.flush" });
  $("live").value = ""; sent = "";
  $("live-note").textContent = "";
}

function stopLive() {
  liveStopped = true;
  if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "cancel" }));
  stopPlayback();
  $("live").value = ""; sent = ""; liveReceived = 0;
  setStatus("Live: stopped.", "idle", 0);
}

// --- loading --------------------------------------------------------------------------------
async function loadVoices(select) {
  const response = await api("/v1/audio/voices", {}, $("speak-error"));  // next to the Voice menu
  if (!response) return false;
  const voices = (await response.json()).voices;
  const previous = select || $("voice").value;
  // The listing's own `default` (a model without presets) is the option added below.
  const options = voices.filter((v) => v.type !== "default").map((v) => {
    const language = speakers[v.id.toLowerCase()];
    const label = v.type === "saved" ? `${v.name} (saved)` : title(v.name) + (language ? ` — ${languageName(language)}` : "");
    return new Option(label, v.id);
  });
  // No voice sent: the server picks its default, the command line's (Ryan where there is one).
  options.unshift(new Option("default", "", true, true));
  $("voice").replaceChildren(...options);
  if (options.some((o) => o.value === previous)) $("voice").value = previous;
  const blended = $("blend").value;
  $("blend").replaceChildren(new Option("none", "", true, true),
                             ...options.filter((o) => o.value).map((o) => new Option(o.text, o.value)));
  if (options.some((o) => o.value && o.value === blended)) $("blend").value = blended;
  updateBlend();
  $("saved").replaceChildren(...voices.filter((v) => v.type === "saved").map(savedItem));
  if (!$("clone").hidden && !voices.some((v) => v.type === "saved")) {
    const none = document.createElement("li");
    none.className = "muted"; none.textContent = "No saved voices yet.";
    $("saved").append(none);
  }
  return true;
}

async function load() {
  try {
    health = await (await fetch("/health")).json();
  } catch (e) {
    setStatus("Cannot reach the server: " + e.message, "error");
    return;
  }
  const kind = { base: "Base (voice cloning)", custom_voice: "CustomVoice", voice_design: "VoiceDesign" }[health.variant];
  $("model").textContent = `${health.model} · ${kind || health.variant} · ${(health.size || "").replace("b", ".") + "B"}`;
  speakers = Object.fromEntries((health.speakers || []).map((s) => [s.id, s.language]));
  const language = $("language").value;
  $("language").replaceChildren(...(health.languages || ["auto"]).map((l) => new Option(l === "auto" ? "auto" : languageName(l), l)));
  if (language) $("language").value = language;
  $("clone").hidden = health.variant !== "base";
  if (health.asr) $("clone-text").placeholder = "exactly what is said in the clip; leave empty and the server transcribes it";
  setUpInstructions();
  if (await loadVoices()) {
    $("key-section").hidden = !sessionStorage.getItem(KEY_STORE);
    if (statusEl.dataset.state === "error") setStatus("Ready.", "idle");
  }
}

function init() {
  $("apikey").value = sessionStorage.getItem(KEY_STORE) || "";
  $("key-use").addEventListener("click", useKey);
  $("apikey").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); useKey(); } });
  $("speak").addEventListener("click", () => speak());
  $("stop").addEventListener("click", stop);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && e.target !== $("live")) { e.preventDefault(); speak(); }
  });
  for (const id of ["voice", "blend", "blend-share"]) $(id).addEventListener("input", updateBlend);
  for (const id of ["voice", "blend", "blend-share", "language", "speed", "instructions"]) $(id).addEventListener("change", updateLive);
  $("live").addEventListener("input", onLiveInput);
  $("live").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); endLive(); } });
  $("live-end").addEventListener("click", endLive);
  $("live-stop").addEventListener("click", stopLive);
  $("clone-file").addEventListener("change", chooseFile);
  $("rec-start").addEventListener("click", startRecording);
  $("rec-stop").addEventListener("click", stopRecording);
  $("clone-save").addEventListener("click", saveVoice);
  $("design-keep").addEventListener("click", keepDesign);
  $("designs").addEventListener("change", useDesign);
  $("history-clear").addEventListener("click", clearHistory);
  renderHistory();
  load();
}

init();
