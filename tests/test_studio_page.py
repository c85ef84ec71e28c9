"""The studio page at / in a real headless Chromium (Debian's package), driven by Playwright's Python
package with the system browser as its executable (nothing is downloaded), by role and accessible
name as a screen reader would; the microphone is Chromium's fake capture device playing a clip.

Each model kind gets its own server (tiny checkpoints). A frame cap is added to what the page sends
(HTTP and WebSocket), since the tiny random models never stop on their own. Screenshots are taken on
every run, into a temporary folder; with UPDATE_SCREENSHOTS=1 into docs/images/ (docs/studio.md shows
them). The whole file takes about 70 s on two CPU cores."""

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import httpx
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from server_harness import API_KEY, ROOT, shared_server, wait_until  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
# Skipped where no Chromium is installed, except in CI (.ci/run installs it), where that fails.
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (apt-get install chromium)")
CLIP = ROOT / "tests" / "fixtures" / "clone" / "ref_16k.wav"  # 2.4 s of speech, 16 kHz
SHOTS = ROOT / "docs" / "images" if os.environ.get("UPDATE_SCREENSHOTS") else \
    Path(tempfile.gettempdir()) / "mlx_qwen3tts-studio-screenshots"
FRAMES = 12  # per HTTP request: 0.96 s of audio
LIVE_FRAMES = 400  # per live utterance: long enough that Stop has something to stop
SR, FRAME = 24000, 1920
# What the page sends, capped; window.__extra (set by a test) is merged into HTTP bodies.
CAP = """
(() => {
  const realFetch = window.fetch;
  window.fetch = (url, opts) => {
    if (opts && typeof opts.body === 'string') {
      const b = JSON.parse(opts.body);
      Object.assign(b, {max_new_tokens: %d, temperature: 0}, window.__extra || {});
      opts = {...opts, body: JSON.stringify(b)};
    }
    return realFetch(url, opts);
  };
  const realSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const m = JSON.parse(data);
    if (m.type === 'session.update')
      Object.assign(m.session, {max_new_tokens: window.__liveFrames || %d, temperature: 0});
    return realSend.call(this, JSON.stringify(m));
  };
})();
""" % (FRAMES, LIVE_FRAMES)


def start(name, tmp_path_factory, *extra):
    return shared_server(name, tmp_path_factory.getbasetemp(), *extra)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--mute-audio", "--autoplay-policy=no-user-gesture-required",
            "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={CLIP}"])
        yield browser
        browser.close()


class Studio:
    """One browser context (its own IndexedDB and storage) on one server; console errors collected."""

    def __init__(self, browser, server, width=1280, height=900):
        self.server = server
        self.context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
        self.context.add_init_script(CAP)
        self.page = self.context.new_page()
        self.errors, self.sent = [], []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", lambda ws: ws.on("framesent", lambda f: self.sent.append(json.loads(f))))
        self.page.set_default_timeout(60_000)

    def sent_soon(self, predicate, timeout: float) -> bool:
        """Whether predicate() holds of the frames the page sent, within `timeout` s. Waits through the page:
        Playwright's sync API hands over events (here `framesent`) only while one of its calls runs."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(50)
        return True

    def open(self):
        self.page.goto(self.server.url + "/")
        sync_api.expect(self.page.locator("#model")).not_to_have_text("connecting…")
        return self.page

    def status(self, state, timeout=120_000):
        sync_api.expect(self.page.locator("#status")).to_have_attribute("data-state", state, timeout=timeout)
        return float(self.page.locator("#status").get_attribute("data-received-seconds"))

    def shot(self, name):
        # Players show their duration once their metadata is read: wait for it (bounded).
        self.page.evaluate("""() => Promise.race([new Promise(r => setTimeout(r, 5000)), Promise.all(
            [...document.querySelectorAll('audio[src]')].map(a => a.readyState >= 1 ? null :
                new Promise(r => a.addEventListener('loadedmetadata', r, {once: true}))))])""")
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / name), full_page=True)

    def close(self):
        self.context.close()


def unnamed_controls(page) -> list:
    """Visible interactive elements without an accessible name, from Chromium's accessibility tree."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    roles = {"button", "textbox", "combobox", "checkbox", "spinbutton", "slider", "link", "meter", "listbox",
             "radio", "switch", "searchbox", "menuitem", "tab"}
    missing = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in roles:
            continue
        if not str(node.get("name", {}).get("value", "")).strip():
            missing.append(role)
    session.detach()
    return missing


def voices(server, key=None) -> dict:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    listed = httpx.get(server.url + "/v1/audio/voices", headers=headers, timeout=30).json()["voices"]
    return {v["id"]: v for v in listed}


def audio_duration(page, locator):
    return locator.evaluate("""a => new Promise(done => {
        if (a.readyState >= 1) return done(a.duration);
        a.addEventListener('loadedmetadata', () => done(a.duration), {once: true});
        setTimeout(() => done(-1), 20000); })""")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return start("base-0b6", tmp_path_factory)


def test_base_clone_upload_and_microphone_speak_download_history_delete(browser, base, tmp_path):
    studio = Studio(browser, base)
    page = studio.open()
    role = page.get_by_role
    sync_api.expect(page.locator("#model")).to_contain_text("base-0b6")
    sync_api.expect(role("heading", name="Clone a voice")).to_be_visible()
    sync_api.expect(page.get_by_label("Instructions")).to_be_hidden()  # a Base model ignores them

    # From a file, x-vector only: the server's notice is shown next to Save.
    page.get_by_label("Reference audio file").set_input_files(str(CLIP))
    page.get_by_label("Clone from the audio alone").check()
    page.get_by_label("Voice name").fill("Upload Voice")
    role("button", name="Save voice").click()
    sync_api.expect(page.locator("#clone-notice")).to_contain_text("x-vector only")
    sync_api.expect(page.get_by_label("Voice", exact=True).locator("option", has_text="Upload Voice")).to_have_count(1)

    # From the microphone (Chromium's fake device plays the clip): level meter, a playable take, in context.
    role("button", name="Record from microphone").click()
    level = page.get_by_label("Microphone level")
    sync_api.expect(level).to_be_visible()
    assert wait_until(lambda: float(level.evaluate("m => m.value")) > 0, 20, 0.1)
    time.sleep(1.5)
    role("button", name="Stop recording").click()
    assert audio_duration(page, page.get_by_label("Recorded take")) > 1.0
    page.get_by_label("Clone from the audio alone").uncheck()
    page.get_by_label("Transcript of the clip").fill("A short reference transcript for this clip.")
    page.get_by_label("Voice name").fill("Mic Voice")
    role("button", name="Save voice").click()
    sync_api.expect(page.get_by_label("Voice", exact=True).locator("option", has_text="Mic Voice")).to_have_count(1)
    listed = voices(base)
    assert listed["upload-voice"]["name"] == "Upload Voice" and listed["mic-voice"]["name"] == "Mic Voice"

    # Speak with a cloned voice: streamed, then a history entry with a playable audio element.
    page.get_by_label("Voice", exact=True).select_option("upload-voice")
    page.get_by_label("Text to speak").fill("Hello from a cloned voice.")
    role("button", name="Speak").click()
    assert studio.status("done") == pytest.approx(FRAMES * FRAME / SR, abs=1e-3)
    entries = page.get_by_role("list", name="History").get_by_role("listitem")
    sync_api.expect(entries).to_have_count(1)
    assert audio_duration(page, entries.first.locator("audio")) > 0.5
    sync_api.expect(entries.first).to_contain_text("Upload Voice")

    with page.expect_download() as download:
        entries.first.get_by_role("button", name="Download").click()
    path = tmp_path / "download.wav"
    download.value.save_as(path)
    audio, rate = sf.read(path)
    assert rate == SR and len(audio) == FRAMES * FRAME
    # Another format: the server makes the same request again (same seed) and encodes it.
    entries.first.get_by_role("combobox").select_option("flac")
    with page.expect_download() as download:
        entries.first.get_by_role("button", name="Download").click()
    download.value.save_as(tmp_path / "download.flac")
    flac, rate = sf.read(tmp_path / "download.flac")
    assert rate == SR and len(flac) == len(audio) and abs(flac - audio).max() < 1e-3

    # Ctrl-Enter speaks; two entries, also after a reload (IndexedDB).
    page.get_by_label("Text to speak").fill("A second generation.")
    page.get_by_label("Text to speak").press("Control+Enter")
    sync_api.expect(entries).to_have_count(2, timeout=120_000)
    studio.status("done")
    page.get_by_label("Voice", exact=True).select_option("mic-voice")
    studio.shot("studio-base.png")
    page.reload()
    sync_api.expect(page.get_by_role("list", name="History").get_by_role("listitem")).to_have_count(2)
    sync_api.expect(page.get_by_role("list", name="History")).to_contain_text("A second generation.")

    # Delete, with a confirmation, removes the voice from the server.
    dialogs = []
    page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    role("button", name="Delete Upload Voice").click()
    sync_api.expect(page.get_by_label("Voice", exact=True).locator("option", has_text="Upload Voice")).to_have_count(0)
    assert dialogs and "Upload Voice" in dialogs[0]
    assert "upload-voice" not in voices(base) and "mic-voice" in voices(base)

    assert unnamed_controls(page) == []
    role("button", name="Clear history").click()
    sync_api.expect(page.get_by_role("list", name="History").get_by_role("listitem")).to_have_count(0)
    assert studio.errors == []
    studio.close()


def test_a_clone_without_transcript_is_refused_next_to_save_in_the_servers_words(browser, base):
    studio = Studio(browser, base)
    page = studio.open()
    page.get_by_label("Reference audio file").set_input_files(str(CLIP))
    page.get_by_label("Voice name").fill("No Transcript")
    page.get_by_role("button", name="Save voice").click()
    error = page.locator("#clone-error")
    sync_api.expect(error).to_contain_text("needs the transcript of the reference audio (ref_text)")
    # The message sits next to the control that caused it: inside the clone section.
    assert page.locator("#clone").locator("#clone-error").count() == 1
    assert "no-transcript" not in voices(base)
    studio.close()


def test_live_stop_cancels_at_once_and_frees_the_row(browser, base):
    studio = Studio(browser, base)
    page = studio.open()
    live = page.get_by_label("Live text")
    live.click()
    live.press_sequentially("Speech follows typing here ", delay=20)
    sync_api.expect(page.locator("#status")).to_contain_text("Live: received", timeout=60_000)
    assert httpx.get(base.url + "/health").json()["active"] == 1
    page.get_by_role("button", name="Stop live speech").click()
    assert studio.sent_soon(lambda: {"type": "cancel"} in studio.sent, 10)
    assert page.evaluate("sources.length") == 0  # queued audio stopped at once
    assert wait_until(lambda: httpx.get(base.url + "/health").json()["active"] == 0, 5)
    time.sleep(1.0)
    sync_api.expect(page.locator("#status")).to_have_text("Live: stopped.")
    assert page.evaluate("sources.length") == 0
    assert studio.errors == []
    studio.close()


def test_live_edits_of_unsent_words_are_taken_back_and_sent_text_is_said_plainly(browser, base):
    studio = Studio(browser, base)
    page = studio.open()
    page.evaluate(f"window.__liveFrames = {FRAMES}")
    live = page.get_by_label("Live text")
    live.click()
    live.press_sequentially("Helo")
    live.press("Backspace")
    live.press_sequentially("lo world")
    live.press("Enter")
    assert studio.sent_soon(lambda: {"type": "input_text.flush"} in studio.sent, 10)
    assert "".join(m["text"] for m in studio.sent if m["type"] == "input_text.append") == "Hello world"
    sync_api.expect(page.locator("#status")).to_contain_text("Live: utterance done", timeout=60_000)
    assert float(page.locator("#status").get_attribute("data-received-seconds")) == pytest.approx(FRAMES * FRAME / SR)
    assert live.input_value() == ""
    # Editing words already sent: the page says plainly that they cannot be taken back.
    page.get_by_role("button", name="Stop live speech").click()
    live.press_sequentially("Goodbye there ")
    live.press("Backspace")
    live.press("Backspace")
    sync_api.expect(page.locator("#live-note")).to_contain_text("cannot be taken back")
    page.get_by_role("button", name="Stop live speech").click()
    studio.close()


@pytest.fixture(scope="module")
def custom(tmp_path_factory, base):
    server = start("custom_voice-0b6", tmp_path_factory, "--api-key", API_KEY, "--max-active", "8", "--max-queue", "4")
    # A voice saved on the Base server lies in this server's folder too: this model cannot speak it.
    upload = httpx.post(base.url + "/v1/audio/voices", data={"name": "elsewhere", "x_vector_only": "true"},
                        files={"audio_sample": ("ref.wav", CLIP.read_bytes(), "audio/wav")}, timeout=120)
    assert upload.status_code == 201, upload.text
    folder = server.log_path.parent / "voices"
    shutil.copy(base.log_path.parent / "voices" / "elsewhere.safetensors", folder / "elsewhere.safetensors")
    # The Base server may be shared with other test modules: leave its voice list as it was.
    assert httpx.delete(base.url + "/v1/audio/voices/elsewhere", timeout=30).status_code == 200
    return server


def test_custom_voice_asks_for_the_key_once_and_lists_the_speakers(browser, custom):
    studio = Studio(browser, custom)
    page = studio.open()
    key_error = page.locator("#key-error")
    sync_api.expect(key_error).to_contain_text("enter the key above")
    assert "Authorization" not in page.locator("main").inner_text()
    page.get_by_role("textbox", name="API key").fill(API_KEY)
    page.get_by_role("button", name="Use key").click()
    voice = page.get_by_label("Voice", exact=True)
    sync_api.expect(voice.locator("option")).to_have_count(10)  # default + the 9 speakers
    sync_api.expect(voice.locator("option", has_text="Ryan — English")).to_have_count(1)
    sync_api.expect(voice.locator("option", has_text="Eric — Chinese, Sichuan dialect")).to_have_count(1)
    assert voice.locator("option", has_text="elsewhere").count() == 0  # saved, but not for this model
    sync_api.expect(key_error).to_be_empty()
    assert page.locator("#status").get_attribute("data-state") != "error"
    # 0.6B CustomVoice ignores instructions: no field, a note; an instruction sent anyway brings the server's notice.
    sync_api.expect(page.get_by_label("Instructions")).to_be_hidden()
    sync_api.expect(page.locator("#instruct-note")).to_contain_text("does not follow instructions")
    page.evaluate("window.__extra = {instructions: 'calm and warm'}")
    voice.select_option("vivian")
    page.get_by_role("button", name="Speak").click()
    assert studio.status("done") == pytest.approx(FRAMES * FRAME / SR, abs=1e-3)
    sync_api.expect(page.locator("#notice")).to_contain_text("ignores instructions")
    page.evaluate("window.__extra = {}")
    studio.shot("studio-custom-voice.png")
    # Kept for the session: a reload asks nothing.
    page.reload()
    sync_api.expect(page.get_by_label("Voice", exact=True).locator("option")).to_have_count(10)
    sync_api.expect(page.locator("#key-error")).to_be_empty()
    assert unnamed_controls(page) == []
    assert [e for e in studio.errors if "401" not in e] == []  # the first load's 401 is the question
    studio.close()


def test_custom_voice_blends_a_second_speaker(browser, custom):
    studio = Studio(browser, custom)
    page = studio.open()
    page.get_by_role("textbox", name="API key").fill(API_KEY)
    page.get_by_role("textbox", name="API key").press("Enter")
    voice, blend = page.get_by_label("Voice", exact=True), page.get_by_label("Blend with")
    sync_api.expect(voice.locator("option")).to_have_count(10)
    sync_api.expect(blend.locator("option")).to_have_count(10)  # none + the 9 speakers
    sync_api.expect(blend).to_be_disabled()  # the server's default voice is not blended
    voice.select_option("serena")
    sync_api.expect(blend).to_be_enabled()
    sync_api.expect(page.get_by_label("Blend share")).to_be_disabled()
    blend.select_option("aiden")
    page.get_by_label("Blend share").fill("30")
    sync_api.expect(page.locator("#blend-share-out")).to_have_text("30%")
    bodies = []
    page.on("request", lambda r: r.url.endswith("/v1/audio/speech") and bodies.append(json.loads(r.post_data)))
    page.get_by_role("button", name="Speak", exact=True).click()
    assert studio.status("done") == pytest.approx(FRAMES * FRAME / SR, abs=1e-3)
    assert bodies and bodies[-1]["voice"] == "serena:0.70+aiden:0.30"
    sync_api.expect(page.locator("#speak-error")).to_be_empty()
    # Back to one voice: the plain name again.
    blend.select_option("")
    page.get_by_role("button", name="Speak", exact=True).click()
    assert studio.sent_soon(lambda: len(bodies) == 2, 30)  # the request out, then its end awaited
    assert bodies[-1]["voice"] == "serena" and studio.status("done") > 0
    assert unnamed_controls(page) == []
    assert [e for e in studio.errors if "401" not in e] == []
    studio.close()


def test_live_settings_changes_reach_the_session(browser, custom):
    studio = Studio(browser, custom)
    page = studio.open()
    page.get_by_role("textbox", name="API key").fill(API_KEY)
    page.get_by_role("textbox", name="API key").press("Enter")
    voice = page.get_by_label("Voice", exact=True)
    sync_api.expect(voice.locator("option")).to_have_count(10)
    voice.select_option("serena")
    live = page.get_by_label("Live text")
    live.click()
    live.press_sequentially("First words ")
    sync_api.expect(page.locator("#live-state")).to_have_text("connected")
    voice.select_option("eric")
    page.get_by_label("Language").select_option("chinese")
    page.get_by_label("Speed").fill("1.25")
    page.get_by_label("Speed").dispatch_event("change")
    updates = lambda: [m["session"] for m in studio.sent if m["type"] == "session.update"]  # noqa: E731
    assert studio.sent_soon(lambda: len(updates()) >= 4, 10), updates()
    first, last = updates()[0], updates()[-1]
    assert first["voice"] == "serena"
    assert (last["voice"], last["language"], last["speed"]) == ("eric", "chinese", 1.25)
    page.get_by_role("button", name="Stop live speech").click()
    studio.close()


def test_a_wrong_key_is_said_so(browser, custom):
    studio = Studio(browser, custom)
    page = studio.open()
    page.get_by_role("textbox", name="API key").fill("wrong")
    page.get_by_role("button", name="Use key").click()
    sync_api.expect(page.locator("#key-error")).to_contain_text("refused this key")
    studio.close()


@pytest.fixture(scope="module")
def design(tmp_path_factory):
    return start("voice_design-1b7", tmp_path_factory)


def test_voice_design_takes_a_description_speaks_and_keeps_it(browser, design):
    studio = Studio(browser, design)
    page = studio.open()
    sync_api.expect(page.locator("#model")).to_contain_text("VoiceDesign")
    sync_api.expect(page.get_by_role("heading", name="Clone a voice")).to_be_hidden()
    description = page.get_by_label("Voice description")
    examples = page.get_by_role("group", name="Examples").get_by_role("button")
    assert examples.count() >= 2
    examples.first.click()
    assert description.input_value().startswith("A warm")
    page.get_by_label("Text to speak").fill("A designed voice speaks.")
    page.get_by_role("button", name="Speak").click()
    assert studio.status("done") == pytest.approx(FRAMES * FRAME / SR, abs=1e-3)
    sync_api.expect(page.locator("#notice")).to_be_empty()  # the description is followed
    page.get_by_role("button", name="Keep this design").click()
    studio.shot("studio-voice-design.png")
    page.reload()
    kept = page.get_by_label("Kept designs")
    sync_api.expect(kept.locator("option")).to_have_count(2)
    description.fill("")
    kept.select_option(index=1)
    assert description.input_value().startswith("A warm")
    assert unnamed_controls(page) == []
    assert studio.errors == []
    studio.close()


def test_custom_voice_1b7_offers_instructions_and_fits_a_phone(browser, tmp_path_factory):
    server = start("custom_voice-1b7", tmp_path_factory)
    studio = Studio(browser, server, width=390, height=844)
    page = studio.open()
    sync_api.expect(page.get_by_label("Instructions")).to_be_visible()
    assert page.get_by_role("group", name="Examples").get_by_role("button").count() >= 3
    sync_api.expect(page.get_by_role("button", name="Keep this design")).to_be_hidden()  # VoiceDesign only
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    studio.shot("studio-phone.png")
    assert unnamed_controls(page) == []
    assert studio.errors == []
    studio.close()


def test_history_highlights_the_word_being_heard_with_an_aligner(browser, tmp_path_factory):
    """A server started with --aligner (the tiny aligner): the page asks for word timestamps (SSE), keeps them
    with the history entry, shows each word of the text in a span and marks the one at the audio's time."""
    from fixture_checkpoints import aligner_dir

    root = tmp_path_factory.getbasetemp()
    server = start("custom_voice-0b6", tmp_path_factory, "--aligner", str(aligner_dir(root)))
    assert httpx.get(server.url + "/health", timeout=30).json()["timestamps"] is True
    studio = Studio(browser, server)
    page = studio.open()
    page.get_by_role("textbox", name="Text to speak").fill("Hello world, it's me. 我爱 Python!")
    page.get_by_role("button", name="Speak").click()
    assert studio.status("done") == pytest.approx(FRAMES * FRAME / SR, abs=1e-3)
    entry = page.locator("ol.history li").first
    words = entry.locator(".htext span.word")
    sync_api.expect(words).to_have_count(7)
    assert words.all_inner_texts() == ["Hello", "world", "it's", "me", "我", "爱", "Python"]
    assert entry.locator(".htext").inner_text() == "Hello world, it's me. 我爱 Python!"
    times = page.evaluate("""async () => {
        const db = await new Promise(r => { const o = indexedDB.open('mlx_qwen3tts', 1); o.onsuccess = () => r(o.result); });
        const all = await new Promise(r => { const q = db.transaction('history').objectStore('history').getAll();
                                             q.onsuccess = () => r(q.result); });
        return all[all.length - 1].words; }""")
    assert [w["word"] for w in times] == ["Hello", "world", "it's", "me", "我", "爱", "Python"]
    last = times[-1]
    audio = entry.locator("audio")
    audio.evaluate("(a, t) => { a.currentTime = t; a.dispatchEvent(new Event('timeupdate')); }", last["start_time"])
    sync_api.expect(words.last).to_have_class("word speaking")
    assert entry.locator(".htext .speaking").count() == 1
    studio.shot("studio-word-highlight.png")
    assert studio.errors == []
    studio.close()


def test_a_clone_without_transcript_shows_what_was_heard_for_correcting(browser, tmp_path_factory):
    """A server with --asr (a recognizer that hears what it is told: tests/fake_asr.py): a clip saved without a
    transcript is cloned with the one heard, which the page puts in the transcript field and says; corrected
    there, the voice is saved again with the user's words."""
    import fake_asr
    from fixture_checkpoints import checkpoint_dir

    server = fake_asr.start_server(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp()),
                                    tmp_path_factory.mktemp("studio-asr"), "What the clip sayz.")
    try:
        studio = Studio(browser, server)
        page = studio.open()
        field = page.get_by_label("Transcript of the clip")
        assert "server transcribes it" in field.get_attribute("placeholder")
        page.get_by_label("Reference audio file").set_input_files(str(CLIP))
        page.get_by_label("Voice name").fill("Heard")
        page.get_by_role("button", name="Save voice").click()
        sync_api.expect(page.locator("#clone-notice")).to_contain_text("Heard in the clip: “What the clip sayz.”")
        sync_api.expect(field).to_have_value("What the clip sayz.")
        field.fill("What the clip says.")
        page.get_by_label("Voice name").fill("Corrected")
        page.get_by_role("button", name="Save voice").click()
        studio.status("done")
        saved = {v["name"]: v["ref_text"] for v in
                 httpx.get(server.url + "/v1/audio/voices", timeout=30).json()["uploaded_voices"]}
        assert saved == {"Heard": "What the clip sayz.", "Corrected": "What the clip says."}
        assert studio.errors == []
        studio.close()
    finally:
        server.stop()
