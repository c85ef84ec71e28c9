// The page's client: the speech API streamed as 24 kHz 16-bit PCM and played through Web Audio,
// and a WebSocket that sends each keystroke so speech follows typing. Nothing is fetched from
// anywhere but this server.
"use strict";

const $ = (id) => document.getElementById(id);
const RATE = 24000;
const statusEl = $("status");
let audioCtx = null, playAt = 0, sources = [], controller = null;

function setStatus(text, state, seconds) {
  statusEl.textContent = text;
  statusEl.dataset.state = state;
  if (seconds !== undefined) statusEl.dataset.receivedSeconds = seconds.toFixed(3);
}

function authHeaders() {
  const key = $("apikey").value.trim();
  return key ? { Authorization: "Bearer " + key } : {};
}

async function errorText(response) {
  try { return (await response.json()).error.message; } catch (e) { return response.status + " " + response.statusText; }
}

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

function wavBlob(chunks) {
  const n = chunks.reduce((a, c) => a + c.length, 0);
  const buf = new ArrayBuffer(44 + 2 * n), v = new DataView(buf);
  const text = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
  text(0, "RIFF"); v.setUint32(4, 36 + 2 * n, true); text(8, "WAVE"); text(12, "fmt ");
  v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true); v.setUint32(24, RATE, true);
  v.setUint32(28, 2 * RATE, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true); text(36, "data");
  v.setUint32(40, 2 * n, true);
  let o = 44;
  for (const c of chunks) for (let i = 0; i < c.length; i++, o += 2)
    v.setInt16(o, Math.max(-32768, Math.min(32767, Math.round(c[i] * 32768))), true);
  return new Blob([buf], { type: "audio/wav" });
}

function settings() {
  const s = { voice: $("voice").value || undefined, language: $("language").value || "auto",
              speed: parseFloat($("speed").value) || 1 };
  const instructions = $("instructions").value.trim();
  if (instructions) s.instructions = instructions;
  return s;
}

async function speak() {
  const text = $("text").value;
  if (!text.trim()) { setStatus("Type some text first.", "error"); return; }
  if (controller) controller.abort();
  stopPlayback();
  controller = new AbortController();
  $("download").hidden = true;
  const started = performance.now();
  let received = 0, firstMs = null;
  const chunks = [], decoder = new PcmDecoder();
  setStatus("Generating…", "streaming", 0);
  player();
  try {
    const response = await fetch("/v1/audio/speech", {
      method: "POST", signal: controller.signal,
      headers: { "Content-Type": "application/json", ...authHeaders() },
      body: JSON.stringify({ model: "tts-1", input: text, response_format: "pcm", stream_format: "audio", ...settings() }),
    });
    if (!response.ok) { setStatus("Error: " + await errorText(response), "error", 0); return; }
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const samples = decoder.decode(value);
      if (firstMs === null && samples.length) firstMs = performance.now() - started;
      received += samples.length;
      chunks.push(samples);
      play(samples);
      setStatus(`Streaming… received ${(received / RATE).toFixed(2)} s of audio`, "streaming", received / RATE);
    }
    const link = $("download");
    link.href = URL.createObjectURL(wavBlob(chunks));
    link.hidden = false;
    setStatus(`Done: received ${(received / RATE).toFixed(2)} s of audio; first audio after ${Math.round(firstMs || 0)} ms.`,
              "done", received / RATE);
  } catch (e) {
    if (e.name !== "AbortError") setStatus("Error: " + e.message, "error");
  } finally {
    controller = null;
  }
}

// --- speech that follows typing -----------------------------------------------------------
let socket = null, sent = "", liveReceived = 0;
const liveDecoder = new PcmDecoder();

function connectLive() {
  if (socket && socket.readyState <= 1) return socket;
  const key = $("apikey").value.trim();
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/audio/speech/stream";
  socket = key ? new WebSocket(url, ["openai-insecure-api-key." + key]) : new WebSocket(url);
  socket.onopen = () => {
    socket.send(JSON.stringify({ type: "session.update", session: { ...settings(), response_format: "pcm" } }));
    $("live-state").textContent = "connected";
  };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "speech.audio.delta") {
      const raw = atob(msg.audio), bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      const samples = liveDecoder.decode(bytes);
      liveReceived += samples.length;
      play(samples);
      setStatus(`Live: received ${(liveReceived / RATE).toFixed(2)} s of audio`, "streaming", liveReceived / RATE);
    } else if (msg.type === "speech.audio.done") {
      setStatus(`Live: utterance done, ${(liveReceived / RATE).toFixed(2)} s of audio`, "done", liveReceived / RATE);
      liveReceived = 0;
    } else if (msg.type === "error") {
      setStatus("Error: " + msg.error.message, "error");
    }
  };
  socket.onclose = () => { $("live-state").textContent = "not connected"; socket = null; };
  return socket;
}

function sendLive(message) {
  const ws = connectLive();
  const payload = JSON.stringify(message);
  if (ws.readyState === 1) ws.send(payload);
  else ws.addEventListener("open", () => ws.send(payload), { once: true });
}

function onLiveInput() {
  const value = $("live").value;
  if (value.startsWith(sent)) {
    const added = value.slice(sent.length);
    if (added) { player(); sendLive({ type: "input_text.append", text: added }); }
  }
  // Deleting text cannot unsay it: edits before what was sent are not sent again.
  sent = value;
}

function endLive() {
  if (sent) sendLive({ type: "input_text.flush" });
  $("live").value = ""; sent = "";
}

async function init() {
  $("apikey").value = localStorage.getItem("mlx_qwen3tts.apikey") || "";
  $("apikey").addEventListener("change", () => { localStorage.setItem("mlx_qwen3tts.apikey", $("apikey").value.trim()); load(); });
  $("speak").addEventListener("click", speak);
  $("stop").addEventListener("click", () => { if (controller) controller.abort(); stopPlayback(); setStatus("Stopped.", "idle"); });
  $("live").addEventListener("input", onLiveInput);
  $("live").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); endLive(); } });
  $("live-end").addEventListener("click", endLive);
  await load();
}

async function load() {
  try {
    const health = await (await fetch("/health")).json();
    $("model").textContent = `${health.model} · ${health.variant}`;
    $("language").replaceChildren(...(health.languages || ["auto"]).map((l) => new Option(l, l)));
    const response = await fetch("/v1/audio/voices", { headers: authHeaders() });
    if (!response.ok) { setStatus("Voices: " + await errorText(response), "error"); return; }
    const voices = (await response.json()).voices;
    // The listing's own `default` (a model without presets) is the option added below.
    const options = voices.filter((v) => v.type !== "default")
      .map((v) => new Option(v.type === "saved" ? `${v.name} (saved)` : v.name, v.id));
    // First and selected: no voice sent, so the server picks its default, the command line's (Ryan where there is one).
    options.unshift(new Option("default", "", true, true));
    $("voice").replaceChildren(...options);
  } catch (e) {
    setStatus("Cannot reach the server: " + e.message, "error");
  }
}

init();
